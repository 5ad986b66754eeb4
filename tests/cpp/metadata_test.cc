#include "varshred/metadata.h"

#include <string>
#include <vector>

#include "test_util.h"
#include "varshred/hash_internal.h"
#include "varshred/metadata_cache_internal.h"

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;

// Asserts `st` failed with Invalid and a message containing `needle`.
::testing::AssertionResult FailsWith(const arrow::Status& st, std::string_view needle) {
  if (st.ok()) return ::testing::AssertionFailure() << "expected an error, got OK";
  if (!st.IsInvalid()) return ::testing::AssertionFailure() << "not Invalid: " << st;
  if (st.message().find(needle) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "message \"" << st.message() << "\" does not mention \"" << needle << "\"";
  }
  return ::testing::AssertionSuccess();
}

TEST(MetadataTest, EmptyMetadataIsThreeBytes) {
  const std::string md_bytes = Hex("01 00 00");
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(md_bytes));
  EXPECT_EQ(md.size(), 0u);
  EXPECT_FALSE(md.sorted());
  EXPECT_EQ(md.bytes().size(), 3u);
  EXPECT_FALSE(md.Find("a").has_value());
}

TEST(MetadataTest, AbbreviatedTwoByteEmptyMetadataIsRejected) {
  // docs/format.md#metadata: policy choice. `01 00` lacks offset[0]; accepting it would
  // make metadata-then-value buffers ambiguous, so it is rejected with a clear message.
  auto st = MetadataView::Make(Hex("01 00")).status();
  EXPECT_TRUE(FailsWith(st, "offset[0]"));
  EXPECT_TRUE(FailsWith(MetadataView::MeasureSize(Hex("01 00")).status(), "01 00 00"));
}

TEST(MetadataTest, SortedDictionaryExample) {
  const std::string md_bytes = Hex("11 02 00 01 02 61 62");
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(md_bytes));
  EXPECT_TRUE(md.sorted());
  ASSERT_EQ(md.size(), 2u);
  EXPECT_EQ(md.key(0), "a");
  EXPECT_EQ(md.key(1), "b");
  EXPECT_EQ(md.Find("a"), 0u);
  EXPECT_EQ(md.Find("b"), 1u);
  EXPECT_FALSE(md.Find("c").has_value());
  EXPECT_FALSE(md.Find("").has_value());
}

TEST(MetadataTest, UnsortedDictionaryMayRepeatKeysAndFindReturnsFirst) {
  // Keys "b", "a", "b": allowed when the sorted bit is clear.
  const std::string md_bytes = Hex("01 03 00 01 02 03 62 61 62");
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(md_bytes));
  EXPECT_EQ(md.size(), 3u);
  EXPECT_EQ(md.Find("b"), 0u);
  EXPECT_EQ(md.Find("a"), 1u);
  EXPECT_FALSE(md.Find("c").has_value());
}

TEST(MetadataTest, EmptyKeyIsAllowed) {
  const std::string md_bytes = Hex("11 02 00 00 01 61");
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(md_bytes));
  EXPECT_EQ(md.key(0), "");
  EXPECT_EQ(md.key(1), "a");
  EXPECT_EQ(md.Find(""), 0u);
}

TEST(MetadataTest, WideOffsetsTwoThreeAndFourBytes) {
  // offset_size 2 (header 0x41), 3 (0x81), 4 (0xC1): dictionary ["ab", "c"].
  for (int width = 2; width <= 4; ++width) {
    std::string bytes(1, static_cast<char>(1 | ((width - 1) << 6)));
    auto put = [&](uint32_t v) { bytes.append(reinterpret_cast<char*>(&v), width); };
    put(2);
    put(0);
    put(2);
    put(3);
    bytes += "abc";
    VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(bytes));
    EXPECT_EQ(md.size(), 2u) << width;
    EXPECT_EQ(md.key(0), "ab") << width;
    EXPECT_EQ(md.key(1), "c") << width;
    EXPECT_EQ(md.bytes().size(), 1u + width * 4 + 3) << width;
  }
}

