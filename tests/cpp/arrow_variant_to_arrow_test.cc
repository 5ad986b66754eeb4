// Tests for varshred/arrow/variant_to_arrow.h.

#include <arrow/api.h>
#include <arrow/json/from_string.h>

#include "test_util.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/variant_to_arrow.h"

namespace varshred {
namespace {

using testing::VariantsFromJson;

void ExpectArray(const std::shared_ptr<arrow::Array>& actual,
                 const std::shared_ptr<arrow::DataType>& type, const char* json) {
  auto expected = arrow::json::ArrayFromJSONString(type, json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  VS_ASSERT_OK(actual->ValidateFull());
  EXPECT_TRUE(actual->Equals(**expected))
      << "actual: " << actual->ToString() << "\nexpected: " << (*expected)->ToString();
}

const std::vector<const char*> kDocs = {
    R"({"a": 1, "b": ["2", "x", null], "c": {"k": 1.5}})",
    R"({"a": "nope", "b": 3, "extra": true})",
    nullptr,
    R"(null)",
    R"([1])",
};

std::shared_ptr<arrow::DataType> Target() {
  return arrow::struct_({arrow::field("a", arrow::int32()),
                         arrow::field("b", arrow::list(arrow::int64())),
                         arrow::field("c", arrow::map(arrow::utf8(), arrow::float64()))});
}

TEST(VariantToArrowTest, TryCastNullsOnlyWhatFails) {
  // As Spark's try_cast: a failed field or element is null, its container stays.
  VS_ASSIGN_OR_FAIL(auto out, VariantToArrow(*VariantsFromJson(kDocs), Target()));
  ExpectArray(out, Target(), R"([
    {"a": 1, "b": [2, null, null], "c": [["k", 1.5]]},
    {"a": null, "b": null, "c": null},
    null, null, null])");
}

TEST(VariantToArrowTest, CastRaisesNamingRowAndPath) {
  VariantGetOptions raise;
  raise.errors = VariantGetErrors::kRaise;
  auto st = VariantToArrow(*VariantsFromJson(kDocs), Target(), raise).status();
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("row 0, path $.b[1]: [INVALID_VARIANT_CAST]"),
            std::string::npos)
      << st.ToString();
  // A non-object for a struct is a failed cast of the struct itself.
  st = VariantToArrow(*VariantsFromJson({R"({"a": 1})", "[1]"}),
                      arrow::struct_({arrow::field("a", arrow::int8())}), raise)
           .status();
  EXPECT_NE(st.message().find("row 1, path $: "), std::string::npos) << st.ToString();
}

TEST(VariantToArrowTest, VariantFieldsKeepTheSubValue) {
  auto type = arrow::struct_({arrow::field("c", VariantStorageType())});
  VS_ASSIGN_OR_FAIL(auto out, VariantToArrow(*VariantsFromJson(kDocs), type));
  VS_ASSERT_OK(out->ValidateFull());
  auto c = std::static_pointer_cast<arrow::StructArray>(out)->field(0);
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(c));
  EXPECT_EQ(testing::ToHex(view.value(0)).substr(0, 2), "02");  // the object {"k": 1.5}
  EXPECT_TRUE(view.IsNull(1));                                  // missing key
}

TEST(VariantToArrowTest, UnsupportedTargetIsATypeError) {
  auto type =
      arrow::struct_({arrow::field("a", arrow::duration(arrow::TimeUnit::SECOND))});
  auto st = VariantToArrow(*VariantsFromJson(kDocs), type).status();
  EXPECT_TRUE(st.IsTypeError());
  EXPECT_NE(st.message().find("$.a"), std::string::npos) << st.ToString();
}

// Arrow decimals may have a negative scale or a scale above their precision; Variant
// and Spark decimals may not: a TypeError saying so (the scale wrapped around to 254
// in a cast target and the error named DECIMAL(5,254)).
TEST(VariantToArrowTest, DecimalTargetsOutsideVariantsRangeAreTypeErrors) {
  const auto variants = VariantsFromJson({"1000"});
  for (const auto& [type, reason] :
       std::vector<std::pair<std::shared_ptr<arrow::DataType>, std::string>>{
           {arrow::decimal128(5, -2), "negative scale"},
           {arrow::decimal32(3, -1), "negative scale"},
           {arrow::decimal256(40, 2), "at most 38 digits"}}) {
    for (const auto& st :
         {VariantToArrow(*variants, type).status(),
          VariantGet(*variants, *VariantPath::Parse("$"), type).status()}) {
      EXPECT_TRUE(st.IsTypeError()) << st.ToString();
      EXPECT_NE(st.message().find(reason), std::string::npos) << st.ToString();
    }
  }
}

TEST(VariantToArrowTest, ShreddedInputGivesTheUnshreddedResult) {
  const std::vector<const char*> docs = {R"({"a": 1, "b": [4]})", R"({"a": "7"})",
                                         R"(12)", nullptr};
  auto variants = VariantsFromJson(docs);
  VS_ASSIGN_OR_FAIL(auto schema,
                    ShreddingSchema::Parse("struct<a: bigint, b: array<int>>"));
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*variants, schema));
  for (const auto& type : {Target(), arrow::int16(), arrow::utf8(),
                           std::shared_ptr<arrow::DataType>(
                               arrow::struct_({arrow::field("a", arrow::utf8())}))}) {
    VS_ASSIGN_OR_FAIL(auto expected, VariantToArrow(*variants, type));
    VS_ASSIGN_OR_FAIL(auto actual, VariantToArrow(*shredded, type));
    EXPECT_TRUE(actual->Equals(*expected)) << type->ToString() << "\n"
                                           << actual->ToString();
  }
}

}  // namespace
}  // namespace varshred
