#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/shredding_stats.h"

namespace varshred {
namespace {

// A Variant column from JSON documents; nullptr is a SQL NULL row.
std::shared_ptr<arrow::Array> Json(const std::vector<const char*>& docs) {
  arrow::StringBuilder b;
  for (const char* d : docs) {
    EXPECT_TRUE((d ? b.Append(d) : b.AppendNull()).ok());
  }
  auto strings = b.Finish().ValueOrDie();
  auto variants = JsonToVariant(*strings);
  EXPECT_TRUE(variants.ok()) << variants.status().ToString();
  return *variants;
}

std::shared_ptr<arrow::Array> JsonStrings(const std::vector<std::string>& docs) {
  std::vector<const char*> ptrs;
  for (const auto& d : docs) ptrs.push_back(d.c_str());
  return Json(ptrs);
}

ShreddingStats Scan(const std::vector<const char*>& docs,
                    ShreddingStatsOptions options = {}) {
  ShreddingStats stats(options);
  const auto st = stats.Add(*Json(docs));
  EXPECT_TRUE(st.ok()) << st.ToString();
  return stats;
}

std::string Derive(const ShreddingStats& stats, InferOptions options = {}) {
  auto schema = stats.DeriveSchema(options);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  return schema.ok() ? schema->ToDdl() : "";
}

// ----------------------------------------------------------------------
// Statistics

TEST(ShreddingStatsTest, TypesTheEmptyKey) {
  auto stats =
      Scan({R"({"": 1, "a": {"": "x", "b": 1}})", R"({"": 2, "a": {"": "y", "b": 2}})"});
  EXPECT_EQ(Derive(stats), "struct<``: bigint, a: struct<``: string, b: bigint>>");
  ASSERT_NE(stats.Find("``"), nullptr);
  ASSERT_NE(stats.Find("a.``"), nullptr);
}

// Keys some reader cannot take as typed field names stay in the residual: DuckDB 2.0
// refuses a group whose one field is "" and reads "A" beside "a" as "a_1"; Arrow's C
// data interface cuts a name at NUL.
TEST(ShreddingStatsTest, LeavesKeysSomeReaderCannotNameInTheResidual) {
  EXPECT_EQ(Derive(Scan({R"({"": 1})", R"({"": 2})"})), "variant");
  EXPECT_EQ(Derive(Scan({R"({"a": {"": "x"}, "b": 1})"})),
            "struct<a: variant, b: bigint>");
  EXPECT_EQ(Derive(Scan({R"({"A": 1, "a": 2, "b": 3})", R"({"A": 4, "a": 5, "b": 6})"})),
            "struct<b: bigint>");
  EXPECT_EQ(Derive(Scan({R"({"a\u0000b": 1, "c": 2})"})), "struct<c: bigint>");
  EXPECT_EQ(Derive(Scan({R"({"": 1, "x": 2})"})), "struct<``: bigint, x: bigint>");
}

TEST(ShreddingStatsTest, CountsTypesRangesAndMissingExactly) {
  auto stats =
      Scan({R"({"a": 1, "b": "xy"})", R"({"a": 300, "b": null})", R"({"a": 2.50})",
            nullptr, "[1, 2, -7]", R"("top")", R"({"a": -129, "b": "hello"})"});
  EXPECT_EQ(stats.rows(), 7);
  EXPECT_EQ(stats.sql_null_rows(), 1);
  const PathStats& root = stats.root();
  EXPECT_EQ(root.present(), 6);
  EXPECT_EQ(root.objects(), 4);
  EXPECT_EQ(root.arrays(), 1);
  EXPECT_EQ(root.count(VariantType::kString), 1);
  EXPECT_EQ(root.string_min_length(), 3);

  const PathStats* a = stats.Find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->present(), 4);
  EXPECT_EQ(a->MissingFrom(root), 0);
  EXPECT_EQ(a->count(VariantType::kInt8), 1);
  EXPECT_EQ(a->count(VariantType::kInt16), 2);
  EXPECT_EQ(a->count(VariantType::kDecimal4), 1);
  EXPECT_EQ(a->integers(), 3);
  EXPECT_EQ(a->int_min(), -129);
  EXPECT_EQ(a->int_max(), 300);
  EXPECT_EQ(a->max_integer_digits(), 3);
  EXPECT_EQ(a->max_scale(), 2);  // 2.50 as written
  // 1 -> int8, 300 and -129 -> int16; 2.50 is not a whole number.
  EXPECT_EQ(a->integral_by_width(0), 1);
  EXPECT_EQ(a->integral_by_width(1), 2);
  EXPECT_EQ(a->integral_by_width(2), 0);
  EXPECT_EQ(a->integer_digits_histogram(1), 2);  // 1 and 2.50
  EXPECT_EQ(a->integer_digits_histogram(3), 2);
  EXPECT_EQ(a->min_scale_histogram(0), 3);
  EXPECT_EQ(a->min_scale_histogram(1), 1);  // 2.50 -> 2.5
  EXPECT_EQ(a->min_scale_histogram(2), 0);

