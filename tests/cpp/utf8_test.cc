#include <gtest/gtest.h>

#include <random>
#include <string>

#include "test_util.h"
#include "varshred/utf8_internal.h"

namespace varshred::internal {
namespace {

TEST(Utf8Test, LongTextIsCheckedByTheSameRules) {
  // Long strings go to the vectorized check: every rule, anywhere in them.
  const std::string pad(70, 'x');
  for (const std::string bad :
       {"\xc3", "\xa9", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xed\xbf\xbf",
        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xe2\x82"}) {
    for (const std::string& s : {pad + bad, bad + pad, pad + bad + pad}) {
      EXPECT_FALSE(IsValidUtf8(s)) << ::testing::PrintToString(s);
      EXPECT_LT(FirstInvalidUtf8(s), s.size());
    }
  }
  for (const std::string good : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                 "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf", "\xee\x80\x80"}) {
    EXPECT_TRUE(IsValidUtf8(pad + good + pad));
  }
}

TEST(Utf8Test, ShortTextIsCheckedByTheSameRules) {
  // Up to 16 bytes, ASCII is accepted inline from overlapping loads: a byte of a bad
  // (or good) sequence at every position of every short length reaches the full check.
  for (size_t length = 0; length <= 20; ++length) {
    const std::string ascii(length, 'k');
    EXPECT_TRUE(IsValidUtf8(ascii));
    for (size_t at = 0; at < length; ++at) {
      std::string bad = ascii;
      bad[at] = '\xff';
      EXPECT_FALSE(IsValidUtf8(bad)) << length << " " << at;
      std::string good = ascii;
      if (at + 2 <= length) {
        good.replace(at, 2, "\xc3\xa9");
        EXPECT_TRUE(IsValidUtf8(good)) << length << " " << at;
      }
    }
  }
}

TEST(Utf8Test, BothChecksAgreeOnRandomText) {
  // Mutated multi-byte text of every length around the switch between the two.
  std::mt19937_64 rng(20261125);
  const std::string alphabet[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  const int rounds = varshred::testing::FuzzRounds(20000);
  for (int round = 0; round < rounds; ++round) {
    std::string s;
    const size_t length = rng() % 160;
    while (s.size() < length) s += alphabet[rng() % 4];
    if (!s.empty() && rng() % 2) s[rng() % s.size()] = static_cast<char>(rng());
    if (!s.empty() && rng() % 4 == 0) s.resize(rng() % s.size());
    ASSERT_EQ(IsValidUtf8(s), FirstInvalidUtf8(s) == s.size())
        << ::testing::PrintToString(s);
  }
}

}  // namespace
}  // namespace varshred::internal
