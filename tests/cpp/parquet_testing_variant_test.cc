// The 29 raw encodings of apache/parquet-testing `variant/`
// (docs/shredding.md#raw-encodings): each must validate, decode to the exact type and
// value (derived by decoding the bytes by hand and cross-checked against
// data_dictionary.json, minding its known inaccuracies), and survive a rebuild through
// VariantBuilder::AppendVariant.

#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "test_util.h"
#include "variant_equal.h"
#include "varshred/builder.h"
#include "varshred/validate.h"

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;

// Spark's text in primitive_string and long_string: ASCII then emoji.
constexpr std::string_view kEmojiTail =
    "non ascii characters such as \xF0\x9F\x90\xA2, \xF0\x9F\x92\x96, "
    "\xE2\x99\xA5\xEF\xB8\x8F,"
    " \xF0\x9F\x8E\xA3 and \xF0\x9F\xA4\xA6!!";

using Check = std::function<void(const VariantView&)>;

void ExpectInt(const VariantView& v, VariantType type, int64_t value) {
  ASSERT_EQ(v.type(), type) << VariantTypeName(v.type());
  EXPECT_EQ(v.GetInteger(), value);
}

void ExpectDecimal(const VariantView& v, VariantType type, int128_t unscaled, int scale) {
  ASSERT_EQ(v.type(), type) << VariantTypeName(v.type());
  const Decimal d = v.GetDecimal();
  EXPECT_TRUE(d.unscaled == unscaled) << static_cast<long double>(d.unscaled);
  EXPECT_EQ(d.scale, scale);
}

void ExpectTime(const VariantView& v, VariantType type, int64_t value) {
  ASSERT_EQ(v.type(), type) << VariantTypeName(v.type());
  EXPECT_EQ(v.GetTimeValue(), value);
}

void ExpectString(const VariantView& v, std::string_view s) {
  ASSERT_EQ(v.type(), VariantType::kString) << VariantTypeName(v.type());
  EXPECT_EQ(v.GetString(), s);
}

