#include "varshred/validate.h"

#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fuzz/variant_walk.h"
#include "test_util.h"
#include "varshred/builder.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/json.h"
#include "varshred/json_write_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/path.h"
#include "varshred/validate_internal.h"

namespace varshred {
namespace {

using testing::Hex;

const std::string kEmpty(kEmptyMetadata);
const std::string kMetaA = Hex("01 01 00 01 61");  // ["a"]

// Asserts `st` is Invalid and its message contains each of `needles`.
::testing::AssertionResult FailsWith(const arrow::Status& st,
                                     std::initializer_list<std::string_view> needles) {
  if (st.ok()) return ::testing::AssertionFailure() << "expected an error, got OK";
  if (!st.IsInvalid()) return ::testing::AssertionFailure() << "not Invalid: " << st;
  for (std::string_view needle : needles) {
    if (st.message().find(needle) == std::string::npos) {
      return ::testing::AssertionFailure() << "message \"" << st.message()
                                           << "\" does not mention \"" << needle << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

// -- metadata -------------------------------------------------------------------

TEST(ValidateTest, RejectsNegativeDictionarySize) {
  // 4-byte dictionary size 0xFFFFFFFE (negative as a signed int32).
  EXPECT_TRUE(FailsWith(Validate(Hex("c1 fe ff ff ff 00 00 00 00"), Hex("00")),
                        {"metadata", "dictionary size 4294967294"}));
}

TEST(ValidateTest, RejectsOutOfRangeDictionarySize) {
  EXPECT_TRUE(FailsWith(Validate(Hex("01 05 00 01 61"), Hex("00")),
                        {"metadata", "dictionary size 5"}));
}

TEST(ValidateTest, RejectsVersionTwoMetadataHeader) {
  EXPECT_TRUE(FailsWith(Validate(Hex("02 00 00"), Hex("00")),
                        {"metadata", "unsupported version 2"}));
}

TEST(ValidateTest, RejectsTrailingMetadataBytes) {
  EXPECT_TRUE(
      FailsWith(Validate(Hex("01 00 00 00"), Hex("00")), {"metadata", "trailing"}));
}

// -- objects and arrays ---------------------------------------------------------

TEST(ValidateTest, RejectsFieldIdOutOfRange) {
  EXPECT_TRUE(FailsWith(Validate(kMetaA, Hex("02 01 05 00 01 00")),
                        {"$: ", "field id 5 is out of range", "1 keys"}));
  // Nested: {"a": {id 1: null}} names the path of the inner object.
  EXPECT_TRUE(FailsWith(Validate(kMetaA, Hex("02 01 00 00 06 02 01 01 00 01 00")),
                        {"$.a: ", "field id 1 is out of range"}));
}

TEST(ValidateTest, RejectsOutOfRangeChildOffset) {
  // Array [1, ?]: element 1's offset (5) is past the 2-byte data area.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("03 02 00 05 02 0c 01")),
                        {"$: ", "offset 5 of element 1", "outside the array data"}));
  // Object {"a": ?} with the field offset equal to the data size.
  EXPECT_TRUE(FailsWith(Validate(kMetaA, Hex("02 01 00 02 02 0c 01")),
                        {"$: ", "offset 2 of field \"a\"", "outside the object data"}));
}

TEST(ValidateTest, RejectsOutOfRangeElementCount) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("03 c8 00 02 0c 01")),
                        {"$: ", "array of 200 elements", "run past the end"}));
  EXPECT_TRUE(FailsWith(Validate(kMetaA, Hex("02 c8 00 00 02 0c 01")),
                        {"$: ", "object of 200 fields", "run past the end"}));
  // Last offset (data size) larger than what follows.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("03 01 00 09 0c 01")),
                        {"$: ", "array data of 9 bytes runs past the end"}));
}

TEST(ValidateTest, RejectsTruncatedContainerHeader) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("03")), {"$: ", "array header"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("13 01 00")), {"$: ", "array header"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("02")), {"$: ", "object header"}));
}

// -- strings and primitives -----------------------------------------------------

TEST(ValidateTest, RejectsShortStringLengthExceedingBuffer) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("25 61 62")),
                        {"$: ", "short string of 9 bytes runs past the end"}));
}

