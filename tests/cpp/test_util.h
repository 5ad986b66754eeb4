// Helpers shared by the C++ tests.

#pragma once

#include <arrow/array.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/arrow/variant_array.h"
#include "varshred/builder.h"
#include "varshred/json.h"

#define VS_ASSERT_OK(expr)                                    \
  do {                                                        \
    auto _st = (expr);                                        \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (0)

#define VS_EXPECT_OK(expr)                                    \
  do {                                                        \
    auto _st = (expr);                                        \
    EXPECT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (0)

#define VS_CONCAT_INNER(a, b) a##b
#define VS_CONCAT(a, b) VS_CONCAT_INNER(a, b)
#define VS_ASSIGN_OR_FAIL_IMPL(tmp, lhs, expr)                       \
  auto tmp = (expr);                                                 \
  ASSERT_TRUE(tmp.ok()) << #expr << ": " << tmp.status().ToString(); \
  lhs = std::move(tmp).ValueOrDie();
#define VS_ASSIGN_OR_FAIL(lhs, expr) \
  VS_ASSIGN_OR_FAIL_IMPL(VS_CONCAT(_res_, __COUNTER__), lhs, expr)

namespace varshred::testing {

/// The parquet-testing corpus: $PARQUET_TEST_DATA, else ../shared/parquet-testing.
/// Under CI (CI=true) a missing corpus is a failure, never a skip.
inline std::string CorpusDir() {
  const char* env = std::getenv("PARQUET_TEST_DATA");
  return env && *env ? env : VARSHRED_DEFAULT_TEST_DATA;
}

inline bool InCi() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Bytes from a hex string with optional spaces: "02 01 00".
inline std::string Hex(std::string_view hex) {
  std::string out;
  int nibble = -1;
  for (char c : hex) {
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      continue;
    if (nibble < 0)
      nibble = v;
    else {
      out.push_back(static_cast<char>(nibble * 16 + v));
      nibble = -1;
    }
  }
  return out;
}

inline std::string ToHex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out.push_back(' ');
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

/// A Variant array from JSON documents, one row each; nullptr entries are SQL NULL
/// rows. Parse failures fail the calling test.
inline std::shared_ptr<arrow::Array> VariantsFromJson(
    const std::vector<const char*>& docs,
    VariantLayout layout = VariantLayout::kCanonical) {
  VariantArrayBuilder out;
  JsonParser parser;
  for (const char* doc : docs) {
    if (doc == nullptr) {
      EXPECT_TRUE(out.AppendNull().ok());
      continue;
    }
    VariantBuilder b;
    EXPECT_TRUE(parser.Parse(doc, &b).ok()) << doc;
    std::string md, value;
    EXPECT_TRUE(b.Finish(&md, &value).ok());
    EXPECT_TRUE(out.Append(md, value).ok());
  }
  auto result = out.Finish(layout);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return *result;
}

/// \brief `ci_count` rounds of a fixed-seed fuzz loop times the VARSHRED_FUZZ_RUNS
/// factor (1 by default), as the Python fuzz tests count them: VARSHRED_FUZZ_RUNS=50
/// runs each loop's seed 50 times as far.
inline int FuzzRounds(int ci_count) {
  const char* factor = std::getenv("VARSHRED_FUZZ_RUNS");
  return ci_count * (factor != nullptr ? std::max(1, std::atoi(factor)) : 1);
}

/// \brief `doc` after `edits` random edits (a byte replaced, inserted or deleted, or the
/// text cut short), with bytes that matter to JSON: fixed-seed fuzzing of parsers.
inline std::string MutatedJson(std::string doc, std::mt19937_64& rng, int edits) {
  static constexpr std::string_view kBytes =
      "{}[]:,\"\\ \t\n0123456789.eE+-truefalsnl\x01\x7f\xc3\xa9\xff";
  for (int e = 0; e < edits && !doc.empty(); ++e) {
    const size_t at = rng() % doc.size();
    const char byte = kBytes[rng() % kBytes.size()];
    switch (rng() % 4) {
      case 0:
        doc[at] = byte;
        break;
      case 1:
        doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(at), byte);
        break;
      case 2:
        doc.erase(at, 1);
        break;
      default:
        doc.resize(at);
    }
  }
  return doc;
}

}  // namespace varshred::testing
