// Parquet write throughput (rows/s) of shredded Variant columns on the same event rows
// (JSON already parsed): with and without validation of the input, beside a nested
// non-Variant column (written by Arrow's writer into the same row groups), with JSON
// parsing included (JsonToVariant, then Write), and JSON written straight into the
// shredded columns (WriteJson: the pipeline's per-task work).
// Run: build/rel/bench/parquet_write_benchmark --benchmark_min_time=0.2

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/table.h>
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "bench_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/parquet/writer.h"

namespace varshred {
namespace {

constexpr size_t kRows = 100000;
constexpr int64_t kBatch = 10000;  // Spark's default Arrow batch size
constexpr const char* kSchema =
    "struct<id: bigint, name: string, score: decimal(9,2), tags: array<string>, "
    "nested: struct<x: bigint, flag: boolean>>";

std::shared_ptr<arrow::Array> JsonStrings() {
  arrow::StringBuilder b;
  for (const auto& d : bench::EventDocuments(kRows)) (void)b.Append(d);
  return b.Finish().ValueOrDie();
}

std::string TempPath() {
  return (std::filesystem::temp_directory_path() /
          ("varshred_bench_" + std::to_string(::getpid()) + ".parquet"))
      .string();
}

enum Mode { kChecked, kBesideNestedColumn, kTrusted, kParseAndWrite, kWriteJson };

// A list<int64> column of 0-3 elements per row.
std::shared_ptr<arrow::Array> ListColumn(int64_t rows) {
  arrow::ListBuilder b(arrow::default_memory_pool(),
                       std::make_shared<arrow::Int64Builder>());
  auto* values = static_cast<arrow::Int64Builder*>(b.value_builder());
  for (int64_t i = 0; i < rows; ++i) {
    (void)b.Append();
    for (int64_t k = 0; k < i % 4; ++k) (void)values->Append(i * 10 + k);
  }
  return b.Finish().ValueOrDie();
}

void BM_ParquetWrite(benchmark::State& state) {
  const auto mode = static_cast<Mode>(state.range(0));
  const auto strings = JsonStrings();
  const auto variants = JsonToVariant(*strings).ValueOrDie();
  const auto schema = ShreddingSchema::Parse(kSchema).ValueOrDie();
  const bool with_list = mode == kBesideNestedColumn;
  const auto list = ListColumn(kRows);
  arrow::FieldVector fields = {arrow::field("v", variants->type())};
  if (with_list) fields.push_back(arrow::field("l", list->type()));
  const auto arrow_schema = arrow::schema(fields);
  ParquetWriteOptions options;
  if (mode == kTrusted || mode == kParseAndWrite) options.trusted_columns = {"v"};
  const std::string path = TempPath();
  for (auto _ : state) {
    auto writer = ParquetWriter::Open(path, arrow_schema, {{"v", schema}}, options);
    if (!writer.ok()) {
      state.SkipWithError(writer.status().ToString().c_str());
      return;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(kRows); i += kBatch) {
      if (mode == kWriteJson) {
        auto written = (*writer)->WriteJson(*strings->Slice(i, kBatch));
        if (!written.ok()) state.SkipWithError(written.status().ToString().c_str());
        continue;
      }
      auto column = mode == kParseAndWrite
                        ? JsonToVariant(*strings->Slice(i, kBatch)).ValueOrDie()
                        : variants->Slice(i, kBatch);
      arrow::ArrayVector columns = {column};
      if (with_list) columns.push_back(list->Slice(i, kBatch));
      auto st =
          (*writer)->Write(*arrow::RecordBatch::Make(arrow_schema, kBatch, columns));
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    auto st = (*writer)->Close();
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
  }
  std::filesystem::remove(path);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kRows));
}
BENCHMARK(BM_ParquetWrite)
    ->ArgName("checked0_nestedneighbour1_trusted2_parse3_json4")
    ->Arg(kChecked)
    ->Arg(kBesideNestedColumn)
    ->Arg(kTrusted)
    ->Arg(kParseAndWrite)
    ->Arg(kWriteJson)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
