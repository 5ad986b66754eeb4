// Writing shredded Variant columns to Parquet and reading them back.

#include <arrow/array.h>
#include <arrow/array/concatenate.h>
#include <arrow/builder.h>
#include <arrow/io/file.h>
#include <arrow/json/from_string.h>
#include <arrow/table.h>
#include <arrow/util/decimal.h>
#include <arrow/util/io_util.h>
#include <parquet/arrow/writer.h>
#include <parquet/column_writer.h>
#include <parquet/file_reader.h>
#include <parquet/file_writer.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "random_variants.h"
#include "shredding_rules.h"
#include "test_util.h"
#include "variant_equal.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/parquet/reader.h"
#include "varshred/parquet/writer.h"

namespace varshred {
namespace {

namespace fs = std::filesystem;

class ParquetIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("varshred_pq_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // Rows covering typed values, mismatches, missing fields, residual fields, arrays
  // with null elements, Variant nulls and SQL NULLs.
  static std::shared_ptr<arrow::Array> Events() {
    arrow::StringBuilder b;
    const char* docs[] = {
        R"({"id": 1, "name": "a", "score": 8.5, "tags": ["x", "y"], "nested": {"x": 3, "flag": true}})",
        R"({"id": "two", "name": null, "tags": [], "nested": {"x": 1.5, "extra": [1]}})",
        nullptr,
        R"([1, 2, 3])",
        R"({"id": 4, "tags": ["p", null, 7], "more": {"deep": {"k": "v"}}})",
        R"(null)",
        R"({"nested": "not an object", "tags": "not an array"})",
        R"({})",
        R"({"id": 9223372036854775807, "score": 123456.78, "name": "long name that needs more than sixty-four bytes to store in a variant"})",
        R"("just a string")",
    };
    for (int r = 0; r < 3; ++r) {
      for (const char* d : docs) {
        if (d)
          (void)b.Append(d);
        else
          (void)b.AppendNull();
      }
    }
    std::shared_ptr<arrow::Array> strings;
    (void)b.Finish(&strings);
    return *JsonToVariant(*strings);
  }

  static std::shared_ptr<arrow::Table> Table(const std::shared_ptr<arrow::Array>& v) {
    arrow::Int64Builder ids;
    for (int64_t i = 0; i < v->length(); ++i) (void)ids.Append(i * 10);
    std::shared_ptr<arrow::Array> id;
    (void)ids.Finish(&id);
    auto schema = arrow::schema(
        {arrow::field("row", arrow::int64(), false), arrow::field("v", v->type(), true)});
    return arrow::Table::Make(schema, {id, v});
  }

  static void ExpectSameVariants(const std::shared_ptr<arrow::Array>& expected,
                                 const std::shared_ptr<arrow::Array>& actual) {
    ASSERT_EQ(expected->length(), actual->length());
    auto e = *VariantArrayView::Make(expected);
    auto a = *VariantArrayView::Make(actual);
    for (int64_t i = 0; i < e.length(); ++i) {
      ASSERT_EQ(e.IsNull(i), a.IsNull(i)) << "row " << i;
      if (e.IsNull(i)) continue;
      auto em = MetadataView::MakeUnchecked(e.metadata(i));
      auto am = MetadataView::MakeUnchecked(a.metadata(i));
      // Lenient shredding widens numbers inside Exact Numeric (int8 -> int64).
      EXPECT_TRUE(testing::NumericEquivalent(VariantView::MakeUnchecked(em, e.value(i)),
                                             VariantView::MakeUnchecked(am, a.value(i))))
          << "row " << i;
    }
  }

  fs::path dir_;
};

ShreddingSchema EventSchema() {
  return *ShreddingSchema::Parse(
      "struct<id: bigint, name: string, score: decimal(9,2), tags: array<string>, "
      "nested: struct<x: int, flag: boolean>>");
}

// `a` with decimal32/64 arrays widened to decimal128, as the reader returns them.
std::shared_ptr<arrow::Array> WidenDecimals(const std::shared_ptr<arrow::Array>& a) {
  const auto& type = *a->type();
  if (type.id() == arrow::Type::DECIMAL32 || type.id() == arrow::Type::DECIMAL64) {
    const auto& d = static_cast<const arrow::DecimalType&>(type);
    arrow::Decimal128Builder b(arrow::decimal128(d.precision(), d.scale()));
    for (int64_t i = 0; i < a->length(); ++i) {
      if (a->IsNull(i)) {
        EXPECT_TRUE(b.AppendNull().ok());
      } else if (type.id() == arrow::Type::DECIMAL32) {
        auto v = static_cast<const arrow::Decimal32Array&>(*a).Value(i);
        int32_t x;
        std::memcpy(&x, v, 4);
        EXPECT_TRUE(b.Append(arrow::Decimal128(x)).ok());
      } else {
        auto v = static_cast<const arrow::Decimal64Array&>(*a).Value(i);
        int64_t x;
        std::memcpy(&x, v, 8);
        EXPECT_TRUE(b.Append(arrow::Decimal128(x)).ok());
      }
    }
    return *b.Finish();
  }
  if (type.id() != arrow::Type::STRUCT && type.id() != arrow::Type::LIST) return a;
  auto data = a->data()->Copy();
  arrow::FieldVector fields;
  for (size_t c = 0; c < data->child_data.size(); ++c) {
    auto child = WidenDecimals(arrow::MakeArray(data->child_data[c]));
    data->child_data[c] = child->data();
    fields.push_back(type.field(static_cast<int>(c))->WithType(child->type()));
  }
  data->type =
      type.id() == arrow::Type::STRUCT ? arrow::struct_(fields) : arrow::list(fields[0]);
  return arrow::MakeArray(data);
}

// The shredding core's two sinks agree: the Parquet sink's file reads back as exactly
// the arrays the Arrow sink (Shred) builds.
void ExpectStoredAsShred(const std::shared_ptr<arrow::ChunkedArray>& stored,
                         const std::shared_ptr<arrow::Array>& input,
                         const ShreddingSchema& schema) {
  auto got = *arrow::Concatenate(stored->chunks());
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*input, schema));
  auto expected = WidenDecimals(shredded);
  // Field nullability may differ (required groups in the file); the data may not.
  VS_ASSIGN_OR_FAIL(auto as_expected, got->View(expected->type()));
  EXPECT_TRUE(as_expected->Equals(*expected)) << as_expected->Diff(*expected);
}