TEST(ValidateTest, RejectsTruncatedPrimitive) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("18 01 02 03")),
                        {"$: ", "int64 needs 9 bytes but only 4 remain"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("50 01")), {"$: ", "uuid needs 17 bytes"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("40 01 00")),
                        {"$: ", "length of a string or binary runs past"}));
}

TEST(ValidateTest, RejectsOversizedPrimitiveSize) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("40 f0 ff ff ff 61")),
                        {"$: ", "string of 4294967280 bytes runs past the end"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("3c 02 00 00 00 61")),
                        {"$: ", "binary of 2 bytes runs past the end"}));
}

TEST(ValidateTest, RejectsUnknownPrimitiveType) {
  // Id 21 (0x54): the pre-Feb-2025 draft id of TIME. Id 63 (0xFC): the largest.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("54 00 00 00 00 00 00 00 00")),
                        {"$: ", "unknown primitive type id 21"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("fc")), {"unknown primitive type id 63"}));
  // Inside an array, the path names the element.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("03 02 00 01 02 00 54")),
                        {"$[1]: ", "unknown primitive type id 21"}));
}

TEST(ValidateTest, RejectsIntOverflowInBoundsChecks) {
  // Long string of 0xFFFFFFFF bytes: 5 + length wraps to 4 in 32-bit arithmetic.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("40 ff ff ff ff 61 62 63 64")),
                        {"string of 4294967295 bytes"}));
  // is_large array of 0xFFFFFFFF elements with 4-byte offsets: (n + 1) * 4 wraps to 0.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("1f ff ff ff ff 00 00 00 00")),
                        {"array of 4294967295 elements"}));
  // is_large object of 0x40000000 fields, 4-byte ids and offsets: n * 4 wraps to 0.
  EXPECT_TRUE(FailsWith(Validate(kMetaA, Hex("7e 00 00 00 40 00 00 00 00 00 00 00 00")),
                        {"object of 1073741824 fields"}));
  // Array whose 4-byte element offset is 0xFFFFFFFF: offset + child size wraps.
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("0f 01 ff ff ff ff 01 00 00 00 00")),
                        {"offset 4294967295 of element 0"}));
}

TEST(ValidateTest, RejectsMalformedChildInsideWellFormedParent) {
  // {"a": [1, 2, "x?"]}: the short string claims 2 bytes, its slot holds 1.
  const std::string array = Hex("03 03 00 02 04 06 0c 01 0c 02 09 78");
  const std::string value = Hex("02 01 00 00 0c") + array;
  EXPECT_TRUE(FailsWith(Validate(kMetaA, value),
                        {"$.a[2]: ", "short string of 2 bytes runs past the end"}));
  // The same array alone is reported at $[2].
  EXPECT_TRUE(FailsWith(Validate(kEmpty, array), {"$[2]: "}));
}

