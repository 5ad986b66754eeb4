#include "varshred/builder.h"

#include "test_util.h"
#include "variant_equal.h"
#include "varshred/validate.h"

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;

TEST(BuilderTest, SpecObjectExampleEncodesAsSpark) {
  VariantBuilder b;
  b.StartObject();
  b.AddKey("b");
  b.AppendString("x");
  b.AddKey("a");
  b.AppendInt(1);
  VS_ASSERT_OK(b.EndObject());
  std::string md, v;
  VS_ASSERT_OK(b.Finish(&md, &v));
  // Keys in first-seen order in the dictionary; ids/offsets in key order; values
  // where they were written (non-monotonic offsets), as Spark's builder does.
  EXPECT_EQ(ToHex(md), ToHex(Hex("01 02 00 01 02 62 61")));
  EXPECT_EQ(ToHex(v), ToHex(Hex("02 02 01 00 02 00 04 05 78 0c 01")));
  VS_EXPECT_OK(Validate(md, v));
}

}  // namespace
}  // namespace varshred

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;

// Finishes `b` and returns the value bytes, asserting the metadata is `md_hex` (when
// given) and that the result validates.
std::string FinishValue(VariantBuilder& b, std::string* md_out = nullptr) {
  std::string md, v;
  auto st = b.Finish(&md, &v);
  EXPECT_TRUE(st.ok()) << st.ToString();
  st = Validate(md, v);
  EXPECT_TRUE(st.ok()) << st.ToString() << " for " << ToHex(v);
  if (md_out) *md_out = md;
  return v;
}

template <typename F>
std::string Scalar(F&& append) {
  VariantBuilder b;
  append(b);
  std::string md;
  std::string v = FinishValue(b, &md);
  EXPECT_EQ(ToHex(md), "01 00 00");
  return ToHex(v);
}

TEST(BuilderTest, EveryScalarTypeHasExactBytes) {
  EXPECT_EQ(Scalar([](auto& b) { b.AppendNull(); }), "00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendBool(true); }), "04");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendBool(false); }), "08");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendInt8(-2); }), "0c fe");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendInt16(1234); }), "10 d2 04");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendInt32(123456); }), "14 40 e2 01 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendInt64(1234567890123456789LL); }),
            "18 15 81 e9 7d f4 10 22 11");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendFloat(1.5f); }), "38 00 00 c0 3f");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDouble(1234567890.1234); }),
            "1c c9 e5 87 b4 80 65 d2 41");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal4(1234, 2); }), "20 02 d2 04 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal8(1234567890, 2); }),
            "24 02 d2 02 96 49 00 00 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal16(1234567891234567890LL, 2); }),
            "28 02 d2 b6 23 c0 f4 10 22 11 00 00 00 00 00 00 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal16(-1, 0); }),
            "28 00 ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDate(20194); }), "2c e2 4e 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendTimestampMicros(1744821296780000); }),
            "30 e0 52 97 dd e7 32 06 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendTimestampNtzMicros(1744806896780000); }),
            "34 e0 c2 48 83 e4 32 06 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendTimeMicros(45234123456); }),
            "44 c0 f2 29 88 0a 00 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendTimestampNanos(1730982834123456789); }),
            "48 15 41 3a 6c b7 af 05 18");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendTimestampNtzNanos(1730982834123456789); }),
            "4c 15 41 3a 6c b7 af 05 18");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendBinary(Hex("03 13 37")); }),
            "3c 03 00 00 00 03 13 37");
  EXPECT_EQ(
      Scalar([](auto& b) { b.AppendUuid(Hex("f24f9b6481fa49d1b74e8c09a6e31c56")); }),
      "50 f2 4f 9b 64 81 fa 49 d1 b7 4e 8c 09 a6 e3 1c 56");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendString(""); }), "01");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendString("hi"); }), "09 68 69");
}

