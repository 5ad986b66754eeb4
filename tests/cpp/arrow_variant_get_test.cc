#include <arrow/api.h>
#include <arrow/json/from_string.h>

#include "test_util.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/validate_kernel.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get.h"
#include "varshred/builder.h"
#include "varshred/json.h"

namespace varshred {
namespace {

using testing::VariantsFromJson;

VariantPath P(std::string_view text) { return *VariantPath::Parse(text); }

void ExpectArray(const std::shared_ptr<arrow::Array>& actual,
                 const std::shared_ptr<arrow::DataType>& type, const char* json) {
  auto expected = arrow::json::ArrayFromJSONString(type, json);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  VS_ASSERT_OK(actual->ValidateFull());
  EXPECT_TRUE(actual->Equals(**expected))
      << "actual: " << actual->ToString() << "\nexpected: " << (*expected)->ToString();
}

const std::vector<const char*> kDocs = {
    R"({"id": 1, "nested": {"x": 3}})",
    R"({"id": 2, "nested": {}})",    // missing key
    nullptr,                         // SQL NULL
    R"({"nested": {"x": null}})",    // variant null
    R"({"nested": {"x": " 12 "}})",  // string that parses
    R"({"nested": {"x": "abc"}})",   // failed cast
    R"({"nested": {"x": 2.5}})",     // decimal, truncated
    R"({"nested": [1, 2]})",         // key on an array
    R"(7)",                          // key on a scalar
};

TEST(VariantGetTest, TryVariantGetGivesNullForMissesAndFailedCasts) {
  auto array = VariantsFromJson(kDocs);
  VS_ASSIGN_OR_FAIL(auto out, VariantGet(*array, P("$.nested.x"), arrow::int64()));
  ExpectArray(out, arrow::int64(), "[3, null, null, null, 12, null, 2, null, null]");
}

TEST(VariantGetTest, VariantGetRaisesNamingRowPathValueAndTypes) {
  auto array = VariantsFromJson(kDocs);
  VariantGetOptions options;
  options.errors = VariantGetErrors::kRaise;
  auto out = VariantGet(*array, P("$.nested.x"), arrow::int64(), options);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsInvalid());
  EXPECT_EQ(out.status().message(),
            "row 5, path $.nested.x: [INVALID_VARIANT_CAST] The variant value `\"abc\"` "
            "(string) cannot be cast into \"BIGINT\". Use errors=\"null\" "
            "(try_variant_get) to get NULL.");
  // Without the failing row, raise mode succeeds and still maps misses to null.
  auto head = array->Slice(0, 5);
  VS_ASSIGN_OR_FAIL(auto ok, VariantGet(*head, P("$.nested.x"), arrow::int32(), options));
  ExpectArray(ok, arrow::int32(), "[3, null, null, null, 12]");
}

TEST(VariantGetTest, CastsToEveryArrowTargetType) {
  auto array =
      VariantsFromJson({R"({"a": 1.005, "s": "2024-02-29", "o": {"b": [1, "x"]}})",
                        R"({"a": "-2.5", "s": "2024-01-01T12:34:56+02:00", "o": 5})",
                        R"({"a": true, "s": "nope", "o": null})"});
  struct Expect {
    const char* path;
    std::shared_ptr<arrow::DataType> type;
    const char* json;
  };
  const Expect cases[] = {
      {"$.a", arrow::boolean(), "[true, null, true]"},
      {"$.a", arrow::int8(), "[1, null, 1]"},
      {"$.a", arrow::int16(), "[1, null, 1]"},
      {"$.a", arrow::float32(), "[1.005, -2.5, 1]"},
      {"$.a", arrow::float64(), "[1.005, -2.5, 1]"},
      {"$.a", arrow::decimal128(5, 2), R"(["1.01", "-2.50", "1.00"])"},
      {"$.a", arrow::utf8(), R"(["1.005", "-2.5", "true"])"},
      {"$.o", arrow::large_utf8(), R"(["{\"b\":[1,\"x\"]}", "5", null])"},
      {"$.s", arrow::date32(), "[19782, 19723, null]"},
      {"$.s", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
       "[1709164800000000, 1704105296000000, null]"},
      {"$.s", arrow::timestamp(arrow::TimeUnit::MICRO),
       "[1709164800000000, 1704112496000000, null]"},
      {"$.s", arrow::binary(), R"(["2024-02-29", "2024-01-01T12:34:56+02:00", "nope"])"},
      {"$.o.b[1]", arrow::large_binary(), R"(["x", null, null])"},
  };
  for (const Expect& c : cases) {
    SCOPED_TRACE(std::string(c.path) + " as " + c.type->ToString());
    VS_ASSIGN_OR_FAIL(auto out, VariantGet(*array, P(c.path), c.type));
    ASSERT_TRUE(out->type()->Equals(*c.type)) << out->type()->ToString();
    ExpectArray(out, c.type, c.json);
  }
}

// Spark's variant_get of `struct<...>`, `array<...>` and `map<string, ...>` targets:
// the value at the path cast as VariantToArrow casts it, on unshredded and shredded
// input alike, errors naming the row and the path from the row's top.
TEST(VariantGetTest, NestedTargetsCastTheValueAtThePathAsToArrow) {
  auto array =
      VariantsFromJson({R"({"a": {"x": 1, "y": "s"}})", R"({"a": [1, "2", "z"]})",
                        R"({"a": 5})", nullptr, R"({"b": 1})"});
  const auto xz = arrow::struct_(
      {arrow::field("x", arrow::int32()), arrow::field("z", arrow::utf8())});
  VS_ASSIGN_OR_FAIL(auto record, VariantGet(*array, P("$.a"), xz));
  ExpectArray(record, xz, R"([{"x": 1, "z": null}, null, null, null, null])");
  const auto ints = arrow::list(arrow::int64());
  VS_ASSIGN_OR_FAIL(auto list, VariantGet(*array, P("$.a"), ints));
  ExpectArray(list, ints, "[null, [1, 2, null], null, null, null]");
  const auto map = arrow::map(arrow::utf8(), arrow::utf8());
  VS_ASSIGN_OR_FAIL(auto entries, VariantGet(*array, P("$.a"), map));
  ExpectArray(entries, map, R"([[["x", "1"], ["y", "s"]], null, null, null, null])");

  VS_ASSIGN_OR_FAIL(auto schema,
                    ShreddingSchema::Parse("struct<a: struct<x: int, y: string>>"));
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*array, schema));
  VS_ASSIGN_OR_FAIL(auto from_typed, VariantGet(*shredded, P("$.a"), xz));
  ExpectArray(from_typed, xz, R"([{"x": 1, "z": null}, null, null, null, null])");

  VariantGetOptions raise;
  raise.errors = VariantGetErrors::kRaise;
  auto failed = VariantGet(*array->Slice(0, 2), P("$.a"), ints, raise);
  ASSERT_TRUE(failed.status().IsInvalid()) << failed.status().ToString();
  EXPECT_EQ(failed.status().message(),
            "row 0, path $.a: [INVALID_VARIANT_CAST] The variant value "
            "`{\"x\":1,\"y\":\"s\"}` (object) cannot be cast into list<item: int64>. Use "
            "errors=\"null\" (try_variant_get) to get NULL.");
  auto inner = VariantGet(*array->Slice(1, 1), P("$.a"), ints, raise);
  ASSERT_TRUE(inner.status().IsInvalid()) << inner.status().ToString();
  EXPECT_NE(inner.status().message().find("row 0, path $.a[2]: "), std::string::npos)
      << inner.status().message();
}