TEST_F(ParquetIoTest, RoundTripsAcrossRowGroupsAsShredBuildsIt) {
  auto variants = Events();
  auto table = Table(variants);
  ParquetWriteOptions options;
  options.row_group_size = 7;  // several row groups
  const std::string file = Path("events.parquet");
  VS_ASSERT_OK(WriteParquet(*table, file, {{"v", EventSchema()}}, options));
  VS_ASSIGN_OR_FAIL(auto info, InspectParquet(file));
  ASSERT_EQ(info.size(), 2u);
  EXPECT_EQ(info[1].layout, VariantColumnLayout::kShredded);
  EXPECT_TRUE(info[1].annotated);
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(file));
  ASSERT_EQ(back->num_rows(), table->num_rows());
  auto v = *arrow::Concatenate(back->column(1)->chunks());
  ExpectSameVariants(variants, v);
  auto row = *arrow::Concatenate(back->column(0)->chunks());
  EXPECT_TRUE(row->Equals(*table->column(0)->chunk(0)));
  ParquetReadOptions raw;
  raw.shredded = true;
  VS_ASSIGN_OR_FAIL(auto stored, ReadParquet(file, raw));
  ExpectStoredAsShred(stored->column(1), variants, EventSchema());
}

// Nested non-Variant columns (list, struct, map) go through Arrow's writer into the same
// row groups as the Variant columns, on either side of them (they forced a second,
// Arrow-only write path before).
TEST_F(ParquetIoTest, NestedColumnsBesideVariantShareTheRowGroups) {
  auto variants = Events();
  const int64_t n = variants->length();
  VS_ASSIGN_OR_FAIL(auto nested, arrow::json::ArrayFromJSONString(
                                     arrow::list(arrow::int32()), "[[1, 2], null, []]"));
  VS_ASSIGN_OR_FAIL(
      auto structs,
      arrow::json::ArrayFromJSONString(
          arrow::struct_({arrow::field("a", arrow::utf8()),
                          arrow::field("b", arrow::list(arrow::float64()))}),
          R"([{"a": "x", "b": [1.5]}, null, {"a": null, "b": null}])"));
  VS_ASSIGN_OR_FAIL(auto maps, arrow::json::ArrayFromJSONString(
                                   arrow::map(arrow::utf8(), arrow::int64()),
                                   R"([[["k", 1]], [], null])"));
  // Repeat the three sample rows to the length of the Variant column.
  auto repeat = [&](const std::shared_ptr<arrow::Array>& a) {
    arrow::ArrayVector parts;
    for (int64_t i = 0; i < n; i += 3)
      parts.push_back(a->Slice(0, std::min<int64_t>(3, n - i)));
    return *arrow::Concatenate(parts);
  };
  auto schema = arrow::schema(
      {arrow::field("l", nested->type()), arrow::field("v", variants->type()),
       arrow::field("s", structs->type()), arrow::field("m", maps->type())});
  auto table = arrow::Table::Make(
      schema, {repeat(nested), variants, repeat(structs), repeat(maps)});
  ParquetWriteOptions options;
  options.row_group_size = 7;
  const std::string file = Path("nested.parquet");
  VS_ASSERT_OK(WriteParquet(*table, file, {{"v", EventSchema()}}, options));

  std::unique_ptr<parquet::ParquetFileReader> reader =
      parquet::ParquetFileReader::OpenFile(file);
  EXPECT_EQ(reader->metadata()->num_row_groups(), (n + 6) / 7);
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(file));
  ASSERT_EQ(back->num_rows(), n);
  ExpectSameVariants(variants, *arrow::Concatenate(back->column(1)->chunks()));
  for (int c : {0, 2, 3}) {
    auto got = *arrow::Concatenate(back->column(c)->chunks());
    EXPECT_TRUE(got->Equals(*table->column(c)->chunk(0)))
        << schema->field(c)->name() << ": " << got->ToString();
  }
  ParquetReadOptions raw;
  raw.shredded = true;
  VS_ASSIGN_OR_FAIL(auto stored, ReadParquet(file, raw));
  ExpectStoredAsShred(stored->column(1), variants, EventSchema());
}