TEST(BuilderTest, StringsShortUpTo63BytesLongFrom64) {
  VariantBuilder b;
  b.AppendString(std::string(63, 'x'));
  std::string v = FinishValue(b);
  EXPECT_EQ(v.size(), 64u);
  EXPECT_EQ(static_cast<uint8_t>(v[0]), 0xfd);  // 63 << 2 | 1
  b.AppendString(std::string(64, 'x'));
  v = FinishValue(b);
  EXPECT_EQ(v.size(), 69u);
  EXPECT_EQ(ToHex(v.substr(0, 5)), "40 40 00 00 00");
}

TEST(BuilderTest, AppendIntPicksTheSmallestWidth) {
  struct Case {
    int64_t v;
    const char* hex;
  } cases[] = {
      {0, "0c 00"},
      {127, "0c 7f"},
      {-128, "0c 80"},
      {128, "10 80 00"},
      {-129, "10 7f ff"},
      {32767, "10 ff 7f"},
      {32768, "14 00 80 00 00"},
      {-2147483648LL, "14 00 00 00 80"},
      {2147483648LL, "18 00 00 00 80 00 00 00 00"},
      {INT64_MIN, "18 00 00 00 00 00 00 00 80"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Scalar([&](auto& b) { b.AppendInt(c.v); }), c.hex) << c.v;
  }
}

TEST(BuilderTest, AppendDecimalUsesSparkWidthRule) {
  // Width covers both the digits of the unscaled value and the scale.
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal({1234, 2}); }), "20 02 d2 04 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal({999999999, 0}); }),
            "20 00 ff c9 9a 3b");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal({1000000000, 0}); }),
            "24 00 00 ca 9a 3b 00 00 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal({5, 10}); }),
            "24 0a 05 00 00 00 00 00 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal({5, 19}); }),
            "28 13 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
  EXPECT_EQ(Scalar([](auto& b) { b.AppendDecimal({-1000000000000000000LL, 0}); }),
            "28 00 00 00 9c 58 4c 49 1f f2 ff ff ff ff ff ff ff ff");
}

TEST(BuilderTest, EmptyContainers) {
  VariantBuilder b;
  b.StartObject();
  VS_ASSERT_OK(b.EndObject());
  EXPECT_EQ(ToHex(FinishValue(b)), "02 00 00");
  b.StartArray();
  b.EndArray();
  EXPECT_EQ(ToHex(FinishValue(b)), "03 00 00");
}

TEST(BuilderTest, NestedContainersExactBytes) {
  // [{"a": [1]}, null]
  VariantBuilder b;
  b.StartArray();
  b.StartObject();
  b.AddKey("a");
  b.StartArray();
  b.AppendInt(1);
  b.EndArray();
  VS_ASSERT_OK(b.EndObject());
  b.AppendNull();
  b.EndArray();
  std::string md;
  const std::string v = FinishValue(b, &md);
  EXPECT_EQ(ToHex(md), "01 01 00 01 61");
  // inner array 03 01 00 02 0c 01 (6 bytes); object 02 01 00 00 06 + 6 (11 bytes).
  EXPECT_EQ(ToHex(v), "03 02 00 0b 0c 02 01 00 00 06 03 01 00 02 0c 01 00");
}

TEST(BuilderTest, ObjectHeaderWidths) {
  // 255 fields: small count, 1-byte ids (max id 254).
  VariantBuilder b;
  b.StartObject();
  for (int i = 0; i < 255; ++i) {
    b.AddKey("k" + std::to_string(i));
    b.AppendNull();
  }
  VS_ASSERT_OK(b.EndObject());
  std::string v = FinishValue(b);
  EXPECT_EQ(static_cast<uint8_t>(v[0]), ObjectHeader(false, 1, 1));
  EXPECT_EQ(static_cast<uint8_t>(v[1]), 255);

  // 256 fields: is_large, 4-byte count; ids 0..255 still fit one byte.
  b.StartObject();
  for (int i = 0; i < 256; ++i) {
    b.AddKey("k" + std::to_string(i));
    b.AppendNull();
  }
  VS_ASSERT_OK(b.EndObject());
  v = FinishValue(b);
  EXPECT_EQ(static_cast<uint8_t>(v[0]), ObjectHeader(true, 1, 2));  // 256 data bytes
  EXPECT_EQ(ToHex(v.substr(1, 4)), "00 01 00 00");
  EXPECT_EQ(v.size(), 1u + 4 + 256 + 257 * 2 + 256);

  // 257 keys: the largest id (256) needs 2-byte ids.
  b.StartObject();
  for (int i = 0; i < 257; ++i) {
    b.AddKey("k" + std::to_string(i));
    b.AppendNull();
  }
  VS_ASSERT_OK(b.EndObject());
  v = FinishValue(b);
  EXPECT_EQ(static_cast<uint8_t>(v[0]), ObjectHeader(true, 2, 2));
}

