#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include <optional>
#include <random>

#include "random_variants.h"
#include "shredding_rules.h"
#include "test_util.h"
#include "variant_equal.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/unshred.h"

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;
using Opt = std::optional<std::string>;

std::shared_ptr<arrow::Array> Bin(
    const std::vector<Opt>& cells,
    std::shared_ptr<arrow::DataType> type = arrow::binary()) {
  std::unique_ptr<arrow::ArrayBuilder> b;
  EXPECT_TRUE(arrow::MakeBuilder(arrow::default_memory_pool(), type, &b).ok());
  for (const auto& c : cells) {
    arrow::Status st;
    if (type->id() == arrow::Type::LARGE_BINARY) {
      auto* lb = static_cast<arrow::LargeBinaryBuilder*>(b.get());
      st = c ? lb->Append(*c) : lb->AppendNull();
    } else {
      auto* bb = static_cast<arrow::BinaryBuilder*>(b.get());
      st = c ? bb->Append(*c) : bb->AppendNull();
    }
    EXPECT_TRUE(st.ok());
  }
  return *b->Finish();
}

std::shared_ptr<arrow::Array> Struct(const std::vector<std::string>& names,
                                     const arrow::ArrayVector& children) {
  return *arrow::StructArray::Make(children, names);
}

std::string ValueAt(const std::shared_ptr<arrow::Array>& unshredded, int64_t i) {
  auto view = *VariantArrayView::Make(unshredded);
  return ToHex(view.value(i));
}

TEST(UnshredTest, MergesTypedAndUnsortedResidualFieldsInKeyOrder) {
  // Metadata ["a","b","c","z"]; typed fields listed b before a; residual {z:1, c:2}
  // written with unsorted ids (3, 2); large_binary value columns.
  const std::string meta = Hex("01 04 00 01 02 03 04 61 62 63 7a");
  auto metadata = Bin({meta});
  auto residual = Bin({Hex("02 02 03 02 00 02 04 0c 01 0c 02")}, arrow::large_binary());
  arrow::Int32Builder ib;
  ASSERT_TRUE(ib.Append(5).ok());
  auto a_typed = *ib.Finish();
  auto a = Struct({"typed_value"}, {a_typed});  // no value column: read as all-null
  auto b = Struct({"value"}, {Bin({Hex("05 78")}, arrow::large_binary())});
  auto typed = Struct({"b", "a"}, {b, a});
  auto column = Struct({"value", "typed_value", "metadata"}, {residual, typed, metadata});
  VS_ASSIGN_OR_FAIL(auto out, Unshred(*column));
  EXPECT_EQ(ValueAt(out, 0),
            "02 04 00 01 02 03 00 05 09 07 0b 14 05 00 00 00 05 78 0c 01 0c 02");
  // Metadata passes through zero-copy.
  EXPECT_EQ(static_cast<const arrow::StructArray&>(*out)
                .GetFieldByName("metadata")
                ->data()
                ->buffers[2],
            metadata->data()->buffers[2]);
  VS_ASSIGN_OR_FAIL(auto m, MetadataView::Make(meta));
  VS_EXPECT_OK(VariantView::Make(m, (*VariantArrayView::Make(out)).value(0)).status());
}

TEST(UnshredTest, ConflictsFailByDefaultAndTypedWinsOnRequest) {
  arrow::Int64Builder ib;
  ASSERT_TRUE(ib.AppendValues({1, 2}).ok());
  auto typed = *ib.Finish();
  auto column = Struct({"metadata", "value", "typed_value"},
                       {Bin({std::string(kEmptyMetadata), std::string(kEmptyMetadata)}),
                        Bin({std::nullopt, Hex("0c 07")}), typed});
  auto r = Unshred(*column);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_NE(r.status().message().find("row 1, $: conflicting value and typed_value"),
            std::string::npos)
      << r.status().ToString();
  UnshredOptions lenient;
  lenient.on_conflict = ConflictPolicy::kTypedWins;
  VS_ASSIGN_OR_FAIL(auto out, Unshred(*column, lenient));
  EXPECT_EQ(ValueAt(out, 1), "18 02 00 00 00 00 00 00 00");
}

