// Shredding schema inference (ShreddingStats) over 1M unshredded event documents:
//   {"id": 17, "name": "user_17", "score": 8.5, "tags": ["a","b"],
//    "nested": {"x": 3, "flag": true}}
// parsed with JsonToVariant (one metadata per row, as Spark's parse_json writes).
// Build in Release with -DVARSHRED_BUILD_BENCHMARKS=ON, then:
//   build/infer-rel/bench/infer_benchmark --benchmark_min_time=1

#include <arrow/array.h>
#include <arrow/builder.h>
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shredding_stats.h"

namespace varshred {
namespace {

constexpr size_t kRows = 1000000;

const std::shared_ptr<arrow::Array>& Events() {
  static const std::shared_ptr<arrow::Array> events = [] {
    arrow::StringBuilder b;
    for (const auto& d : bench::EventDocuments(kRows)) (void)b.Append(d);
    return *JsonToVariant(**b.Finish());
  }();
  return events;
}

// Add(): the scan, every row validated (validate = 1) or trusted (0).
void BM_InferScan(benchmark::State& state) {
  const auto& events = Events();
  ShreddingStatsOptions options;
  options.validate = state.range(0) != 0;
  {
    ShreddingStats warm;
    if (!warm.Add(*events).ok()) {
      state.SkipWithError("Add failed");
      return;
    }
  }
  for (auto _ : state) {
    ShreddingStats stats(options);
    benchmark::DoNotOptimize(stats.Add(*events));
    benchmark::DoNotOptimize(stats.root().present());
  }
  state.SetItemsProcessed(state.iterations() * events->length());
  state.SetBytesProcessed(state.iterations() * bench::VariantBytes(*events));
}
BENCHMARK(BM_InferScan)
    ->ArgName("validate")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);

// The whole inference: scan, Serialize/Deserialize (a Spark task shipping its
// result), Merge, DeriveSchema and Report.
void BM_InferEndToEnd(benchmark::State& state) {
  const auto& events = Events();
  for (auto _ : state) {
    ShreddingStats stats;
    if (!stats.Add(*events).ok()) {
      state.SkipWithError("Add failed");
      return;
    }
    auto shipped = ShreddingStats::Deserialize(stats.Serialize());
    ShreddingStats total;
    (void)total.Merge(*shipped);
    auto schema = total.DeriveSchema();
    auto report = total.Report(*schema);
    benchmark::DoNotOptimize(report->paths.size());
  }
  state.SetItemsProcessed(state.iterations() * events->length());
  state.SetBytesProcessed(state.iterations() * bench::VariantBytes(*events));
}
BENCHMARK(BM_InferEndToEnd)->Unit(benchmark::kMillisecond);

// Merging and deriving alone, on the finished statistics (cost per task result).
void BM_InferMergeDerive(benchmark::State& state) {
  ShreddingStats stats;
  if (!stats.Add(*Events()).ok()) {
    state.SkipWithError("Add failed");
    return;
  }
  const std::string bytes = stats.Serialize();
  for (auto _ : state) {
    auto shipped = ShreddingStats::Deserialize(bytes);
    ShreddingStats total;
    (void)total.Merge(*shipped);
    benchmark::DoNotOptimize(total.DeriveSchema());
  }
  state.counters["serialized_bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_InferMergeDerive)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace varshred
