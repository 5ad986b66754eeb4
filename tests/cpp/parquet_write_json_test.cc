// JSON documents written straight into a shredded Variant column
// (ParquetWriter::WriteJson / WriteJsonLines): the same file, byte for byte, as the
// documents parsed into Variants (JsonToVariant) and written by ParquetWriter::Write.

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/table.h>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "random_variants.h"
#include "test_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/parquet/writer.h"

namespace varshred {
namespace {

namespace fs = std::filesystem;

// A string array, or a string_view array (whose rows are never parsed in place: the
// parser reads a padded copy of each).
std::shared_ptr<arrow::Array> Strings(const std::vector<std::optional<std::string>>& docs,
                                      bool views = false) {
  if (views) {
    arrow::StringViewBuilder b;
    for (const auto& d : docs) {
      EXPECT_TRUE((d ? b.Append(*d) : b.AppendNull()).ok());
    }
    return *b.Finish();
  }
  arrow::StringBuilder b;
  for (const auto& d : docs) {
    if (d) {
      EXPECT_TRUE(b.Append(*d).ok());
    } else {
      EXPECT_TRUE(b.AppendNull().ok());
    }
  }
  return *b.Finish();
}

std::string Lines(const std::vector<std::optional<std::string>>& docs) {
  std::string text;
  for (const auto& d : docs) text += (d ? *d : "  ") + "\n";
  return text;
}

class WriteJsonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("varshred_wj_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  static std::shared_ptr<arrow::Schema> VariantSchema() {
    auto empty = *JsonToVariant(*Strings({}));
    return arrow::schema({arrow::field("v", empty->type())});
  }

  // Writes `docs` through WriteJson (or WriteJsonLines) and through JsonToVariant +
  // Write; expects the same file, or the same error and no file.
  void ExpectSameAsVariants(const std::vector<std::optional<std::string>>& docs,
                            const ShreddingSchema& schema,
                            const JsonToVariantOptions& json = {},
                            ParquetWriteOptions options = {}, bool lines = false,
                            bool views = false) {
    SCOPED_TRACE("schema " + schema.ToDdl() + (lines ? " (lines)" : "") +
                 (views ? " (string views)" : ""));
    // Encodings are chosen from the first slice, and slices are cut by input bytes
    // (JSON text here, Variant bytes there): fixed encodings make the files comparable
    // whatever the slices.
    options.dictionary = false;
    const std::string direct = Path("direct.parquet");
    const std::string variants = Path("variants.parquet");
    fs::remove(direct);
    fs::remove(variants);
    auto strings = Strings(docs, views);

    arrow::Status expected_status;
    int64_t expected_invalid = 0;
    {
      auto parsed = lines ? JsonLinesToVariant(Lines(docs), json)
                          : JsonToVariantWithStats(*strings, json);
      options.trusted_columns = {"v"};
      if (parsed.ok()) {
        expected_invalid = parsed->invalid_rows;
        auto table = arrow::Table::Make(VariantSchema(), {parsed->variants});
        expected_status = WriteParquet(*table, variants, {{"v", schema}}, options);
      } else {
        expected_status = parsed.status();
      }
    }
    options.trusted_columns = {};
    VS_ASSIGN_OR_FAIL(auto writer, ParquetWriter::Open(direct, VariantSchema(),
                                                       {{"v", schema}}, options));
    arrow::Result<int64_t> invalid = lines ? writer->WriteJsonLines(Lines(docs), json)
                                           : writer->WriteJson(*strings, json);
    arrow::Status st = invalid.status();
    if (st.ok()) st = writer->Close();
    if (!expected_status.ok()) {
      // Errors name the row of the input: the writer adds its column and file.
      EXPECT_FALSE(st.ok());
      EXPECT_NE(st.message().find(expected_status.message()), std::string::npos)
          << st.ToString() << "\nexpected: " << expected_status.ToString();
      EXPECT_FALSE(fs::exists(direct));
      return;
    }
    VS_ASSERT_OK(st);
    EXPECT_EQ(*invalid, expected_invalid);
    EXPECT_TRUE(testing::ReadFile(direct) == testing::ReadFile(variants))
        << "the files differ";
  }

