// Tests for varshred/arrow/arrow_to_variant.h.

#include <arrow/api.h>
#include <arrow/json/from_string.h>

#include <string>

#include "test_util.h"
#include "varshred/arrow/arrow_to_variant.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/variant_to_arrow.h"

namespace varshred {
namespace {

using testing::ToHex;

std::shared_ptr<arrow::Array> A(const std::shared_ptr<arrow::DataType>& type,
                                const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

// The JSON text of every row ("NULL" for a SQL NULL row).
std::vector<std::string> Json(const std::shared_ptr<arrow::Array>& variants) {
  auto texts = VariantToJson(*variants).ValueOrDie();
  const auto& strings = static_cast<const arrow::StringArray&>(*texts);
  std::vector<std::string> out;
  for (int64_t i = 0; i < strings.length(); ++i) {
    out.push_back(strings.IsNull(i) ? "NULL" : std::string(strings.GetView(i)));
  }
  return out;
}

std::string ValueHex(const std::shared_ptr<arrow::Array>& variants, int64_t row) {
  auto view = VariantArrayView::Make(variants).ValueOrDie();
  return ToHex(view.value(row));
}

TEST(ArrowToVariantTest, NestedTypesBecomeObjectsAndArrays) {
  auto type = arrow::struct_(
      {arrow::field("b", arrow::int32()), arrow::field("a", arrow::list(arrow::utf8())),
       arrow::field("m", arrow::map(arrow::utf8(), arrow::float64()))});
  auto input = A(type, R"([{"b": 1, "a": ["x", null], "m": [["k", 1.5]]},
                           null,
                           {"b": null, "a": null, "m": []}])");
  VS_ASSIGN_OR_FAIL(auto out, ArrowToVariant(*input));
  VS_ASSERT_OK(out->ValidateFull());
  EXPECT_EQ(Json(out),
            (std::vector<std::string>{R"({"a":["x",null],"b":1,"m":{"k":1.5}})", "NULL",
                                      R"({"a":null,"b":null,"m":{}})"}));
  // Spark's layout on request.
  ArrowToVariantOptions spark;
  spark.layout = VariantLayout::kSpark;
  VS_ASSIGN_OR_FAIL(auto tagged, ArrowToVariant(*input, spark));
  EXPECT_TRUE(tagged->type()->Equals(VariantStorageType(VariantLayout::kSpark)));
}

TEST(ArrowToVariantTest, IntegersTakeTheSmallestWidthAndUnsignedWiden) {
  VS_ASSIGN_OR_FAIL(auto out, ArrowToVariant(*A(arrow::int64(), "[1, 300, -70000]")));
  EXPECT_EQ(ValueHex(out, 0), "0c 01");           // int8, as Spark's cast
  EXPECT_EQ(ValueHex(out, 1), "10 2c 01");        // int16
  EXPECT_EQ(ValueHex(out, 2), "14 90 ee fe ff");  // int32
  VS_ASSIGN_OR_FAIL(auto u,
                    ArrowToVariant(*A(arrow::uint64(), "[255, 18446744073709551615]")));
  EXPECT_EQ(ValueHex(u, 0), "10 ff 00");            // int16
  EXPECT_EQ(Json(u)[1], "18446744073709551615");    // decimal(20, 0)
  EXPECT_EQ(ValueHex(u, 1).substr(0, 5), "28 00");  // decimal16, scale 0
}

TEST(ArrowToVariantTest, DecimalsKeepTheirScale) {
  VS_ASSIGN_OR_FAIL(auto out,
                    ArrowToVariant(*A(arrow::decimal128(10, 4), R"(["1.5000"])")));
  EXPECT_EQ(ValueHex(out, 0), "20 04 98 3a 00 00");  // as Spark: decimal4 15000e-4
  VS_ASSIGN_OR_FAIL(auto d32, ArrowToVariant(*A(arrow::decimal32(3, 1), R"(["-1.5"])")));
  EXPECT_EQ(Json(d32)[0], "-1.5");
}

TEST(ArrowToVariantTest, TemporalUnits) {
  VS_ASSIGN_OR_FAIL(
      auto s,
      ArrowToVariant(*A(arrow::timestamp(arrow::TimeUnit::SECOND, "UTC"), "[1]")));
  EXPECT_EQ(ValueHex(s, 0), "30 40 42 0f 00 00 00 00 00");  // timestamp micros 1e6
  VS_ASSIGN_OR_FAIL(auto ns,
                    ArrowToVariant(*A(arrow::timestamp(arrow::TimeUnit::NANO), "[1]")));
  EXPECT_EQ(ValueHex(ns, 0), "4c 01 00 00 00 00 00 00 00");  // timestamp_ntz nanos
  VS_ASSIGN_OR_FAIL(auto d64, ArrowToVariant(*A(arrow::date64(), "[-1]")));
  EXPECT_EQ(Json(d64)[0], R"("1969-12-31")");  // floored to the day
  VS_ASSIGN_OR_FAIL(auto t,
                    ArrowToVariant(*A(arrow::time32(arrow::TimeUnit::MILLI), "[1500]")));
  EXPECT_EQ(ValueHex(t, 0), "44 60 e3 16 00 00 00 00 00");  // time micros 1.5e6
}

TEST(ArrowToVariantTest, DictionaryAndNullTypes) {
  auto dict = arrow::DictionaryArray::FromArrays(
                  arrow::dictionary(arrow::int8(), arrow::utf8()),
                  A(arrow::int8(), "[1, null, 0]"), A(arrow::utf8(), R"(["a", "b"])"))
                  .ValueOrDie();
  VS_ASSIGN_OR_FAIL(auto out, ArrowToVariant(*dict));
  EXPECT_EQ(Json(out), (std::vector<std::string>{R"("b")", "NULL", R"("a")"}));
  VS_ASSIGN_OR_FAIL(auto nulls, ArrowToVariant(*A(arrow::null(), "[null, null]")));
  EXPECT_EQ(nulls->null_count(), 2);
}

TEST(ArrowToVariantTest, UnsupportedTypesNameTheColumnPath) {
  auto type = arrow::struct_(
      {arrow::field("a", arrow::list(arrow::duration(arrow::TimeUnit::SECOND)))});
  auto st = ArrowToVariant(*A(type, R"([{"a": [1]}])")).status();
  EXPECT_TRUE(st.IsTypeError()) << st.ToString();
  EXPECT_NE(st.message().find("$.a[0]"), std::string::npos) << st.ToString();
  auto int_keys = A(arrow::map(arrow::int32(), arrow::int32()), "[[[1, 2]]]");
  EXPECT_TRUE(ArrowToVariant(*int_keys).status().IsTypeError());
}

TEST(ArrowToVariantTest, UnrepresentableValuesNameRowAndPath) {
  auto type = arrow::struct_({arrow::field("x", arrow::list(arrow::decimal256(40, 0)))});
  auto input =
      A(type,
        R"([{"x": ["1"]}, {"x": ["2", "1000000000000000000000000000000000000000"]}])");
  auto st = ArrowToVariant(*input).status();
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("row 1: $.x[1]: "), std::string::npos) << st.ToString();