// ValidatePath checks what Lookup reads: the containers on the path (every id and
// offset of each) and the whole value found, not the other children.
TEST(ValidateTest, PathChecksTheContainersOnItAndTheValueFound) {
  const std::string meta_ab = Hex("01 02 00 01 02 61 62");  // ["a", "b"]
  auto check = [&](std::string_view value, std::string_view path) {
    internal::MetadataCache cache;
    const MetadataView md = *cache.Get(meta_ab);
    EXPECT_TRUE(cache.Get(meta_ab).ok());  // a second row: the cache ranks the keys
    EXPECT_NE(cache.key_ranks(), nullptr);
    std::optional<VariantView> found, ranked_found;
    const arrow::Status plain =
        internal::ValidatePath(md, nullptr, value, *VariantPath::Parse(path), {}, &found);
    const arrow::Status ranked = internal::ValidatePath(
        md, cache.key_ranks(), value, *VariantPath::Parse(path), {}, &ranked_found);
    EXPECT_EQ(plain.ToString(), ranked.ToString()) << path;
    if (plain.ok()) {
      // What the walk found is what Lookup finds.
      const auto looked_up =
          Lookup(VariantView::MakeUnchecked(md, value), *VariantPath::Parse(path));
      EXPECT_EQ(found.has_value(), looked_up.has_value()) << path;
      if (found && looked_up) {
        EXPECT_EQ(found->value_bytes().data(), looked_up->value_bytes().data()) << path;
        EXPECT_EQ(found->value_bytes().size(), looked_up->value_bytes().size()) << path;
      }
      EXPECT_EQ(found.has_value(), ranked_found.has_value()) << path;
      if (found && ranked_found) {
        EXPECT_EQ(found->value_bytes(), ranked_found->value_bytes()) << path;
      }
    }
    return plain;
  };
  // {"a": 1, "b": "\xff"}: b is not UTF-8.
  const std::string bad_b = Hex("02 02 00 01 00 02 04 0c 01 05 ff");
  EXPECT_TRUE(
      FailsWith(ValidateValue(*MetadataView::Make(meta_ab), bad_b), {"$.b: ", "UTF-8"}));
  VS_EXPECT_OK(check(bad_b, "$.a"));
  VS_EXPECT_OK(check(bad_b, "$.c"));    // not there
  VS_EXPECT_OK(check(bad_b, "$[0]"));   // not an array
  VS_EXPECT_OK(check(bad_b, "$.a.b"));  // a is not an object
  EXPECT_TRUE(FailsWith(check(bad_b, "$.b"), {"$.b: ", "UTF-8"}));
  EXPECT_TRUE(FailsWith(check(bad_b, "$"), {"$.b: ", "UTF-8"}));
  // The ids and offsets of a container on the path are all checked.
  EXPECT_TRUE(FailsWith(check(Hex("02 02 00 05 00 02 04 0c 01 05 ff"), "$.a"),
                        {"$: ", "field id 5 is out of range"}));
  EXPECT_TRUE(FailsWith(check(Hex("02 02 00 01 00 07 04 0c 01 05 ff"), "$.a"),
                        {"$: ", "offset 7 of field \"b\""}));
  EXPECT_TRUE(FailsWith(check(Hex("02 02 00 00 00 02 04 0c 01 05 ff"), "$.a"),
                        {"$: ", "duplicate key \"a\""}));
  EXPECT_TRUE(FailsWith(check(Hex("02 02 00 01 00 02 04 0c 01 05"), "$.a"),
                        {"$: ", "object data of 4 bytes runs past the end"}));
  // [1, "\xff"] and {"a": [1, "\xff"]}.
  const std::string bad_1 = Hex("03 02 00 02 04 0c 01 05 ff");
  VS_EXPECT_OK(check(bad_1, "$[0]"));
  VS_EXPECT_OK(check(bad_1, "$[2]"));
  EXPECT_TRUE(FailsWith(check(bad_1, "$[1]"), {"$[1]: ", "UTF-8"}));
  EXPECT_TRUE(FailsWith(check(Hex("03 02 00 09 04 0c 01 05 ff"), "$[0]"),
                        {"$: ", "offset 9 of element 1"}));
  const std::string nested = Hex("02 01 00 00 09") + bad_1;
  VS_EXPECT_OK(check(nested, "$.a[0]"));
  VS_EXPECT_OK(check(nested, "$.b"));
  EXPECT_TRUE(FailsWith(check(nested, "$.a[1]"), {"$.a[1]: ", "UTF-8"}));
  EXPECT_TRUE(FailsWith(check(nested, "$.a"), {"$.a[1]: ", "UTF-8"}));
}

TEST(ValidateTest, NestingDepthLimitIsFiveHundredContainers) {
  // By hand: the builder refuses values deeper than the limit.
  auto nested = [](int depth) {
    std::string v = Hex("00");
    for (int i = 0; i < depth; ++i) {
      // One element, 4-byte offsets [0, size]: header 0x0f.
      const auto size = static_cast<uint32_t>(v.size());
      v = Hex("0f 01 00 00 00 00") +
          std::string(reinterpret_cast<const char*>(&size), 4) + v;
    }
    return std::make_pair(std::string(kEmpty), v);
  };
  auto [md500, v500] = nested(500);
  VS_EXPECT_OK(Validate(md500, v500));
  EXPECT_EQ(testing::ValidateAndWalk(md500, v500), "");
  auto [md501, v501] = nested(501);
  const arrow::Status st = Validate(md501, v501);
  EXPECT_TRUE(FailsWith(st, {"nesting deeper than the limit of 500"}));
  // The path is the 500 enclosing array positions.
  std::string path = "$";
  for (int i = 0; i < 500; ++i) path += "[0]";
  EXPECT_TRUE(FailsWith(st, {path + ": "}));
  ValidateOptions shallow;
  shallow.max_depth = 2;
  auto [md3, v3] = nested(3);
  EXPECT_TRUE(FailsWith(Validate(md3, v3, shallow), {"$[0][0]: ", "limit of 2"}));
  auto [md2, v2] = nested(2);
  VS_EXPECT_OK(Validate(md2, v2, shallow));
}