TEST(UnshredTest, Decimal128WidthFollowsPrecision) {
  for (auto [precision, header] :
       {std::pair{5, "20 02"}, std::pair{12, "24 02"}, std::pair{30, "28 02"}}) {
    arrow::Decimal128Builder db(arrow::decimal128(precision, 2));
    ASSERT_TRUE(db.Append(arrow::Decimal128(-1234)).ok());
    auto column = Struct({"metadata", "typed_value"},
                         {Bin({std::string(kEmptyMetadata)}), *db.Finish()});
    VS_ASSIGN_OR_FAIL(auto out, Unshred(*column));
    EXPECT_EQ(ValueAt(out, 0).substr(0, 5), header) << precision;
  }
}

TEST(UnshredTest, RejectsDisallowedTypedTypes) {
  for (const auto& type : {arrow::uint32(), arrow::fixed_size_binary(4),
                           arrow::timestamp(arrow::TimeUnit::MILLI)}) {
    auto typed = *arrow::MakeArrayOfNull(type, 1);
    auto column =
        Struct({"metadata", "typed_value"}, {Bin({std::string(kEmptyMetadata)}), typed});
    auto r = Unshred(*column);
    ASSERT_FALSE(r.ok()) << type->ToString();
    EXPECT_TRUE(r.status().IsTypeError()) << r.status().ToString();
  }
}

TEST(UnshredTest, SparkLayoutAndSqlNulls) {
  auto input =
      testing::MakeVariantColumn({[](VariantBuilder& b) { b.AppendInt8(3); }, nullptr});
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*input, *ShreddingSchema::Parse("tinyint")));
  UnshredOptions opts;
  opts.layout = VariantLayout::kSpark;
  VS_ASSIGN_OR_FAIL(auto out, Unshred(*shredded, opts));
  EXPECT_EQ(out->type()->field(0)->name(), "value");
  EXPECT_EQ(out->type()->field(1)->name(), "metadata");
  EXPECT_TRUE(out->IsNull(1));
  EXPECT_EQ(ValueAt(out, 0), "0c 03");
}