  const PathStats* b = stats.Find("$.b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->present(), 3);
  EXPECT_EQ(b->variant_nulls(), 1);
  EXPECT_EQ(b->MissingFrom(root), 1);
  EXPECT_EQ(b->string_min_length(), 2);
  EXPECT_EQ(b->string_max_length(), 5);
  EXPECT_EQ(b->string_total_length(), 7);

  const PathStats* e = stats.Find("[]");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->present(), 3);
  EXPECT_EQ(e->int_min(), -7);
  EXPECT_EQ(stats.Find("c"), nullptr);
  EXPECT_EQ(stats.num_paths(), 4);  // $, a, b, []
}

TEST(ShreddingStatsTest, TracksNestedPathsAndQuotedNames) {
  auto stats =
      Scan({R"({"e": [{"k": "x"}, {"k": "y", "v": 1.5e300}], "a.b": {"c": true}})"});
  const PathStats* k = stats.Find("e[].k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->count(VariantType::kString), 2);
  const PathStats* v = stats.Find("e[].v");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->count(VariantType::kDouble), 1);
  EXPECT_DOUBLE_EQ(v->float_max(), 1.5e300);
  ASSERT_NE(stats.Find("`a.b`.c"), nullptr);
  EXPECT_EQ(stats.Find("`a.b`.c")->count(VariantType::kBoolean), 1);
  EXPECT_EQ(stats.Find("a.b"), nullptr);
  EXPECT_EQ(stats.Find("e[]k"), nullptr);
  // A key named "$" is not the root, in labels as in lookups (found by probing from
  // outside: the inference table printed both as "$").
  auto dollar = Scan({R"({"$": 1, "$x": true})"});
  std::vector<std::string> paths;
  for (const auto& c : dollar.TypeCounts()) paths.push_back(c.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"$", "`$`", "`$x`"}));
  ASSERT_NE(dollar.Find("`$`"), nullptr);
  EXPECT_EQ(dollar.Find("`$`")->count(VariantType::kInt8), 1);
  EXPECT_EQ(dollar.Find("`$x`")->count(VariantType::kBoolean), 1);
}

TEST(ShreddingStatsTest, TypeCountsListEveryPathWithItsTypes) {
  auto stats = Scan(
      {R"({"e": [{"k": "x"}, {"k": 1}], "a.b": {"c": true}})", R"([1, 2.5])", nullptr});
  std::vector<std::string> got;
  for (const auto& c : stats.TypeCounts()) {
    got.push_back(c.path + " " + std::string(VariantTypeName(c.type)) + " " +
                  std::to_string(c.count));
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "$ object 1", "$ array 1", "`a.b` object 1", "`a.b`.c boolean 1",
                     "e array 1", "e[] object 2", "e[].k int8 1", "e[].k string 1",
                     "[] int8 1", "[] decimal4 1"}));
}

TEST(ShreddingStatsTest, CapsStopNewKeysButKeepCountingKnownOnes) {
  ShreddingStatsOptions options;
  options.max_fields_per_object = 2;
  options.max_depth = 1;
  auto stats = Scan({R"({"a": 1, "b": 2, "c": 3})", R"({"c": 4, "d": {"x": 1}, "a": 5})"},
                    options);
  EXPECT_NE(stats.Find("a"), nullptr);
  EXPECT_NE(stats.Find("b"), nullptr);
  EXPECT_EQ(stats.Find("c"), nullptr);
  EXPECT_EQ(stats.Find("a")->present(), 2);
  EXPECT_EQ(stats.root().untracked_field_values(), 3);  // c, c, d
  // Depth cap: objects at depth 1 are counted, their fields are not tracked.
  auto deep = Scan({R"({"a": {"x": 1, "y": 2}})"}, options);
  EXPECT_EQ(deep.Find("a")->objects(), 1);
  EXPECT_EQ(deep.Find("a")->num_fields(), 0u);
  EXPECT_EQ(deep.Find("a")->untracked_field_values(), 2);

  ShreddingStatsOptions total;
  total.max_total_paths = 3;  // $, a, b
  auto capped = Scan({R"({"a": 1, "b": 2, "c": 3})"}, total);
  EXPECT_EQ(capped.num_paths(), 3);
  EXPECT_EQ(capped.root().untracked_field_values(), 1);
}