  fs::path dir_;
};

ShreddingSchema Parse(const std::string& ddl) { return *ShreddingSchema::Parse(ddl); }

// Typed values, mismatches, missing fields, residuals (out of key order, nested in
// shredded objects and in arrays), escapes, long strings, big and fractional
// numbers, Variant nulls, SQL NULLs, scalar and array documents.
std::vector<std::optional<std::string>> Documents() {
  // Large headers: an array of 300 elements, an object of 300 residual fields.
  std::string many_tags = R"({"tags": [)", many_fields = "{";
  for (int i = 0; i < 300; ++i) {
    many_tags += (i ? ", \"t" : "\"t") + std::to_string(i) + "\"";
    many_fields += "\"f" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  }
  many_tags += "]}";
  many_fields += R"("id": 3})";
  return {
      many_tags,
      many_fields,
      R"({"\u0069d": 7, "n\u0061me": "escaped key names a shredded field"})",
      R"({"id": 1, "name": "a", "score": 8.5, "tags": ["x", "y"], "nested": {"x": 3, "flag": true}})",
      R"({"zeta": 1, "id": "two", "alpha": [1, {"b": 2, "a": 1}], "name": null, "tags": [], "nested": {"x": 1.5, "extra": [1], "a": {}}})",
      std::nullopt,
      R"([1, 2, 3])",
      R"({"id": 4, "tags": ["p", null, 7, {"t": 1}], "more": {"deep": {"k": "v"}}})",
      R"(null)",
      R"({"nested": "not an object", "tags": "not an array"})",
      R"({})",
      R"({"id": 9223372036854775807, "score": 123456.78, "name": "long name that needs more than sixty-four bytes to store in a variant value"})",
      R"("just a string")",
      R"({"id": 123456789012345678901234567890, "score": 1e3, "name": "caf\u00e9 \"q\"", "k\"ey": 1, "nested": {"flag": false, "x": -7}})",
      R"({"score": 0.10, "tags": [["nested"], "s"], "nested": {"x": 2, "x2": {"y": [1, 2]}}})",
      R"(  {"id": 5}  )",
      R"(12.50)",
      R"({"id": -9223372036854775808, "score": -0.005, "tags": ["a", "b", "c", "d"]})",
  };
}

const char* kSchemas[] = {
    "struct<id: bigint, name: string, score: decimal(9,2), tags: array<string>, "
    "nested: struct<x: int, flag: boolean>>",
    "struct<id: bigint>",
    "struct<tags: array<struct<t: int>>, nested: struct<x2: struct<y: array<bigint>>>>",
    "struct<alpha: array<variant>, zeta: double, more: struct<deep: variant>>",
    "array<bigint>",
    "decimal(18,2)",
    "string",
    "variant",
};

TEST_F(WriteJsonTest, WritesTheFileItsVariantsWrite) {
  for (const char* ddl : kSchemas) {
    for (int64_t slice_bytes : {int64_t{0}, int64_t{200}}) {
      for (bool threads : {false, true}) {  // threads: halves of slices at once
        ParquetWriteOptions options;
        options.slice_bytes = slice_bytes;
        options.row_group_size = 4;
        options.use_threads = threads;
        ExpectSameAsVariants(Documents(), Parse(ddl), {}, options);
        ExpectSameAsVariants(Documents(), Parse(ddl), {}, options, /*lines=*/true);
        ExpectSameAsVariants(Documents(), Parse(ddl), {}, options, false, /*views=*/true);
      }
    }
  }
}

TEST_F(WriteJsonTest, NumbersAsDoublesAndStrictDecimals) {
  JsonToVariantOptions doubles;
  doubles.parse.numbers = JsonNumbers::kDouble;
  ExpectSameAsVariants(Documents(), Parse(kSchemas[0]), doubles);
  ParquetWriteOptions strict;
  strict.numeric = NumericShredding::kStrict;
  ExpectSameAsVariants(Documents(), Parse(kSchemas[0]), {}, strict);
}