TEST(MetadataTest, ReservedBitIsIgnored) {
  // Bit 5 (0x20) is reserved: readers ignore it.
  const std::string md_bytes = Hex("21 01 00 01 61");
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(md_bytes));
  EXPECT_EQ(md.key(0), "a");
  EXPECT_FALSE(md.sorted());
}

TEST(MetadataTest, TrailingBytesAreExcludedFromTheView) {
  // Make() rejects them (RejectsTrailingBytes); an unchecked view of a buffer holding
  // metadata then value covers the metadata only.
  const std::string md_bytes = Hex("01 01 00 01 61 0c 2a");
  MetadataView md = MetadataView::MakeUnchecked(md_bytes);
  EXPECT_EQ(ToHex(md.bytes()), "01 01 00 01 61");
  VS_ASSIGN_OR_FAIL(size_t size, MetadataView::MeasureSize(Hex("01 01 00 01 61 0c 2a")));
  EXPECT_EQ(size, 5u);
}

TEST(MetadataTest, RejectsTrailingBytes) {
  // Make() is the check every reader's metadata goes through (MetadataCache too).
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("01 01 00 01 61 00")).status(),
                        "metadata: 1 trailing bytes"));
  EXPECT_TRUE(
      FailsWith(MetadataView::Make(Hex("01 00 00 00 00")).status(), "2 trailing bytes"));
}

TEST(MetadataTest, RejectsEmptyBuffer) {
  EXPECT_TRUE(FailsWith(MetadataView::Make("").status(), "empty"));
}

TEST(MetadataTest, RejectsVersionTwoHeader) {
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("02 00 00")).status(), "version 2"));
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("00 00 00")).status(), "version 0"));
}

TEST(MetadataTest, RejectsTruncatedDictionarySize) {
  // 4-byte offsets but only 2 bytes follow the header.
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("c1 00 00")).status(), "truncated"));
}

TEST(MetadataTest, RejectsHugeDictionarySize) {
  // 0xFFFFFFFF keys ("negative" as int32): the offsets would need 16 GiB; 64-bit math.
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("c1 ff ff ff ff 00 00 00 00")).status(),
                        "dictionary size 4294967295"));
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("c1 00 00 00 80 00 00 00 00")).status(),
                        "dictionary size 2147483648"));
  // 1-byte offsets, 200 keys promised, 3 bytes present.
  EXPECT_TRUE(
      FailsWith(MetadataView::Make(Hex("01 c8 00")).status(), "dictionary size 200"));
}

TEST(MetadataTest, RejectsLastOffsetPastTheBuffer) {
  EXPECT_TRUE(
      FailsWith(MetadataView::Make(Hex("01 01 00 05 61")).status(), "past the buffer"));
  // 4-byte last offset 0xFFFFFFFF: header_size + last must not wrap.
  EXPECT_TRUE(FailsWith(
      MetadataView::Make(Hex("c1 01 00 00 00 00 00 00 00 00 ff ff ff ff 61")).status(),
      "past the buffer"));
}

TEST(MetadataTest, RejectsDecreasingOffsets) {
  // Offsets 0, 2, 1: the second key would have negative length.
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("01 02 00 02 01 61 62")).status(),
                        "offset 2 (1) is before offset 1 (2)"));
}

TEST(MetadataTest, RejectsNonZeroFirstOffset) {
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("01 01 01 02 61 62")).status(),
                        "first offset is 1"));
}

TEST(MetadataTest, RejectsInvalidUtf8Key) {
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("01 01 00 01 ff")).status(), "UTF-8"));
  // Overlong encoding of '/', and a lone surrogate.
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("01 01 00 02 c0 af")).status(), "UTF-8"));
  EXPECT_TRUE(
      FailsWith(MetadataView::Make(Hex("01 01 00 03 ed a0 80")).status(), "UTF-8"));
  // Truncated multi-byte sequence at the end of the key.
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("01 01 00 02 e2 9d")).status(), "UTF-8"));
}