TEST(ValidateTest, MaxDepthAboveTheLimitIsRefused) {
  // Validation recurses once per level: a limit above kMaxNestingDepth would let a
  // 30 000-deep value overflow the stack.
  ValidateOptions deep;
  deep.max_depth = 100000;
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("00"), deep),
                        {"max_depth 100000 is outside 0..500"}));
  deep.max_depth = -1;
  EXPECT_FALSE(Validate(kEmpty, Hex("00"), deep).ok());
}

// -- other rules ----------------------------------------------------------------

TEST(ValidateTest, RejectsEmptyAndTrailingValueBytes) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, ""), {"$: ", "empty value"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("0c 01 00")),
                        {"$: ", "value is 2 bytes but the buffer holds 3"}));
}

TEST(ValidateTest, RejectsDuplicateKeys) {
  // The same id twice.
  EXPECT_TRUE(FailsWith(Validate(kMetaA, Hex("02 02 00 00 00 01 02 00 00")),
                        {"$: ", "duplicate key \"a\""}));
  // Two ids of an unsorted dictionary holding the same string.
  EXPECT_TRUE(
      FailsWith(Validate(Hex("01 02 00 01 02 61 61"), Hex("02 02 00 01 00 01 02 00 00")),
                {"duplicate key \"a\""}));
  // Unsorted and duplicated, with allow_unsorted_keys: still an error.
  ValidateOptions lenient;
  lenient.allow_unsorted_keys = true;
  EXPECT_TRUE(FailsWith(Validate(Hex("01 02 00 01 02 62 61"),
                                 Hex("02 03 00 01 00 00 01 02 03 00 00 00"), lenient),
                        {"duplicate key \"b\""}));
}

TEST(ValidateTest, KeyRanksFindTheSameDuplicatesAndOrder) {
  // A dictionary of repeated and unordered keys (c, a, c, b), through a cache that has
  // served two rows, so that validation compares the keys' ranks.
  const std::string md = Hex("01 04 00 01 02 03 04 63 61 63 62");
  internal::MetadataCache cache;
  ASSERT_TRUE(cache.Get(md).ok());
  VS_ASSIGN_OR_FAIL(MetadataView mv, cache.Get(md));
  ASSERT_NE(cache.key_ranks(), nullptr);
  EXPECT_EQ(std::vector<uint32_t>(cache.key_ranks(), cache.key_ranks() + 4),
            (std::vector<uint32_t>{2, 0, 2, 1}));
  ValidateOptions lenient;
  lenient.allow_unsorted_keys = true;
  auto check = [&](const std::string& value, const ValidateOptions& options) {
    return internal::ValidateValue(mv, cache.key_ranks(), Hex(value), options, nullptr);
  };
  // {a, b, c} in key order; then ids 0 and 2, both "c", adjacent and apart.
  VS_EXPECT_OK(check("02 03 01 03 00 00 01 02 03 00 00 00", {}));
  EXPECT_TRUE(
      FailsWith(check("02 02 00 02 00 01 02 00 00", lenient), {"duplicate key \"c\""}));
  EXPECT_TRUE(FailsWith(check("02 03 00 01 02 00 01 02 03 00 00 00", lenient),
                        {"duplicate key \"c\""}));
  EXPECT_TRUE(
      FailsWith(check("02 02 03 01 00 01 02 00 00", {}), {"not in key-byte order"}));
  VS_EXPECT_OK(check("02 02 03 01 00 01 02 00 00", lenient));
}