// A document the walk cannot finish sends the whole slice through JsonToVariant: the
// error (naming the row of the input, in any slice), the rows made NULL, and the
// duplicate keys kept last are theirs.
TEST_F(WriteJsonTest, BadDocumentsAreReportedAsJsonToVariantReportsThem) {
  const ShreddingSchema schema = Parse(kSchemas[0]);
  std::vector<std::vector<std::optional<std::string>>> cases = {
      {R"({"id": 1})", R"({"id": 2, "id": 3})", R"({"id": 4})"},             // shredded
      {R"({"id": 1})", R"({"q": 2, "name": "n", "q": 3})", R"({"id": 4})"},  // residual
      {R"({"id": 1})", R"({"nested": {"x": 1, "x": 2}})"},
      {R"({"id": 1})", R"({"more": {"k": 1, "k": 2}})"},  // inside a residual value
      {R"({"id": 1})", R"({"id": 2,})", R"({"id": 3})"},
      {R"({"id": 1})", R"({"id": 2} x)"},
      {R"({"id": 1})", R"({"tags": ["a", tru]})"},
      {R"({"id": 1})", R"({"name": "\ud800"})"},
      {R"({"id": 1})", ""},
      {R"({"id": 1})", "{\"name\": \"\xff\"}"},
  };
  for (const auto& docs : cases) {
    std::vector<std::optional<std::string>> many(40, std::string(R"({"id": 0})"));
    many.insert(many.end(), docs.begin(), docs.end());
    for (auto errors : {JsonErrorPolicy::kRaise, JsonErrorPolicy::kNull}) {
      for (auto dups : {DuplicateKeyPolicy::kRaise, DuplicateKeyPolicy::kLastWins}) {
        JsonToVariantOptions json;
        json.errors = errors;
        json.parse.duplicate_keys = dups;
        ParquetWriteOptions options;
        options.slice_bytes = 300;  // the bad row lies in a later slice
        ExpectSameAsVariants(many, schema, json, options);
        ExpectSameAsVariants(many, schema, json, options, /*lines=*/true);
        options.use_threads = true;  // in either half of it
        ExpectSameAsVariants(many, schema, json, options);
      }
    }
  }
}

TEST_F(WriteJsonTest, DeepDocumentsAreBoundedAsTheParserBoundsThem) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += R"({"a": )";
  deep += "1";
  for (int i = 0; i < 40; ++i) deep += "}";
  std::string nested_schema = "bigint";
  for (int i = 0; i < 5; ++i) nested_schema = "struct<a: " + nested_schema + ">";
  for (int max_depth : {3, 39, 40, 64}) {
    JsonToVariantOptions json;
    json.parse.max_depth = max_depth;
    ExpectSameAsVariants({deep, R"({"a": {"a": 2}})"}, Parse(nested_schema), json);
    json.errors = JsonErrorPolicy::kNull;
    ExpectSameAsVariants({deep, R"({"a": {"a": 2}})"}, Parse(nested_schema), json);
  }
}

// Random values printed as JSON, against random schemas.
TEST_F(WriteJsonTest, RandomDocumentsAndSchemas) {
  testing::RandomVariants gen(0x150D);
  const int trials = testing::FuzzRounds(60);
  for (int trial = 0; trial < trials; ++trial) {
    auto variants = gen.Column(30);
    VS_ASSIGN_OR_FAIL(auto json, VariantToJson(*variants));
    const auto& text = static_cast<const arrow::StringArray&>(*json);
    std::vector<std::optional<std::string>> docs;
    for (int64_t i = 0; i < text.length(); ++i) {
      if (text.IsNull(i)) {
        docs.emplace_back(std::nullopt);
      } else {
        docs.emplace_back(std::string(text.GetView(i)));
      }
    }
    const ShreddingSchema schema = gen.Schema(0);
    if (schema.ToDdl().find("struct<>") != std::string::npos)
      continue;  // no Parquet form
    SCOPED_TRACE("trial " + std::to_string(trial));
    ParquetWriteOptions options;
    options.row_group_size = 7;
    options.slice_bytes = 500;
    options.use_threads = trial % 2 == 1;
    ExpectSameAsVariants(docs, schema, {}, options);
  }
}