TEST(MetadataTest, RejectsSortedBitWithUnsortedOrDuplicateKeys) {
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("11 02 00 01 02 62 61")).status(),
                        "marked sorted"));
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("11 02 00 01 02 61 61")).status(),
                        "marked sorted"));
}

TEST(MetadataTest, SortedOrderIsUnsignedBytes) {
  // "z" (7A) < "é" (C3 A9) in unsigned byte order; signed char order would flip them.
  const std::string md_bytes = Hex("11 02 00 01 03 7a c3 a9");
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(md_bytes));
  EXPECT_EQ(md.Find("\xc3\xa9"), 1u);
  EXPECT_TRUE(FailsWith(MetadataView::Make(Hex("11 02 00 02 03 c3 a9 7a")).status(),
                        "marked sorted"));
}

TEST(MetadataTest, SortedFindBinarySearchesManyKeys) {
  std::string bytes;
  // Build a sorted dictionary by hand: keys k000..k299, 2-byte offsets.
  std::string strings;
  std::vector<uint32_t> offsets{0};
  for (int i = 0; i < 300; ++i) {
    char key[8];
    std::snprintf(key, sizeof key, "k%03d", i);
    strings += key;
    offsets.push_back(static_cast<uint32_t>(strings.size()));
  }
  bytes.push_back(static_cast<char>(0x11 | (1 << 6)));
  auto put = [&](uint32_t v) { bytes.append(reinterpret_cast<char*>(&v), 2); };
  put(300);
  for (uint32_t o : offsets) put(o);
  bytes += strings;
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(bytes));
  EXPECT_EQ(md.Find("k000"), 0u);
  EXPECT_EQ(md.Find("k150"), 150u);
  EXPECT_EQ(md.Find("k299"), 299u);
  EXPECT_FALSE(md.Find("k300").has_value());
  EXPECT_FALSE(md.Find("a").has_value());
}

TEST(MetadataBuilderTest, EmptyBuilderWritesThreeByteEmptyMetadata) {
  MetadataBuilder b;
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(ToHex(out), "01 00 00");
}

TEST(MetadataBuilderTest, KeysInFirstSeenOrderDeduplicated) {
  MetadataBuilder b;
  EXPECT_EQ(b.Add("b"), 0u);
  EXPECT_EQ(b.Add("a"), 1u);
  EXPECT_EQ(b.Add("b"), 0u);
  EXPECT_EQ(b.size(), 2u);
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(ToHex(out), "01 02 00 01 02 62 61");
}

TEST(MetadataBuilderTest, OffsetWidthGrowsWithKeyBytes) {
  MetadataBuilder b;
  b.Add(std::string(200, 'x'));
  b.Add(std::string(100, 'y'));  // 300 bytes of keys: 2-byte offsets
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(static_cast<uint8_t>(out[0]), 0x41);
  EXPECT_EQ(out.size(), 1u + 2 * 4 + 300);
  VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(out));
  EXPECT_EQ(md.key(1), std::string(100, 'y'));

  MetadataBuilder big;
  big.Add(std::string(70000, 'z'));  // > 65535: 3-byte offsets
  out.clear();
  big.Finish(&out);
  EXPECT_EQ(static_cast<uint8_t>(out[0]), 0x81);
  VS_ASSIGN_OR_FAIL(MetadataView md3, MetadataView::Make(out));
  EXPECT_EQ(md3.key(0).size(), 70000u);
}

