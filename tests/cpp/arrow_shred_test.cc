#include <arrow/array.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include "shredding_rules.h"
#include "test_util.h"
#include "variant_equal.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/unshred.h"
#include "varshred/validate.h"

namespace varshred {
namespace {

using testing::CheckWriterRules;
using testing::Hex;
using testing::MakeVariantColumn;
using testing::RowFn;
using testing::ToHex;

std::shared_ptr<arrow::Array> Child(const std::shared_ptr<arrow::Array>& a,
                                    const std::string& name) {
  const auto& s = static_cast<const arrow::StructArray&>(*a);
  return s.GetFieldByName(name);
}

std::string Cell(const std::shared_ptr<arrow::Array>& binary, int64_t i) {
  if (binary->IsNull(i)) return "null";
  return ToHex(static_cast<const arrow::BinaryArray&>(*binary).GetView(i));
}

// Unshreds and compares every row logically with the input column.
void ExpectRoundTrip(const std::shared_ptr<arrow::Array>& input,
                     const std::shared_ptr<arrow::Array>& shredded,
                     bool exact_numbers = true) {
  VS_ASSIGN_OR_FAIL(auto back, Unshred(*shredded));
  VS_ASSIGN_OR_FAIL(auto a, VariantArrayView::Make(input));
  VS_ASSIGN_OR_FAIL(auto b, VariantArrayView::Make(back));
  ASSERT_EQ(a.length(), b.length());
  for (int64_t i = 0; i < a.length(); ++i) {
    ASSERT_EQ(a.IsNull(i), b.IsNull(i)) << "row " << i;
    if (a.IsNull(i)) continue;
    VS_ASSIGN_OR_FAIL(auto ma, MetadataView::Make(a.metadata(i)));
    VS_ASSIGN_OR_FAIL(auto mb, MetadataView::Make(b.metadata(i)));
    VS_ASSIGN_OR_FAIL(auto va, VariantView::Make(ma, a.value(i)));
    VS_ASSIGN_OR_FAIL(auto vb, VariantView::Make(mb, b.value(i)));
    if (exact_numbers) {
      EXPECT_TRUE(testing::LogicalEqual(va, vb)) << "row " << i;
    } else {
      EXPECT_TRUE(testing::NumericEquivalent(va, vb)) << "row " << i;
    }
  }
}

TEST(ShredTest, ScalarMeasurementSeriesMatchesSpecTable) {
  auto input = MakeVariantColumn({
      [](VariantBuilder& b) { b.AppendInt64(34); },
      [](VariantBuilder& b) { b.AppendNull(); },
      [](VariantBuilder& b) { b.AppendString("n/a"); },
      [](VariantBuilder& b) { b.AppendInt64(100); },
      nullptr,
  });
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("bigint"));
  VS_ASSIGN_OR_FAIL(auto out, Shred(*input, schema));
  ASSERT_TRUE(out->type()->Equals(schema.ToArrow())) << out->type()->ToString();
  auto value = Child(out, "value");
  auto typed = std::static_pointer_cast<arrow::Int64Array>(Child(out, "typed_value"));
  EXPECT_EQ(Cell(value, 0), "null");
  EXPECT_EQ(typed->Value(0), 34);
  EXPECT_EQ(Cell(value, 1), "00");
  EXPECT_TRUE(typed->IsNull(1));
  EXPECT_EQ(Cell(value, 2), "0d 6e 2f 61");  // short string header 3 << 2 | 1
  EXPECT_TRUE(typed->IsNull(2));
  EXPECT_EQ(typed->Value(3), 100);
  EXPECT_EQ(Cell(value, 3), "null");
  EXPECT_TRUE(out->IsNull(4));
  // Metadata passes through zero-copy.
  VS_ASSIGN_OR_FAIL(auto in_view, VariantArrayView::Make(input));
  EXPECT_EQ(Child(out, "metadata")->data()->buffers[2],
            in_view.metadata_column().array()->data()->buffers[2]);
  EXPECT_TRUE(CheckWriterRules(*out));
  ExpectRoundTrip(input, out);
}

TEST(ShredTest, LenientWidensIntegersStrictDoesNot) {
  auto input = MakeVariantColumn({
      [](VariantBuilder& b) { b.AppendInt8(34); },
      [](VariantBuilder& b) { b.AppendDecimal4(1200, 2); },  // 12.00
      [](VariantBuilder& b) { b.AppendDecimal4(1234, 2); },  // 12.34
      [](VariantBuilder& b) { b.AppendInt64(int64_t{1} << 40); },
      [](VariantBuilder& b) { b.AppendDouble(3.0); },
  });
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("int"));
  VS_ASSIGN_OR_FAIL(auto lenient, Shred(*input, schema));
  auto typed = std::static_pointer_cast<arrow::Int32Array>(Child(lenient, "typed_value"));
  EXPECT_EQ(typed->Value(0), 34);
  EXPECT_EQ(typed->Value(1), 12);
  EXPECT_TRUE(typed->IsNull(2));  // fraction would be lost
  EXPECT_TRUE(typed->IsNull(3));  // does not fit int32
  EXPECT_TRUE(typed->IsNull(4));  // doubles never change type
  ShredOptions strict;
  strict.numeric = NumericShredding::kStrict;
  VS_ASSIGN_OR_FAIL(auto s, Shred(*input, schema, strict));
  auto typed_s = std::static_pointer_cast<arrow::Int32Array>(Child(s, "typed_value"));
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(typed_s->IsNull(i)) << i;
  EXPECT_EQ(Cell(Child(s, "value"), 0), "0c 22");
  ExpectRoundTrip(input, s);