TEST(BuilderTest, IdWidthFollowsTheLargestIdNotTheFieldCount) {
  // An object of one field whose key is the 70000th of the dictionary: 3-byte ids.
  VariantBuilder b;
  b.StartArray();
  b.StartObject();
  for (int i = 0; i < 70000; ++i) {
    b.AddKey("k" + std::to_string(i));
    b.AppendNull();
  }
  VS_ASSERT_OK(b.EndObject());
  b.StartObject();
  b.AddKey("last");
  b.AppendInt(7);
  VS_ASSERT_OK(b.EndObject());
  b.EndArray();
  std::string md;
  const std::string v = FinishValue(b, &md);
  const auto view = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v);
  const VariantView small = view.GetArray().element(1);
  EXPECT_EQ(ToHex(small.value_bytes()), "22 01 70 11 01 00 02 0c 07");  // id 70000
  EXPECT_EQ(static_cast<uint8_t>(small.value_bytes()[0]), ObjectHeader(false, 3, 1));
  EXPECT_EQ(view.GetArray().element(0).GetObject().num_fields(), 70000u);
}

TEST(BuilderTest, ArrayHeaderWidths) {
  VariantBuilder b;
  b.StartArray();
  for (int i = 0; i < 255; ++i) b.AppendNull();
  b.EndArray();
  std::string v = FinishValue(b);
  EXPECT_EQ(ToHex(v.substr(0, 2)), "03 ff");
  b.StartArray();
  for (int i = 0; i < 256; ++i) b.AppendNull();
  b.EndArray();
  v = FinishValue(b);
  // is_large, 2-byte offsets (data size 256): 1 + 4 + 257 * 2 + 256.
  EXPECT_EQ(ToHex(v.substr(0, 5)), "17 00 01 00 00");
  EXPECT_EQ(v.size(), 1u + 4 + 257 * 2 + 256);
}

TEST(BuilderTest, OffsetWidthsGrowWithDataSize) {
  struct Case {
    size_t string_size;
    int offset_size;
  } cases[] = {{250, 1}, {251, 2}, {65530, 2}, {65531, 3}, {16777210, 3}, {16777211, 4}};
  for (const Case& c : cases) {
    // ["<string>"]: data size = 5 + string size, one element.
    VariantBuilder b;
    b.StartArray();
    b.AppendString(std::string(c.string_size, 's'));
    b.EndArray();
    std::string md;
    std::string v = FinishValue(b, &md);
    EXPECT_EQ(static_cast<uint8_t>(v[0]), ArrayHeader(false, c.offset_size))
        << c.string_size;
    EXPECT_EQ(v.size(), 2 + 2 * c.offset_size + 5 + c.string_size);
    // {"k": "<string>"}: same widths for objects.
    b.StartObject();
    b.AddKey("k");
    b.AppendString(std::string(c.string_size, 's'));
    VS_ASSERT_OK(b.EndObject());
    v = FinishValue(b, &md);
    EXPECT_EQ(static_cast<uint8_t>(v[0]), ObjectHeader(false, 1, c.offset_size))
        << c.string_size;
    const auto view = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v);
    EXPECT_EQ(view.GetObject().Find("k")->GetString().size(), c.string_size);
  }
}

