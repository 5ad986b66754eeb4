// Parquet write throughput (rows/s) of shredded Variant columns: both writer paths on
// the same event rows (JSON already parsed), with and without validation of the input,
// and with JSON parsing included (the pipeline's per-task work).
// Run: build/rel/bench/parquet_write_benchmark --benchmark_min_time=0.2

#include <arrow/array/builder_binary.h>
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

enum Mode { kDirect, kArrowPath, kDirectTrusted, kParseAndWrite };

void BM_ParquetWrite(benchmark::State& state) {
  const auto mode = static_cast<Mode>(state.range(0));
  const auto strings = JsonStrings();
  const auto variants = JsonToVariant(*strings).ValueOrDie();
  const auto schema = ShreddingSchema::Parse(kSchema).ValueOrDie();
  const auto arrow_schema = arrow::schema({arrow::field("v", variants->type())});
  ParquetWriteOptions options;
  options.path =
      mode == kArrowPath ? ParquetWritePath::kArrow : ParquetWritePath::kDirect;
  if (mode == kDirectTrusted || mode == kParseAndWrite) options.trusted_columns = {"v"};
  const std::string path = TempPath();
  for (auto _ : state) {
    auto writer = ParquetWriter::Open(path, arrow_schema, {{"v", schema}}, options);
    if (!writer.ok()) {
      state.SkipWithError(writer.status().ToString().c_str());
      return;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(kRows); i += kBatch) {
      auto column = mode == kParseAndWrite
                        ? JsonToVariant(*strings->Slice(i, kBatch)).ValueOrDie()
                        : variants->Slice(i, kBatch);
      auto st =
          (*writer)->Write(*arrow::RecordBatch::Make(arrow_schema, kBatch, {column}));
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    auto st = (*writer)->Close();
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
  }
  std::filesystem::remove(path);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kRows));
}
BENCHMARK(BM_ParquetWrite)
    ->ArgName("direct0_arrow1_trusted2_parse3")
    ->Arg(kDirect)
    ->Arg(kArrowPath)
    ->Arg(kDirectTrusted)
    ->Arg(kParseAndWrite)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