TEST(ShreddingStatsTest, RejectsInvalidRowsNamingTheRow) {
  VariantArrayBuilder b;
  VS_ASSERT_OK(b.Append(kEmptyMetadata, kNullValue));
  VS_ASSERT_OK(b.Append(kEmptyMetadata, std::string("\x03", 1)));  // truncated array
  VS_ASSIGN_OR_FAIL(auto column, b.Finish());
  ShreddingStats stats;
  auto st = stats.Add(*column);
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.message();
}

TEST(ShreddingStatsTest, ScansSparkLayoutAndShreddedInput) {
  auto column = Json({R"({"a": 1})", R"({"a": "s"})"});
  VS_ASSIGN_OR_FAIL(auto spark, ToLayout(column, VariantLayout::kSpark));
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("struct<a: bigint>"));
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*column, schema));
  for (const auto& input : {spark, shredded}) {
    ShreddingStats stats;
    VS_ASSERT_OK(stats.Add(*input));
    ASSERT_NE(stats.Find("a"), nullptr);
    // Unshredding re-encodes the bigint column's values as int64.
    EXPECT_EQ(stats.Find("a")->integers(), 1);
    EXPECT_EQ(stats.Find("a")->int_max(), 1);
    EXPECT_EQ(stats.Find("a")->count(VariantType::kString), 1);
  }
}

// ----------------------------------------------------------------------
// Merge and serialization

std::vector<std::string> MixedDocuments(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> docs;
  for (int i = 0; i < n; ++i) {
    const int r = static_cast<int>(rng() % 100);
    if (r < 5) {
      docs.push_back("[1, \"x\", {\"id\": 3}]");  // top-level drift
      continue;
    }
    std::string d = "{";
    d += "\"id\": " + std::to_string(static_cast<int64_t>(rng() % 100000) - 1000);
    if (r % 3) d += ", \"name\": \"user_" + std::to_string(rng() % 1000) + "\"";
    const int p = static_cast<int>(rng() % 10000);
    d += ", \"price\": " +
         (r % 7 == 0 ? std::to_string(p)
                     : std::to_string(p / 100) + "." + std::to_string(p % 100 / 10) +
                           std::to_string(p % 10));
    if (r % 4 == 0) d += ", \"price2\": " + std::to_string(p) + ".5";
    d += ", \"tags\": [";
    for (int t = 0; t < static_cast<int>(rng() % 4); ++t) {
      d += t ? ", " : "";
      d += (rng() % 10 == 0) ? "7" : "\"t" + std::to_string(t) + "\"";
    }
    d += "]";
    if (r % 10 == 1) {
      d += ", \"nested\": \"oops\"";
    } else if (r % 10 != 2) {
      d += ", \"nested\": {\"x\": " + std::to_string(rng() % 300) +
           ", \"flag\": " + (rng() % 2 ? "true" : "null") + "}";
    }
    if (r % 11 == 0) d += ", \"rare\": 1";
    if (r % 13 == 0) d += ", \"w\": {\"big\": " + std::to_string(rng()) + "}";
    docs.push_back(d + "}");
  }
  return docs;
}

TEST(ShreddingStatsTest, TrustedScanMatchesValidatedScan) {
  auto column = JsonStrings(MixedDocuments(200, 5));
  ShreddingStatsOptions trusted;
  trusted.validate = false;
  ShreddingStats a, b(trusted);
  VS_ASSERT_OK(a.Add(*column));
  VS_ASSERT_OK(b.Add(*column));
  EXPECT_EQ(a.Serialize(), b.Serialize());
  EXPECT_EQ(a.rows(), 200);
}

