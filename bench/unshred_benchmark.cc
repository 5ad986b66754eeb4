// Unshredding throughput (rows/s) on Variant columns built directly with VariantBuilder,
// and shredded columns printed as JSON: straight from the typed columns against
// Unshred then VariantToJson.
// Run: build/shred-rel/bench/unshred_benchmark --benchmark_min_time=0.2

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "shredding_datasets.h"
#include "varshred/arrow/json_kernels.h"
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

// `direct`: VariantToJson on the shredded column; else Unshred, then VariantToJson.
void BM_ShreddedToJson(benchmark::State& state, Dataset d, bool direct) {
  int64_t bytes;
  const auto column = MakeColumn(d, &bytes);
  const auto shredded = Shred(*column, SchemaFor(d)).ValueOrDie();
  auto print = [&]() -> arrow::Result<std::shared_ptr<arrow::Array>> {
    if (direct) return VariantToJson(*shredded);
    ARROW_ASSIGN_OR_RAISE(auto plain, Unshred(*shredded));
    return VariantToJson(*plain);
  };
  const auto warm = print().ValueOrDie();  // untimed: first-touch page faults
  const auto& text = static_cast<const arrow::StringArray&>(*warm);
  for (auto _ : state) {
    auto out = print();
    if (!out.ok()) state.SkipWithError(out.status().ToString().c_str());
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.SetBytesProcessed(state.iterations() * text.total_values_length());  // JSON
}

BENCHMARK_CAPTURE(BM_ShreddedToJson, events_direct, Dataset::kEvents, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, events_via_unshred, Dataset::kEvents, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, flat10_direct, Dataset::kFlat10, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, flat10_via_unshred, Dataset::kFlat10, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, nested4_direct, Dataset::kNested, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, nested4_via_unshred, Dataset::kNested, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, half_mismatch_direct, Dataset::kHalfMismatch, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ShreddedToJson, half_mismatch_via_unshred, Dataset::kHalfMismatch,
                  false)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