// A container's header goes in front of its values, in the room reserved for the
// header of the container started at the same place in the previous value; when the
// sizes differ, the values move (inline up to 16 bytes, by memmove beyond). Arrays of
// k strings of L bytes, built one after the other by one builder, cover moves in both
// directions over every values size from 0 to 91 bytes; the bytes are written out by
// hand from the format.
TEST(BuilderTest, ValuesMoveForEveryHeaderAndValuesSize) {
  VariantBuilder b;
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k <= 7; ++k) {
      for (int l = 0; l <= 12; ++l) {
        const int count = (k * 5 + round * 3) % 8;  // sizes out of order
        const std::string element(static_cast<size_t>(l), 'x');
        b.StartArray();
        for (int i = 0; i < count; ++i) b.AppendString(element);
        b.EndArray();
        const std::string value = FinishValue(b);
        std::string expected = {0x03, static_cast<char>(count)};
        for (int i = 0; i <= count; ++i)
          expected.push_back(static_cast<char>(i * (l + 1)));
        for (int i = 0; i < count; ++i) {
          expected.push_back(static_cast<char>(l << 2 | 1));  // short string of l bytes
          expected += element;
        }
        EXPECT_EQ(ToHex(value), ToHex(expected))
            << "round " << round << ", " << count << " strings of " << l << " bytes";
      }
    }
  }
}

TEST(BuilderTest, DuplicateKeyIsAnErrorByDefault) {
  VariantBuilder b;
  b.StartObject();
  b.AddKey("a");
  b.AppendInt(1);
  b.AddKey("a");
  b.AppendInt(2);
  const arrow::Status st = b.EndObject();
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("duplicate key \"a\""), std::string::npos) << st.message();
}

TEST(BuilderTest, DuplicateKeyLastWinsCompactsTheValues) {
  VariantBuilder b(DuplicateKeyPolicy::kLastWins);
  b.StartObject();
  b.AddKey("a");
  b.AppendInt(1);
  b.AddKey("b");
  b.AppendInt(2);
  b.AddKey("a");
  b.AppendInt(3);
  VS_ASSERT_OK(b.EndObject());
  std::string md;
  const std::string v = FinishValue(b, &md);
  EXPECT_EQ(ToHex(md), "01 02 00 01 02 61 62");
  // The dropped value (a: 1) is gone; the kept ones keep their written order (b: 2,
  // then a: 3), as Spark's builder compacts them.
  EXPECT_EQ(ToHex(v), "02 02 00 01 02 00 04 0c 02 0c 03");
}

TEST(BuilderTest, DuplicateKeyLastWinsDropsNestedContainers) {
  VariantBuilder b(DuplicateKeyPolicy::kLastWins);
  b.StartArray();
  b.StartObject();
  b.AddKey("a");
  b.StartObject();
  b.AddKey("x");
  b.AppendString(std::string(300, 'x'));  // forces 2-byte offsets before compaction
  VS_ASSERT_OK(b.EndObject());
  b.AddKey("a");
  b.StartArray();
  b.AppendInt(1);
  b.EndArray();
  VS_ASSERT_OK(b.EndObject());
  b.EndArray();
  std::string md;
  const std::string v = FinishValue(b, &md);
  // After compaction the object holds only [1]: 1-byte offsets again.
  EXPECT_EQ(ToHex(v), "03 01 00 0b 02 01 00 00 06 03 01 00 02 0c 01");
}

TEST(BuilderTest, ValueWithoutKeyInObjectIsAnError) {
  VariantBuilder b;
  b.StartObject();
  b.AddKey("a");
  b.AppendInt(1);
  b.AppendInt(2);  // no AddKey
  const arrow::Status st = b.EndObject();
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("without AddKey"), std::string::npos) << st.message();
}

