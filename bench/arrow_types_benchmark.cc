// Typed Arrow <-> Variant over the event rows of shredding_datasets.h (1M rows):
// VariantToArrow into their struct type and ArrowToVariant back. The comparison with
// from_python and Spark's own functions is bench/python/arrow_types_bench.py.
// Build in Release with -DVARSHRED_BUILD_BENCHMARKS=ON.

#include <arrow/array.h>
#include <arrow/type.h>
#include <benchmark/benchmark.h>

#include "bench_util.h"
#include "shredding_datasets.h"
#include "varshred/arrow/arrow_to_variant.h"
#include "varshred/arrow/variant_to_arrow.h"

namespace varshred {
namespace {

constexpr int64_t kRows = 1000000;

std::shared_ptr<arrow::DataType> EventType() {
  return arrow::struct_(
      {arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8()),
       arrow::field("score", arrow::float64()),
       arrow::field("tags", arrow::list(arrow::utf8())),
       arrow::field("nested", arrow::struct_({arrow::field("x", arrow::int64()),
                                              arrow::field("flag", arrow::boolean())}))});
}

const std::shared_ptr<arrow::Array>& Events() {
  static const std::shared_ptr<arrow::Array> events = bench::EventColumn(kRows);
  return events;
}

void BM_VariantToArrow(benchmark::State& state) {
  const auto& events = Events();
  const auto type = EventType();
  for (auto _ : state) {
    auto out = VariantToArrow(*events, type);
    if (!out.ok()) {
      state.SkipWithError(out.status().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * events->length());
}
BENCHMARK(BM_VariantToArrow)->Unit(benchmark::kMillisecond);

void BM_ArrowToVariant(benchmark::State& state) {
  auto typed = VariantToArrow(*Events(), EventType());
  if (!typed.ok()) {
    state.SkipWithError(typed.status().ToString().c_str());
    return;
  }
  for (auto _ : state) {
    auto out = ArrowToVariant(**typed);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * (*typed)->length());
}
BENCHMARK(BM_ArrowToVariant)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