TEST(ValidateTest, RejectsUnsortedKeysUnlessAllowed) {
  const std::string md = Hex("01 02 00 01 02 62 61");       // b=0, a=1
  const std::string v = Hex("02 02 00 01 00 01 02 00 00");  // ids b, a
  EXPECT_TRUE(FailsWith(Validate(md, v), {"$: ", "not in key-byte order"}));
  ValidateOptions lenient;
  lenient.allow_unsorted_keys = true;
  VS_EXPECT_OK(Validate(md, v, lenient));
}

TEST(ValidateTest, ReportsUnsortedKeysAndSortsThemBack) {
  const std::string md = Hex("01 02 00 01 02 62 61");  // b=0, a=1
  VS_ASSIGN_OR_FAIL(MetadataView mv, MetadataView::Make(md));
  // [{"b": 1, "a": 2}] with ids b, a (as DuckDB writes them), inside an array.
  const std::string v = Hex("03 01 00 0b 02 02 00 01 00 02 04 0c 01 0c 02");
  ValueFacts facts;
  VS_EXPECT_OK(ValidateValue(mv, v, ValidateOptions::ForReading(), &facts));
  EXPECT_FALSE(facts.keys_sorted);
  std::string sorted;
  internal::AppendSortedKeys(VariantView::MakeUnchecked(mv, v), &sorted);
  // Same ids and values, now a then b: the strict validator accepts it.
  EXPECT_EQ(testing::ToHex(sorted), "03 01 00 0b 02 02 01 00 00 02 04 0c 02 0c 01");
  facts.keys_sorted = false;
  VS_EXPECT_OK(ValidateValue(mv, sorted, {}, &facts));
  EXPECT_TRUE(facts.keys_sorted);
}

TEST(ValidateTest, ReportsThePrimitiveTypesItWalkedThrough) {
  // {"a": [1, "x", nanos timestamp]}: int8, a short string, timestamp_nanos.
  VariantBuilder b;
  b.StartObject();
  b.AddKey("a");
  b.StartArray();
  b.AppendInt(1);
  b.AppendString("x");
  b.AppendTimestampNanos(0);
  b.EndArray();
  VS_EXPECT_OK(b.EndObject());
  std::string md, v;
  VS_EXPECT_OK(b.Finish(&md, &v));
  VS_ASSIGN_OR_FAIL(MetadataView mv, MetadataView::Make(md));
  auto bit = [](PrimitiveType t) { return 1u << static_cast<int>(t); };
  ValueFacts facts;
  VS_EXPECT_OK(ValidateValue(mv, v, {}, &facts));
  EXPECT_EQ(facts.primitive_types, bit(PrimitiveType::kInt8) |
                                       bit(PrimitiveType::kString) |
                                       bit(PrimitiveType::kTimestampNanos));
  VS_EXPECT_OK(ValidateValue(mv, Hex("00"), {}, &facts));
  EXPECT_EQ(facts.primitive_types, bit(PrimitiveType::kNull));
}

TEST(ValidateTest, RejectsInvalidUtf8Strings) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("05 ff")), {"$: ", "not valid UTF-8"}));
  EXPECT_TRUE(
      FailsWith(Validate(kEmpty, Hex("40 02 00 00 00 c3 28")), {"not valid UTF-8"}));
  // Binary is not UTF-8 checked.
  VS_EXPECT_OK(Validate(kEmpty, Hex("3c 02 00 00 00 c3 28")));
}

TEST(ValidateTest, RejectsTimesOutsideADay) {
  // Found by probing from outside: a time of -1 us validated, printed as
  // "23:59:59.999999" and made Arrow time64 arrays that fail Arrow's own validation.
  // Header 0x44: primitive 17 (time_ntz, us).
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("44 ff ff ff ff ff ff ff ff")),
                        {"$: ", "time of -1 microseconds is not within a day"}));
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("44 00 60 d7 1d 14 00 00 00")),
                        {"time of 86400000000 microseconds"}));
  VS_EXPECT_OK(Validate(kEmpty, Hex("44 ff 5f d7 1d 14 00 00 00")));  // 23:59:59.999999
  VS_EXPECT_OK(Validate(kEmpty, Hex("44 00 00 00 00 00 00 00 00")));  // midnight
}

