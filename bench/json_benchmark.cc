// JSON -> Variant and Variant -> JSON throughput, one document at a time (as the
// Arrow kernels call the parser/writer per row).

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_util.h"
#include "varshred/json.h"

namespace varshred::bench {
namespace {

constexpr size_t kRows = 10000;

std::vector<std::string> Documents(int kind) {
  switch (kind) {
    case 0: return EventDocuments(kRows);
    case 1: return NestedDocuments(kRows, 8);
    default: return WideDocuments(kRows / 10, 100);
  }
}

// Parses every document into (metadata, value) pairs, reusing all buffers.
void ParseAll(JsonParser* parser, VariantBuilder* builder,
              const std::vector<std::string>& docs, std::string* metadata,
              std::string* value, benchmark::State& state) {
  metadata->clear();
  value->clear();
  for (const auto& d : docs) {
    auto st = parser->Parse(d, builder);
    if (st.ok()) st = builder->Finish(metadata, value);
    if (!st.ok()) {
      state.SkipWithError(st.ToString().c_str());
      return;
    }
  }
}

void BM_JsonToVariant(benchmark::State& state) {
  const auto docs = Documents(static_cast<int>(state.range(0)));
  JsonParser parser;
  VariantBuilder builder;
  std::string metadata, value;
  ParseAll(&parser, &builder, docs, &metadata, &value, state);  // warm-up, untimed
  for (auto _ : state) {
    ParseAll(&parser, &builder, docs, &metadata, &value, state);
    benchmark::DoNotOptimize(value.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * TotalBytes(docs));
}
BENCHMARK(BM_JsonToVariant)->ArgName("events0_nested1_wide2")->Arg(0)->Arg(1)->Arg(2);

void BM_VariantToJson(benchmark::State& state) {
  const auto docs = Documents(static_cast<int>(state.range(0)));
  JsonParser parser;
  VariantBuilder builder;
  std::vector<std::pair<std::string, std::string>> variants;
  for (const auto& d : docs) {
    std::string m, v;
    if (!parser.Parse(d, &builder).ok() || !builder.Finish(&m, &v).ok()) {
      state.SkipWithError("parse failed");
      return;
    }
    variants.emplace_back(std::move(m), std::move(v));
  }
  auto writer = JsonWriter::Make().ValueOrDie();
  std::string out;
  int64_t out_bytes = 0;
  auto write_all = [&]() {
    out_bytes = 0;
    for (const auto& [m, v] : variants) {
      out.clear();
      (void)writer.Write(VariantView::MakeUnchecked(MetadataView::MakeUnchecked(m), v), &out);
      out_bytes += static_cast<int64_t>(out.size());
    }
  };
  write_all();  // warm-up, untimed
  for (auto _ : state) {
    write_all();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(variants.size()));
  // Bytes of JSON text produced.
  state.SetBytesProcessed(state.iterations() * out_bytes);
}
BENCHMARK(BM_VariantToJson)->ArgName("events0_nested1_wide2")->Arg(0)->Arg(1)->Arg(2);

}  // namespace
}  // namespace varshred::bench