TEST(MetadataBuilderTest, OffsetWidthCoversTheKeyCount) {
  // The dictionary size shares the offset width: 256 keys ("" and the 255 one-byte
  // strings 01..FF) hold only 255 key bytes, yet the count needs 2-byte offsets.
  MetadataBuilder b;
  b.Add("");
  for (int i = 1; i < 256; ++i) b.Add(std::string(1, static_cast<char>(i)));
  ASSERT_EQ(b.size(), 256u);
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(static_cast<uint8_t>(out[0]), 0x41);
  EXPECT_EQ(ToHex(out.substr(1, 6)), "00 01 00 00 00 00");  // size 256, offsets 0, 0
  EXPECT_EQ(out.size(), 1u + 2 * 258 + 255);
  VS_ASSIGN_OR_FAIL(size_t size, MetadataView::MeasureSize(out));
  EXPECT_EQ(size, out.size());
}

TEST(MetadataBuilderTest, TruncateForgetsLaterKeys) {
  MetadataBuilder b;
  b.Add("a");
  b.Add("b");
  b.Add("c");
  b.Truncate(1);
  EXPECT_EQ(b.size(), 1u);
  EXPECT_EQ(b.Add("c"), 1u);  // "c" is new again
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(ToHex(out), "01 02 00 01 02 61 63");
  b.Reset();
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.Add("z"), 0u);
}

TEST(MetadataBuilderTest, ReplaysThePreviousDictionaryAndEncodesTheSameBytes) {
  MetadataBuilder b;
  std::string first, second;
  for (std::string* out : {&first, &second}) {
    EXPECT_EQ(b.Add("b"), 0u);
    EXPECT_EQ(b.Add("a"), 1u);
    EXPECT_EQ(b.Add("b"), 0u);
    b.Finish(out);
    b.Reset();
  }
  EXPECT_EQ(ToHex(first), "01 02 00 01 02 62 61");
  EXPECT_EQ(second, first);
  // A row that starts alike and then differs gets its own ids and bytes.
  EXPECT_EQ(b.Add("b"), 0u);
  EXPECT_EQ(b.Add("c"), 1u);
  EXPECT_EQ(b.Add("a"), 2u);
  EXPECT_EQ(b.Add("c"), 1u);
  std::string third;
  b.Finish(&third);
  EXPECT_EQ(ToHex(third), "01 03 00 01 02 03 62 63 61");
  b.Reset();
  // A row using only the start of the remembered dictionary.
  EXPECT_EQ(b.Add("b"), 0u);
  std::string fourth;
  b.Finish(&fourth);
  EXPECT_EQ(ToHex(fourth), "01 01 00 01 62");
}

TEST(MetadataBuilderTest, ReplayThatStopsPastTheLinearLimitStillFindsEveryKey) {
  MetadataBuilder b;
  for (int row = 0; row < 3; ++row) {
    // Row 0 has 100 keys (unindexed while replayed), rows 1 and 2 replay them and then
    // add 200 more: the first hash table must hold them all.
    const int n = row == 0 ? 100 : 300;
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(b.Add("k" + std::to_string(i)), static_cast<uint32_t>(i));
    }
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(b.Add("k" + std::to_string(i)), static_cast<uint32_t>(i));
    }
    EXPECT_EQ(b.size(), static_cast<uint32_t>(n));
    std::string out;
    b.Finish(&out);
    VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(out));
    ASSERT_EQ(md.size(), static_cast<uint32_t>(n));
    EXPECT_EQ(md.key(static_cast<uint32_t>(n - 1)), "k" + std::to_string(n - 1));
    b.Reset();
  }
}

// While a row replays the remembered dictionary its keys are read from there: size(),
// key(), a rollback into the replay and the encoding of part of it must all see the
// row's own keys.
TEST(MetadataBuilderTest, KeysSizeAndTruncateInTheMiddleOfAReplay) {
  MetadataBuilder b;
  for (const char* k : {"x", "y", "z"}) b.Add(k);
  b.Reset();
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.Add("x"), 0u);
  EXPECT_EQ(b.Add("y"), 1u);
  EXPECT_TRUE(b.replaying());
  EXPECT_EQ(b.size(), 2u);
  EXPECT_EQ(b.key(1), "y");
  std::string scratch;
  EXPECT_EQ(ToHex(std::string(b.FinishView(&scratch))), "01 02 00 01 02 78 79");
  b.Truncate(1);  // a rolled-back value: "y" is gone, the replay stops
  EXPECT_FALSE(b.replaying());
  EXPECT_EQ(b.size(), 1u);
  EXPECT_EQ(b.key(0), "x");
  EXPECT_EQ(b.Add("w"), 1u);
  EXPECT_EQ(b.Add("x"), 0u);
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(ToHex(out), "01 02 00 01 02 78 77");
}

