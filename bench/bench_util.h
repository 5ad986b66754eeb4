// Seeded generators of JSON documents shared by the benchmarks.

#pragma once

#include <arrow/array.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace varshred::bench {

/// Every generator is seeded with this, so runs are comparable.
constexpr uint64_t kSeed = 42;

/// \brief "Event" rows such as
/// {"id": 17, "name": "user_17", "score": 8.5, "tags": ["a","b"],
///  "nested": {"x": 3, "flag": true}}, with varied ids, names, scores and tags.
inline std::vector<std::string> EventDocuments(size_t n, uint64_t seed = kSeed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> id(0, 10'000'000);
  std::uniform_int_distribution<int> score_tenths(0, 1000);
  std::uniform_int_distribution<int> ntags(0, 4);
  std::uniform_int_distribution<int> small(0, 1000);
  static const char* kTags[] = {"a", "b", "new", "vip", "mobile", "web"};
  std::vector<std::string> docs;
  docs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = id(rng);
    const int s = score_tenths(rng);
    std::string d = "{\"id\": " + std::to_string(v) + ", \"name\": \"user_" +
                    std::to_string(v) + "\", \"score\": " + std::to_string(s / 10) + "." +
                    std::to_string(s % 10) + ", \"tags\": [";
    const int t = ntags(rng);
    for (int k = 0; k < t; ++k) {
      if (k) d += ",";
      d += "\"";
      d += kTags[static_cast<size_t>(small(rng)) % 6];
      d += "\"";
    }
    d += "], \"nested\": {\"x\": " + std::to_string(small(rng)) +
         ", \"flag\": " + (small(rng) % 2 ? "true" : "false") + "}}";
    docs.push_back(std::move(d));
  }
  return docs;
}

/// \brief Deeply nested rows: `depth` levels of {"k": [ ... , i]}.
inline std::vector<std::string> NestedDocuments(size_t n, int depth,
                                                uint64_t seed = kSeed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> v(0, 100000);
  std::vector<std::string> docs;
  docs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::string d;
    for (int k = 0; k < depth; ++k) d += "{\"level" + std::to_string(k) + "\": [";
    d += std::to_string(v(rng));
    for (int k = 0; k < depth; ++k) d += ", \"s" + std::to_string(v(rng)) + "\"]}";
    docs.push_back(std::move(d));
  }
  return docs;
}

/// \brief Wide rows: `width` fields of mixed types (ints, decimals, strings, null).
inline std::vector<std::string> WideDocuments(size_t n, int width,
                                              uint64_t seed = kSeed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> v(0, 1'000'000);
  std::vector<std::string> docs;
  docs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::string d = "{";
    for (int k = 0; k < width; ++k) {
      if (k) d += ",";
      d += "\"field_" + std::to_string(k) + "\":";
      const int x = v(rng);
      switch (k % 4) {
        case 0:
          d += std::to_string(x);
          break;
        case 1:
          d += std::to_string(x / 100) + "." + std::to_string(x % 100 + 100).substr(1);
          break;
        case 2:
          d += "\"value " + std::to_string(x) + "\"";
          break;
        default:
          d += x % 2 ? "null" : "false";
          break;
      }
    }
    d += "}";
    docs.push_back(std::move(d));
  }
  return docs;
}

/// \brief The metadata and value bytes of a Variant struct array.
inline int64_t VariantBytes(const arrow::Array& array) {
  const auto& st = static_cast<const arrow::StructArray&>(array);
  int64_t n = 0;
  for (int i = 0; i < st.num_fields(); ++i) {
    n += static_cast<const arrow::BinaryArray&>(*st.field(i)).total_values_length();
  }
  return n;
}

inline int64_t TotalBytes(const std::vector<std::string>& docs) {
  int64_t total = 0;
  for (const auto& d : docs) total += static_cast<int64_t>(d.size());
  return total;
}

}  // namespace varshred::bench