TEST(ShreddingStatsTest, JsonScanMatchesScanOfItsVariants) {
  auto docs = MixedDocuments(300, 7);
  docs.insert(docs.begin() + 10, "{not json");
  docs.insert(docs.begin() + 20, R"({"id": 1, "id": 2})");
  docs.push_back("1.50");
  arrow::StringBuilder b;
  for (size_t i = 0; i < docs.size(); ++i) {
    VS_ASSERT_OK(i == 5 ? b.AppendNull() : b.Append(docs[i]));
  }
  const auto strings = b.Finish().ValueOrDie();
  JsonToVariantOptions options;
  options.errors = JsonErrorPolicy::kNull;
  ShreddingStats parsed, direct;
  VS_ASSERT_OK(parsed.Add(*JsonToVariant(*strings, options).ValueOrDie()));
  VS_ASSERT_OK(direct.AddJson(*strings, options));
  EXPECT_EQ(direct.Serialize(), parsed.Serialize());
  EXPECT_EQ(direct.rows(), static_cast<int64_t>(docs.size()));
  EXPECT_EQ(direct.sql_null_rows(), 3);
  // Without kNull the first bad document fails, naming its row.
  ShreddingStats strict;
  const auto st = strict.AddJson(*strings);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("row 10: invalid JSON"), std::string::npos)
      << st.ToString();
}

// A call that fails part-way changes nothing: the rows before the bad one are not
// counted (a caller skipping bad batches would otherwise derive from skewed counts).
TEST(ShreddingStatsTest, FailedAddsChangeNothing) {
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*Json({R"({"id": 1})", R"({"id": 2, "s": "x"})"})));
  const std::string before = stats.Serialize();
  auto text = [](const std::vector<std::string>& docs) {
    arrow::StringBuilder b;
    for (const auto& d : docs) EXPECT_TRUE(b.Append(d).ok());
    return b.Finish().ValueOrDie();
  };
  EXPECT_FALSE(stats.AddJson(*text({R"({"id": 3})", "{not json"})).ok());
  EXPECT_FALSE(stats.AddJson(*text({"{"})).ok());
  // Row 0 an int8, row 1 a truncated object header.
  auto variants = std::static_pointer_cast<arrow::StructArray>(Json({"4", "5"}));
  arrow::BinaryBuilder values;
  VS_ASSERT_OK(values.Append(std::string("\x0c\x04", 2)));
  VS_ASSERT_OK(values.Append(std::string("\x02\x05", 2)));
  auto broken =
      arrow::StructArray::Make({variants->field(0), values.Finish().ValueOrDie()},
                               std::vector<std::string>{"metadata", "value"});
  ASSERT_TRUE(broken.ok()) << broken.status().ToString();
  EXPECT_FALSE(stats.Add(**broken).ok());
  EXPECT_EQ(stats.Serialize(), before);
  EXPECT_EQ(stats.rows(), 2);
  // An empty object fails the same way and stays empty.
  ShreddingStats fresh;
  EXPECT_FALSE(fresh.AddJson(*text({"1", "{"})).ok());
  EXPECT_EQ(fresh.rows(), 0);
  EXPECT_EQ(fresh.Serialize(), ShreddingStats().Serialize());
}

TEST(ShreddingStatsTest, MergeEqualsScanOfConcatenation) {
  auto docs = MixedDocuments(300, 1);
  std::vector<std::string> first(docs.begin(), docs.begin() + 120);
  std::vector<std::string> second(docs.begin() + 120, docs.end());
  ShreddingStats whole, a, b;
  VS_ASSERT_OK(whole.Add(*JsonStrings(docs)));
  VS_ASSERT_OK(a.Add(*JsonStrings(first)));
  VS_ASSERT_OK(b.Add(*JsonStrings(second)));
  VS_ASSERT_OK(a.Merge(b));
  EXPECT_EQ(a.Serialize(), whole.Serialize());
  EXPECT_EQ(a.rows(), 300);
  // Self-merge doubles every count.
  const int64_t ids = b.Find("id")->present();
  VS_ASSERT_OK(b.Merge(b));
  EXPECT_EQ(b.rows(), 360);
  EXPECT_EQ(b.Find("id")->present(), 2 * ids);
}

TEST(ShreddingStatsTest, MergeRespectsTheReceiversCaps) {
  ShreddingStatsOptions small;
  small.max_fields_per_object = 1;
  ShreddingStats a(small);
  VS_ASSERT_OK(a.Add(*Json({R"({"a": 1})"})));
  auto b = Scan({R"({"b": {"x": 1}, "a": 2})", R"({"b": 3})"});
  VS_ASSERT_OK(a.Merge(b));
  EXPECT_EQ(a.Find("a")->present(), 2);
  EXPECT_EQ(a.Find("b"), nullptr);
  EXPECT_EQ(a.root().untracked_field_values(), 2);
  EXPECT_EQ(a.num_paths(), 2);
}

