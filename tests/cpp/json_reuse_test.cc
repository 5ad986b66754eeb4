// A JsonParser and VariantBuilder reused across rows remember the previous rows'
// shapes (dictionary replay, header space, key order) to go faster. These tests pin
// that reuse never changes a byte: every row must encode exactly as it does with a
// fresh parser and builder.

#include <random>
#include <string>
#include <vector>

#include "test_util.h"
#include "varshred/json.h"
#include "varshred/validate.h"

namespace varshred {
namespace {

using testing::ToHex;

struct Encoded {
  arrow::Status status;
  std::string metadata;
  std::string value;
};

Encoded Encode(JsonParser* parser, VariantBuilder* builder, const std::string& json) {
  Encoded e;
  e.status = parser->Parse(json, builder);
  if (e.status.ok()) e.status = builder->Finish(&e.metadata, &e.value);
  if (!e.status.ok()) builder->Reset();
  return e;
}

// Parses `docs` in order with one parser and builder, and each with fresh ones, and
// expects the same outcome and bytes for every row.
void ExpectReuseChangesNothing(const std::vector<std::string>& docs,
                               JsonParseOptions options = {}) {
  JsonParser reused_parser(options);
  VariantBuilder reused_builder(options.duplicate_keys);
  for (size_t i = 0; i < docs.size(); ++i) {
    JsonParser fresh_parser(options);
    VariantBuilder fresh_builder(options.duplicate_keys);
    const Encoded want = Encode(&fresh_parser, &fresh_builder, docs[i]);
    const Encoded got = Encode(&reused_parser, &reused_builder, docs[i]);
    ASSERT_EQ(got.status.ok(), want.status.ok()) << "row " << i << ": " << docs[i];
    if (!want.status.ok()) continue;
    ASSERT_EQ(ToHex(got.metadata), ToHex(want.metadata))
        << "row " << i << ": " << docs[i];
    ASSERT_EQ(ToHex(got.value), ToHex(want.value)) << "row " << i << ": " << docs[i];
    VS_ASSERT_OK(Validate(got.metadata, got.value));
  }
}

TEST(JsonReuseTest, SameIdsNamingOtherKeysSortAgain) {
  // Both rows add ids 0, 1 in that order, but the ids name different keys.
  ExpectReuseChangesNothing({R"({"a": 1, "b": 2})", R"({"b": 1, "a": 2})",
                             R"({"a": 1, "b": 2})", R"({"b": {"a": 1, "b": 2}, "a": 3})",
                             R"({"a": {"b": 1, "a": 2}, "b": 3})"});
}

TEST(JsonReuseTest, GrowingShrinkingAndDivergingRows) {
  ExpectReuseChangesNothing({
      R"({"a": 1, "b": 2})",
      R"({"a": 1, "b": 2, "c": 3})",
      R"({"a": 1})",
      R"({"a": 1, "c": 2})",
      R"({})",
      R"(7)",
      R"({"a": 1, "b": 2})",
      R"([{"a": 1}, {"a": 2, "b": 3}, {"b": 4}])",
      R"([{"a": 1}, {"a": 2, "b": 3}, {"b": 4}])",
      R"([{"b": 1}, {"a": 2, "b": 3}, {"c": 4}])",
  });
}

TEST(JsonReuseTest, KeysSharingLongPrefixes) {
  ExpectReuseChangesNothing({
      R"({"abcdefgh1": 1, "abcdefgh0": 2, "abcdefgh": 3, "abcdefg": 4, "": 5})",
      R"({"abcdefgh0": 1, "abcdefgh1": 2, "abcdefg": 3, "abcdefgh": 4, "": 5})",
      R"({"abcdefgh\u0000": 1, "abcdefgh": 2, "abc\u0000": 3, "abc": 4})",
      R"({"\u00e9": 1, "z": 2, "\u00ff": 3})",
  });
}

TEST(JsonReuseTest, HeaderWidthsChangeBetweenRows) {
  std::string wide = "{";
  for (int i = 0; i < 300; ++i) {
    if (i) wide += ",";
    wide += "\"k" + std::to_string(i) + "\":" + std::to_string(i);
  }
  wide += "}";
  std::string long_array = "[";
  for (int i = 0; i < 300; ++i)
    long_array += (i ? ",\"" : "\"") + std::string(i % 7, 'x') + "\"";
  long_array += "]";
  ExpectReuseChangesNothing({R"({"k0": 1})", wide, R"({"k0": 1, "k1": 2})", wide,
                             R"([1, 2])", long_array, R"([1])", long_array,
                             R"({"a": [1, 2, 3], "b": {"c": []}})",
                             R"({"a": [], "b": {"c": [1, 2, 3, 4, 5, 6]}})"});
}

TEST(JsonReuseTest, DuplicateKeysAfterACachedShape) {
  JsonParseOptions last_wins;
  last_wins.duplicate_keys = DuplicateKeyPolicy::kLastWins;
  const std::vector<std::string> docs = {
      R"({"a": 1, "b": 2})", R"({"a": 1, "a": 2})", R"({"a": 1, "b": 2})",
      R"({"b": 1, "a": 2, "b": [3]})", R"({"b": 1, "a": 2, "b": [3]})"};
  ExpectReuseChangesNothing(docs, last_wins);
  ExpectReuseChangesNothing(docs);  // duplicates are errors; the rows after still match
}

TEST(JsonReuseTest, FailedRowsInBetween) {
  ExpectReuseChangesNothing({R"({"a": 1, "b": 2})", R"({"a": 1, "b": )",
                             R"({"a": 1, "b": 2})", R"({"a": 1, "c": [1, 2})",
                             R"({"a": 1, "c": [1, 2]})", R"({"a": 1, "c": [1, 2]})"});
}

// Random documents over few keys, so rows often share part of their shape.
std::string RandomValue(std::mt19937& rng, int depth) {
  static const char* kKeys[] = {"a", "b", "c", "id", "name", "abcdefghij", "abcdefghik"};
  const int kind = std::uniform_int_distribution<int>(0, depth > 2 ? 2 : 4)(rng);
  switch (kind) {
    case 0:
      return std::to_string(std::uniform_int_distribution<int>(-300, 300)(rng));
    case 1:
      return "\"" + std::string(std::uniform_int_distribution<int>(0, 70)(rng), 's') +
             "\"";
    case 2:
      return "1.25";
    case 3: {
      std::string s = "[";
      const int n = std::uniform_int_distribution<int>(0, 4)(rng);
      for (int i = 0; i < n; ++i) s += (i ? "," : "") + RandomValue(rng, depth + 1);
      return s + "]";
    }
    default: {
      std::string s = "{";
      const int n = std::uniform_int_distribution<int>(0, 5)(rng);
      for (int i = 0; i < n; ++i) {
        s += i ? "," : "";
        s += "\"" + std::string(kKeys[std::uniform_int_distribution<int>(0, 6)(rng)]) +
             "\":" + RandomValue(rng, depth + 1);
      }
      return s + "}";
    }
  }
}

// IndexAhead(true) lets the parser read later rows from an index of the bytes after a
// row, made with that row; those bytes must not change until the next IndexAhead()
// call, which drops the index: a buffer whose bytes changed is indexed again. Without
// the drop, the changed row below (invalid JSON) would read as ["a\"",1] from the
// index of its old text.
TEST(JsonReuseTest, IndexAheadIsDroppedForNewBytes) {
  std::string buffer = std::string("[0]") + R"(["ab",1])" + std::string(64, ' ');
  const std::string_view text(buffer);
  JsonParser parser;
  VariantBuilder builder;
  auto parse = [&](size_t at, size_t size) {
    arrow::Status st =
        parser.Parse(text.substr(at, size), text.size() - at - size, &builder);
    std::string metadata, value;
    if (st.ok()) st = builder.Finish(&metadata, &value);
    builder.Reset();
    return st;
  };
  parser.IndexAhead(true);
  VS_ASSERT_OK(parse(0, 3));
  VS_ASSERT_OK(parse(3, 8));
  parser.IndexAhead(true);
  VS_ASSERT_OK(parse(0, 3));
  buffer.replace(3, 8, R"(["a"",1])");  // the same size, other tokens
  parser.IndexAhead(true);
  EXPECT_TRUE(parse(3, 8).IsInvalid());
  // Off, as at first: every row indexed alone.
  parser.IndexAhead(false);
  EXPECT_TRUE(parse(3, 8).IsInvalid());
}

TEST(JsonReuseTest, RandomRowsEncodeAsWithAFreshBuilder) {
  std::mt19937 rng(7);
  std::vector<std::string> docs;
  const int rows = testing::FuzzRounds(1500);
  for (int i = 0; i < rows; ++i) {
    std::string doc = RandomValue(rng, 0);
    docs.push_back(doc);
    // Repeat some rows, as columns do, so the remembered shapes get reused.
    if (i % 3 == 0) docs.push_back(doc);
  }
  JsonParseOptions last_wins;
  last_wins.duplicate_keys = DuplicateKeyPolicy::kLastWins;
  ExpectReuseChangesNothing(docs, last_wins);
  ExpectReuseChangesNothing(docs);
}

}  // namespace
}  // namespace varshred