// Every decimal width, largest magnitudes of both signs: the file declares FLBA(16) for
// decimal16 whatever the precision, and reads back exact (precisions 19-35 were
// shifted by the old Arrow write path, which sized the bytes by precision).
TEST_F(ParquetIoTest, StoresEveryDecimalWidthExactly) {
  const char* docs[] = {
      R"({"d9": 9999999.99, "d18": 999999999999999.999, "d20": 999999999999999999.99,
          "d35": 999999999999999999999999999999.99999,
          "d37": 9999999999999999999999999999999999999,
          "d38": 9999999999999999999999999999.9999999999})",
      R"({"d9": -9999999.99, "d18": -999999999999999.999, "d20": -999999999999999999.99,
          "d35": -999999999999999999999999999999.99999,
          "d37": -9999999999999999999999999999999999999,
          "d38": -9999999999999999999999999999.9999999999})",
      R"({"d9": 0.01, "d18": -1, "d20": 1.5, "d35": -0.00001, "d37": 0, "d38": 0.0000000001})"};
  arrow::StringBuilder b;
  for (const char* d : docs) ASSERT_TRUE(b.Append(d).ok());
  VS_ASSIGN_OR_FAIL(auto variants, JsonToVariant(**b.Finish()));
  VS_ASSIGN_OR_FAIL(auto schema,
                    ShreddingSchema::Parse("struct<d9: decimal(9,2), d18: decimal(18,3), "
                                           "d20: decimal(20,2), d35: decimal(35,5), "
                                           "d37: decimal(37,0), d38: decimal(38,10)>"));
  ParquetReadOptions raw;
  raw.shredded = true;
  const std::string file = Path("d.parquet");
  VS_ASSERT_OK(WriteParquet(*Table(variants), file, {{"v", schema}}));
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(file));
  ExpectSameVariants(variants, *arrow::Concatenate(back->column(1)->chunks()));
  VS_ASSIGN_OR_FAIL(auto stored, ReadParquet(file, raw));
  ExpectStoredAsShred(stored->column(1), variants, schema);
}

// Random variants x random schemas: the writer (checked and trusted) stores exactly the
// shredded columns Shred() builds: the core's two sinks agree.
TEST_F(ParquetIoTest, WriterStoresWhatShredBuildsOnRandomData) {
  testing::RandomVariants gen(0xF11E);
  int empty_objects = 0;
  const int trials = testing::FuzzRounds(60);
  for (int trial = 0; trial < trials; ++trial) {
    auto input = gen.Column(25);
    const ShreddingSchema schema = gen.Schema(0);
    auto table =
        arrow::Table::Make(arrow::schema({arrow::field("v", input->type())}), {input});
    for (bool trusted : {false, true}) {
      ParquetWriteOptions options;
      options.row_group_size = 9;
      if (trusted) options.trusted_columns = {"v"};
      const std::string file = Path("random.parquet");
      auto st = WriteParquet(*table, file, {{"v", schema}}, options);
      if (!st.ok()) {
        // Only an empty object (struct<>) has no Parquet form.
        EXPECT_NE(st.message().find("no fields"), std::string::npos) << st.ToString();
        ++empty_objects;
        break;
      }
      ParquetReadOptions raw;
      raw.shredded = true;
      VS_ASSIGN_OR_FAIL(auto back, ReadParquet(file, raw));
      SCOPED_TRACE("trial " + std::to_string(trial) + " trusted " +
                   std::to_string(trusted) + " schema " + schema.ToDdl());
      ExpectStoredAsShred(back->column(0), input, schema);
    }
  }
  EXPECT_LT(empty_objects, trials / 3);  // most trials do write
}

// Thousands of rows per row group: each leaf's level buffers grow several times while
// holding levels (and repetition levels under arrays), then are reused after a flush.
TEST_F(ParquetIoTest, LevelsSurviveTheirBuffersGrowing) {
  testing::RandomVariants gen(0x1E7E);
  for (int trial = 0; trial < 4; ++trial) {
    auto input = gen.Column(5000);
    const ShreddingSchema schema = gen.Schema(0);
    auto table =
        arrow::Table::Make(arrow::schema({arrow::field("v", input->type())}), {input});
    ParquetWriteOptions options;
    options.row_group_size = 2100;  // three row groups, the last one shorter
    const std::string file = Path("levels.parquet");
    auto st = WriteParquet(*table, file, {{"v", schema}}, options);
    if (!st.ok()) {
      EXPECT_NE(st.message().find("no fields"), std::string::npos) << st.ToString();
      continue;
    }
    ParquetReadOptions raw;
    raw.shredded = true;
    VS_ASSIGN_OR_FAIL(auto back, ReadParquet(file, raw));
    SCOPED_TRACE("trial " + std::to_string(trial) + " schema " + schema.ToDdl());
    ExpectStoredAsShred(back->column(0), input, schema);
  }
}