TEST(ShreddingStatsTest, SerializeRoundTripsExactly) {
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*JsonStrings(MixedDocuments(200, 2))));
  VS_ASSERT_OK(stats.Add(*Json({nullptr, R"(1.5e10)", R"("x")"})));
  const std::string bytes = stats.Serialize();
  VS_ASSIGN_OR_FAIL(auto back, ShreddingStats::Deserialize(bytes));
  EXPECT_EQ(back.Serialize(), bytes);
  EXPECT_EQ(back.rows(), 203);
  EXPECT_EQ(back.num_paths(), stats.num_paths());
  EXPECT_EQ(back.Find("nested.x")->int_max(), stats.Find("nested.x")->int_max());
  EXPECT_DOUBLE_EQ(back.root().float_max(), 1.5e10);
  VS_ASSIGN_OR_FAIL(auto s1, stats.DeriveSchema());
  VS_ASSIGN_OR_FAIL(auto s2, back.DeriveSchema());
  EXPECT_EQ(s1.ToDdl(), s2.ToDdl());
  // Empty stats round-trip too.
  VS_ASSIGN_OR_FAIL(auto empty,
                    ShreddingStats::Deserialize(ShreddingStats().Serialize()));
  EXPECT_EQ(empty.rows(), 0);
}

TEST(ShreddingStatsTest, DeserializeRejectsCorruptBytes) {
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*JsonStrings(MixedDocuments(50, 3))));
  const std::string bytes = stats.Serialize();
  // Every truncation is an error.
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto r = ShreddingStats::Deserialize(std::string_view(bytes).substr(0, n));
    ASSERT_TRUE(r.status().IsInvalid()) << "prefix " << n;
  }
  auto bad_magic = ShreddingStats::Deserialize("XSST" + bytes.substr(4));
  ASSERT_TRUE(bad_magic.status().IsInvalid());
  EXPECT_NE(bad_magic.status().message().find("magic"), std::string::npos);
  std::string v2 = bytes;
  v2[4] = 2;
  auto bad_version = ShreddingStats::Deserialize(v2);
  ASSERT_TRUE(bad_version.status().IsInvalid());
  EXPECT_NE(bad_version.status().message().find("unsupported version 2"),
            std::string::npos);
  auto trailing = ShreddingStats::Deserialize(bytes + "x");
  ASSERT_TRUE(trailing.status().IsInvalid());
  EXPECT_NE(trailing.status().message().find("trailing bytes"), std::string::npos);
  // Seeded random mutations: an error or consistent statistics, never a crash.
  std::mt19937_64 rng(7);
  int rejected = 0;
  const int mutations = testing::FuzzRounds(3000);
  for (int i = 0; i < mutations; ++i) {
    std::string m = bytes;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k) {
      m[rng() % m.size()] = static_cast<char>(rng());
    }
    auto r = ShreddingStats::Deserialize(m);
    if (!r.ok()) {
      ASSERT_TRUE(r.status().IsInvalid()) << r.status().ToString();
      ++rejected;
      continue;
    }
    auto again = ShreddingStats::Deserialize(r->Serialize());
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    ASSERT_TRUE(r->DeriveSchema().ok());
  }
  EXPECT_GT(rejected, 1500);
}

// ----------------------------------------------------------------------
// Schema derivation

TEST(ShreddingStatsDeriveTest, IntegersWidenToBigintOrNarrowest) {
  auto stats = Scan({R"({"x": 1})", R"({"x": 300})", R"({"x": -70000})"});
  EXPECT_EQ(Derive(stats), "struct<x: bigint>");
  InferOptions narrow;
  narrow.narrow_integers = true;
  EXPECT_EQ(Derive(stats, narrow), "struct<x: int>");
  EXPECT_EQ(Derive(Scan({"1", "-5"}), narrow), "tinyint");
}

// The union of digits and scale, widened to the largest precision of the same storage
// (9, 18, 38 digits) so that later rows with more integer digits still fit.
TEST(ShreddingStatsDeriveTest, DecimalsTakeTheUnionOfDigitsAndScale) {
  EXPECT_EQ(Derive(Scan({R"({"x": 1.5})", R"({"x": 123.25})"})),
            "struct<x: decimal(9,2)>");
  // Integers join as scale-0 decimals.
  EXPECT_EQ(Derive(Scan({R"({"x": 12345})", R"({"x": 0.125})"})),
            "struct<x: decimal(9,3)>");
  EXPECT_EQ(Derive(Scan({R"({"x": 1234567890})", R"({"x": 0.5})"})),
            "struct<x: decimal(18,1)>");
  EXPECT_EQ(Derive(Scan({R"({"x": 1234567890123456789})", R"({"x": 0.5})"})),
            "struct<x: decimal(38,1)>");
  // Past 38 digits: the decimal(38, s) that holds most values.
  EXPECT_EQ(Derive(Scan({"1234567890123456789012345678901234567",
                         "2234567890123456789012345678901234567",
                         "3234567890123456789012345678901234567", "0.12345"})),
            "decimal(38,0)");
  // Doubles do not mix with exact numerics: the dominant class wins.
  EXPECT_EQ(Derive(Scan({"1.5e10", "2.5e10", "3"})), "double");
}