  VS_ASSIGN_OR_FAIL(auto dec, ShreddingSchema::Parse("decimal(9,3)"));
  VS_ASSIGN_OR_FAIL(auto d, Shred(*input, dec));
  auto typed_d = std::static_pointer_cast<arrow::Decimal32Array>(Child(d, "typed_value"));
  EXPECT_EQ(typed_d->FormatValue(0), "34.000");
  EXPECT_EQ(typed_d->FormatValue(1), "12.000");
  EXPECT_EQ(typed_d->FormatValue(2), "12.340");
  EXPECT_TRUE(typed_d->IsNull(3));  // 2^40 * 1000 needs more than 9 digits
  VS_ASSIGN_OR_FAIL(auto ds, Shred(*input, dec, strict));
  EXPECT_EQ(Child(ds, "typed_value")->null_count(), 5);  // scale 2 != 3
}

TEST(ShredTest, ArrayTagsMatchSpec) {
  auto input = MakeVariantColumn({
      [](VariantBuilder& b) {
        b.StartArray();
        b.AppendString("comedy");
        b.AppendString("drama");
        b.EndArray();
      },
      [](VariantBuilder& b) {
        b.StartArray();
        b.AppendString("horror");
        b.AppendNull();
        b.EndArray();
      },
      [](VariantBuilder& b) {
        b.StartArray();
        b.EndArray();
      },
      [](VariantBuilder& b) { b.AppendNull(); },
      nullptr,
  });
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("array<string>"));
  VS_ASSIGN_OR_FAIL(auto out, Shred(*input, schema));
  auto value = Child(out, "value");
  auto list = std::static_pointer_cast<arrow::ListArray>(Child(out, "typed_value"));
  auto elem = list->values();
  auto ev = Child(elem, "value");
  auto et = std::static_pointer_cast<arrow::StringArray>(Child(elem, "typed_value"));
  EXPECT_EQ(Cell(value, 0), "null");
  ASSERT_EQ(list->value_length(0), 2);
  EXPECT_EQ(et->GetView(0), "comedy");
  EXPECT_EQ(et->GetView(1), "drama");
  EXPECT_EQ(et->GetView(2), "horror");
  EXPECT_TRUE(et->IsNull(3));
  EXPECT_EQ(Cell(ev, 3), "00");
  EXPECT_FALSE(list->IsNull(2));
  EXPECT_EQ(list->value_length(2), 0);
  EXPECT_TRUE(list->IsNull(3));
  EXPECT_EQ(Cell(value, 3), "00");
  EXPECT_TRUE(CheckWriterRules(*out));
  ExpectRoundTrip(input, out);
}

RowFn Event(std::vector<std::pair<std::string, RowFn>> fields) {
  return [fields](VariantBuilder& b) {
    b.StartObject();
    for (const auto& [k, f] : fields) {
      b.AddKey(k);
      f(b);
    }
    ASSERT_TRUE(b.EndObject().ok());
  };
}