TEST(BuilderTest, EndObjectWithoutOpenObjectIsAnError) {
  VariantBuilder b;
  EXPECT_TRUE(b.EndObject().IsInvalid());
  b.StartArray();
  EXPECT_TRUE(b.EndObject().IsInvalid());
  EXPECT_EQ(b.depth(), 1);  // the array is still open
}

TEST(BuilderTest, FinishNeedsExactlyOneClosedTopLevelValue) {
  VariantBuilder b;
  std::string md, v;
  EXPECT_TRUE(b.Finish(&md, &v).IsInvalid());
  b.AppendNull();
  b.AppendNull();
  EXPECT_TRUE(b.Finish(&md, &v).IsInvalid());
  b.Reset();
  b.StartArray();
  EXPECT_TRUE(b.Finish(&md, &v).IsInvalid());
  b.Reset();
  b.AppendInt(5);
  VS_ASSERT_OK(b.Finish(&md, &v));
  EXPECT_EQ(ToHex(v), "0c 05");
  // Finish appends and resets: the next value starts from scratch.
  b.AppendBool(true);
  VS_ASSERT_OK(b.Finish(&md, &v));
  EXPECT_EQ(ToHex(v), "0c 05 04");
  EXPECT_EQ(ToHex(md), "01 00 00 01 00 00");
}

TEST(BuilderTest, RollbackForgetsValuesKeysAndContainers) {
  VariantBuilder b;
  b.StartObject();
  b.AddKey("keep");
  b.AppendInt(1);
  const auto cp = b.MakeCheckpoint();
  b.AddKey("gone");
  b.StartArray();
  b.AppendString("zzz");
  b.StartObject();
  b.AddKey("deeper");
  b.Rollback(cp);
  EXPECT_EQ(b.depth(), 1);
  b.AddKey("z");
  b.AppendInt(2);
  VS_ASSERT_OK(b.EndObject());
  std::string md;
  const std::string v = FinishValue(b, &md);
  EXPECT_EQ(ToHex(md), "01 02 00 04 05 6b 65 65 70 7a");  // "keep", "z"
  EXPECT_EQ(ToHex(v), "02 02 00 01 00 02 04 0c 01 0c 02");
}

TEST(BuilderTest, ScopesRollBackUnlessFinished) {
  VariantBuilder b;
  b.StartObject();
  b.AddKey("a");
  {
    ObjectScope scope(&b);
    scope.AddKey("x");
    b.AppendInt(1);
    // Destroyed without Finish(): the object and key "x" disappear.
  }
  // The key "a" named by AddKey() before the scope is still pending: the replacement
  // value goes under it without another AddKey().
  {
    ArrayScope scope(&b);
    b.AppendInt(2);
    scope.Finish();
  }
  b.AddKey("b");
  {
    ArrayScope scope(&b);
    b.AppendInt(3);
  }
  b.AppendNull();
  VS_ASSERT_OK(b.EndObject());
  std::string md;
  const std::string v = FinishValue(b, &md);
  EXPECT_EQ(ToHex(md), "01 02 00 01 02 61 62");
  EXPECT_EQ(ToHex(v), "02 02 00 01 00 06 07 03 01 00 02 0c 02 00");
}

TEST(BuilderTest, ObjectScopeRollsBackAfterDuplicateKeyError) {
  VariantBuilder b;
  b.StartArray();
  {
    ObjectScope scope(&b);
    scope.AddKey("a");
    b.AppendInt(1);
    scope.AddKey("a");
    b.AppendInt(2);
    EXPECT_TRUE(scope.Finish().IsInvalid());
  }
  b.AppendInt(9);
  b.EndArray();
  std::string md;
  const std::string v = FinishValue(b, &md);
  EXPECT_EQ(ToHex(md), "01 00 00");
  EXPECT_EQ(ToHex(v), "03 01 00 02 0c 09");
}