TEST(ShreddingStatsDeriveTest, MixedTypesBecomeValueOnly) {
  EXPECT_EQ(Derive(Scan({R"({"x": 1, "y": "a"})", R"({"x": "a", "y": "b"})",
                         R"({"x": true, "y": 2})", R"({"x": [1], "y": null})"})),
            "struct<x: variant, y: string>");
  InferOptions lax;
  lax.min_typed_fraction = 0.25;
  EXPECT_EQ(
      Derive(Scan({R"({"x": 1})", R"({"x": "a"})", R"({"x": true})", R"({"x": [1]})"}),
             lax),
      "struct<x: array<bigint>>");  // ties go to nested shapes
  EXPECT_EQ(Derive(Scan({"null", "null"})), "variant");
  EXPECT_EQ(Derive(ShreddingStats()), "variant");
}

TEST(ShreddingStatsDeriveTest, MinFractionCutsRareFields) {
  std::vector<std::string> docs;
  for (int i = 0; i < 100; ++i) {
    docs.push_back(i < 9 ? R"({"a": 1, "b": "s"})" : R"({"a": 2})");
  }
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*JsonStrings(docs)));
  EXPECT_EQ(Derive(stats), "struct<a: bigint>");
  InferOptions low;
  low.min_fraction = 0.09;
  EXPECT_EQ(Derive(stats, low), "struct<a: bigint, b: string>");
}

TEST(ShreddingStatsDeriveTest, MaxFieldsKeepsTheMostFrequent) {
  // f4 in every row, f3 in 4 of 5, ... f0 in 1 of 5; g.h in 4 of 5.
  std::vector<std::string> docs;
  for (int i = 0; i < 5; ++i) {
    std::string d = "{";
    for (int f = 0; f < 5; ++f) {
      if (f >= 4 - i) d += "\"f" + std::to_string(f) + "\": 1, ";
    }
    d += i < 4 ? R"("g": {"h": 1}})" : R"("g": {}})";
    docs.push_back(d);
  }
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*JsonStrings(docs)));
  InferOptions options;
  // Columns as Spark counts them: the root's value column, two per bigint field, one
  // for an object field (its fields are counted as they come in).
  options.max_fields = 3;  // f4 (5 values) before g (5): name order breaks the tie
  EXPECT_EQ(Derive(stats, options), "struct<f4: bigint>");
  options.max_fields = 6;  // then g, then f3 (4) before g.h (4): shallower wins ties
  EXPECT_EQ(Derive(stats, options), "struct<f3: bigint, f4: bigint, g: variant>");
  options.max_fields = 8;  // g.h (4) beats f2 (3)
  EXPECT_EQ(Derive(stats, options),
            "struct<f3: bigint, f4: bigint, g: struct<h: bigint>>");
  options.max_fields = 300;
  EXPECT_EQ(Derive(stats, options),
            "struct<f0: bigint, f1: bigint, f2: bigint, f3: bigint, f4: bigint, "
            "g: struct<h: bigint>>");
}

TEST(ShreddingStatsDeriveTest, WidthCountsArrayElementsAndSkipsWhatDoesNotFit) {
  auto stats = Scan(
      {R"({"t": [1], "k": {"x": 1}})", R"({"t": [2], "k": {"x": 2}})", R"({"k": {}})"});
  InferOptions options;
  // k (3 values) costs 1; t (2) costs 3: its value column and its element's two; k.x
  // (2, deeper than t) costs 2.
  options.max_fields = 4;  // t does not fit after k; the rarer, cheaper k.x does
  EXPECT_EQ(Derive(stats, options), "struct<k: struct<x: bigint>>");
  options.max_fields = 5;  // t fits; k.x no longer does
  EXPECT_EQ(Derive(stats, options), "struct<k: variant, t: array<bigint>>");
  options.max_fields = 7;
  EXPECT_EQ(Derive(stats, options), "struct<k: struct<x: bigint>, t: array<bigint>>");
}