// Wide rows: a row group ends once it buffers row_group_bytes, whatever its row count,
// and a large batch is shredded in slices, so the writer's memory is bounded by bytes.
TEST_F(ParquetIoTest, RowGroupsAreBoundedByBytes) {
  std::mt19937 rng(7);
  std::vector<std::string> docs;
  for (int i = 0; i < 600; ++i) {
    std::string text(8000, ' ');  // random letters: barely compressible
    for (char& c : text) c = static_cast<char>('a' + rng() % 26);
    docs.push_back(R"({"id": )" + std::to_string(i) + R"(, "text": ")" + text + R"("})");
  }
  std::vector<const char*> pointers;
  for (const auto& d : docs) pointers.push_back(d.c_str());
  auto variants = testing::VariantsFromJson(pointers);
  auto table = Table(variants);
  VS_ASSIGN_OR_FAIL(auto schema,
                    ShreddingSchema::Parse("struct<id: bigint, text: string>"));
  ParquetWriteOptions options;
  options.row_group_bytes = 1 << 20;  // about 200 rows of 5 KB compressed text
  options.slice_bytes = 64 << 10;     // a few rows at a time
  const std::string file = Path("wide.parquet");
  VS_ASSERT_OK(WriteParquet(*table, file, {{"v", schema}}, options));  // one batch

  std::unique_ptr<parquet::ParquetFileReader> reader =
      parquet::ParquetFileReader::OpenFile(file);
  const int groups = reader->metadata()->num_row_groups();
  EXPECT_GE(groups, 3);
  EXPECT_LE(groups, 5);
  for (int g = 0; g < groups; ++g) {
    // At most the bound plus the slice that crossed it.
    EXPECT_LT(reader->metadata()->RowGroup(g)->total_compressed_size(),
              options.row_group_bytes + 2 * options.slice_bytes);
  }
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(file));
  ExpectSameVariants(variants, *arrow::Concatenate(back->column(1)->chunks()));

  options.row_group_bytes = 0;  // no byte bound: one row group
  VS_ASSERT_OK(WriteParquet(*table, file, {{"v", schema}}, options));
  EXPECT_EQ(parquet::ParquetFileReader::OpenFile(file)->metadata()->num_row_groups(), 1);
  options.row_group_bytes = -1;
  EXPECT_FALSE(WriteParquet(*table, file, {{"v", schema}}, options).ok());
}

// Leaves encoded on Arrow's thread pool: the same file as one thread writes, byte for
// byte in every column chunk.
TEST_F(ParquetIoTest, ThreadedLeafWritesStoreTheSameColumnChunks) {
  auto variants = Events();
  auto table = Table(variants);
  ParquetWriteOptions options;
  options.row_group_size = 7;
  VS_ASSERT_OK(
      WriteParquet(*table, Path("one.parquet"), {{"v", EventSchema()}}, options));
  options.use_threads = true;
  VS_ASSERT_OK(
      WriteParquet(*table, Path("pool.parquet"), {{"v", EventSchema()}}, options));
  auto one = parquet::ParquetFileReader::OpenFile(Path("one.parquet"));
  auto pool = parquet::ParquetFileReader::OpenFile(Path("pool.parquet"));
  ASSERT_EQ(one->metadata()->num_row_groups(), pool->metadata()->num_row_groups());
  for (int g = 0; g < one->metadata()->num_row_groups(); ++g) {
    auto a = one->metadata()->RowGroup(g);
    auto b = pool->metadata()->RowGroup(g);
    ASSERT_EQ(a->num_columns(), b->num_columns());
    for (int c = 0; c < a->num_columns(); ++c) {
      EXPECT_EQ(a->ColumnChunk(c)->total_compressed_size(),
                b->ColumnChunk(c)->total_compressed_size())
          << "row group " << g << ", column " << c;
    }
  }
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("pool.parquet")));
  ExpectSameVariants(variants, *arrow::Concatenate(back->column(1)->chunks()));
}

// Residual fields of an object survive next to a shredded child object emitted first.
TEST_F(ParquetIoTest, ResidualFieldsBesideShreddedChildObjects) {
  auto input = testing::VariantsFromJson(
      {R"({"o": {"x": 1, "y": 2}, "z": 3, "a": [4]})", R"({"a": 1, "o": {"x": 5}})",
       R"({"o": {"y": {"deep": 1}}, "p": {"x": 2, "q": 3}, "zz": null})"});
  auto table =
      arrow::Table::Make(arrow::schema({arrow::field("v", input->type())}), {input});
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse(
                                     "struct<o: struct<x: int>, p: struct<x: int>>"));
  VS_ASSERT_OK(WriteParquet(*table, Path("r.parquet"), {{"v", schema}}));
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("r.parquet")));
  ExpectSameVariants(input, *arrow::Concatenate(back->column(0)->chunks()));
}

// A trusted column (bytes built by this process) skips validation and writes the same
// file; an untrusted one still rejects bad bytes.
TEST_F(ParquetIoTest, TrustedColumnsWriteTheSameFileWithoutValidation) {
  auto table = Table(Events());
  ParquetWriteOptions trusted;
  trusted.trusted_columns = {"v"};
  VS_ASSERT_OK(WriteParquet(*table, Path("checked.parquet"), {{"v", EventSchema()}}));
  VS_ASSERT_OK(
      WriteParquet(*table, Path("trusted.parquet"), {{"v", EventSchema()}}, trusted));
  EXPECT_EQ(testing::ReadFile(Path("checked.parquet")),
            testing::ReadFile(Path("trusted.parquet")));

  arrow::BinaryBuilder md, value;
  ASSERT_TRUE(md.Append(std::string("\x01\x00\x00", 3)).ok());
  ASSERT_TRUE(value.Append(std::string("\x02\x05", 2)).ok());  // object header, no body
  auto bad = *arrow::StructArray::Make({*md.Finish(), *value.Finish()},
                                       std::vector<std::string>{"metadata", "value"});
  auto bad_table =
      arrow::Table::Make(arrow::schema({arrow::field("w", bad->type())}), {bad});
  ParquetWriteOptions other;
  other.trusted_columns = {"v"};  // names another column: "w" is still checked
  auto st = WriteParquet(*bad_table, Path("bad.parquet"), {}, other);
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_FALSE(fs::exists(Path("bad.parquet")));
}