std::map<std::string, Check> Expectations() {
  std::map<std::string, Check> m;
  m["primitive_null"] = [](const VariantView& v) { EXPECT_TRUE(v.is_null()); };
  m["primitive_boolean_true"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kBoolean);
    EXPECT_TRUE(v.GetBool());
  };
  m["primitive_boolean_false"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kBoolean);
    EXPECT_FALSE(v.GetBool());
  };
  m["primitive_int8"] = [](const VariantView& v) {
    ExpectInt(v, VariantType::kInt8, 42);
  };
  m["primitive_int16"] = [](const VariantView& v) {
    ExpectInt(v, VariantType::kInt16, 1234);
  };
  m["primitive_int32"] = [](const VariantView& v) {
    ExpectInt(v, VariantType::kInt32, 123456);
  };
  m["primitive_int64"] = [](const VariantView& v) {
    ExpectInt(v, VariantType::kInt64, 1234567890123456789LL);
  };
  m["primitive_float"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kFloat);
    // 1234567890 rounded to binary32 (the dictionary prints 1234567940.0).
    EXPECT_EQ(v.GetFloat(), 1234567936.0f);
  };
  m["primitive_double"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kDouble);
    EXPECT_EQ(v.GetDouble(), 1234567890.1234);
  };
  // docs/shredding.md#raw-encodings: the dictionary's decimal values are lossy; these are
  // the stored ones.
  m["primitive_decimal4"] = [](const VariantView& v) {
    ExpectDecimal(v, VariantType::kDecimal4, 1234, 2);
  };
  m["primitive_decimal8"] = [](const VariantView& v) {
    ExpectDecimal(v, VariantType::kDecimal8, 1234567890, 2);
  };
  m["primitive_decimal16"] = [](const VariantView& v) {
    ExpectDecimal(v, VariantType::kDecimal16, 1234567891234567890LL, 2);
  };
  m["primitive_date"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kDate);
    EXPECT_EQ(v.GetDate(), 20194);  // 2025-04-16
  };
  m["primitive_timestamp"] = [](const VariantView& v) {
    // 2025-04-16 16:34:56.78 UTC (the dictionary prints it at -04:00).
    ExpectTime(v, VariantType::kTimestampMicros, 1744821296780000);
  };
  m["primitive_timestampntz"] = [](const VariantView& v) {
    ExpectTime(v, VariantType::kTimestampNtzMicros, 1744806896780000);  // 12:34:56.78
  };
  m["primitive_timestamp_nanos"] = [](const VariantView& v) {
    // 2024-11-07T12:33:54.123456789Z
    ExpectTime(v, VariantType::kTimestampNanos, 1730982834123456789LL);
  };
  m["primitive_timestampntz_nanos"] = [](const VariantView& v) {
    ExpectTime(v, VariantType::kTimestampNtzNanos, 1730982834123456789LL);
  };
  m["primitive_time"] = [](const VariantView& v) {
    ExpectTime(v, VariantType::kTimeNtzMicros, 45234123456);  // 12:33:54.123456
  };
  m["primitive_binary"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kBinary);
    EXPECT_EQ(ToHex(v.GetBinary()), "03 13 37 de ad be ef ca fe");  // "AxM33q2+78r+"
  };
  m["primitive_uuid"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kUuid);
    EXPECT_EQ(ToHex(v.GetUuid()), "f2 4f 9b 64 81 fa 49 d1 b7 4e 8c 09 a6 e3 1c 56");
  };
  m["primitive_string"] = [](const VariantView& v) {
    EXPECT_EQ(v.basic_type(), BasicType::kPrimitive);  // long form
    ExpectString(v,
                 "This string is longer than 64 bytes and therefore does not fit in a "
                 "short_string and it also includes several " +
                     std::string(kEmojiTail));
    EXPECT_EQ(v.GetString().size(), 174u);
  };
  m["long_string"] = [](const VariantView& v) {
    EXPECT_EQ(v.basic_type(), BasicType::kPrimitive);
    ExpectString(v,
                 "This string is for sure and certainly longer than 64 bytes and it also "
                 "includes several " +
                     std::string(kEmojiTail));
    EXPECT_EQ(v.GetString().size(), 152u);
  };
  m["short_string"] = [](const VariantView& v) {
    EXPECT_EQ(v.basic_type(), BasicType::kShortString);
    ExpectString(v, "Less than 64 bytes (\xE2\x9D\xA4\xEF\xB8\x8F with utf8)");
  };
  m["object_empty"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kObject);
    EXPECT_EQ(v.GetObject().num_fields(), 0u);
  };
  m["array_empty"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kArray);
    EXPECT_EQ(v.GetArray().size(), 0u);
  };
  m["array_primitive"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kArray);
    const ArrayView a = v.GetArray();
    ASSERT_EQ(a.size(), 4u);
    const int8_t expected[] = {2, 1, 5, 9};
    for (uint32_t i = 0; i < 4; ++i)
      ExpectInt(a.element(i), VariantType::kInt8, expected[i]);
  };
  m["object_primitive"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kObject);
    const ObjectView o = v.GetObject();
    ASSERT_EQ(o.num_fields(), 7u);
    // Fields listed in key order.
    const char* keys[] = {"boolean_false_field", "boolean_true_field", "double_field",
                          "int_field",           "null_field",         "string_field",
                          "timestamp_field"};
    for (uint32_t i = 0; i < 7; ++i) EXPECT_EQ(o.key(i), keys[i]);
    EXPECT_FALSE(o.Find("boolean_false_field")->GetBool());
    EXPECT_TRUE(o.Find("boolean_true_field")->GetBool());
    // Spark stored 1.23456789 as a decimal, not a double.
    ExpectDecimal(*o.Find("double_field"), VariantType::kDecimal4, 123456789, 8);
    ExpectInt(*o.Find("int_field"), VariantType::kInt8, 1);
    EXPECT_TRUE(o.Find("null_field")->is_null());
    ExpectString(*o.Find("string_field"), "Apache Parquet");
    // A string, not a timestamp.
    ExpectString(*o.Find("timestamp_field"), "2025-04-16T12:34:56.78");
  };
  m["object_nested"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kObject);
    const ObjectView o = v.GetObject();
    ASSERT_EQ(o.num_fields(), 3u);
    ExpectInt(*o.Find("id"), VariantType::kInt8, 1);
    const ObjectView obs = o.Find("observation")->GetObject();
    ASSERT_EQ(obs.num_fields(), 3u);
    ExpectString(*obs.Find("location"), "In the Volcano");
    ExpectString(*obs.Find("time"), "12:34:56");
    const ObjectView val = obs.Find("value")->GetObject();
    ASSERT_EQ(val.num_fields(), 2u);
    ExpectInt(*val.Find("humidity"), VariantType::kInt16, 456);
    ExpectInt(*val.Find("temperature"), VariantType::kInt8, 123);
    const ObjectView species = o.Find("species")->GetObject();
    ASSERT_EQ(species.num_fields(), 2u);
    ExpectString(*species.Find("name"), "lava monster");
    ExpectInt(*species.Find("population"), VariantType::kInt16, 6789);
  };
  m["array_nested"] = [](const VariantView& v) {
    ASSERT_EQ(v.type(), VariantType::kArray);
    const ArrayView a = v.GetArray();
    ASSERT_EQ(a.size(), 3u);
    const ObjectView first = a.element(0).GetObject();
    ASSERT_EQ(first.num_fields(), 2u);
    ExpectInt(*first.Find("id"), VariantType::kInt8, 1);
    const ObjectView thing = first.Find("thing")->GetObject();
    ASSERT_EQ(thing.num_fields(), 1u);
    const ArrayView names1 = thing.Find("names")->GetArray();
    ASSERT_EQ(names1.size(), 2u);
    ExpectString(names1.element(0), "Contrarian");
    ExpectString(names1.element(1), "Spider");
    EXPECT_TRUE(a.element(1).is_null());
    const ObjectView third = a.element(2).GetObject();
    ASSERT_EQ(third.num_fields(), 3u);
    ExpectInt(*third.Find("id"), VariantType::kInt8, 2);
    ExpectString(*third.Find("type"), "if");
    const ArrayView names3 = third.Find("names")->GetArray();
    ASSERT_EQ(names3.size(), 3u);
    ExpectString(names3.element(0), "Apple");
    ExpectString(names3.element(1), "Ray");
    EXPECT_TRUE(names3.element(2).is_null());
  };
  return m;
}

