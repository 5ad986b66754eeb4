// Shredding throughput (rows/s) on Variant columns built directly with VariantBuilder.
// Run: build/shred-rel/bench/shred_benchmark --benchmark_min_time=0.2

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "shredding_datasets.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/builder.h"

namespace varshred {
namespace {

using bench::Dataset;
using bench::kRows;
using bench::MakeColumn;
using bench::SchemaFor;

void BM_Shred(benchmark::State& state, Dataset d) {
  int64_t bytes;
  const auto column = MakeColumn(d, &bytes);
  const auto schema = SchemaFor(d);
  // Untimed warm-up: first-touch allocations and page faults.
  benchmark::DoNotOptimize(Shred(*column, schema).ValueOrDie());
  for (auto _ : state) {
    auto out = Shred(*column, schema);
    if (!out.ok()) state.SkipWithError(out.status().ToString().c_str());
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * bytes);
}

BENCHMARK_CAPTURE(BM_Shred, events, Dataset::kEvents)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Shred, flat10, Dataset::kFlat10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Shred, nested4, Dataset::kNested)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Shred, array_of_objects, Dataset::kArrayOfObjects)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Shred, half_mismatch, Dataset::kHalfMismatch)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
