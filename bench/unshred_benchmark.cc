// Unshredding throughput (rows/s) on Variant columns built directly with VariantBuilder.
// Run: build/shred-rel/bench/unshred_benchmark --benchmark_min_time=0.2

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "shredding_datasets.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/builder.h"

namespace varshred {
namespace {

using bench::Dataset;
using bench::kRows;
using bench::MakeColumn;
using bench::SchemaFor;

void BM_Unshred(benchmark::State& state, Dataset d) {
  int64_t bytes;
  const auto column = MakeColumn(d, &bytes);
  const auto shredded = Shred(*column, SchemaFor(d)).ValueOrDie();
  // Untimed warm-up: first-touch allocations and page faults.
  benchmark::DoNotOptimize(Unshred(*shredded).ValueOrDie());
  for (auto _ : state) {
    auto out = Unshred(*shredded);
    if (!out.ok()) state.SkipWithError(out.status().ToString().c_str());
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * bytes);  // unshredded Variant bytes
}

BENCHMARK_CAPTURE(BM_Unshred, events, Dataset::kEvents)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Unshred, flat10, Dataset::kFlat10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Unshred, nested4, Dataset::kNested)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Unshred, array_of_objects, Dataset::kArrayOfObjects)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Unshred, half_mismatch, Dataset::kHalfMismatch)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