TEST(ParquetTestingVariantTest, AllExamplesDecodeValidateAndRebuild) {
  const std::string dir = testing::CorpusDir() + "/variant";
  if (!std::filesystem::is_directory(dir)) {
    if (testing::InCi()) FAIL() << "corpus missing under CI: " << dir;
    GTEST_SKIP() << "corpus not found: " << dir;
  }
  const auto expectations = Expectations();
  ASSERT_EQ(expectations.size(), 29u);
  int seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".metadata") continue;
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    auto it = expectations.find(name);
    ASSERT_NE(it, expectations.end()) << "unexpected corpus example " << name;
    ++seen;
    const std::string md = testing::ReadFile(entry.path().string());
    const std::string value = testing::ReadFile(dir + "/" + name + ".value");
    VS_ASSERT_OK(Validate(md, value));
    // Every example is written with 1-byte offsets and the unsorted header (Spark or
    // Iceberg), and primitive_null's metadata is the 3-byte form
    // (docs/shredding.md#raw-encodings).
    EXPECT_EQ(static_cast<uint8_t>(md[0]), 0x01);
    const VariantView v =
        VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value);
    EXPECT_EQ(v.value_bytes().size(), value.size());
    it->second(v);

    VariantBuilder builder;
    VS_ASSERT_OK(builder.AppendVariant(v));
    std::string md2, value2;
    VS_ASSERT_OK(builder.Finish(&md2, &value2));
    VS_ASSERT_OK(Validate(md2, value2));
    const VariantView rebuilt =
        VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md2), value2);
    EXPECT_TRUE(testing::LogicalEqual(v, rebuilt));
    it->second(rebuilt);
    // Widths are minimal on both sides, so the rebuilt value has the same size (the
    // order of object values may differ: AppendVariant writes them in key order).
    EXPECT_EQ(value2.size(), value.size());
  }
  EXPECT_EQ(seen, 29);
}

TEST(ParquetTestingVariantTest, KnownBytes) {
  const std::string dir = testing::CorpusDir() + "/variant";
  if (!std::filesystem::is_directory(dir)) {
    if (testing::InCi()) FAIL() << "corpus missing under CI: " << dir;
    GTEST_SKIP() << "corpus not found: " << dir;
  }
  EXPECT_EQ(ToHex(testing::ReadFile(dir + "/primitive_null.metadata")), "01 00 00");
  EXPECT_EQ(ToHex(testing::ReadFile(dir + "/primitive_null.value")), "00");
  EXPECT_EQ(ToHex(testing::ReadFile(dir + "/object_empty.value")), "02 00 00");
  EXPECT_EQ(ToHex(testing::ReadFile(dir + "/array_empty.value")), "03 00 00");
}

}  // namespace
}  // namespace varshred