TEST(ShreddingStatsDeriveTest, MaxDepthStopsNesting) {
  auto stats = Scan({R"({"a": {"b": {"c": 1}}, "t": [1]})"});
  EXPECT_EQ(Derive(stats), "struct<a: struct<b: struct<c: bigint>>, t: array<bigint>>");
  InferOptions options;
  options.max_depth = 2;
  EXPECT_EQ(Derive(stats, options), "struct<a: struct<b: variant>, t: array<bigint>>");
  options.max_depth = 1;
  EXPECT_EQ(Derive(stats, options), "struct<a: variant, t: variant>");
  options.max_depth = 0;
  EXPECT_EQ(Derive(stats, options), "variant");
}

TEST(ShreddingStatsDeriveTest, ArraysOfObjectsShredTheirElements) {
  auto stats = Scan({R"({"events": [{"k": "a", "v": 1}, {"k": "b"}]})",
                     R"({"events": [{"k": "c", "ts": 5}]})", R"({"events": []})"});
  EXPECT_EQ(Derive(stats),
            "struct<events: array<struct<k: string, ts: bigint, v: bigint>>>");
  InferOptions options;
  options.min_fraction = 0.5;
  EXPECT_EQ(Derive(stats, options), "struct<events: array<struct<k: string>>>");
}

TEST(ShreddingStatsDeriveTest, TopLevelDriftStillShredsTheDominantShape) {
  std::vector<std::string> docs;
  for (int i = 0; i < 100; ++i) {
    docs.push_back(i % 20 == 0 ? "[1, 2]" : R"({"id": )" + std::to_string(i) + "}");
  }
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*JsonStrings(docs)));
  EXPECT_EQ(Derive(stats), "struct<id: bigint>");
  VS_ASSIGN_OR_FAIL(auto schema, stats.DeriveSchema());
  VS_ASSIGN_OR_FAIL(auto report, stats.Report(schema));
  ASSERT_EQ(report.paths.size(), 2u);
  EXPECT_EQ(report.paths[0].path, "$");
  EXPECT_EQ(report.paths[0].typed, 95);
  EXPECT_EQ(report.paths[0].residual, 5);
}

// ----------------------------------------------------------------------
// Report

TEST(ShreddingStatsReportTest, ToStringRendersATable) {
  auto stats = Scan({R"({"a": 1, "b": "x"})", R"({"a": "s"})", nullptr, R"({"a": 3})"});
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("struct<a: bigint, b: string>"));
  VS_ASSIGN_OR_FAIL(auto report, stats.Report(schema));
  EXPECT_EQ(report.ToString(),
            "rows: 4 (1 SQL NULL)\n"
            "path | type   | typed      | residual  | missing\n"
            "-----+--------+------------+-----------+----------\n"
            "$    | struct | 3 (100.0%) | 0 (0.0%)  | 0 (0.0%)\n"
            "a    | bigint | 2 (66.7%)  | 1 (33.3%) | 0 (0.0%)\n"
            "b    | string | 1 (33.3%)  | 0 (0.0%)  | 2 (66.7%)\n");
}

TEST(ShreddingStatsReportTest, CountsUnshreddedFieldsAndUntrackedPaths) {
  ShreddingStatsOptions options;
  options.max_fields_per_object = 1;
  auto stats = Scan({R"({"a": 1, "b": 2, "c": 3})"}, options);
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("struct<a: bigint, b: bigint>"));
  VS_ASSIGN_OR_FAIL(auto report, stats.Report(schema));
  ASSERT_EQ(report.paths.size(), 3u);
  EXPECT_EQ(report.paths[0].unshredded_fields, 2);  // b and c untracked
  EXPECT_TRUE(report.paths[1].exact);
  EXPECT_FALSE(report.paths[2].exact);  // b may exist: it was not tracked
}

struct Tally {
  int64_t slots = 0, typed = 0, residual = 0, missing = 0;
};