TEST(VariantGetTest, UnsupportedTypesAreTypeErrors) {
  auto array = VariantsFromJson({"1"});
  EXPECT_TRUE(VariantGet(*array, P("$"), arrow::map(arrow::int32(), arrow::int64()))
                  .status()
                  .IsTypeError());
  EXPECT_TRUE(
      VariantGet(*array, P("$.a"), arrow::dictionary(arrow::int32(), arrow::utf8()))
          .status()
          .IsTypeError());
}

TEST(VariantGetTest, VariantOutputSharesMetadataAndKeepsVariantNulls) {
  auto array = VariantsFromJson(kDocs);
  VS_ASSIGN_OR_FAIL(auto out, VariantGet(*array, P("$.nested.x"), nullptr));
  VS_ASSERT_OK(out->ValidateFull());
  ASSERT_TRUE(out->type()->Equals(*VariantStorageType(VariantLayout::kCanonical)));
  const auto& st = static_cast<const arrow::StructArray&>(*out);
  const auto& in = static_cast<const arrow::StructArray&>(*array);
  // Zero-copy: the metadata child is the input's.
  EXPECT_EQ(st.field(0)->data()->buffers[2]->data(),
            in.GetFieldByName("metadata")->data()->buffers[2]->data());
  const auto& values = static_cast<const arrow::BinaryArray&>(*st.field(1));
  // Row 0: int8 3; row 3: a variant null (a non-null row holding 00); row 4: a short
  // string; misses and the SQL NULL row are null slots.
  EXPECT_EQ(testing::ToHex(values.GetView(0)), "0c 03");
  EXPECT_TRUE(st.IsValid(3));
  EXPECT_EQ(testing::ToHex(values.GetView(3)), "00");
  EXPECT_EQ(values.GetView(4), testing::Hex("11 20 31 32 20"));
  for (int64_t row : {1, 2, 7, 8}) EXPECT_TRUE(st.IsNull(row)) << row;
  EXPECT_EQ(out->null_count(), 4);
  // The root path returns every row whole.
  VS_ASSIGN_OR_FAIL(auto whole, VariantGet(*array, VariantPath(), nullptr));
  const auto& whole_values = static_cast<const arrow::BinaryArray&>(
      *static_cast<const arrow::StructArray&>(*whole).field(1));
  const auto& in_values =
      static_cast<const arrow::BinaryArray&>(*in.GetFieldByName("value"));
  EXPECT_EQ(whole_values.GetView(0), in_values.GetView(0));
}

