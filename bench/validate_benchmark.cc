// Full validation (Validate) throughput over parsed documents.

#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "varshred/json.h"
#include "varshred/validate.h"

namespace varshred::bench {
namespace {

void BM_Validate(benchmark::State& state) {
  std::vector<std::string> docs;
  switch (state.range(0)) {
    case 0:
      docs = EventDocuments(10000);
      break;
    case 1:
      docs = NestedDocuments(10000, 8);
      break;
    default:
      docs = WideDocuments(1000, 100);
      break;
  }
  JsonParser parser;
  VariantBuilder builder;
  std::vector<std::pair<std::string, std::string>> variants;
  int64_t bytes = 0;
  for (const auto& d : docs) {
    std::string m, v;
    if (!parser.Parse(d, &builder).ok() || !builder.Finish(&m, &v).ok()) {
      state.SkipWithError("parse failed");
      return;
    }
    bytes += static_cast<int64_t>(m.size() + v.size());
    variants.emplace_back(std::move(m), std::move(v));
  }
  auto validate_all = [&]() {
    for (const auto& [m, v] : variants) {
      auto st = Validate(m, v);
      if (!st.ok()) {
        state.SkipWithError(st.ToString().c_str());
        return;
      }
    }
  };
  validate_all();  // warm-up, untimed
  for (auto _ : state) validate_all();
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(variants.size()));
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_Validate)->ArgName("events0_nested1_wide2")->Arg(0)->Arg(1)->Arg(2);

}  // namespace
}  // namespace varshred::bench