TEST(BuilderTest, AppendVariantSortsUnsortedObjects) {
  // Ids in insertion order z, a, m (allowed only leniently) come out in key order.
  const std::string md = Hex("01 03 00 01 02 03 7a 61 6d");
  const std::string src = Hex("02 03 00 01 02 00 02 04 06 0c 01 0c 02 0c 03");
  const auto view = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), src);
  VariantBuilder b;
  VS_ASSERT_OK(b.AppendVariant(view));
  std::string md2;
  const std::string v = FinishValue(b, &md2);  // validates strictly (sorted keys)
  EXPECT_EQ(ToHex(md2), "01 03 00 01 02 03 7a 61 6d");
  EXPECT_EQ(ToHex(v), "02 03 01 02 00 02 04 00 06 0c 01 0c 02 0c 03");
}

TEST(BuilderTest, AppendVariantReencodesKeysIntoTheBuilderDictionary) {
  // Source dictionary has unused keys and a different order; nested inside a new object.
  const std::string md = Hex("01 04 00 01 02 03 04 78 79 62 61");   // x y b a
  const std::string src = Hex("02 02 03 02 00 02 04 0c 01 0c 02");  // {a: 1, b: 2}
  VS_ASSERT_OK(Validate(md, src));
  const auto view = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), src);
  VariantBuilder b;
  b.StartObject();
  b.AddKey("b");
  VS_ASSERT_OK(b.AppendVariant(view));
  VS_ASSERT_OK(b.EndObject());
  std::string md2;
  const std::string v = FinishValue(b, &md2);
  EXPECT_EQ(ToHex(md2), "01 02 00 01 02 62 61");  // b, a
  EXPECT_EQ(ToHex(v), "02 01 00 00 0b 02 02 01 00 00 02 04 0c 01 0c 02");
  const auto out = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md2), v);
  EXPECT_TRUE(testing::LogicalEqual(out.GetObject().value(0), view));
}

TEST(BuilderTest, FinishViewsShowsTheBytesFinishAppends) {
  VariantBuilder b;
  for (int row = 0; row < 3; ++row) {  // rows 2 and 3 reuse the remembered dictionary
    b.StartObject();
    b.AddKey("b");
    b.AppendString("x");
    b.AddKey("a");
    b.AppendInt(1);
    VS_ASSERT_OK(b.EndObject());
    std::string_view md, v;
    VS_ASSERT_OK(b.FinishViews(&md, &v));
    EXPECT_EQ(ToHex(md), "01 02 00 01 02 62 61");
    EXPECT_EQ(ToHex(v), "02 02 01 00 02 00 04 05 78 0c 01");
    b.Reset();
  }
  b.StartArray();
  std::string_view md, v;
  EXPECT_TRUE(b.FinishViews(&md, &v).IsInvalid());  // an open container
  b.Reset();
  b.AppendNull();
  VS_ASSERT_OK(b.FinishViews(&md, &v));
  EXPECT_EQ(ToHex(md), "01 00 00");
  EXPECT_EQ(ToHex(v), "00");
}

TEST(BuilderTest, FinishRefusesValuesReadersWouldRefuse) {
  // One set of limits (format.h): nothing built may fail validation when read back.
  VariantBuilder b;
  std::string metadata, value;
  for (int i = 0; i < kMaxNestingDepth; ++i) b.StartArray();
  b.AppendNull();
  for (int i = 0; i < kMaxNestingDepth; ++i) b.EndArray();
  VS_ASSERT_OK(b.Finish(&metadata, &value));
  VS_EXPECT_OK(Validate(metadata, value));

  for (int i = 0; i < kMaxNestingDepth + 1; ++i) b.StartArray();
  for (int i = 0; i < kMaxNestingDepth + 1; ++i) b.EndArray();
  auto st = b.Finish(&metadata, &value);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message(),
            "value nested 501 levels deep exceeds the nesting limit of 500");
  b.Reset();

  b.AppendString(std::string(kMaxValueSize, 'x'));
  st = b.Finish(&metadata, &value);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("exceeds the size limit of 134217728 bytes"),
            std::string::npos)
      << st.ToString();
}

}  // namespace
}  // namespace varshred