TEST(ShredTest, ObjectEventTableMatchesSpec) {
  RowFn type = [](VariantBuilder& b) { b.AppendString("login"); };
  RowFn ts = [](VariantBuilder& b) { b.AppendTimestampMicros(1729794000000000); };
  RowFn email = [](VariantBuilder& b) { b.AppendString("a@b"); };
  RowFn null = [](VariantBuilder& b) { b.AppendNull(); };
  RowFn ts_string = [](VariantBuilder& b) { b.AppendString("2024-10-24"); };
  auto input = MakeVariantColumn({
      Event({{"event_type", type}, {"event_ts", ts}}),                    // 0 full
      Event({{"event_type", type}, {"event_ts", ts}, {"email", email}}),  // 1 partial
      Event({{"error_msg", email}}),                                      // 2 only extra
      [](VariantBuilder& b) { b.AppendString("not an object"); },         // 3
      Event({{"event_ts", ts}}),                                          // 4 missing
      Event({{"event_type", null}, {"event_ts", ts}}),                    // 5 null field
      Event({{"event_type", type}, {"event_ts", ts_string}}),             // 6 mismatch
      Event({}),                                                          // 7 {}
      null,     // 8 Variant null
      nullptr,  // 9 SQL NULL
  });
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse(
                                     "struct<event_type: string, event_ts: timestamp>"));
  VS_ASSIGN_OR_FAIL(auto out, Shred(*input, schema));
  ASSERT_TRUE(out->type()->Equals(schema.ToArrow()));
  auto value = Child(out, "value");
  auto typed = Child(out, "typed_value");
  auto et = Child(typed, "event_type");
  auto ets = Child(typed, "event_ts");
  auto et_v = Child(et, "value");
  auto et_t = Child(et, "typed_value");
  auto ts_v = Child(ets, "value");
  auto ts_t = Child(ets, "typed_value");
  // 0: fully shredded.
  EXPECT_EQ(Cell(value, 0), "null");
  EXPECT_FALSE(typed->IsNull(0));
  EXPECT_FALSE(et_t->IsNull(0));
  EXPECT_FALSE(ts_t->IsNull(0));
  // 1: residual {"email": ...} with the row's own field id.
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(input));
  VS_ASSIGN_OR_FAIL(auto m1, MetadataView::Make(view.metadata(1)));
  const uint32_t email_id = *m1.Find("email");
  EXPECT_EQ(Cell(value, 1), ToHex(std::string{0x02, 0x01, static_cast<char>(email_id),
                                              0x00, 0x04, 0x0d, 'a', '@', 'b'}));
  // 2: every shredded field missing, typed_value still non-null.
  EXPECT_FALSE(typed->IsNull(2));
  EXPECT_TRUE(et_v->IsNull(2) && et_t->IsNull(2) && ts_v->IsNull(2) && ts_t->IsNull(2));
  EXPECT_NE(Cell(value, 2), "null");
  // 3: not an object.
  EXPECT_TRUE(typed->IsNull(3));
  EXPECT_EQ(Cell(value, 3).substr(0, 2), "35");  // short string of 13 bytes
  // 4: event_type missing, no residual.
  EXPECT_TRUE(et_v->IsNull(4) && et_t->IsNull(4));
  EXPECT_EQ(Cell(value, 4), "null");
  // 5: present but null.
  EXPECT_EQ(Cell(et_v, 5), "00");
  EXPECT_TRUE(et_t->IsNull(5));
  // 6: per-field mismatch.
  EXPECT_TRUE(ts_t->IsNull(6));
  EXPECT_EQ(Cell(ts_v, 6), ToHex(std::string("\x29", 1) + "2024-10-24"));
  // 7: empty object.
  EXPECT_FALSE(typed->IsNull(7));
  EXPECT_EQ(Cell(value, 7), "null");
  EXPECT_TRUE(et_v->IsNull(7) && ts_v->IsNull(7));
  // 8: Variant null; 9: SQL NULL.
  EXPECT_EQ(Cell(value, 8), "00");
  EXPECT_TRUE(typed->IsNull(8));
  EXPECT_TRUE(out->IsNull(9));
  EXPECT_TRUE(CheckWriterRules(*out));
  ExpectRoundTrip(input, out);
}

TEST(ShredTest, NestedObjectsAndArraysOfObjectsRoundTrip) {
  RowFn doc =
      Event({{"id", [](VariantBuilder& b) { b.AppendInt(17); }},
             {"name", [](VariantBuilder& b) { b.AppendString("user_17"); }},
             {"tags",
              [](VariantBuilder& b) {
                b.StartArray();
                b.AppendString("a");
                b.AppendInt(3);
                b.EndArray();
              }},
             {"nested", Event({{"x", [](VariantBuilder& b) { b.AppendInt(3); }},
                               {"flag", [](VariantBuilder& b) { b.AppendBool(true); }},
                               {"zz", [](VariantBuilder& b) { b.AppendDouble(1.5); }}})},
             {"events", [](VariantBuilder& b) {
                b.StartArray();
                b.StartObject();
                b.AddKey("kind");
                b.AppendString("k");
                b.AddKey("extra");
                b.AppendInt(1);
                ASSERT_TRUE(b.EndObject().ok());
                b.AppendString("not an object");
                b.EndArray();
              }}});
  auto input = MakeVariantColumn({doc, doc, nullptr});
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::FromPaths({{"id", "bigint"},
                                                             {"name", "string"},
                                                             {"tags[]", "string"},
                                                             {"nested.x", "int"},
                                                             {"nested.flag", "boolean"},
                                                             {"events[].kind", "string"},
                                                             {"absent.deep", "string"}}));
  VS_ASSIGN_OR_FAIL(auto out, Shred(*input, schema));
  EXPECT_TRUE(CheckWriterRules(*out));
  // Lenient: int8 17 comes back as int64 17 (the typed column's type).
  ExpectRoundTrip(input, out, /*exact_numbers=*/false);
  ShredOptions strict;
  strict.numeric = NumericShredding::kStrict;
  VS_ASSIGN_OR_FAIL(auto exact, Shred(*input, schema, strict));
  EXPECT_TRUE(CheckWriterRules(*exact));
  ExpectRoundTrip(input, exact);
  // Shredding an already shredded column re-shreds it.
  VS_ASSIGN_OR_FAIL(auto other, ShreddingSchema::Parse("struct<name: string>"));
  VS_ASSIGN_OR_FAIL(auto again, Shred(*exact, other));
  ExpectRoundTrip(input, again);
}