// Counts what Shred actually wrote: per schema path, cells with typed_value set,
// value only, or neither, over the slots where the parent's typed_value is set.
void CountCells(const ShreddingSchema& schema, const arrow::Array* value,
                const arrow::Array* typed, const std::vector<int64_t>& slots,
                const std::string& path, std::map<std::string, Tally>* out) {
  Tally& t = (*out)[path];
  std::vector<int64_t> typed_slots;
  for (int64_t i : slots) {
    ++t.slots;
    const bool has_typed = typed && !typed->IsNull(i);
    const bool has_value = value && !value->IsNull(i);
    if (has_typed) {
      ++t.typed;
      typed_slots.push_back(i);
    } else if (has_value) {
      ++t.residual;
    } else {
      ++t.missing;
    }
  }
  auto join = [&](const std::string& name) {
    return path == "$" ? name : path + "." + name;
  };
  if (schema.kind() == ShreddingSchema::Kind::kObject) {
    const auto& s = static_cast<const arrow::StructArray&>(*typed);
    for (const auto& [name, child] : schema.fields()) {
      const auto& group = static_cast<const arrow::StructArray&>(*s.GetFieldByName(name));
      auto v = group.GetFieldByName("value");
      auto tv = group.GetFieldByName("typed_value");
      CountCells(child, v.get(), tv.get(), typed_slots, join(name), out);
    }
  } else if (schema.kind() == ShreddingSchema::Kind::kArray) {
    const auto& list = static_cast<const arrow::ListArray&>(*typed);
    std::vector<int64_t> elements;
    for (int64_t i : typed_slots) {
      for (int64_t k = list.value_offset(i); k < list.value_offset(i + 1); ++k) {
        elements.push_back(k);
      }
    }
    const auto& group = static_cast<const arrow::StructArray&>(*list.values());
    auto v = group.GetFieldByName("value");
    auto tv = group.GetFieldByName("typed_value");
    CountCells(schema.element(), v.get(), tv.get(), elements,
               path == "$" ? "[]" : path + "[]", out);
  }
}

void ExpectReportMatchesShred(const std::shared_ptr<arrow::Array>& column,
                              const ShreddingStats& stats,
                              const ShreddingSchema& schema) {
  VS_ASSIGN_OR_FAIL(auto report, stats.Report(schema));
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*column, schema));
  const auto& top = static_cast<const arrow::StructArray&>(*shredded);
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < top.length(); ++i) {
    if (!top.IsNull(i)) rows.push_back(i);
  }
  std::map<std::string, Tally> actual;
  auto tv = top.GetFieldByName("typed_value");
  CountCells(schema, top.GetFieldByName("value").get(), tv.get(), rows, "$", &actual);
  ASSERT_EQ(actual.size(), report.paths.size());
  for (const auto& row : report.paths) {
    SCOPED_TRACE(row.path);
    ASSERT_TRUE(actual.count(row.path));
    const Tally& t = actual[row.path];
    EXPECT_EQ(row.slots, t.slots);
    EXPECT_EQ(row.missing, t.missing);
    if (row.exact) {
      EXPECT_EQ(row.typed, t.typed);
      EXPECT_EQ(row.residual, t.residual);
    } else {
      EXPECT_LE(row.typed, t.typed);  // a lower bound
    }
  }
}

TEST(ShreddingStatsReportTest, SharesMatchWhatShredDoes) {
  auto column = JsonStrings(MixedDocuments(400, 11));
  ShreddingStats stats;
  VS_ASSERT_OK(stats.Add(*column));
  VS_ASSIGN_OR_FAIL(auto derived, stats.DeriveSchema());
  EXPECT_EQ(derived.ToDdl(),
            "struct<id: bigint, name: string, nested: struct<flag: boolean, x: bigint>, "
            "price: decimal(9,2), price2: decimal(9,1), rare: bigint, "
            "tags: array<string>>");
  ExpectReportMatchesShred(column, stats, derived);
  // Narrower columns than the data: lenient integer counts stay exact, narrow
  // decimals are lower bounds.
  VS_ASSIGN_OR_FAIL(auto narrow,
                    ShreddingSchema::Parse(
                        "struct<id: smallint, price: decimal(4,1), price2: int, "
                        "nested: struct<x: tinyint, flag: string>, tags: array<variant>, "
                        "w: variant>"));
  ExpectReportMatchesShred(column, stats, narrow);
  VS_ASSIGN_OR_FAIL(auto report, stats.Report(narrow));
  bool any_estimate = false;
  for (const auto& r : report.paths) any_estimate |= !r.exact;
  EXPECT_TRUE(any_estimate);
  // Rare and mismatched shapes: integers past int64 as decimals, numbers among
  // string tags, strings where objects dominate, a double column for decimals.
  VS_ASSIGN_OR_FAIL(auto odd, ShreddingSchema::Parse(
                                  "struct<w: struct<big: decimal(20,0)>, "
                                  "tags: array<bigint>, nested: string, price: double, "
                                  "missing: boolean>"));
  ExpectReportMatchesShred(column, stats, odd);
  ExpectReportMatchesShred(column, stats, ShreddingSchema::ValueOnly());
}

}  // namespace
}  // namespace varshred