// An unshredded column (Spark's and DuckDB's tables) whose values are valid and in
// spec order comes back as it is, its value buffer shared; values to reorder, invalid
// values and missing ones go through the row loop as before.
TEST(UnshredTest, UnshreddedColumnsInSpecOrderComeBackAsTheyAre) {
  const std::string meta = Hex("01 02 00 01 02 61 62");                // ["a", "b"]
  const std::string sorted = Hex("02 02 00 01 00 02 04 0c 01 0c 02");  // {a: 1, b: 2}
  const std::string unsorted = Hex("02 02 01 00 00 02 04 0c 02 0c 01");
  auto column = [&](const std::vector<Opt>& values) {
    const std::vector<Opt> metadata(values.size(), meta);
    arrow::TypedBufferBuilder<bool> valid;
    for (size_t i = 0; i < values.size(); ++i) EXPECT_TRUE(valid.Append(i != 1).ok());
    auto bitmap = *valid.Finish();
    return *arrow::StructArray::Make({Bin(metadata), Bin(values)},
                                     std::vector<std::string>{"metadata", "value"},
                                     bitmap, 1);
  };

  auto input = column({sorted, Hex("00"), sorted, Hex("0c 07")});
  VS_ASSIGN_OR_FAIL(auto out, Unshred(*input));
  const auto& in_values = static_cast<const arrow::StructArray&>(*input).field(1);
  const auto& out_values = static_cast<const arrow::StructArray&>(*out).field(1);
  EXPECT_EQ(out_values->data()->buffers[2]->data(),
            in_values->data()->buffers[2]->data());
  EXPECT_TRUE(out->IsNull(1));
  EXPECT_EQ(ValueAt(out, 2), ToHex(sorted));
  EXPECT_EQ(ValueAt(out, 3), "0c 07");
  // Sliced past the SQL NULL: the rows and their validity start at the slice.
  VS_ASSIGN_OR_FAIL(auto tail, Unshred(*input->Slice(2)));
  EXPECT_EQ(tail->length(), 2);
  EXPECT_EQ(tail->null_count(), 0);
  EXPECT_EQ(ValueAt(tail, 0), ToHex(sorted));

  VS_ASSIGN_OR_FAIL(auto reordered, Unshred(*column({sorted, Hex("00"), unsorted})));
  EXPECT_EQ(ValueAt(reordered, 0), ToHex(sorted));
  EXPECT_EQ(ValueAt(reordered, 2).substr(0, 11), "02 02 00 01");

  auto missing = Unshred(*column({sorted, Hex("00"), std::nullopt}));
  ASSERT_TRUE(missing.ok()) << missing.status().ToString();
  EXPECT_EQ(ValueAt(*missing, 2), "00");  // a missing value reads as Variant null

  auto bad =
      Unshred(*column({sorted, Hex("00"), Hex("02 02 00 01 00 02 09 0c 01 0c 02")}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("row 2"), std::string::npos)
      << bad.status().ToString();
}

TEST(UnshredTest, UncheckedUnshreddedValuesAreLeftToTheCallerToValidate) {
  const std::string meta = Hex("01 02 00 01 02 61 62");  // ["a", "b"]
  const std::string unsorted = Hex("02 02 01 00 00 02 04 0c 02 0c 01");
  const std::string invalid = Hex("02 02 00 01 00 02 09 0c 01 0c 02");
  auto column = [&](const std::vector<Opt>& values) {
    return *arrow::StructArray::Make(
        {Bin(std::vector<Opt>(values.size(), meta)), Bin(values)},
        std::vector<std::string>{"metadata", "value"});
  };
  UnshredOptions unchecked;
  unchecked.check_unshredded_values = false;

  auto input = column({unsorted, invalid});
  VS_ASSIGN_OR_FAIL(auto out, Unshred(*input, unchecked));
  EXPECT_EQ(static_cast<const arrow::StructArray&>(*out).field(1)->data()->buffers[2],
            static_cast<const arrow::StructArray&>(*input).field(1)->data()->buffers[2]);
  EXPECT_EQ(ValueAt(out, 0), ToHex(unsorted));
  EXPECT_EQ(ValueAt(out, 1), ToHex(invalid));
  EXPECT_FALSE(Unshred(*input).ok());  // checked by default

  // A missing value is still read as Variant null, which needs the row loop.
  VS_ASSIGN_OR_FAIL(auto missing, Unshred(*column({unsorted, std::nullopt}), unchecked));
  EXPECT_EQ(ValueAt(missing, 0).substr(0, 11), "02 02 00 01");
  EXPECT_EQ(ValueAt(missing, 1), "00");
}

// ----------------------------------------------------------------------
// Properties: random variants x random schemas

TEST(ShredPropertyTest, UnshredOfShredIsLogicallyTheInput) {
  constexpr uint64_t kSeed = 0x5EED;
  testing::RandomVariants gen(kSeed);
  int trials_with_typed = 0;
  for (int trial = 0; trial < 150; ++trial) {
    auto input = gen.Column(20);
    const ShreddingSchema schema = gen.Schema(0);
    auto in_view = *VariantArrayView::Make(input);
    for (auto policy : {NumericShredding::kStrict, NumericShredding::kLenient}) {
      ShredOptions opts;
      opts.numeric = policy;
      auto shredded = Shred(*input, schema, opts);
      ASSERT_TRUE(shredded.ok())
          << schema.ToDdl() << ": " << shredded.status().ToString();
      ASSERT_TRUE((*shredded)->type()->Equals(schema.ToArrow()));
      ASSERT_TRUE(testing::CheckWriterRules(**shredded)) << schema.ToDdl();
      if (auto t = static_cast<const arrow::StructArray&>(**shredded)
                       .GetFieldByName("typed_value")) {
        trials_with_typed += t->null_count() < t->length();
      }
      auto back = Unshred(**shredded);
      ASSERT_TRUE(back.ok()) << schema.ToDdl() << ": " << back.status().ToString();
      auto out_view = *VariantArrayView::Make(*back);
      for (int64_t i = 0; i < in_view.length(); ++i) {
        ASSERT_EQ(in_view.IsNull(i), out_view.IsNull(i));
        if (in_view.IsNull(i)) continue;
        auto mi = *MetadataView::Make(in_view.metadata(i));
        auto vi = *VariantView::Make(mi, in_view.value(i));
        auto mo = *MetadataView::Make(out_view.metadata(i));
        auto vo = VariantView::Make(mo, out_view.value(i));  // valid, keys sorted
        ASSERT_TRUE(vo.ok()) << vo.status().ToString();
        if (policy == NumericShredding::kStrict) {
          ASSERT_TRUE(testing::LogicalEqual(vi, *vo))
              << "trial " << trial << " row " << i << " schema " << schema.ToDdl();
        } else {
          ASSERT_TRUE(testing::NumericEquivalent(vi, *vo))
              << "trial " << trial << " row " << i << " schema " << schema.ToDdl();
        }
      }
    }
  }
  // The generator must exercise the typed paths, not only fallbacks to value.
  EXPECT_GT(trials_with_typed, 60);
}

}  // namespace
}  // namespace varshred
