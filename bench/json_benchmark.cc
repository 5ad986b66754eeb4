// JSON -> Variant and Variant -> JSON throughput, one document at a time (as the
// Arrow kernels call the parser/writer per row), the Arrow kernels users call, and
// simdjson's own parse of the same documents as the parser-limit peer.
//
// With VARSHRED_BENCH_JSONL=FILE the two Arrow kernels also run on FILE's lines as
// `BM_*Kernel/file`: bench/python/kernel_parity_bench.py times the Python calls on the
// same rows against them.

#include <arrow/array/builder_binary.h>
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/json.h"

namespace varshred::bench {
namespace {

constexpr size_t kRows = 10000;

// Rows used as maps: 5 keys drawn per row from 100000 names, so no two rows share a
// dictionary (the worst case for the builder's reuse of the previous row's shape).
std::vector<std::string> MapDocuments(size_t n) {
  std::mt19937_64 rng(kSeed);
  std::uniform_int_distribution<int> name(0, 99999);
  std::vector<std::string> docs;
  docs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::string d = "{";
    for (int k = 0; k < 5; ++k) {
      d += (k ? ", \"u" : "\"u") + std::to_string(name(rng)) +
           "\": " + std::to_string(k * 37);
    }
    docs.push_back(d + "}");
  }
  return docs;
}

// Rows of doubles (JSON numbers with an exponent parse as doubles): sensor readings,
// as a Spark column of doubles cast to Variant holds them.
std::vector<std::string> DoubleDocuments(size_t n) {
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> reading(-1000.0, 1000.0);
  std::vector<std::string> docs;
  docs.reserve(n);
  char buf[32];
  for (size_t i = 0; i < n; ++i) {
    std::string d = "{";
    for (const char* key : {"\"x\": ", ", \"y\": ", ", \"z\": "}) {
      d += key;
      d.append(buf, std::to_chars(buf, buf + sizeof(buf), reading(rng),
                                  std::chars_format::scientific)
                        .ptr);
    }
    docs.push_back(d + "}");
  }
  return docs;
}

std::vector<std::string> Documents(int kind) {
  switch (kind) {
    case 0:
      return EventDocuments(kRows);
    case 1:
      return NestedDocuments(kRows, 8);
    case 2:
      return WideDocuments(kRows / 10, 100);
    case 3:
      return MapDocuments(kRows);
    default:
      return DoubleDocuments(kRows);
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
BENCHMARK(BM_JsonToVariant)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

std::shared_ptr<arrow::Array> StringArray(const std::vector<std::string>& docs) {
  arrow::StringBuilder sb;
  std::shared_ptr<arrow::Array> strings;
  for (const auto& d : docs) {
    if (!sb.Append(d).ok()) return nullptr;
  }
  return sb.Finish(&strings).ok() ? strings : nullptr;
}

// The JSON -> Variant Arrow kernel (string column -> Variant struct column).
void RunJsonToVariantKernel(const std::vector<std::string>& docs,
                            benchmark::State& state) {
  const auto strings = StringArray(docs);
  if (strings == nullptr) return state.SkipWithError("building input failed");
  for (auto _ : state) {
    auto result = JsonToVariant(*strings);
    if (!result.ok()) return state.SkipWithError(result.status().ToString().c_str());
    benchmark::DoNotOptimize(result->get());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * TotalBytes(docs));
}

// The Variant -> JSON Arrow kernel; bytes are those of the JSON text it prints.
void RunVariantToJsonKernel(const std::vector<std::string>& docs,
                            benchmark::State& state) {
  const auto strings = StringArray(docs);
  if (strings == nullptr) return state.SkipWithError("building input failed");
  auto variants = JsonToVariant(*strings);
  if (!variants.ok()) return state.SkipWithError(variants.status().ToString().c_str());
  int64_t text_bytes = 0;
  for (auto _ : state) {
    auto result = VariantToJson(**variants);
    if (!result.ok()) return state.SkipWithError(result.status().ToString().c_str());
    text_bytes = static_cast<const arrow::StringArray&>(**result).total_values_length();
    benchmark::DoNotOptimize(result->get());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * text_bytes);
}

// The Arrow kernel (string column -> Variant struct column), as users call it.
void BM_JsonToVariantKernel(benchmark::State& state) {
  RunJsonToVariantKernel(Documents(static_cast<int>(state.range(0))), state);
}
BENCHMARK(BM_JsonToVariantKernel)
    ->ArgName("events0_nested1_wide2_maps3_doubles4")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4);

// The Variant -> JSON Arrow kernel (validation included), as users call it.
void BM_VariantToJsonKernel(benchmark::State& state) {
  const auto docs = Documents(static_cast<int>(state.range(0)));
  RunVariantToJsonKernel(docs, state);
}
BENCHMARK(BM_VariantToJsonKernel)
    ->ArgName("events0_nested1_wide2_maps3_doubles4")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4);

// JSON lines -> Variant straight from one text buffer (what a pipeline task runs on
// each 1 MB slice of its split), in slices of `slice` bytes of whole lines.
void BM_JsonLinesToVariant(benchmark::State& state) {
  const auto docs = Documents(static_cast<int>(state.range(0)));
  std::string text;
  for (const auto& d : docs) text.append(d).push_back('\n');
  std::vector<std::string_view> slices;
  constexpr size_t kSlice = size_t{1} << 20;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(start + kSlice, text.size());
    end = text.find('\n', end - 1);
    end = end == std::string::npos ? text.size() : end + 1;
    slices.push_back(std::string_view(text).substr(start, end - start));
    start = end;
  }
  for (auto _ : state) {
    for (const auto slice : slices) {
      auto result = JsonLinesToVariant(slice);
      if (!result.ok()) return state.SkipWithError(result.status().ToString().c_str());
      benchmark::DoNotOptimize(result->variants.get());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * TotalBytes(docs));
}
BENCHMARK(BM_JsonLinesToVariant)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

// The two kernels on the lines of $VARSHRED_BENCH_JSONL, when it is set.
const bool kFileBenchmarks = [] {
  const char* path = std::getenv("VARSHRED_BENCH_JSONL");
  if (path == nullptr) return false;
  static std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
  benchmark::RegisterBenchmark("BM_JsonToVariantKernel/file", [](benchmark::State& st) {
    RunJsonToVariantKernel(lines, st);
  });
  benchmark::RegisterBenchmark("BM_VariantToJsonKernel/file", [](benchmark::State& st) {
    RunVariantToJsonKernel(lines, st);
  });
  return true;
}();

// ----------------------------------------------------------------------
// Peers: simdjson alone on the same documents (the parser limit)

std::vector<simdjson::padded_string> Padded(const std::vector<std::string>& docs) {
  std::vector<simdjson::padded_string> out;
  out.reserve(docs.size());
  for (const auto& d : docs) out.emplace_back(d);
  return out;
}

namespace od = simdjson::ondemand;

// Visits every value once, reading keys, strings and number tokens (what
// JsonParser needs from simdjson), and folds them into a checksum.
simdjson::error_code Walk(od::value v, uint64_t* sum) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  switch (type) {
    case od::json_type::object: {
      od::object obj;
      if (auto err = v.get_object().get(obj)) return err;
      for (auto field_result : obj) {
        od::field field;
        if (auto err = std::move(field_result).get(field)) return err;
        std::string_view key;
        if (auto err = field.unescaped_key().get(key)) return err;
        *sum += key.size();
        if (auto err = Walk(field.value(), sum)) return err;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::array: {
      od::array arr;
      if (auto err = v.get_array().get(arr)) return err;
      for (auto element : arr) {
        od::value e;
        if (auto err = std::move(element).get(e)) return err;
        if (auto err = Walk(e, sum)) return err;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::string: {
      std::string_view s;
      if (auto err = v.get_string().get(s)) return err;
      *sum += s.size();
      return simdjson::SUCCESS;
    }
    case od::json_type::number: {
      double d;
      if (auto err = v.get_double().get(d)) return err;
      *sum += static_cast<uint64_t>(d);
      return simdjson::SUCCESS;
    }
    case od::json_type::boolean: {
      bool b;
      if (auto err = v.get_bool().get(b)) return err;
      *sum += b;
      return simdjson::SUCCESS;
    }
    default:
      return simdjson::SUCCESS;
  }
}

// One pass of the on-demand walk over every document; false if simdjson refuses one.
// Not inlined, as the other peers' passes, so that an instruction count can collect
// exactly one pass (bench/python/kernel_profile.py).
[[gnu::noinline]] bool OnDemandPass(od::parser* parser,
                                    const std::vector<simdjson::padded_string>& docs,
                                    uint64_t* sum) {
  for (const auto& d : docs) {
    od::document doc;
    if (parser->iterate(d).get(doc)) return false;
    od::value root;
    if (doc.get_value().get(root) || Walk(root, sum)) return false;
  }
  return true;
}

void BM_SimdjsonOnDemandPeer(benchmark::State& state) {
  const auto raw = Documents(static_cast<int>(state.range(0)));
  const auto docs = Padded(raw);
  od::parser parser;
  uint64_t sum = 0;
  for (auto _ : state) {
    if (!OnDemandPass(&parser, docs, &sum)) return state.SkipWithError("walk failed");
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * TotalBytes(raw));
}
BENCHMARK(BM_SimdjsonOnDemandPeer)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

// The parser's own bound: simdjson's first stage (JsonParser's too) and a pass over
// its token index that builds nothing, reading each string's extent and each number's
// value, as JsonParser's walk does before it calls the builder.
[[gnu::noinline]] bool TokenIndexPass(
    simdjson::internal::dom_parser_implementation* indexer,
    const std::vector<simdjson::padded_string>& docs, uint64_t* sum) {
  for (const auto& d : docs) {
    const auto* text = reinterpret_cast<const uint8_t*>(d.data());
    if (indexer->stage1(text, d.size(), simdjson::stage1_mode::regular)) return false;
    const uint32_t* index = indexer->structural_indexes.get();
    for (uint32_t i = 0; i < indexer->n_structural_indexes; ++i) {
      const std::string_view token(d.data() + index[i], index[i + 1] - index[i]);
      if (token[0] == '"') {
        const std::string_view inner = token.substr(1, token.find_last_of('"') - 1);
        *sum += inner.find('\\') == std::string_view::npos ? inner.size() : 1;
      } else if (token[0] == '-' || (token[0] >= '0' && token[0] <= '9')) {
        int64_t v = 0;
        std::from_chars(token.data(), token.data() + token.size(), v);
        *sum += static_cast<uint64_t>(v);
      } else {
        *sum += static_cast<uint8_t>(token[0]);
      }
    }
  }
  return true;
}

void BM_TokenIndexPeer(benchmark::State& state) {
  const auto raw = Documents(static_cast<int>(state.range(0)));
  const auto docs = Padded(raw);
  std::unique_ptr<simdjson::internal::dom_parser_implementation> indexer;
  if (simdjson::get_active_implementation()->create_dom_parser_implementation(
          1 << 20, 64, indexer) != simdjson::SUCCESS) {
    return state.SkipWithError("no simdjson implementation");
  }
  uint64_t sum = 0;
  for (auto _ : state) {
    if (!TokenIndexPass(indexer.get(), docs, &sum)) {
      return state.SkipWithError("stage 1 failed");
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * TotalBytes(raw));
}
BENCHMARK(BM_TokenIndexPeer)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

// The DOM parser builds its full tape (all strings and numbers parsed) per document.
[[gnu::noinline]] bool DomPass(simdjson::dom::parser* parser,
                               const std::vector<simdjson::padded_string>& docs) {
  for (const auto& d : docs) {
    simdjson::dom::element root;
    if (parser->parse(d).get(root)) return false;
    benchmark::DoNotOptimize(root);
  }
  return true;
}

void BM_SimdjsonDomPeer(benchmark::State& state) {
  const auto raw = Documents(static_cast<int>(state.range(0)));
  const auto docs = Padded(raw);
  simdjson::dom::parser parser;
  for (auto _ : state) {
    if (!DomPass(&parser, docs)) return state.SkipWithError("parse failed");
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(docs.size()));
  state.SetBytesProcessed(state.iterations() * TotalBytes(raw));
}
BENCHMARK(BM_SimdjsonDomPeer)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

// Times `print_all()`, which prints every document once and returns the bytes of text
// it made, after one untimed warm-up: items are documents, bytes are those of the text.
template <typename PrintAll>
void TimePrinting(benchmark::State& state, size_t documents, PrintAll&& print_all) {
  int64_t text_bytes = print_all();
  for (auto _ : state) {
    text_bytes = print_all();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(documents));
  state.SetBytesProcessed(state.iterations() * text_bytes);
}

// The peer for Variant -> JSON: simdjson prints (minified) the same documents from
// its own parsed DOM, a tree built for reading, as a Variant is. Its string builder is
// reused across documents, as the JsonWriter's output string is.
void BM_SimdjsonDomPrintPeer(benchmark::State& state) {
  const auto raw = Documents(static_cast<int>(state.range(0)));
  const auto padded = Padded(raw);
  std::vector<simdjson::dom::document> trees(padded.size());
  simdjson::dom::parser parser;
  for (size_t i = 0; i < padded.size(); ++i) {
    simdjson::dom::element root;
    if (parser.parse_into_document(trees[i], padded[i].data(), padded[i].size())
            .get(root)) {
      return state.SkipWithError("parse failed");
    }
  }
  simdjson::internal::string_builder<> text;
  TimePrinting(state, trees.size(), [&] {
    int64_t bytes = 0;
    for (auto& tree : trees) {
      text.clear();
      text.append(tree.root());
      bytes += static_cast<int64_t>(text.str().size());
    }
    return bytes;
  });
}
BENCHMARK(BM_SimdjsonDomPrintPeer)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

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
  TimePrinting(state, variants.size(), [&] {
    int64_t bytes = 0;
    for (const auto& [m, v] : variants) {
      out.clear();
      (void)writer.Write(VariantView::MakeUnchecked(MetadataView::MakeUnchecked(m), v),
                         &out);
      bytes += static_cast<int64_t>(out.size());
    }
    return bytes;
  });
}
BENCHMARK(BM_VariantToJson)
    ->ArgName("events0_nested1_wide2_maps3")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3);

}  // namespace
}  // namespace varshred::bench