// DuckDB keeps object ids in insertion order: shred accepts them, and every value it
// stores (whole values and residual objects) is in spec order.
TEST(ShredTest, UnsortedIdsAreAcceptedAndWrittenSorted) {
  const std::string md = Hex("01 03 00 01 02 03 63 62 61");  // c=0, b=1, a=2
  // {"c": {"b": 1, "a": 2}, "b": 3, "a": 4}, every object with ids in that order.
  const std::string inner = "02 02 01 02 00 02 04 0c 01 0c 02";
  const std::string v = Hex("02 03 00 01 02 00 0b 0d 0f " + inner + " 0c 03 0c 04");
  VariantArrayBuilder b;
  VS_ASSERT_OK(b.Append(md, v));
  VS_ASSIGN_OR_FAIL(auto input, b.Finish());
  for (const char* ddl :
       {"variant", "struct<b: tinyint>", "struct<c: struct<a: tinyint>>"}) {
    VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse(ddl));
    VS_ASSIGN_OR_FAIL(auto shredded, Shred(*input, schema));
    std::vector<std::shared_ptr<arrow::Array>> values = {Child(shredded, "value")};
    if (auto typed = Child(shredded, "typed_value")) {
      for (const auto& f : static_cast<const arrow::StructArray&>(*typed).fields()) {
        values.push_back(Child(f, "value"));
      }
    }
    for (const auto& value : values) {
      if (value->IsNull(0)) continue;
      const auto bytes = static_cast<const arrow::BinaryArray&>(*value).GetView(0);
      EXPECT_TRUE(Validate(md, bytes).ok()) << ddl << ": " << ToHex(bytes);  // strict
    }
    VS_ASSIGN_OR_FAIL(auto back, Unshred(*shredded));
    VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(back));
    VS_EXPECT_OK(Validate(md, view.value(0)));
    const MetadataView mv = MetadataView::MakeUnchecked(md);
    EXPECT_TRUE(testing::LogicalEqual(VariantView::MakeUnchecked(mv, v),
                                      VariantView::MakeUnchecked(mv, view.value(0))))
        << ddl;
  }
}

TEST(ShredTest, RejectsInvalidInputWithRow) {
  VariantArrayBuilder b;
  VS_ASSERT_OK(b.Append(kEmptyMetadata, std::string_view("\x0c\x01", 2)));
  VS_ASSERT_OK(b.Append(kEmptyMetadata, std::string_view("\x0d", 1)));  // truncated
  VS_ASSIGN_OR_FAIL(auto input, b.Finish());
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("int"));
  auto r = Shred(*input, schema);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_NE(r.status().message().find("row 1"), std::string::npos)
      << r.status().ToString();
}

// Said "metadata: empty buffer" (the null slot's bytes) until 2026-11-30, where the
// other readers say what is wrong.
TEST(ShredTest, NullMetadataInANonNullRowIsNamedAsSuch) {
  arrow::BinaryBuilder md, value;
  ASSERT_TRUE(md.Append(kEmptyMetadata).ok());
  ASSERT_TRUE(md.AppendNull().ok());
  ASSERT_TRUE(value.Append(std::string_view("\x0c\x01", 2)).ok());
  ASSERT_TRUE(value.Append(std::string_view("\x0c\x02", 2)).ok());
  VS_ASSIGN_OR_FAIL(auto input, arrow::StructArray::Make(
                                    {*md.Finish(), *value.Finish()},
                                    std::vector<std::string>{"metadata", "value"}));
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("int"));
  auto st = Shred(*input, schema).status();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message(), "row 1: metadata is null in a non-null row") << st.ToString();
}

}  // namespace
}  // namespace varshred
