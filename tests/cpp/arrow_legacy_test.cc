#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include <optional>

#include "shredding_rules.h"
#include "test_util.h"
#include "variant_equal.h"
#include "varshred/arrow/legacy.h"

namespace varshred {
namespace {

using Opt = std::optional<std::string>;

// metadata‖value of one Variant, as the seed draft's untyped_value stores it.
Opt Untyped(const testing::RowFn& fn) {
  VariantBuilder b;
  fn(b);
  std::string m, v;
  EXPECT_TRUE(b.Finish(&m, &v).ok());
  return m + v;
}

std::shared_ptr<arrow::Array> Binary(const std::vector<Opt>& cells, bool utf8 = false) {
  std::unique_ptr<arrow::ArrayBuilder> b;
  EXPECT_TRUE(arrow::MakeBuilder(arrow::default_memory_pool(),
                                 utf8 ? arrow::utf8() : arrow::binary(), &b)
                  .ok());
  auto* bb = static_cast<arrow::BinaryBuilder*>(b.get());
  for (const auto& c : cells) {
    EXPECT_TRUE((c ? bb->Append(*c) : bb->AppendNull()).ok());
  }
  return *b->Finish();
}

std::shared_ptr<arrow::Array> Int64s(const std::vector<std::optional<int64_t>>& cells) {
  arrow::Int64Builder b;
  for (const auto& c : cells) EXPECT_TRUE((c ? b.Append(*c) : b.AppendNull()).ok());
  return *b.Finish();
}

std::shared_ptr<arrow::Array> Struct(const std::vector<std::string>& names,
                                     const arrow::ArrayVector& children,
                                     const std::vector<bool>& valid) {
  arrow::TypedBufferBuilder<bool> bits;
  int64_t nulls = 0;
  for (bool v : valid) {
    EXPECT_TRUE(bits.Append(v).ok());
    nulls += !v;
  }
  std::shared_ptr<arrow::Buffer> bitmap;
  EXPECT_TRUE(bits.Finish(&bitmap).ok());
  return *arrow::StructArray::Make(children, names, nulls ? bitmap : nullptr, nulls);
}

testing::RowFn Obj(std::vector<std::pair<std::string, testing::RowFn>> fields) {
  return [fields](VariantBuilder& b) {
    b.StartObject();
    for (const auto& [k, f] : fields) {
      b.AddKey(k);
      f(b);
    }
    ASSERT_TRUE(b.EndObject().ok());
  };
}
testing::RowFn Int(int64_t v) {
  return [v](VariantBuilder& b) { b.AppendInt(v); };
}
testing::RowFn I64(int64_t v) {
  return [v](VariantBuilder& b) { b.AppendInt64(v); };
}
testing::RowFn Str(std::string s) {
  return [s](VariantBuilder& b) { b.AppendString(s); };
}
testing::RowFn Null() {
  return [](VariantBuilder& b) { b.AppendNull(); };
}
testing::RowFn Arr(std::vector<testing::RowFn> items) {
  return [items](VariantBuilder& b) {
    b.StartArray();
    for (const auto& f : items) f(b);
    b.EndArray();
  };
}

TEST(LegacyShreddedTest, DraftExampleTableReconstructs) {
  // shredding.md's example: object { a: int64, b: object { c: string } }.
  auto array_doc = Arr({Obj({{"a", Int(1)}, {"b", Obj({{"c", Int(2)}})}}),
                        Obj({{"a", Int(3)}, {"b", Obj({{"c", Int(4)}})}})});
  auto a_untyped = Binary(
      {std::nullopt, Untyped([](VariantBuilder& b) { b.AppendDouble(1.23); }),
       Untyped(Arr({Int(1), Int(2), Int(3)})), std::nullopt, std::nullopt, std::nullopt});
  auto a_typed = Int64s({123, std::nullopt, std::nullopt, 123, 123, std::nullopt});
  auto a = Struct({"untyped_value", "typed_value"}, {a_untyped, a_typed},
                  {true, true, true, true, true, false});
  auto c_untyped = Binary({std::nullopt, std::nullopt, Untyped(Null()), std::nullopt,
                           std::nullopt, std::nullopt});
  auto c_typed =
      Binary({"hello", "123", std::nullopt, std::nullopt, "hello", std::nullopt},
             /*utf8=*/true);
  auto c = Struct({"untyped_value", "typed_value"}, {c_untyped, c_typed},
                  {true, true, true, false, true, false});
  auto b_object = Struct({"c"}, {c}, {true, true, true, false, true, false});
  auto b_untyped = Binary({std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                           Untyped(Obj({{"d", Int(456)}})), std::nullopt});
  auto b = Struct({"untyped_value", "object"}, {b_untyped, b_object},
                  {true, true, true, false, true, false});
  auto object = Struct({"a", "b"}, {a, b}, {true, true, true, true, true, false});
  auto top_untyped =
      Binary({std::nullopt, std::nullopt, std::nullopt, Untyped(Obj({{"c", Int(456)}})),
              std::nullopt, Untyped(array_doc)});
  auto column = Struct({"untyped_value", "object"}, {top_untyped, object},
                       {true, true, true, true, true, true});

  VS_ASSIGN_OR_FAIL(auto out, FromLegacyShredded(*column));
  const std::vector<testing::RowFn> expected = {
      Obj({{"a", I64(123)}, {"b", Obj({{"c", Str("hello")}})}}),
      Obj({{"a", [](VariantBuilder& b) { b.AppendDouble(1.23); }},
           {"b", Obj({{"c", Str("123")}})}}),
      Obj({{"a", Arr({Int(1), Int(2), Int(3)})}, {"b", Obj({{"c", Null()}})}}),
      Obj({{"a", I64(123)}, {"c", Int(456)}}),
      Obj({{"a", I64(123)}, {"b", Obj({{"c", Str("hello")}, {"d", Int(456)}})}}),
      array_doc,
  };
  auto want = testing::MakeVariantColumn(expected);
  VS_ASSIGN_OR_FAIL(auto got_view, VariantArrayView::Make(out));
  VS_ASSIGN_OR_FAIL(auto want_view, VariantArrayView::Make(want));
  ASSERT_EQ(got_view.length(), 6);
  for (int64_t i = 0; i < 6; ++i) {
    VS_ASSIGN_OR_FAIL(auto gm, MetadataView::Make(got_view.metadata(i)));
    VS_ASSIGN_OR_FAIL(auto wm, MetadataView::Make(want_view.metadata(i)));
    VS_ASSIGN_OR_FAIL(auto gv, VariantView::Make(gm, got_view.value(i)));
    VS_ASSIGN_OR_FAIL(auto wv, VariantView::Make(wm, want_view.value(i)));
    EXPECT_TRUE(testing::LogicalEqual(gv, wv)) << "row " << i;
  }
}

TEST(LegacyShreddedTest, RejectsConflictsAndUnknownFields) {
  auto untyped = Binary({Untyped(Int(1))});
  auto typed = Int64s({2});
  auto conflict = Struct({"untyped_value", "typed_value"}, {untyped, typed}, {true});
  auto r = FromLegacyShredded(*conflict);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid()) << r.status().ToString();
  // A Variant null next to a typed value is tolerated (typed wins).
  auto null_untyped = Binary({Untyped(Null())});
  auto ok = Struct({"untyped_value", "typed_value", "_spark_extra"},
                   {null_untyped, typed, typed}, {true});
  VS_ASSIGN_OR_FAIL(auto out, FromLegacyShredded(*ok));
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(out));
  EXPECT_EQ(testing::ToHex(view.value(0)), "18 02 00 00 00 00 00 00 00");
  auto unknown = Struct({"untyped_value", "bogus"}, {untyped, typed}, {true});
  EXPECT_FALSE(FromLegacyShredded(*unknown).ok());
}

}  // namespace
}  // namespace varshred