TEST(VariantGetTest, AcceptsSparkLayout) {
  auto array = VariantsFromJson({R"({"a": "x"})", "null"}, VariantLayout::kSpark);
  VS_ASSIGN_OR_FAIL(auto out, VariantGet(*array, P("$.a"), arrow::utf8()));
  ExpectArray(out, arrow::utf8(), R"(["x", null])");
}

TEST(VariantGetTest, InvalidBytesAreAnErrorNamingTheRow) {
  VariantArrayBuilder b;
  VS_ASSERT_OK(b.Append(kEmptyMetadata, testing::Hex("0c 01")));
  // An object header claiming 5 fields with nothing after it.
  VS_ASSERT_OK(b.Append(kEmptyMetadata, testing::Hex("02 05")));
  VS_ASSIGN_OR_FAIL(auto array, b.Finish());
  auto out = VariantGet(*array, P("$.a"), arrow::int64());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message().rfind("row 1: ", 0), 0u) << out.status().ToString();
}

// Only what a lookup reads is checked: a bad field elsewhere in the row does not fail
// a path that avoids it, and fails one that reaches it, naming row and path.
TEST(VariantGetTest, ChecksThePathNotTheRestOfTheRow) {
  const std::string meta_ab = testing::Hex("01 02 00 01 02 61 62");  // ["a", "b"]
  VariantArrayBuilder b;
  VS_ASSERT_OK(b.Append(meta_ab, testing::Hex("02 02 00 01 00 02 04 0c 01 0c 02")));
  // {"a": 1, "b": "\xff"}: b is not UTF-8.
  VS_ASSERT_OK(b.Append(meta_ab, testing::Hex("02 02 00 01 00 02 04 0c 03 05 ff")));
  VS_ASSIGN_OR_FAIL(auto array, b.Finish());
  VS_ASSIGN_OR_FAIL(auto a, VariantGet(*array, P("$.a"), arrow::int64()));
  ExpectArray(a, arrow::int64(), "[1, 3]");
  VS_ASSIGN_OR_FAIL(auto as_variant, VariantGet(*array, P("$.a"), nullptr));
  VS_ASSERT_OK(ValidateVariants(*as_variant));
  for (const auto& type : {arrow::int64(), std::shared_ptr<arrow::DataType>()}) {
    auto out = VariantGet(*array, P("$.b"), type);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().message().rfind("row 1: $.b: string is not valid UTF-8", 0),
              0u)
        << out.status().ToString();
  }
}

TEST(VariantGetTest, AcceptsShreddedInput) {
  auto metadata =
      arrow::json::ArrayFromJSONString(arrow::binary(), R"(["\u0001\u0000\u0000"])");
  auto typed = arrow::json::ArrayFromJSONString(arrow::int64(), "[1]");
  ASSERT_TRUE(metadata.ok() && typed.ok());
  auto array =
      arrow::StructArray::Make(arrow::ArrayVector{*metadata, *typed},
                               std::vector<std::string>{"metadata", "typed_value"});
  ASSERT_TRUE(array.ok()) << array.status().ToString();
  // More in variant_get_shredded_test.cc.
  VS_ASSIGN_OR_FAIL(auto out, VariantGet(**array, P("$"), arrow::int64()));
  ExpectArray(out, arrow::int64(), "[1]");
}

}  // namespace
}  // namespace varshred