  auto dup = A(arrow::map(arrow::utf8(), arrow::int32()), R"([[["k", 1], ["k", 2]]])");
  st = ArrowToVariant(*dup).status();
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("row 0: $: "), std::string::npos) << st.ToString();

  auto ns = A(arrow::time64(arrow::TimeUnit::NANO), "[1000, 1001]");
  st = ArrowToVariant(*ns).status();
  EXPECT_NE(st.message().find("row 1: $: "), std::string::npos) << st.ToString();
}

TEST(ArrowToVariantTest, VariantColumnsInsideAreCopied) {
  auto inner =
      testing::VariantsFromJson({R"({"z": [1]})", "null"}, VariantLayout::kSpark);
  auto s =
      arrow::StructArray::Make({inner}, {arrow::field("v", inner->type())}).ValueOrDie();
  VS_ASSIGN_OR_FAIL(auto out, ArrowToVariant(*s));
  EXPECT_EQ(Json(out), (std::vector<std::string>{R"({"v":{"z":[1]}})", R"({"v":null})"}));
}

TEST(ArrowToVariantTest, RoundTripsThroughVariantToArrow) {
  auto type = arrow::struct_(
      {arrow::field("i", arrow::int16()), arrow::field("u", arrow::uint64()),
       arrow::field("f", arrow::float32()), arrow::field("d", arrow::decimal128(12, 3)),
       arrow::field("s", arrow::large_utf8()), arrow::field("b", arrow::binary()),
       arrow::field("day", arrow::date32()),
       arrow::field("ts", arrow::timestamp(arrow::TimeUnit::NANO, "UTC")),
       arrow::field("ms", arrow::timestamp(arrow::TimeUnit::MILLI)),
       arrow::field("t", arrow::time64(arrow::TimeUnit::MICRO)),
       arrow::field("l", arrow::large_list(arrow::int8())),
       arrow::field("fl", arrow::fixed_size_list(arrow::boolean(), 2)),
       arrow::field("m", arrow::map(arrow::utf8(), arrow::struct_({arrow::field(
                                                       "q", arrow::float64())})))});
  auto input = A(type, R"([
    {"i": -3, "u": 18446744073709551615, "f": 1.5, "d": "-12.345", "s": "x", "b": "AQ==",
     "day": 19000, "ts": 1700000000123456789, "ms": -1, "t": 3600000001,
     "l": [1, null], "fl": [true, null], "m": [["a", {"q": 2.5}], ["b", null]]},
    {"i": null, "u": null, "f": null, "d": null, "s": null, "b": null, "day": null,
     "ts": null, "ms": null, "t": null, "l": null, "fl": null, "m": null},
    null])");
  VS_ASSIGN_OR_FAIL(auto variants, ArrowToVariant(*input));
  VariantGetOptions raise;
  raise.errors = VariantGetErrors::kRaise;
  VS_ASSIGN_OR_FAIL(auto back, VariantToArrow(*variants, type, raise));
  VS_ASSERT_OK(back->ValidateFull());
  EXPECT_TRUE(back->Equals(*input)) << back->ToString() << "\n" << input->ToString();
}

}  // namespace
}  // namespace varshred
