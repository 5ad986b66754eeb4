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

// Spark 4.3's answers under its default spark.sql.caseSensitive=false: objects whose
// fields pair up by name ignoring case merge into the first spelling when no type
// widens past Spark's tightest rule; otherwise names stay apart.
TEST(SchemaOfVariantTest, MergesNamesDifferingInCaseAsSpark) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {R"([{"a":1},{"A":2}])", "ARRAY<OBJECT<a: BIGINT>>"},
      {R"([{"I":1},{"\u0130":3}])", "ARRAY<OBJECT<I: BIGINT>>"},
      {R"([{"\u0130":1},{"i":3}])", "ARRAY<OBJECT<`\u0130`: BIGINT>>"},
      {R"([{"a":null},{"A":1}])", "ARRAY<OBJECT<a: BIGINT>>"},
      {R"([{"a":[]},{"A":[1]}])", "ARRAY<OBJECT<a: ARRAY<BIGINT>>>"},
      {R"([{"a":1},{"A":123456789012345678901234.5}])",
       "ARRAY<OBJECT<a: DECIMAL(25,1)>>"},
      {R"([{"a":1},{"A":1.5}])", "ARRAY<OBJECT<A: DECIMAL(2,1), a: BIGINT>>"},
      {R"([{"a":1},{"A":1.5e0}])", "ARRAY<OBJECT<a: DOUBLE>>"},
      {R"([{"a":{"b":1,"c":[1]}},{"A":{"B":2.0e0,"c":[null]}}])",
       "ARRAY<OBJECT<a: OBJECT<b: DOUBLE, c: ARRAY<BIGINT>>>>"},
      {R"([{"a":1,"b":2},{"A":1,"c":2}])",
       "ARRAY<OBJECT<A: BIGINT, a: BIGINT, b: BIGINT, c: BIGINT>>"},
      {R"([{"B":1,"a":1},{"b":1,"A":1}])",
       "ARRAY<OBJECT<A: BIGINT, B: BIGINT, a: BIGINT, b: BIGINT>>"},
      {R"([{"x":{"a":1},"y":1},{"x":{"A":1},"y":"s"}])",
       "ARRAY<OBJECT<x: OBJECT<a: BIGINT>, y: VARIANT>>"},
      {R"([[{"a":1}],[{"A":1.5}]])", "ARRAY<ARRAY<OBJECT<A: DECIMAL(2,1), a: BIGINT>>>"},
      {R"([{"a":1,"A":2},{"A":3,"a":4}])", "ARRAY<OBJECT<A: BIGINT, a: BIGINT>>"},
      {R"([{"ss":1},{"SS":2},{"\u00df":3}])",
       "ARRAY<OBJECT<ss: BIGINT, `\u00df`: BIGINT>>"},
      {R"([{"ab":1},{"aB":1.5},{"AB":2}])",
       "ARRAY<OBJECT<AB: BIGINT, aB: DECIMAL(2,1), ab: BIGINT>>"},
      {R"([{"a":{"x":1}},{"A":{"X":"s"}}])",
       "ARRAY<OBJECT<A: OBJECT<X: STRING>, a: OBJECT<x: BIGINT>>>"},
  };
  for (const auto& [json, spark] : cases) {
    auto variants = VariantsFromJson({json});
    VS_ASSIGN_OR_FAIL(auto out, SchemaOfVariant(*variants));
    EXPECT_EQ(static_cast<const arrow::StringArray&>(*out).GetView(0), spark) << json;
  }
  // Spark's spark.sql.caseSensitive=true: names never merge.
  auto variants = VariantsFromJson({R"([{"a":1},{"A":2}])"});
  VS_ASSIGN_OR_FAIL(auto out, SchemaOfVariant(*variants, {.case_sensitive = true}));
  EXPECT_EQ(static_cast<const arrow::StringArray&>(*out).GetView(0),
            "ARRAY<OBJECT<A: BIGINT, a: BIGINT>>");
}

TEST(SchemaOfVariantTest, AccumulatorKeepsTheFirstSpelling) {
  for (bool case_sensitive : {false, true}) {
    VariantSchemaAccumulator first_lower({.case_sensitive = case_sensitive});
    VariantSchemaAccumulator first_upper({.case_sensitive = case_sensitive});
    VS_ASSERT_OK(first_lower.Add(*VariantsFromJson({R"({"a":1})", R"({"A":1})"})));
    VS_ASSERT_OK(first_upper.Merge("OBJECT<A: BIGINT>"));
    VS_ASSERT_OK(first_upper.Merge("OBJECT<a: BIGINT>"));
    EXPECT_EQ(first_lower.ToString(),
              case_sensitive ? "OBJECT<A: BIGINT, a: BIGINT>" : "OBJECT<a: BIGINT>");
    EXPECT_EQ(first_upper.ToString(),
              case_sensitive ? "OBJECT<A: BIGINT, a: BIGINT>" : "OBJECT<A: BIGINT>");
  }
}

}  // namespace
}  // namespace varshred
