// variant_get over the event rows of shredding_datasets.h:
//   {"id": 17, "name": "user_17", "score": 9.5, "tags": ["a","b"],
//    "nested": {"x": 17, "flag": false}}
// unshredded (1M rows), and the same rows shredded vs unshredded (100k rows).
// With VARSHRED_BENCH_JSONL=FILE, also variant_get(v, path, bigint) on FILE's lines
// (unshredded) for each path of VARSHRED_BENCH_PATHS (space-separated; "$.id" unless
// set).
// Build in Release with -DVARSHRED_BUILD_BENCHMARKS=ON.

#include <arrow/array.h>
#include <arrow/type.h>
#include <benchmark/benchmark.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "bench_util.h"
#include "shredding_datasets.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get.h"
#include "varshred/builder.h"

namespace varshred {
namespace {

constexpr int64_t kRows = 1000000;

const std::shared_ptr<arrow::Array>& Events() {
  static const std::shared_ptr<arrow::Array> events = bench::EventColumn(kRows);
  return events;
}

void Run(benchmark::State& state, const char* path_text,
         const std::shared_ptr<arrow::DataType>& type, bool validate) {
  const auto& events = Events();
  const VariantPath path = *VariantPath::Parse(path_text);
  VariantGetOptions options;
  options.validate = validate;
  // Warm-up outside the timed loop.
  if (!VariantGet(*events, path, type, options).ok()) {
    state.SkipWithError("variant_get failed");
    return;
  }
  for (auto _ : state) {
    auto out = VariantGet(*events, path, type, options);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * events->length());
  state.SetBytesProcessed(state.iterations() * bench::VariantBytes(*events));
}

void BM_VariantGetNestedXInt64(benchmark::State& state) {
  Run(state, "$.nested.x", arrow::int64(), /*validate=*/true);
}
void BM_VariantGetNestedXInt64Trusted(benchmark::State& state) {
  Run(state, "$.nested.x", arrow::int64(), /*validate=*/false);
}
void BM_VariantGetNameString(benchmark::State& state) {
  Run(state, "$.name", arrow::utf8(), /*validate=*/true);
}
void BM_VariantGetNestedVariant(benchmark::State& state) {
  Run(state, "$.nested", nullptr, /*validate=*/true);
}

// ----------------------------------------------------------------------
// Shredded vs unshredded, same rows
//
// bench::Dataset::kEvents rows (shredding_datasets.h), shredded with its schema
// (id bigint, name string, nested.x int, ...). "Residual10" makes every tenth row's
// id and nested.flag strings (AppendEvent's mismatch), so 10% of the rows fall back
// to the residual value bytes at those paths. Compare
// items/s of the Shredded and Unshredded variants of one case (same run); Unshred+Get
// is what reading a shredded column cost before (unshred, then variant_get).

struct ShreddedCase {
  std::shared_ptr<arrow::Array> unshredded;
  std::shared_ptr<arrow::Array> shredded;
};

const ShreddedCase& EventsCase(bool residual10) {
  static const std::array<ShreddedCase, 2> cases = [] {
    std::array<ShreddedCase, 2> out;
    for (int r = 0; r < 2; ++r) {
      out[r].unshredded = bench::EventColumn(bench::kRows, /*mismatch_every=*/r * 10);
      out[r].shredded =
          *Shred(*out[r].unshredded, bench::SchemaFor(bench::Dataset::kEvents));
    }
    return out;
  }();
  return cases[residual10 ? 1 : 0];
}

enum class Input { kUnshredded, kShredded, kUnshredThenGet };

void RunShredded(benchmark::State& state, bool residual10, Input input,
                 const char* path_text, const std::shared_ptr<arrow::DataType>& type) {
  const ShreddedCase& c = EventsCase(residual10);
  const VariantPath path = *VariantPath::Parse(path_text);
  const arrow::Array& array = input == Input::kUnshredded ? *c.unshredded : *c.shredded;
  auto run = [&]() -> arrow::Result<std::shared_ptr<arrow::Array>> {
    if (input != Input::kUnshredThenGet) return VariantGet(array, path, type);
    ARROW_ASSIGN_OR_RAISE(auto unshredded, Unshred(array));
    return VariantGet(*unshredded, path, type);
  };
  auto warm = run();
  if (!warm.ok()) {
    state.SkipWithError(warm.status().ToString().c_str());
    return;
  }
  for (auto _ : state) {
    auto out = run();
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * array.length());
}

#define VS_SHREDDED_BENCH(name, residual, path, type)               \
  void BM_##name##_Unshredded(benchmark::State& s) {                \
    RunShredded(s, residual, Input::kUnshredded, path, type);       \
  }                                                                 \
  void BM_##name##_Shredded(benchmark::State& s) {                  \
    RunShredded(s, residual, Input::kShredded, path, type);         \
  }                                                                 \
  void BM_##name##_UnshredThenGet(benchmark::State& s) {            \
    RunShredded(s, residual, Input::kUnshredThenGet, path, type);   \
  }                                                                 \
  BENCHMARK(BM_##name##_Unshredded)->Unit(benchmark::kMicrosecond); \
  BENCHMARK(BM_##name##_Shredded)->Unit(benchmark::kMicrosecond);   \
  BENCHMARK(BM_##name##_UnshredThenGet)->Unit(benchmark::kMicrosecond)

VS_SHREDDED_BENCH(IdInt64, false, "$.id", arrow::int64());
VS_SHREDDED_BENCH(NameString, false, "$.name", arrow::utf8());
VS_SHREDDED_BENCH(NestedXInt32, false, "$.nested.x", arrow::int32());
VS_SHREDDED_BENCH(NestedXString, false, "$.nested.x", arrow::utf8());
// Typed leaves read as another type: bigint narrowed to int (checked), widened to
// double; int widened to bigint.
VS_SHREDDED_BENCH(IdAsInt32, false, "$.id", arrow::int32());
VS_SHREDDED_BENCH(IdAsDouble, false, "$.id", arrow::float64());
VS_SHREDDED_BENCH(NestedXAsInt64, false, "$.nested.x", arrow::int64());
VS_SHREDDED_BENCH(Tags1String, false, "$.tags[1]", arrow::utf8());
VS_SHREDDED_BENCH(NestedVariant, false, "$.nested", nullptr);
VS_SHREDDED_BENCH(IdInt64Residual10, true, "$.id", arrow::int64());
VS_SHREDDED_BENCH(IdAsInt32Residual10, true, "$.id", arrow::int32());
VS_SHREDDED_BENCH(NestedFlagBoolResidual10, true, "$.nested.flag", arrow::boolean());

BENCHMARK(BM_VariantGetNestedXInt64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VariantGetNestedXInt64Trusted)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VariantGetNameString)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VariantGetNestedVariant)->Unit(benchmark::kMillisecond);

const bool kFileBenchmarks = [] {
  const char* file = std::getenv("VARSHRED_BENCH_JSONL");
  if (file == nullptr) return false;
  arrow::StringBuilder text;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (!text.Append(line).ok()) return false;
  }
  static std::shared_ptr<arrow::Array> rows;
  rows = *JsonToVariant(**text.Finish());
  const char* paths = std::getenv("VARSHRED_BENCH_PATHS");
  std::istringstream words(paths != nullptr ? paths : "$.id");
  for (std::string path; words >> path;) {
    benchmark::RegisterBenchmark(
        ("BM_VariantGet/file/" + path).c_str(),
        [path](benchmark::State& state) {
          const VariantPath parsed = *VariantPath::Parse(path);
          for (auto _ : state) {
            auto out = VariantGet(*rows, parsed, arrow::int64());
            if (!out.ok()) state.SkipWithError(out.status().ToString().c_str());
            benchmark::DoNotOptimize(out);
          }
          state.SetItemsProcessed(state.iterations() * rows->length());
        })
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace varshred