TEST_F(ParquetIoTest, UnshreddedColumnsAreThePlainAnnotatedGroup) {
  auto table = Table(Events());
  VS_ASSERT_OK(WriteParquet(*table, Path("plain.parquet"), {}));
  VS_ASSIGN_OR_FAIL(auto info, InspectParquet(Path("plain.parquet")));
  EXPECT_EQ(info[1].layout, VariantColumnLayout::kUnshredded);
  EXPECT_TRUE(info[1].annotated);
  EXPECT_EQ(info[1].leaves.size(), 2u);
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("plain.parquet")));
  ExpectSameVariants(table->column(1)->chunk(0),
                     *arrow::Concatenate(back->column(1)->chunks()));
}

TEST_F(ParquetIoTest, SparkLayoutInputIsAccepted) {
  auto variants = *ToLayout(Events(), VariantLayout::kSpark);
  auto table = Table(variants);
  VS_ASSERT_OK(WriteParquet(*table, Path("spark.parquet"), {{"v", EventSchema()}}));
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("spark.parquet")));
  ExpectSameVariants(variants, *arrow::Concatenate(back->column(1)->chunks()));
}

TEST_F(ParquetIoTest, StreamingReadsHonourBatchSize) {
  auto table = Table(Events());
  ParquetWriteOptions options;
  options.row_group_size = 11;
  VS_ASSERT_OK(WriteParquet(*table, Path("s.parquet"), {{"v", EventSchema()}}, options));
  ParquetReadOptions read;
  read.batch_size = 4;
  VS_ASSIGN_OR_FAIL(auto reader, OpenParquetReader(Path("s.parquet"), read));
  int64_t rows = 0;
  int batches = 0;
  std::shared_ptr<arrow::RecordBatch> batch;
  while (true) {
    VS_ASSERT_OK(reader->ReadNext(&batch));
    if (!batch) break;
    EXPECT_LE(batch->num_rows(), 4);
    rows += batch->num_rows();
    ++batches;
  }
  EXPECT_EQ(rows, table->num_rows());
  EXPECT_GE(batches, 8);
}

// Parquet C++ read no rows at batch_size 0 (an empty table, no error) and called the
// file corrupt below it, until 2026-11-30.
TEST_F(ParquetIoTest, BatchSizeMustBePositive) {
  auto table = Table(Events());
  VS_ASSERT_OK(WriteParquet(*table, Path("b.parquet"), {{"v", EventSchema()}}));
  for (int64_t size : {int64_t{0}, int64_t{-1}}) {
    ParquetReadOptions read;
    read.batch_size = size;
    auto st = ReadParquet(Path("b.parquet"), read).status();
    EXPECT_TRUE(st.IsInvalid()) << st.ToString();
    EXPECT_NE(st.message().find("batch_size must be positive"), std::string::npos)
        << st.ToString();
  }
}

// A field declared not nullable makes the Variant group required, which has no level
// for a SQL NULL; Arrow does not check the flag, so such rows reach the writer. They
// crashed it in Parquet C++'s encoder until 2026-11-30.
TEST_F(ParquetIoTest, NullRowsOfANonNullableFieldAreRefused) {
  const auto variants = Events();  // row 2 is NULL
  const auto schema = arrow::schema({arrow::field("v", variants->type(), false)});
  for (const bool shredded : {false, true}) {
    std::map<std::string, ShreddingSchema> shredding;
    if (shredded) shredding.emplace("v", EventSchema());
    const std::string path = Path(shredded ? "s.parquet" : "u.parquet");
    auto st = WriteParquet(*arrow::Table::Make(schema, {variants}), path, shredding);
    EXPECT_TRUE(st.IsInvalid()) << st.ToString();
    EXPECT_NE(st.message().find("column \"v\", row 2: SQL NULL"), std::string::npos)
        << st.ToString();
    EXPECT_FALSE(fs::exists(path));
    // Rows without a NULL write a required group, and read back.
    const auto two = variants->Slice(0, 2);
    VS_ASSERT_OK(WriteParquet(*arrow::Table::Make(schema, {two}), path, shredding));
    VS_ASSIGN_OR_FAIL(auto back, ReadParquet(path));
    ExpectSameVariants(two, *arrow::Concatenate(back->column(0)->chunks()));
  }
}