// Rows of very different key counts in turn (a row's first hash table is sized by the
// row before), with keys of 0 to 40 bytes that differ only in one byte at the start,
// middle or end (the hash reads words, their overlapping tails and short keys' bytes):
// every key gets its first-seen id back, within a row and after a Reset().
TEST(MetadataBuilderTest, RowsOfManyAndFewKeysFindEveryKey) {
  MetadataBuilder b;
  for (const int n : {2000, 3, 40, 0, 17, 2000, 1, 600}) {
    std::vector<std::string> keys;
    for (int i = 0; i < n; ++i) {
      std::string k(static_cast<size_t>(i % 41), 'k');
      if (!k.empty()) k[static_cast<size_t>(i / 41 % 3) * (k.size() - 1) / 2] = 'A';
      k += std::to_string(n) + "/" + std::to_string(i / 41);
      keys.push_back(std::move(k));
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(b.Add(keys[static_cast<size_t>(i)]), static_cast<uint32_t>(i))
            << "row of " << n << " keys, key " << i << ", pass " << pass;
      }
    }
    std::string out;
    b.Finish(&out);
    VS_ASSIGN_OR_FAIL(MetadataView md, MetadataView::Make(out));
    ASSERT_EQ(md.size(), static_cast<uint32_t>(n));
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(md.key(static_cast<uint32_t>(i)), keys[static_cast<size_t>(i)]);
    }
    b.Reset();
  }
}

// The key tables (the dictionary builder's, inference's field index) keep the low bits
// of internal::HashKey. Keys that differ only in two neighbouring bytes, at any place
// of a 24-byte key (the high bytes of a word once put every such key in one slot of
// inference's index), and in keys of 1 to 7 bytes, spread over a table of 4096 slots.
TEST(HashKeyTest, KeysDifferingInTwoBytesAnywhereSpreadOverTheTable) {
  constexpr size_t kSlots = 4096;
  constexpr int kKeys = 1500;
  auto mean_probes = [&](auto make_key) {
    std::vector<bool> used(kSlots);
    int64_t probes = 0;
    for (int i = 0; i < kKeys; ++i) {
      size_t slot = internal::HashKey(make_key(i)) & (kSlots - 1);
      for (++probes; used[slot]; ++probes) slot = (slot + 1) & (kSlots - 1);
      used[slot] = true;
    }
    return static_cast<double>(probes) / kKeys;
  };
  for (size_t at = 0; at + 1 < 24; ++at) {
    const double mean = mean_probes([at](int i) {
      std::string k(24, 'x');
      k[at] = static_cast<char>(i & 255);
      k[at + 1] = static_cast<char>(i >> 8);
      return k;
    });
    EXPECT_LT(mean, 2.0) << "bytes " << at << " and " << at + 1;
  }
  for (size_t length = 2; length < 8; ++length) {
    const double mean = mean_probes([length](int i) {
      std::string k(length, 'x');
      k[0] = static_cast<char>(i & 255);
      k[length - 1] = static_cast<char>(i >> 8);
      return k;
    });
    EXPECT_LT(mean, 2.0) << "keys of " << length << " bytes";
  }
}