TEST(ValidateTest, RejectsDecimalScaleAndPrecisionBeyond38) {
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("20 27 01 00 00 00")),
                        {"$: ", "decimal scale 39 exceeds 38"}));
  // decimal16 unscaled 10^38 (39 digits).
  std::string d16 = Hex("28 00");
  int128_t big = 1;
  for (int i = 0; i < 38; ++i) big *= 10;
  d16.append(reinterpret_cast<const char*>(&big), 16);
  EXPECT_TRUE(FailsWith(Validate(kEmpty, d16), {"more than 38 digits"}));
  // A decimal4 holding 10 digits fits its physical width: accepted
  // (docs/format.md#decimals).
  VS_EXPECT_OK(Validate(kEmpty, Hex("20 00 ff ff ff 7f")));
}

TEST(ValidateTest, RejectsValuesOverTheSizeLimit) {
  ValidateOptions small;
  small.max_size = 4;
  EXPECT_TRUE(FailsWith(Validate(kEmpty, Hex("14 01 00 00 00"), small),
                        {"$: ", "exceeds the size limit of 4"}));
  VS_EXPECT_OK(Validate(kEmpty, Hex("10 01 00"), small));
}

TEST(ValidateTest, AcceptsLenientFormsReadersMustAccept) {
  // docs/format.md#sizing: is_large for small counts, wider-than-needed widths, long form
  // for short strings, reserved bits set, non-monotonic offsets, overlapping values.
  VS_EXPECT_OK(Validate(kEmpty, Hex("13 01 00 00 00 00 02 0c 01")));
  VS_EXPECT_OK(Validate(kEmpty, Hex("40 01 00 00 00 61")));
  VS_EXPECT_OK(Validate(kEmpty, Hex("e3 00 00")));              // array reserved bits 3-5
  VS_EXPECT_OK(Validate(kMetaA, Hex("82 01 00 00 02 0c 01")));  // object reserved bit
  VS_EXPECT_OK(Validate(Hex("01 02 00 01 02 61 62"), Hex("02 02 00 01 00 00 02 0c 01")));
}

// -- robustness -----------------------------------------------------------------

// Valid seeds: builder output covering every type and width, plus the corpus.
std::vector<std::pair<std::string, std::string>> MutationSeeds() {
  std::vector<std::pair<std::string, std::string>> seeds;
  auto add = [&](VariantBuilder& b) {
    std::string md, v;
    EXPECT_TRUE(b.Finish(&md, &v).ok());
    seeds.emplace_back(std::move(md), std::move(v));
  };
  VariantBuilder b;
  b.StartObject();
  b.AddKey("null");
  b.AppendNull();
  b.AddKey("bool");
  b.AppendBool(true);
  b.AddKey("ints");
  b.StartArray();
  b.AppendInt8(-1);
  b.AppendInt16(300);
  b.AppendInt32(70000);
  b.AppendInt64(1LL << 40);
  b.EndArray();
  b.AddKey("floats");
  b.StartArray();
  b.AppendFloat(1.5f);
  b.AppendDouble(-2.25);
  b.EndArray();
  b.AddKey("decimals");
  b.StartArray();
  b.AppendDecimal4(1234, 2);
  b.AppendDecimal8(1234567890123LL, 3);
  b.AppendDecimal16(static_cast<int128_t>(1) << 100, 10);
  b.EndArray();
  b.AddKey("times");
  b.StartArray();
  b.AppendDate(19000);
  b.AppendTimestampMicros(1);
  b.AppendTimestampNtzMicros(2);
  b.AppendTimestampNanos(3);
  b.AppendTimestampNtzNanos(4);
  b.AppendTimeMicros(5);
  b.EndArray();
  b.AddKey("strings");
  b.StartArray();
  b.AppendString("short \xe2\x9d\xa4");
  b.AppendString(std::string(70, 'L'));
  b.AppendBinary(Hex("00 ff 10"));
  b.AppendUuid(Hex("f24f9b6481fa49d1b74e8c09a6e31c56"));
  b.EndArray();
  b.AddKey("nested");
  b.StartObject();
  b.AddKey("z");
  b.StartArray();
  b.StartObject();
  b.AddKey("a");
  b.AppendInt(1);
  EXPECT_TRUE(b.EndObject().ok());
  b.EndArray();
  b.AddKey("a");
  b.AppendString("x");
  EXPECT_TRUE(b.EndObject().ok());
  EXPECT_TRUE(b.EndObject().ok());
  add(b);

  // Wide: 300 fields (is_large, 2-byte ids) and 2-byte offsets.
  b.StartObject();
  for (int i = 0; i < 300; ++i) {
    b.AddKey("k" + std::to_string(i));
    b.AppendInt(i);
  }
  EXPECT_TRUE(b.EndObject().ok());
  add(b);
  b.StartArray();
  for (int i = 0; i < 260; ++i) b.AppendString(std::to_string(i));
  b.EndArray();
  add(b);

  const std::string dir = testing::CorpusDir() + "/variant";
  if (std::filesystem::is_directory(dir)) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".metadata") continue;
      std::filesystem::path value_path = entry.path();
      value_path.replace_extension(".value");
      seeds.emplace_back(testing::ReadFile(entry.path()), testing::ReadFile(value_path));
    }
  }
  return seeds;
}