// Columns come back in the order asked for, each read with its own layout: asked
// otherwise than the file orders them, the layouts (shredded `v`, unshredded `w`) were
// applied to the wrong columns until 2026-11-27 ("a Variant column must be a struct
// array, got int64"), as when the files of a dataset order their columns differently.
TEST_F(ParquetIoTest, ReadsColumnsInTheOrderAskedFor) {
  auto table = Table(Events());
  auto w = testing::VariantsFromJson(std::vector<const char*>(
      static_cast<size_t>(table->num_rows()), R"({"w": [1, "two"]})"));
  table = *table->AddColumn(2, arrow::field("w", w->type()),
                            std::make_shared<arrow::ChunkedArray>(w));
  VS_ASSERT_OK(WriteParquet(*table, Path("o.parquet"), {{"v", EventSchema()}}));
  for (const std::vector<std::string>& columns : {std::vector<std::string>{"w", "row"},
                                                  {"w", "v"},
                                                  {"v", "row", "w"},
                                                  {"w", "v", "row", "w"}}) {
    ParquetReadOptions read;
    read.columns = columns;
    VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("o.parquet"), read));
    std::vector<std::string> unique;
    for (const auto& c : columns) {
      if (std::find(unique.begin(), unique.end(), c) == unique.end()) unique.push_back(c);
    }
    ASSERT_EQ(back->schema()->field_names(), unique);
    for (int i = 0; i < back->num_columns(); ++i) {
      const auto got = *arrow::Concatenate(back->column(i)->chunks());
      const auto want = table->GetColumnByName(unique[static_cast<size_t>(i)])->chunk(0);
      if (unique[static_cast<size_t>(i)] == "row") {
        EXPECT_TRUE(got->Equals(*want));
      } else {
        ExpectSameVariants(want, got);
      }
    }
  }
}

TEST_F(ParquetIoTest, ReadsSelectedRowGroupsInOrder) {
  auto table = Table(Events());
  ParquetWriteOptions options;
  options.row_group_size = 11;
  VS_ASSERT_OK(WriteParquet(*table, Path("g.parquet"), {{"v", EventSchema()}}, options));
  ASSERT_GT(table->num_rows(), 22);
  ParquetReadOptions read;
  read.row_groups = {2, 0};
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("g.parquet"), read));
  auto want = *arrow::Concatenate({table->column(1)->chunk(0)->Slice(22, 8),
                                   table->column(1)->chunk(0)->Slice(0, 11)});
  ExpectSameVariants(want, *arrow::Concatenate(back->column(1)->chunks()));
  VS_ASSIGN_OR_FAIL(auto leaves, ReadParquetLeaves(Path("g.parquet"), {1, 2},
                                                   arrow::default_memory_pool(), {1}));
  EXPECT_EQ(leaves->length(), 11);
  read.row_groups = {99};
  auto missing = ReadParquet(Path("g.parquet"), read);
  ASSERT_TRUE(missing.status().IsIndexError());
  EXPECT_NE(missing.status().message().find("no row group 99"), std::string::npos);
}

TEST_F(ParquetIoTest, Int96TimestampsReadAsMicrosecondsWhenAsked) {
  // Spark's default TIMESTAMP storage: Arrow reads nanoseconds, Spark microseconds
  // (floored, also before 1970).
  const auto type = arrow::timestamp(arrow::TimeUnit::MICRO);
  VS_ASSIGN_OR_FAIL(auto micros, arrow::json::ArrayFromJSONString(
                                     type, "[-1, 0, 1700000000123456, null]"));
  auto table = arrow::Table::Make(arrow::schema({arrow::field("t", type)}), {micros});
  auto props = parquet::ArrowWriterProperties::Builder()
                   .enable_deprecated_int96_timestamps()
                   ->build();
  VS_ASSIGN_OR_FAIL(auto out, arrow::io::FileOutputStream::Open(Path("i96.parquet")));
  VS_ASSERT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 1024,
                                          parquet::default_writer_properties(), props));
  VS_ASSERT_OK(out->Close());
  VS_ASSIGN_OR_FAIL(auto nanos, ReadParquet(Path("i96.parquet")));
  EXPECT_EQ(nanos->column(0)->type()->ToString(), "timestamp[ns]");
  ParquetReadOptions options;
  options.int96_as_micros = true;
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("i96.parquet"), options));
  ASSERT_EQ(back->column(0)->type()->ToString(), "timestamp[us]");
  EXPECT_TRUE(back->column(0)->chunk(0)->Equals(*micros));
}

TEST_F(ParquetIoTest, FailedWriteLeavesNoFile) {
  // Row 1 holds bytes that are not a Variant: the write fails and nothing remains.
  VariantArrayBuilder b;
  VS_ASSERT_OK(b.Append(kEmptyMetadata, kNullValue));
  VS_ASSERT_OK(b.Append(kEmptyMetadata, std::string("\x02\x05", 2)));
  VS_ASSIGN_OR_FAIL(auto bad, b.Finish());
  auto table = Table(bad);
  const std::string file = Path("bad.parquet");
  auto st = WriteParquet(*table, file, {{"v", EventSchema()}});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.ToString();
  EXPECT_TRUE(fs::is_empty(dir_)) << "a partial file was left behind";
}

