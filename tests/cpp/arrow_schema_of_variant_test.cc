// Tests for varshred/arrow/schema_of_variant.h (Spark's strings, checked against Spark
// 4.3 in tests/python/test_spark_arrow_functions.py).

#include <arrow/api.h>

#include "test_util.h"
#include "varshred/arrow/schema_of_variant.h"

namespace varshred {
namespace {

using testing::VariantsFromJson;

TEST(SchemaOfVariantTest, PrintsSparkTypeStrings) {
  auto variants = VariantsFromJson({R"({"b": 1, "a": [1, 2.5]})", "1.50", nullptr, "null",
                                    "100.0", "0.001", R"([{"a": 1}, {"a": "x"}])",
                                    R"({"a b": 1, "A": 2, "`q": 3, "": 4})", "1e5"});
  VS_ASSIGN_OR_FAIL(auto out, SchemaOfVariant(*variants));
  const auto& s = static_cast<const arrow::StringArray&>(*out);
  EXPECT_EQ(s.GetView(0), "OBJECT<a: ARRAY<DECIMAL(21,1)>, b: BIGINT>");
  EXPECT_EQ(s.GetView(1), "DECIMAL(2,1)");  // trailing zeros stripped
  EXPECT_TRUE(s.IsNull(2));
  EXPECT_EQ(s.GetView(3), "VOID");
  EXPECT_EQ(s.GetView(4), "DECIMAL(3,0)");
  EXPECT_EQ(s.GetView(5), "DECIMAL(3,3)");
  EXPECT_EQ(s.GetView(6), "ARRAY<OBJECT<a: VARIANT>>");
  EXPECT_EQ(s.GetView(7), "OBJECT<``: BIGINT, A: BIGINT, ```q`: BIGINT, `a b`: BIGINT>");
  EXPECT_EQ(s.GetView(8), "DOUBLE");
}

TEST(SchemaOfVariantTest, AccumulatorMergesBatchesAndTypeStrings) {
  VariantSchemaAccumulator all, part1, part2;
  auto a = VariantsFromJson({R"({"a": 1})", R"({"a": 12345678901234567890.5})"});
  auto b = VariantsFromJson({R"({"b": [true], "a": null})", nullptr});
  VS_ASSERT_OK(all.Add(*a));
  VS_ASSERT_OK(all.Add(*b));
  VS_ASSERT_OK(part1.Add(*a));
  VS_ASSERT_OK(part2.Add(*b));
  EXPECT_EQ(all.ToString(), "OBJECT<a: DECIMAL(21,1), b: ARRAY<BOOLEAN>>");
  VS_ASSERT_OK(part1.Merge(part2.ToString()));
  EXPECT_EQ(part1.ToString(), all.ToString());
  VariantSchemaAccumulator empty;
  EXPECT_EQ(empty.ToString(), "VOID");
  // Decimals past 38 digits become DOUBLE; FLOAT with BIGINT stays FLOAT.
  VS_ASSERT_OK(empty.Merge("DECIMAL(24,24)"));
  VS_ASSERT_OK(empty.Merge("BIGINT"));
  EXPECT_EQ(empty.ToString(), "DOUBLE");
  VariantSchemaAccumulator f;
  VS_ASSERT_OK(f.Merge("FLOAT"));
  VS_ASSERT_OK(f.Merge("BIGINT"));
  EXPECT_EQ(f.ToString(), "FLOAT");
  VS_ASSERT_OK(f.Merge("OBJECT<`x``y`: TIMESTAMP_NTZ_NS>"));
  EXPECT_EQ(f.ToString(), "VARIANT");
  EXPECT_TRUE(f.Merge("OBJECT<a BIGINT>").IsInvalid());
  EXPECT_TRUE(f.Merge("ARRAY<BIGINT").IsInvalid());
}

}  // namespace
}  // namespace varshred