TEST(MetadataBuilderTest, ReplayAfterTruncateUsesTheKeptKeys) {
  MetadataBuilder b;
  b.Add("a");
  b.Add("b");
  b.Add("c");
  b.Truncate(1);
  EXPECT_EQ(b.Add("d"), 1u);
  b.Reset();
  EXPECT_EQ(b.Add("a"), 0u);
  EXPECT_EQ(b.Add("c"), 1u);  // "c" was dropped: no longer id 2
  EXPECT_EQ(b.Add("d"), 2u);
  std::string out;
  b.Finish(&out);
  EXPECT_EQ(ToHex(out), "01 03 00 01 02 03 61 63 64");
}

TEST(MetadataCacheTest, FindAgreesWithTheScanBeforeAndAfterSortingTheIds) {
  // An unsorted dictionary (as Spark and varshred write them) of 41 keys in reverse
  // order, "k07" twice (ids 32 and 40): Unshred resolves every typed field name of a
  // row through Find(), which scans a few times, then binary-searches the ids sorted
  // by key. Both must give MetadataView::Find()'s answer, the lowest id.
  std::string strings;
  std::vector<uint8_t> offsets{0};
  std::vector<std::string> keys;
  for (int i = 39; i >= 0; --i)
    keys.push_back("k" + std::string(i < 10 ? "0" : "") + std::to_string(i));
  keys.push_back("k07");
  for (const auto& k : keys) {
    strings += k;
    offsets.push_back(static_cast<uint8_t>(strings.size()));
  }
  std::string bytes(1, '\x01');
  bytes.push_back(static_cast<char>(keys.size()));
  for (uint8_t o : offsets) bytes.push_back(static_cast<char>(o));
  bytes += strings;
  std::vector<std::string> probes = keys;
  for (const char* missing : {"", "k", "k40", "k070", "a", "z"})
    probes.push_back(missing);
  const std::string two_keys = Hex("01 02 00 01 02 6b 30");  // "k", "0"
  internal::MetadataCache cache;
  for (int round = 0; round < 2; ++round) {
    VS_ASSIGN_OR_FAIL(MetadataView md, cache.Get(bytes));
    ASSERT_FALSE(md.sorted());
    for (const auto& k : probes) EXPECT_EQ(cache.Find(k), md.Find(k)) << k;
    EXPECT_EQ(cache.Find("k07"), 32u);
    // A hint naming the key is taken, even a repeated one; a wrong hint is searched
    // past, and the shift it was off by is tried first for the next key.
    EXPECT_EQ(cache.Find("k07", 40), 40u);
    EXPECT_EQ(cache.Find("k10", 5), 29u);
    EXPECT_EQ(cache.Find("k09", 6), 30u);
    EXPECT_EQ(cache.Find("k39", 40), 0u);
    EXPECT_FALSE(cache.Find("zz", 3).has_value());
    EXPECT_EQ(cache.Find("k07", 1000), 32u);  // a hint past the dictionary
    // Another dictionary in between: what was sorted for the first one is dropped.
    VS_ASSIGN_OR_FAIL(MetadataView other, cache.Get(two_keys));
    for (int i = 0; i < 12; ++i) EXPECT_EQ(cache.Find("0"), other.Find("0"));
    EXPECT_FALSE(cache.Find("k07").has_value());
  }
}

TEST(MetadataTest, SameBytesSeesOneChangedByteAtEveryPositionAndLength) {
  // MetadataCache reuses a dictionary on SameBytes(): a byte it missed would print
  // another row's keys. Word compares up to 64 bytes, memcmp past them.
  for (size_t n = 0; n <= 80; ++n) {
    std::string a(n, '\0');
    for (size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + i % 26);
    EXPECT_TRUE(internal::SameBytes(a, std::string(a))) << n;
    EXPECT_FALSE(internal::SameBytes(a, a + "x")) << n;
    for (size_t at = 0; at < n; ++at) {
      std::string b = a;
      b[at] = static_cast<char>(b[at] ^ 0x80);
      EXPECT_FALSE(internal::SameBytes(a, b)) << n << " " << at;
    }
  }
}

}  // namespace
}  // namespace varshred