TEST_F(ParquetIoTest, ShreddingSchemasNameOneColumn) {
  auto events = Events();
  auto missing = WriteParquet(*Table(events), Path("m.parquet"), {{"w", EventSchema()}});
  EXPECT_TRUE(missing.IsKeyError()) << missing.ToString();
  auto twice = arrow::Table::Make(arrow::schema({arrow::field("v", events->type()),
                                                 arrow::field("v", events->type())}),
                                  {events, events});
  auto st = WriteParquet(*twice, Path("t.parquet"), {{"v", EventSchema()}});
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_NE(st.message().find("which the table has 2 times"), std::string::npos)
      << st.ToString();
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(ParquetIoTest, AbortedWriterLeavesNoFile) {
  auto table = Table(Events());
  VS_ASSIGN_OR_FAIL(auto writer,
                    ParquetWriter::Open(Path("x.parquet"), table->schema(), {}));
  auto batch = *table->CombineChunksToBatch();
  VS_ASSERT_OK(writer->Write(*batch));
  writer->Abort();
  writer.reset();
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(ParquetIoTest, StagingFileIsHiddenAndErrorsNameTheTarget) {
  auto table = Table(Events());
  VS_ASSIGN_OR_FAIL(auto writer,
                    ParquetWriter::Open(Path("x.parquet"), table->schema(), {}));
  // Directory readers (Spark, pyarrow.dataset) skip names starting with '.'.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(names[0].rfind(".x.parquet.varshred-tmp-", 0), 0u) << names[0];
  VS_ASSERT_OK(writer->Write(**table->CombineChunksToBatch()));
  VS_ASSERT_OK(writer->Close());
  EXPECT_TRUE(fs::exists(Path("x.parquet")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);

  {
    std::ofstream(Path("file")) << "";
  }
  const std::string target = Path("file") + "/y.parquet";
  auto st = WriteParquet(*table, target, {});
  ASSERT_TRUE(st.IsIOError()) << st.ToString();
  EXPECT_NE(st.message().find(target), std::string::npos) << st.ToString();
  // The OS error is the detail, as in Arrow's own I/O errors.
  EXPECT_NE(st.ToString().find("Not a directory"), std::string::npos) << st.ToString();
  EXPECT_EQ(arrow::internal::ErrnoFromStatus(st), ENOTDIR) << st.ToString();
  EXPECT_EQ(st.ToString().find("varshred-tmp"), std::string::npos) << st.ToString();
}

TEST_F(ParquetIoTest, LeafPathsKeepDotsInsideNames) {
  VS_ASSIGN_OR_FAIL(auto schema,
                    ShreddingSchema::Parse("struct<`a.b`: int, a: struct<b: int>>"));
  auto table = Table(Events());
  VS_ASSERT_OK(WriteParquet(*table, Path("k.parquet"), {{"v", schema}}));
  VS_ASSIGN_OR_FAIL(auto paths, ParquetLeafPaths(Path("k.parquet")));
  using P = std::vector<std::string>;
  EXPECT_NE(
      std::find(paths.begin(), paths.end(), P{"v", "typed_value", "a.b", "typed_value"}),
      paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(),
                      P{"v", "typed_value", "a", "typed_value", "b", "typed_value"}),
            paths.end());
  EXPECT_FALSE(ParquetLeafPaths(Path("missing.parquet")).ok());
}

TEST_F(ParquetIoTest, BadFilesGiveClearErrors) {
  {
    std::ofstream(Path("text.parquet")) << "this is not parquet at all";
  }
  auto st = ReadParquet(Path("text.parquet")).status();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("text.parquet"), std::string::npos) << st.ToString();

  auto table = Table(Events());
  VS_ASSERT_OK(WriteParquet(*table, Path("good.parquet"), {{"v", EventSchema()}}));
  const std::string bytes = testing::ReadFile(Path("good.parquet"));
  {
    std::ofstream out(Path("truncated.parquet"), std::ios::binary);
    out << bytes.substr(0, bytes.size() / 2);
  }
  EXPECT_FALSE(ReadParquet(Path("truncated.parquet")).ok());
  EXPECT_FALSE(ReadParquet(Path("missing.parquet")).ok());
}

TEST_F(ParquetIoTest, CorruptFootersAreErrorsNamingTheFileNeverExceptions) {
  // Every byte of the footer (thrift FileMetaData: the file ends [metadata][len][PAR1])
  // flipped in turn. Parquet C++ throws from metadata accessors, statistics and
  // readers (a wrong physical type, a definition-level histogram of the wrong size);
  // every entry point must turn that into a Status.
  arrow::StringBuilder docs;
  for (int i = 0; i < 30; ++i) {
    VS_ASSERT_OK(docs.Append("{\"a\": " + std::to_string(i) + ", \"b\": [\"s\"]}"));
  }
  VS_ASSERT_OK(docs.Append(R"({"a": "x", "b": 1})"));
  auto table = Table(*JsonToVariant(**docs.Finish()));
  ParquetWriteOptions options;
  options.row_group_size = 16;
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("a bigint, b array<string>"));
  VS_ASSERT_OK(WriteParquet(*table, Path("good.parquet"), {{"v", schema}}, options));
  const std::string bytes = testing::ReadFile(Path("good.parquet"));
  uint32_t footer = 0;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  const size_t begin = bytes.size() - 8 - footer;
  const std::string bad = Path("bad.parquet");
  int failures = 0;
  for (size_t at = begin; at < bytes.size() - 8; ++at) {
    {
      const uint8_t flips[] = {0x01, 0x04, 0xFF};  // one per byte keeps this short
      std::string mutated = bytes;
      mutated[at] = static_cast<char>(mutated[at] ^ flips[at % 3]);
      {
        std::ofstream out(bad, std::ios::binary | std::ios::trunc);
        out << mutated;
      }
      // Any exception escaping here fails the test (gtest catches it) rather than
      // aborting a Python process.
      std::vector<arrow::Status> results = {
          CheckParquetFooter(bad), InspectParquet(bad).status(),
          ReadParquet(bad).status(), ReadParquetLeaves(bad, {1, 2, 3}).status()};
      ParquetReadOptions raw;
      raw.shredded = true;
      results.push_back(ReadParquet(bad, raw).status());
      for (const auto& st : results) {
        if (st.ok()) continue;
        ++failures;
        EXPECT_NE(st.message().find("bad.parquet"), std::string::npos)
            << "byte " << at - begin << ": " << st.ToString();
      }
    }
  }
  EXPECT_GT(failures, 0);
}

