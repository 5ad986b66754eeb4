// variant_get over unshredded event documents:
//   {"id": 17, "name": "user_17", "score": 8.5, "tags": ["a","b"],
//    "nested": {"x": 3, "flag": true}}
// Build in Release with -DVARSHRED_BUILD_BENCHMARKS=ON.

#include <benchmark/benchmark.h>

#include <string>

#include <arrow/array.h>
#include <arrow/type.h>

#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get.h"
#include "varshred/builder.h"

namespace varshred {
namespace {

constexpr int64_t kRows = 1000000;

std::shared_ptr<arrow::Array> MakeEvents(int64_t rows) {
  VariantArrayBuilder out;
  VariantBuilder b;
  std::string md, value;
  for (int64_t i = 0; i < rows; ++i) {
    b.StartObject();
    b.AddKey("id");
    b.AppendInt(i);
    b.AddKey("name");
    b.AppendString("user_" + std::to_string(i));
    b.AddKey("score");
    b.AppendDecimal(Decimal{85, 1});
    b.AddKey("tags");
    b.StartArray();
    b.AppendString("a");
    b.AppendString("b");
    b.EndArray();
    b.AddKey("nested");
    b.StartObject();
    b.AddKey("x");
    b.AppendInt(i % 100);
    b.AddKey("flag");
    b.AppendBool(true);
    (void)b.EndObject();
    (void)b.EndObject();
    md.clear();
    value.clear();
    (void)b.Finish(&md, &value);
    (void)out.Append(md, value);
  }
  return *out.Finish();
}

const std::shared_ptr<arrow::Array>& Events() {
  static const std::shared_ptr<arrow::Array> events = MakeEvents(kRows);
  return events;
}

int64_t TotalBytes(const arrow::Array& array) {
  const auto& st = static_cast<const arrow::StructArray&>(array);
  int64_t n = 0;
  for (int i = 0; i < st.num_fields(); ++i) {
    n += static_cast<const arrow::BinaryArray&>(*st.field(i)).total_values_length();
  }
  return n;
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
  state.SetBytesProcessed(state.iterations() * TotalBytes(*events));
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

BENCHMARK(BM_VariantGetNestedXInt64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VariantGetNestedXInt64Trusted)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VariantGetNameString)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VariantGetNestedVariant)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace varshred
