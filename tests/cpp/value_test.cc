#include "varshred/value.h"

#include <cmath>
#include <limits>
#include <string>

#include "test_util.h"
#include "varshred/validate.h"

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;

const std::string kEmpty(kEmptyMetadata);

// A validated view over `value` with the metadata `md` (both must outlive the view).
VariantView View(const std::string& md, const std::string& value) {
  auto status = Validate(md, value);
  EXPECT_TRUE(status.ok()) << ToHex(value) << ": " << status.ToString();
  return VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value);
}

TEST(ValueTest, NullAndBooleans) {
  const std::string null_v = Hex("00"), t = Hex("04"), f = Hex("08");
  EXPECT_TRUE(View(kEmpty, null_v).is_null());
  EXPECT_EQ(View(kEmpty, t).type(), VariantType::kBoolean);
  EXPECT_TRUE(View(kEmpty, t).GetBool());
  EXPECT_EQ(View(kEmpty, f).type(), VariantType::kBoolean);
  EXPECT_FALSE(View(kEmpty, f).GetBool());
  EXPECT_EQ(View(kEmpty, f).basic_type(), BasicType::kPrimitive);
}

TEST(ValueTest, IntegersOfEveryWidth) {
  const std::string i8 = Hex("0c 80"), i16 = Hex("10 00 80"), i32 = Hex("14 00 00 00 80"),
                    i64 = Hex("18 ff ff ff ff ff ff ff 7f");
  EXPECT_EQ(View(kEmpty, i8).type(), VariantType::kInt8);
  EXPECT_EQ(View(kEmpty, i8).GetInt8(), -128);
  EXPECT_EQ(View(kEmpty, i16).type(), VariantType::kInt16);
  EXPECT_EQ(View(kEmpty, i16).GetInt16(), -32768);
  EXPECT_EQ(View(kEmpty, i32).type(), VariantType::kInt32);
  EXPECT_EQ(View(kEmpty, i32).GetInt32(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(View(kEmpty, i64).type(), VariantType::kInt64);
  EXPECT_EQ(View(kEmpty, i64).GetInt64(), std::numeric_limits<int64_t>::max());
  // GetInteger widens each width with sign extension.
  EXPECT_EQ(View(kEmpty, i8).GetInteger(), -128);
  EXPECT_EQ(View(kEmpty, i16).GetInteger(), -32768);
  EXPECT_EQ(View(kEmpty, i32).GetInteger(), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(View(kEmpty, i64).GetInteger(), std::numeric_limits<int64_t>::max());
}

TEST(ValueTest, FloatAndDouble) {
  const std::string f = Hex("38 00 00 c0 3f"), d = Hex("1c 00 00 00 00 00 00 f8 bf");
  EXPECT_EQ(View(kEmpty, f).type(), VariantType::kFloat);
  EXPECT_EQ(View(kEmpty, f).GetFloat(), 1.5f);
  EXPECT_EQ(View(kEmpty, d).type(), VariantType::kDouble);
  EXPECT_EQ(View(kEmpty, d).GetDouble(), -1.5);
  const std::string nan = Hex("1c 00 00 00 00 00 00 f8 7f");
  EXPECT_TRUE(std::isnan(View(kEmpty, nan).GetDouble()));
}

TEST(ValueTest, DecimalsOfEveryWidth) {
  const std::string d4 = Hex("20 02 d2 04 00 00");
  const std::string d8 = Hex("24 09 2e fd 69 b6 ff ff ff ff");  // -1234567890, scale 9
  // decimal16: unscaled 10^38 - 1 = 0x4B3B4CA85A86C47A098A223FFFFFFFFF, scale 38.
  const std::string d16 = Hex("28 26 ff ff ff ff 3f 22 8a 09 7a c4 86 5a a8 4c 3b 4b");
  EXPECT_EQ(View(kEmpty, d4).type(), VariantType::kDecimal4);
  EXPECT_EQ(View(kEmpty, d4).GetDecimal().unscaled, 1234);
  EXPECT_EQ(View(kEmpty, d4).GetDecimal().scale, 2);
  EXPECT_EQ(View(kEmpty, d8).type(), VariantType::kDecimal8);
  EXPECT_EQ(View(kEmpty, d8).GetDecimal().unscaled, -1234567890);
  EXPECT_EQ(View(kEmpty, d8).GetDecimal().scale, 9);
  EXPECT_EQ(View(kEmpty, d16).type(), VariantType::kDecimal16);
  int128_t max38 = 1;
  for (int i = 0; i < 38; ++i) max38 *= 10;
  max38 -= 1;
  EXPECT_TRUE(View(kEmpty, d16).GetDecimal().unscaled == max38);
  EXPECT_EQ(View(kEmpty, d16).GetDecimal().scale, 38);
  EXPECT_EQ(DecimalPrecision(max38), 38);
  EXPECT_EQ(DecimalPrecision(-max38), 38);
}

TEST(ValueTest, DecimalPrecisionCountsDigits) {
  EXPECT_EQ(DecimalPrecision(0), 1);
  EXPECT_EQ(DecimalPrecision(9), 1);
  EXPECT_EQ(DecimalPrecision(10), 2);
  EXPECT_EQ(DecimalPrecision(-999999999), 9);
  EXPECT_EQ(DecimalPrecision(1000000000), 10);
  EXPECT_EQ(DecimalPrecision(std::numeric_limits<int64_t>::min()), 19);
  // INT128_MIN has 39 digits and must not overflow when negated.
  EXPECT_EQ(
      DecimalPrecision(static_cast<int128_t>(static_cast<unsigned __int128>(1) << 127)),
      39);
}

TEST(ValueTest, DateTimesAndTimestamps) {
  struct Case {
    const char* hex;
    VariantType type;
    int64_t value;
  } cases[] = {
      {"30 e0 52 97 dd e7 32 06 00", VariantType::kTimestampMicros, 1744821296780000},
      {"34 e0 c2 48 83 e4 32 06 00", VariantType::kTimestampNtzMicros, 1744806896780000},
      {"44 c0 f2 29 88 0a 00 00 00", VariantType::kTimeNtzMicros, 45234123456},
      {"48 15 41 3a 6c b7 af 05 18", VariantType::kTimestampNanos, 1730982834123456789},
      {"4c 15 41 3a 6c b7 af 05 18", VariantType::kTimestampNtzNanos,
       1730982834123456789},
  };
  for (const Case& c : cases) {
    const std::string bytes = Hex(c.hex);
    const VariantView v = View(kEmpty, bytes);
    EXPECT_EQ(v.type(), c.type) << c.hex;
    EXPECT_EQ(v.GetTimeValue(), c.value) << c.hex;
  }
  const std::string date = Hex("2c ff ff ff ff");
  EXPECT_EQ(View(kEmpty, date).type(), VariantType::kDate);
  EXPECT_EQ(View(kEmpty, date).GetDate(), -1);
}

TEST(ValueTest, StringsShortLongAndBinary) {
  const std::string short_s = Hex("09 68 69"), long_s = Hex("40 02 00 00 00 68 69"),
                    empty_short = Hex("01"), bin = Hex("3c 03 00 00 00 00 ff 01");
  EXPECT_EQ(View(kEmpty, short_s).type(), VariantType::kString);
  EXPECT_EQ(View(kEmpty, short_s).basic_type(), BasicType::kShortString);
  EXPECT_EQ(View(kEmpty, short_s).GetString(), "hi");
  EXPECT_EQ(View(kEmpty, long_s).type(), VariantType::kString);
  EXPECT_EQ(View(kEmpty, long_s).basic_type(), BasicType::kPrimitive);
  EXPECT_EQ(View(kEmpty, long_s).GetString(), "hi");
  EXPECT_EQ(View(kEmpty, empty_short).GetString(), "");
  EXPECT_EQ(View(kEmpty, bin).type(), VariantType::kBinary);
  EXPECT_EQ(View(kEmpty, bin).GetBinary(), Hex("00 ff 01"));
}

TEST(ValueTest, UuidIsBigEndianBytes) {
  const std::string uuid = Hex("50 f2 4f 9b 64 81 fa 49 d1 b7 4e 8c 09 a6 e3 1c 56");
  EXPECT_EQ(View(kEmpty, uuid).type(), VariantType::kUuid);
  EXPECT_EQ(ToHex(View(kEmpty, uuid).GetUuid()),
            "f2 4f 9b 64 81 fa 49 d1 b7 4e 8c 09 a6 e3 1c 56");
}

TEST(ValueTest, ValueSizeOfEveryKindIgnoresTrailingBytes) {
  EXPECT_EQ(ValueSize(Hex("00 ff")), 1u);
  EXPECT_EQ(ValueSize(Hex("0c 01 ff")), 2u);
  EXPECT_EQ(ValueSize(Hex("28 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff")),
            18u);
  EXPECT_EQ(ValueSize(Hex("50 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ff")), 17u);
  EXPECT_EQ(ValueSize(Hex("40 02 00 00 00 68 69 ff")), 7u);
  EXPECT_EQ(ValueSize(Hex("09 68 69 ff")), 3u);
  EXPECT_EQ(ValueSize(Hex("02 00 00 ff")), 3u);
  EXPECT_EQ(ValueSize(Hex("03 01 00 02 0c 01 ff")), 6u);
  EXPECT_EQ(ValueSize(Hex("02 01 00 00 02 0c 01 ff")), 7u);
  // is_large array with 2-byte offsets: 1 + 4 + 2 * 2 + 2.
  EXPECT_EQ(ValueSize(Hex("17 01 00 00 00 00 00 02 00 0c 01 ff")), 11u);
}

TEST(ValueTest, TypeFromHeaderAndNames) {
  EXPECT_EQ(TypeFromHeader(0x0c), VariantType::kInt8);
  EXPECT_EQ(TypeFromHeader(0x40), VariantType::kString);
  EXPECT_EQ(TypeFromHeader(0x05), VariantType::kString);
  EXPECT_EQ(TypeFromHeader(0x02), VariantType::kObject);
  EXPECT_EQ(TypeFromHeader(0x03), VariantType::kArray);
  EXPECT_EQ(TypeFromHeader(0x50), VariantType::kUuid);
  EXPECT_EQ(VariantTypeName(VariantType::kDecimal16), "decimal16");
  EXPECT_EQ(VariantTypeName(VariantType::kTimestampNtzNanos), "timestamp_ntz_nanos");
}

TEST(ValueTest, SpecObjectExample) {
  const std::string md = Hex("11 02 00 01 02 61 62");
  const std::string v = Hex("02 02 00 01 00 02 04 0c 01 05 78");
  const VariantView view = View(md, v);
  ASSERT_EQ(view.type(), VariantType::kObject);
  const ObjectView obj = view.GetObject();
  ASSERT_EQ(obj.num_fields(), 2u);
  EXPECT_EQ(obj.key(0), "a");
  EXPECT_EQ(obj.key(1), "b");
  EXPECT_EQ(obj.field_id(1), 1u);
  EXPECT_EQ(obj.field_offset(1), 2u);
  EXPECT_EQ(obj.value(0).GetInt8(), 1);
  EXPECT_EQ(obj.value(1).GetString(), "x");
  EXPECT_EQ(obj.size_bytes(), v.size());
  EXPECT_EQ(obj.Find("b")->GetString(), "x");
  EXPECT_EQ(obj.FindIndex("a"), 0u);
  EXPECT_FALSE(obj.Find("c").has_value());
  EXPECT_FALSE(obj.Find("").has_value());
  // A field's value slice is exact, even when it is not the last in the values area.
  EXPECT_EQ(ToHex(obj.value(0).value_bytes()), "0c 01");
}

TEST(ValueTest, FindFallsBackToLinearScanOnUnsortedIds) {
  // Ids in insertion order z, a, m (as DuckDB writes them): the binary search for "z"
  // probes "a" then "m" and misses, so Find must fall back to a linear scan.
  const std::string md = Hex("01 03 00 01 02 03 7a 61 6d");  // z=0, a=1, m=2
  const std::string v = Hex("02 03 00 01 02 00 02 04 06 0c 01 0c 02 0c 03");
  ValidateOptions lenient;
  lenient.allow_unsorted_keys = true;
  VS_ASSERT_OK(Validate(md, v, lenient));
  EXPECT_FALSE(Validate(md, v).ok());  // the spec requires key order
  const ObjectView obj =
      VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v).GetObject();
  EXPECT_EQ(obj.Find("z")->GetInt8(), 1);
  EXPECT_EQ(obj.Find("a")->GetInt8(), 2);
  EXPECT_EQ(obj.Find("m")->GetInt8(), 3);
  EXPECT_EQ(obj.FindIndex("m"), 2u);
  EXPECT_FALSE(obj.Find("b").has_value());
}

TEST(ValueTest, FindBinarySearchOnManySortedFields) {
  // 300 fields (is_large), 2-byte ids, 2-byte offsets; keys k000..k299 sorted.
  std::string strings;
  std::string md(1, static_cast<char>(0x11 | (1 << 6)));
  auto put2 = [](std::string* s, uint32_t v) {
    s->append(reinterpret_cast<char*>(&v), 2);
  };
  put2(&md, 300);
  put2(&md, 0);
  for (int i = 0; i < 300; ++i) {
    char key[8];
    std::snprintf(key, sizeof key, "k%03d", i);
    strings += key;
    put2(&md, static_cast<uint32_t>(strings.size()));
  }
  md += strings;
  std::string v(1, static_cast<char>(ObjectHeader(true, 2, 2)));
  const uint32_t n = 300;
  v.append(reinterpret_cast<const char*>(&n), 4);
  for (uint32_t i = 0; i < n; ++i) put2(&v, i);
  // Values: int16 i, 3 bytes each.
  for (uint32_t i = 0; i <= n; ++i) put2(&v, 3 * i);
  for (uint32_t i = 0; i < n; ++i) {
    v.push_back(0x10);
    put2(&v, i);
  }
  const VariantView view = View(md, v);
  const ObjectView obj = view.GetObject();
  ASSERT_EQ(obj.num_fields(), 300u);
  for (uint32_t i : {0u, 1u, 150u, 255u, 256u, 299u}) {
    char key[8];
    std::snprintf(key, sizeof key, "k%03u", i);
    auto found = obj.Find(key);
    ASSERT_TRUE(found.has_value()) << key;
    EXPECT_EQ(found->GetInt16(), static_cast<int16_t>(i)) << key;
  }
  EXPECT_FALSE(obj.Find("k300").has_value());
  EXPECT_EQ(obj.size_bytes(), v.size());
}

TEST(ValueTest, WideIdsAndOffsetsThreeAndFourBytes) {
  // One field, id 0 written with 4 bytes, offsets with 3 bytes; reserved bit 5 set.
  const std::string md = Hex("01 01 00 01 61");
  const std::string v = Hex("ba 01 00 00 00 00 00 00 00 02 00 00 0c 07");
  // header: 0x80 (reserved) | (id 4-1) << 4 | (off 3-1) << 2 | 2 = 0x80|0x30|0x08|2 = ba
  const VariantView view = View(md, v);
  const ObjectView obj = view.GetObject();
  EXPECT_EQ(obj.num_fields(), 1u);
  EXPECT_EQ(obj.field_id(0), 0u);
  EXPECT_EQ(obj.Find("a")->GetInt8(), 7);
  EXPECT_EQ(obj.size_bytes(), v.size());
  EXPECT_EQ(ValueSize(v), v.size());
}

TEST(ValueTest, ArrayViewsNarrowAndWide) {
  const std::string v = Hex("03 03 00 02 03 05 0c 01 00 05 78");  // [1, null, "x"]
  const ArrayView arr = View(kEmpty, v).GetArray();
  ASSERT_EQ(arr.size(), 3u);
  EXPECT_EQ(arr.element(0).GetInt8(), 1);
  EXPECT_TRUE(arr.element(1).is_null());
  EXPECT_EQ(arr.element(2).GetString(), "x");
  EXPECT_EQ(arr.element_offset(2), 3u);
  EXPECT_EQ(arr.size_bytes(), v.size());
  // is_large with 4-byte offsets and a single element; reserved bits 3-5 set.
  const std::string wide = Hex("ff 01 00 00 00 00 00 00 00 02 00 00 00 0c 05");
  const ArrayView w = View(kEmpty, wide).GetArray();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w.element(0).GetInt8(), 5);
  EXPECT_EQ(w.size_bytes(), wide.size());
  const std::string empty = Hex("03 00 00");
  EXPECT_EQ(View(kEmpty, empty).GetArray().size(), 0u);
}

TEST(ValueTest, NonMonotonicOffsetsSliceExactly) {
  // Object {a: [1], b: "xy"} with b's value written first.
  const std::string md = Hex("01 02 00 01 02 61 62");
  const std::string v = Hex("02 02 00 01 03 00 09 09 78 79 03 01 00 02 0c 01");
  const ObjectView obj = View(md, v).GetObject();
  EXPECT_EQ(obj.value(0).type(), VariantType::kArray);
  EXPECT_EQ(ToHex(obj.value(0).value_bytes()), "03 01 00 02 0c 01");
  EXPECT_EQ(obj.value(0).GetArray().element(0).GetInt8(), 1);
  EXPECT_EQ(obj.value(1).GetString(), "xy");
}

TEST(ValueTest, MakeValidates) {
  const std::string md(kEmptyMetadata);
  VS_ASSIGN_OR_FAIL(MetadataView mv, MetadataView::Make(md));
  EXPECT_TRUE(VariantView::Make(mv, Hex("0c")).status().IsInvalid());
  const std::string bytes = Hex("0c 05");
  VS_ASSIGN_OR_FAIL(VariantView v, VariantView::Make(mv, bytes));
  EXPECT_EQ(v.GetInt8(), 5);
}

}  // namespace
}  // namespace varshred