TEST(ValidateTest, RandomMutationsNeverCrash) {
  const auto seeds = MutationSeeds();
  for (const auto& [md, v] : seeds) {
    bool accepted = false;
    ASSERT_EQ(testing::ValidateAndWalk(md, v, {}, &accepted), "");
    ASSERT_TRUE(accepted) << testing::ToHex(v);
  }
  std::mt19937 rng(20260801);
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  ValidateOptions lenient;
  lenient.allow_unsorted_keys = true;
  const JsonWriter writer = *JsonWriter::Make();
  int accepted_count = 0, rejected_count = 0;
  const int mutations = testing::FuzzRounds(4000);
  for (int iter = 0; iter < mutations; ++iter) {
    auto [md, v] = seeds[pick(seeds.size())];
    // Mutate the value mostly, the metadata sometimes; 1-3 edits each time.
    const int edits = 1 + static_cast<int>(pick(3));
    for (int e = 0; e < edits; ++e) {
      std::string& target = (pick(5) == 0) ? md : v;
      switch (pick(6)) {
        case 0:  // flip one bit
          if (!target.empty())
            target[pick(target.size())] ^= static_cast<char>(1 << pick(8));
          break;
        case 1:  // overwrite a byte, biased to header-ish values
          if (!target.empty()) {
            static const uint8_t kInteresting[] = {0x00, 0x01, 0x02, 0x03, 0x7f,
                                                   0x80, 0xfe, 0xff, 0x54, 0x40};
            target[pick(target.size())] =
                static_cast<char>(pick(2) ? kInteresting[pick(10)] : pick(256));
          }
          break;
        case 2:  // insert a byte
          target.insert(target.begin() + static_cast<ptrdiff_t>(pick(target.size() + 1)),
                        static_cast<char>(pick(256)));
          break;
        case 3:  // delete a byte
          if (!target.empty()) {
            target.erase(target.begin() + static_cast<ptrdiff_t>(pick(target.size())));
          }
          break;
        case 4:  // truncate
          target.resize(target.empty() ? 0 : pick(target.size()));
          break;
        case 5:  // append junk
          target.push_back(static_cast<char>(pick(256)));
          break;
      }
    }
    // Exact-size copies, so that ASan sees any read past the end.
    const auto md_copy = std::make_unique<char[]>(md.size());
    const auto v_copy = std::make_unique<char[]>(v.size());
    std::memcpy(md_copy.get(), md.data(), md.size());
    std::memcpy(v_copy.get(), v.data(), v.size());
    const std::string_view md_view(md_copy.get(), md.size()),
        v_view(v_copy.get(), v.size());
    bool accepted = false;
    ASSERT_EQ(testing::ValidateAndWalk(md_view, v_view, {}, &accepted), "")
        << "metadata " << testing::ToHex(md) << " value " << testing::ToHex(v);
    (accepted ? accepted_count : rejected_count)++;
    ASSERT_EQ(testing::ValidateAndWalk(md_view, v_view, lenient), "")
        << "lenient: metadata " << testing::ToHex(md) << " value " << testing::ToHex(v);
    // Readers of many rows check key order on the dictionary's key ranks: the same
    // verdict and message as on the keys themselves.
    internal::MetadataCache cache;
    if (cache.Get(md_view).ok()) {
      const MetadataView mv = *cache.Get(md_view);
      ASSERT_EQ(cache.key_ranks() == nullptr, mv.size() == 0);
      for (const ValidateOptions& options : {ValidateOptions{}, lenient}) {
        ValueFacts facts, ranked_facts;
        const arrow::Status st = ValidateValue(mv, v_view, options, &facts);
        const arrow::Status ranked = internal::ValidateValue(
            mv, cache.key_ranks(), v_view, options, &ranked_facts);
        ASSERT_EQ(st.ToString(), ranked.ToString())
            << testing::ToHex(md) << " / " << testing::ToHex(v);
        ASSERT_EQ(facts.keys_sorted, ranked_facts.keys_sorted);
        // The JSON printer's checked walk: the same verdict and message, the text
        // JsonWriter prints from the checked value, and nothing left on failure.
        // Keys checked one by one (plain_keys false) or known plain print the same.
        std::string expected = "[";
        if (ranked.ok()) {
          ASSERT_TRUE(
              writer.Write(VariantView::MakeUnchecked(mv, v_view), &expected).ok());
        }
        // A path's check passes wherever the whole value's does; where it passes,
        // the value Lookup finds passes the whole check on its own.
        std::vector<VariantPath> paths = {VariantPath(), *VariantPath::Parse("$[0]"),
                                          *VariantPath::Parse("$[1]")};
        for (uint32_t id = 0; id < mv.size() && id < 3; ++id) {
          const std::string key(mv.key(id));
          paths.push_back(VariantPath().Child(key));
          paths.push_back(VariantPath().Child(key).Element(0));
          paths.push_back(VariantPath().Element(0).Child(key));
        }
        for (const VariantPath& path : paths) {
          std::optional<VariantView> bytes;
          const arrow::Status on_path = internal::ValidatePath(
              mv, cache.key_ranks(), v_view, path, options, &bytes);
          if (ranked.ok()) ASSERT_TRUE(on_path.ok()) << path.ToString();
          if (!on_path.ok()) continue;
          // The walk finds what Lookup finds, and that passes the whole check.
          const auto found = Lookup(VariantView::MakeUnchecked(mv, v_view), path);
          ASSERT_EQ(bytes.has_value(), found.has_value()) << path.ToString();
          if (found) {
            ASSERT_EQ(bytes->value_bytes().data(), found->value_bytes().data())
                << path.ToString();
            ASSERT_EQ(bytes->value_bytes().size(), found->value_bytes().size())
                << path.ToString();
            ASSERT_TRUE(ValidateValue(mv, found->value_bytes(), options).ok())
                << path.ToString() << " in " << testing::ToHex(v);
          }
        }
        for (const bool plain_keys : {false, internal::PlainKeys(mv)}) {
          std::string text = "[";
          ValueFacts printed_facts;
          arrow::Status printed;
          {
            internal::TextSink sink(&text);
            printed =
                internal::WriteJsonChecked(writer, mv, cache.key_ranks(), plain_keys,
                                           v_view, options, &printed_facts, &sink);
          }
          ASSERT_EQ(printed.ToString(), ranked.ToString()) << testing::ToHex(v);
          if (printed.ok()) {
            ASSERT_EQ(printed_facts.keys_sorted, ranked_facts.keys_sorted);
          }
          ASSERT_EQ(text, expected) << testing::ToHex(md) << " / " << testing::ToHex(v);
        }
      }
    }
  }
  RecordProperty("accepted", accepted_count);
  RecordProperty("rejected", rejected_count);
  // The mutations must exercise both outcomes, or the test proves nothing.
  EXPECT_GT(accepted_count, mutations / 50);
  EXPECT_GT(rejected_count, mutations / 2);
}

}  // namespace
}  // namespace varshred