// Each row's dictionary is its own: a row that replayed the remembered keys took the
// previous row's dictionary when that row had left the replay with an encoding of the
// same size (row 8 was written as {"id","n","o"}; shredder probe). Keys of one length
// make same-size dictionaries common; after 8 diverging rows the builder stops
// remembering every row.
TEST_F(WriteJsonTest, RowsKeepTheirOwnDictionaries) {
  ExpectSameAsVariants({R"({"A":1})", R"({"n":1})", R"({"A":1})", R"({"n":1})",
                        R"({"A":1})", R"({"n":1})", R"({"id":1,"o":1,"A":1,"n":1})",
                        R"({"id":1,"o":1,"n":1})", R"({"id":1,"o":1,"A":1})"},
                       Parse("struct<o: bigint>"));
  std::mt19937_64 rng(20261130);
  const char* names[] = {"a", "b", "c", "o", "x"};
  for (int trial = 0; trial < testing::FuzzRounds(40); ++trial) {
    std::vector<std::optional<std::string>> docs;
    for (int row = 0; row < 100; ++row) {
      std::string doc = "{";
      for (const char* name : names) {
        if (rng() % 2 == 0) continue;
        if (doc.size() > 1) doc += ",";
        doc += std::string("\"") + name + "\":" + std::to_string(rng() % 3);
      }
      docs.emplace_back(doc + "}");
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    ExpectSameAsVariants(
        docs, Parse(trial % 2 ? "struct<o: bigint>" : "struct<a: int, x: string>"));
    if (::testing::Test::HasFailure()) return;
  }
}

// Fixed-seed mutations of the documents above, one per file: the walk either writes
// what their Variants write or leaves the document to JsonToVariant, never accepting
// one it refuses.
TEST_F(WriteJsonTest, MutatedDocumentsWriteWhatTheirVariantsWrite) {
  std::vector<std::string> seeds;
  for (const auto& d : Documents()) {
    if (d && d->size() < 1000) seeds.push_back(*d);
  }
  const ShreddingSchema schemas[] = {Parse(kSchemas[0]), Parse(kSchemas[2])};
  std::mt19937_64 rng(20261126);
  const int rounds = testing::FuzzRounds(400);
  for (int round = 0; round < rounds; ++round) {
    const std::string d = testing::MutatedJson(seeds[rng() % seeds.size()], rng, 1);
    SCOPED_TRACE(d);
    ExpectSameAsVariants({d}, schemas[round % 2]);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Rows back to back are indexed a window at a time (JsonReader::IndexAhead), by the
// writer's own walk too: rows whose quotes, escapes or UTF-8 would change how the next
// ones read as one text, and fixed-seed mutated rows, write what their Variants write.
TEST_F(WriteJsonTest, RowsSideBySideWriteWhatTheirVariantsWrite) {
  std::vector<std::optional<std::string>> docs = {
      R"({"id":)",         "1}",
      R"({"id": 2})",      R"(["a)",
      R"([" [3])",         R"({"name":"x\"})",
      R"({"id": 4})",      "{\"name\":\"\xc3",
      "\xa9\"}",           R"({"id": 5} {"id": 6})",
      R"({"tags": ["t"]})"};
  std::vector<std::string> seeds;
  for (const auto& d : Documents()) {
    if (d && d->size() < 1000) seeds.push_back(*d);
  }
  std::mt19937_64 rng(20261128);
  const int rows = testing::FuzzRounds(200);
  for (int i = 0; i < rows; ++i) {
    const std::string& seed = seeds[rng() % seeds.size()];
    docs.push_back(rng() % 2 == 0 ? seed : testing::MutatedJson(seed, rng, 1));
  }
  JsonToVariantOptions json;
  json.errors = JsonErrorPolicy::kNull;
  ParquetWriteOptions options;
  options.slice_bytes = 2000;
  for (const char* schema : {kSchemas[0], kSchemas[2]}) {
    ExpectSameAsVariants(docs, Parse(schema), json, options);
    ExpectSameAsVariants(docs, Parse(schema), json, options, /*lines=*/true);
  }
}

// The writer reads rows from an index of the bytes after them (JsonParser::
// IndexAhead()) only within one call: the next call's input may lie where the last
// one's did, with other bytes. Here the second call's row changed in place after the
// first call indexed it: it is invalid JSON now and must not read as ["a\"",1].
TEST_F(WriteJsonTest, EachCallIndexesItsOwnInput) {
  // The last row leaves the first two enough bytes after them to be read in place.
  auto strings = Strings({"[0]", R"(["ab",1])", "[" + std::string(100, ' ') + "2]"});
  VS_ASSIGN_OR_FAIL(auto writer,
                    ParquetWriter::Open(Path("calls.parquet"), VariantSchema(),
                                        {{"v", Parse("array<bigint>")}}, {}));
  JsonToVariantOptions json;
  json.errors = JsonErrorPolicy::kNull;
  VS_ASSIGN_OR_FAIL(auto invalid, writer->WriteJson(*strings->Slice(0, 1), json));
  EXPECT_EQ(invalid, 0);
  uint8_t* data = strings->data()->buffers[2]->mutable_data();
  const std::string changed = R"(["a"",1])";
  std::memcpy(data + 3, changed.data(), changed.size());
  VS_ASSIGN_OR_FAIL(invalid, writer->WriteJson(*strings->Slice(1, 1), json));
  EXPECT_EQ(invalid, 1);
  VS_ASSERT_OK(writer->Close());
}

// A NULL string, or a document made NULL under JsonErrorPolicy::kNull, has no place
// in a required Variant group: WriteJson published a file whose leaves were out of
// step (row 2's metadata moved to row 1) until 2026-11-30.
TEST_F(WriteJsonTest, NullRowsOfANonNullableFieldAreRefused) {
  const auto type = VariantSchema()->field(0)->type();
  const auto schema = arrow::schema({arrow::field("v", type, false)});
  for (const char* ddl : {"struct<a: int>", "variant"}) {
    std::map<std::string, ShreddingSchema> shredding;
    if (std::string(ddl) != "variant") shredding.emplace("v", Parse(ddl));
    for (const bool bad_document : {false, true}) {
      JsonToVariantOptions json;
      json.errors = JsonErrorPolicy::kNull;
      const std::string path = Path("n.parquet");
      VS_ASSIGN_OR_FAIL(auto writer, ParquetWriter::Open(path, schema, shredding));
      std::vector<std::optional<std::string>> docs = {R"({"a": 1})", std::nullopt, "[3]"};
      if (bad_document) docs[1] = "{";
      auto st = writer->WriteJson(*Strings(docs), json).status();
      EXPECT_TRUE(st.IsInvalid()) << st.ToString();
      EXPECT_NE(st.message().find("row 1: SQL NULL"), std::string::npos) << st.ToString();
      EXPECT_FALSE(writer->Close().ok());
      EXPECT_FALSE(fs::exists(path));
    }
  }
}

// As JsonToVariant: a bad option fails the call, not every row (kNull wrote NULLs).
TEST_F(WriteJsonTest, BadParseOptionsFailTheCall) {
  JsonToVariantOptions json;
  json.errors = JsonErrorPolicy::kNull;
  json.parse.max_depth = -1;
  VS_ASSIGN_OR_FAIL(auto writer, ParquetWriter::Open(Path("o.parquet"), VariantSchema(),
                                                     {{"v", Parse("struct<a: int>")}}));
  auto st = writer->WriteJson(*Strings({R"({"a": 1})"}), json).status();
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_EQ(st.message().rfind("JSON max_depth -1", 0), 0u) << st.message();
}

TEST_F(WriteJsonTest, NeedsAWriterOfOneVariantColumn) {
  auto schema =
      arrow::schema({VariantSchema()->field(0), arrow::field("id", arrow::int64())});
  VS_ASSIGN_OR_FAIL(auto writer, ParquetWriter::Open(Path("two.parquet"), schema, {}));
  auto st = writer->WriteJson(*Strings({R"({"a": 1})"})).status();
  EXPECT_TRUE(st.IsTypeError()) << st.ToString();
  arrow::Int32Builder ints;
  ASSERT_TRUE(ints.Append(1).ok());
  VS_ASSIGN_OR_FAIL(auto not_strings, ints.Finish());
  VS_ASSIGN_OR_FAIL(auto one,
                    ParquetWriter::Open(Path("one.parquet"), VariantSchema(), {}));
  EXPECT_TRUE(one->WriteJson(*not_strings).status().IsTypeError());
}

}  // namespace
}  // namespace varshred
