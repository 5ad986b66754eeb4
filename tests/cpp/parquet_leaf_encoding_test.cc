#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "varshred/parquet/leaf_encoding_internal.h"

namespace varshred::internal {
namespace {

std::vector<int64_t> Draw(size_t n, const std::vector<int64_t>& choices, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> out;
  for (size_t i = 0; i < n; ++i) out.push_back(choices[rng() % choices.size()]);
  return out;
}

TEST(LeafEncodingTest, IntegersTakeDeltasUnlessFewValuesRepeat) {
  std::vector<int64_t> ids, times, random_ids;
  std::mt19937_64 rng(1);
  for (int64_t i = 0; i < 50000; ++i) {
    ids.push_back(1000 + i);
    times.push_back(1'700'000'000'000'000 + i * 1'000'000 +
                    static_cast<int64_t>(rng() % 999));
    random_ids.push_back(static_cast<int64_t>(rng() % 10'000'000));
  }
  EXPECT_FALSE(DictionaryBeatsDelta(std::span<const int64_t>(ids), 1.0));
  EXPECT_FALSE(DictionaryBeatsDelta(std::span<const int64_t>(times), 20.0));
  EXPECT_FALSE(DictionaryBeatsDelta(std::span<const int64_t>(random_ids), 20.0));
  // A constant column costs deltas nothing.
  EXPECT_FALSE(
      DictionaryBeatsDelta(std::span<const int64_t>(std::vector<int64_t>(99, 7)), 1));
  // Codes and counts: a few wide values in random order.
  const auto codes = Draw(50000, {3, 70, 900, 12000, 1 << 30}, 2);
  EXPECT_TRUE(DictionaryBeatsDelta(std::span<const int64_t>(codes), 1.0));
  const std::vector<int32_t> small(codes.begin(), codes.end());
  EXPECT_TRUE(DictionaryBeatsDelta(std::span<const int32_t>(small), 1.0));
}

TEST(LeafEncodingTest, TheDictionaryPageIsWeighedOverTheWholeChunk) {
  // Prices in cents, 0.00 to 100.00, in a slice that has seen nearly all of them: one
  // page for a chunk 16 times the slice beats deltas, for the slice alone it does not.
  std::vector<int64_t> cents;
  for (int64_t c = 0; c <= 10000; ++c) cents.push_back(c);
  const auto prices = Draw(64000, cents, 3);
  EXPECT_FALSE(DictionaryBeatsDelta(std::span<const int64_t>(prices), 1.0));
  EXPECT_TRUE(DictionaryBeatsDelta(std::span<const int64_t>(prices), 16.0));
}

TEST(LeafEncodingTest, StringsKeepTheDictionaryUnlessMostlyDistinct) {
  std::vector<std::string> owned;
  std::mt19937_64 rng(4);
  for (int i = 0; i < 5000; ++i) owned.push_back("user-" + std::to_string(rng()));
  const std::vector<std::string> tags = {"a", "vip", "mobile", "web"};
  for (int i = 0; i < 5000; ++i) owned.push_back(tags[rng() % tags.size()]);
  auto arrays = [&](size_t from, size_t to) {
    std::vector<parquet::ByteArray> out;
    for (size_t i = from; i < to; ++i) {
      out.emplace_back(static_cast<uint32_t>(owned[i].size()),
                       reinterpret_cast<const uint8_t*>(owned[i].data()));
    }
    return out;
  };
  EXPECT_FALSE(DictionaryBeatsPlain(arrays(0, 5000)));
  EXPECT_TRUE(DictionaryBeatsPlain(arrays(5000, 10000)));
  EXPECT_TRUE(DictionaryBeatsPlain({}));
}

}  // namespace
}  // namespace varshred::internal