TEST_F(ParquetIoTest, CompressionNames) {
  EXPECT_EQ(*ParseCompression("none"), arrow::Compression::UNCOMPRESSED);
  EXPECT_EQ(*ParseCompression("Uncompressed"), arrow::Compression::UNCOMPRESSED);
  EXPECT_EQ(*ParseCompression("ZSTD"), arrow::Compression::ZSTD);
  auto bad = ParseCompression("lzma");
  ASSERT_TRUE(bad.status().IsInvalid());
  EXPECT_EQ(bad.status().message(),
            "unknown compression 'lzma' (valid: none, uncompressed, snappy, gzip, "
            "brotli, zstd, lz4)");
  auto table = Table(Events());
  for (const char* name : {"none", "snappy", "gzip", "brotli", "zstd", "lz4"}) {
    ParquetWriteOptions options;
    options.compression = *ParseCompression(name);
    VS_ASSERT_OK(
        WriteParquet(*table, Path("c.parquet"), {{"v", EventSchema()}}, options));
    VS_ASSIGN_OR_FAIL(auto back, ReadParquet(Path("c.parquet")));
    EXPECT_EQ(back->num_rows(), table->num_rows()) << name;
  }
}

// Writes one row of a single top-level group `v` with the given children and logical
// type, through Parquet C++'s low-level writer (so any annotation can be produced).
void WriteGroupFile(const std::string& path,
                    std::shared_ptr<const ::parquet::LogicalType> type,
                    ::parquet::schema::NodeVector children) {
  namespace ps = ::parquet::schema;
  auto group = ps::GroupNode::Make("v", ::parquet::Repetition::OPTIONAL, children, type);
  auto root = std::static_pointer_cast<ps::GroupNode>(
      ps::GroupNode::Make("schema", ::parquet::Repetition::REQUIRED, {group}));
  auto sink = *arrow::io::FileOutputStream::Open(path);
  auto writer = ::parquet::ParquetFileWriter::Open(sink, root);
  auto* rg = writer->AppendRowGroup();
  for (int c = 0; c < writer->num_columns(); ++c) {
    auto* col = rg->NextColumn();
    const int16_t def =
        static_cast<int16_t>(writer->schema()->Column(c)->max_definition_level());
    if (col->type() == ::parquet::Type::BYTE_ARRAY) {
      const ::parquet::ByteArray v(3, reinterpret_cast<const uint8_t*>("\x01\x00\x00"));
      static_cast<::parquet::ByteArrayWriter*>(col)->WriteBatch(1, &def, nullptr, &v);
    } else {
      const int32_t v = 7;
      static_cast<::parquet::Int32Writer*>(col)->WriteBatch(1, &def, nullptr, &v);
    }
  }
  writer->Close();
  (void)sink->Close();
}

TEST_F(ParquetIoTest, WrongVariantAnnotationsGiveClearErrors) {
  namespace ps = ::parquet::schema;
  using ::parquet::Repetition;
  const auto variant = ::parquet::LogicalType::Variant();
  auto binary = [](const std::string& name, Repetition::type rep) {
    return ps::PrimitiveNode::Make(name, rep, ::parquet::Type::BYTE_ARRAY);
  };
  auto int32 = [](const std::string& name, Repetition::type rep) {
    return ps::PrimitiveNode::Make(name, rep, ::parquet::Type::INT32);
  };
  struct Case {
    std::string name;
    std::shared_ptr<const ::parquet::LogicalType> type;
    ps::NodeVector children;
    std::string expected;  // in the error message
  };
  const std::vector<Case> cases = {
      {"int_metadata",
       variant,
       {int32("metadata", Repetition::REQUIRED), binary("value", Repetition::OPTIONAL)},
       "metadata"},
      {"no_metadata", variant, {binary("value", Repetition::OPTIONAL)}, "metadata"},
      {"int_value",
       variant,
       {binary("metadata", Repetition::REQUIRED), int32("value", Repetition::OPTIONAL)},
       "value"},
      {"version_2",
       ::parquet::LogicalType::Variant(2),
       {binary("metadata", Repetition::REQUIRED), binary("value", Repetition::OPTIONAL)},
       "version 2"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = Path(c.name + ".parquet");
    WriteGroupFile(path, c.type, c.children);
    auto read = ReadParquet(path);
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.status().message().find(c.expected), std::string::npos)
        << read.status().ToString();
    EXPECT_NE(read.status().message().find("v"), std::string::npos);
  }
}

}  // namespace
}  // namespace varshred
