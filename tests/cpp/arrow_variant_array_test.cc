// Tests for varshred/arrow/variant_array.h: both layouts, children by name, every
// binary-like child type, SQL NULLs, and ToLayout's zero-copy and copying paths.

#include <arrow/array/array_binary.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/format.h"

namespace varshred {
namespace {

using testing::Hex;
using testing::ToHex;
using Cells = std::vector<std::optional<std::string>>;

template <typename BuilderType>
std::shared_ptr<arrow::Array> MakeBinaryLike(const Cells& cells) {
  BuilderType builder;
  for (const auto& cell : cells) {
    auto st = cell ? builder.Append(*cell) : builder.AppendNull();
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  std::shared_ptr<arrow::Array> out;
  EXPECT_TRUE(builder.Finish(&out).ok());
  return out;
}

std::shared_ptr<arrow::Array> MakeStruct(
    std::vector<std::string> names, arrow::ArrayVector children,
    std::shared_ptr<arrow::Buffer> validity = nullptr, int64_t null_count = 0) {
  arrow::FieldVector fields;
  for (size_t i = 0; i < names.size(); ++i) {
    fields.push_back(arrow::field(names[i], children[i]->type()));
  }
  return std::make_shared<arrow::StructArray>(arrow::struct_(fields),
                                              children[0]->length(), children,
                                              std::move(validity), null_count);
}

// Validity bitmap with row `null_row` cleared among `length` rows.
std::shared_ptr<arrow::Buffer> ValidityWithNull(int64_t length, int64_t null_row) {
  arrow::TypedBufferBuilder<bool> bits;
  for (int64_t i = 0; i < length; ++i) EXPECT_TRUE(bits.Append(i != null_row).ok());
  std::shared_ptr<arrow::Buffer> out;
  EXPECT_TRUE(bits.Finish(&out).ok());
  return out;
}

const std::string kMd(kEmptyMetadata);
const std::string kInt1 = Hex("0c 01");
const std::string kStrAb = Hex("09 61 62");

TEST(VariantArrayTest, StorageTypesOfBothLayouts) {
  auto canonical = VariantStorageType(VariantLayout::kCanonical);
  ASSERT_EQ(canonical->num_fields(), 2);
  EXPECT_EQ(canonical->field(0)->name(), "metadata");
  EXPECT_EQ(canonical->field(1)->name(), "value");
  EXPECT_FALSE(canonical->field(0)->nullable());
  EXPECT_TRUE(canonical->field(1)->type()->Equals(arrow::binary()));

  auto spark = VariantStorageType(VariantLayout::kSpark);
  ASSERT_EQ(spark->num_fields(), 2);
  EXPECT_EQ(spark->field(0)->name(), "value");
  EXPECT_EQ(spark->field(1)->name(), "metadata");
  ASSERT_NE(spark->field(1)->metadata(), nullptr);
  EXPECT_EQ(spark->field(1)->metadata()->Get("variant").ValueOr(""), "true");
}

TEST(VariantArrayTest, BuilderWritesRowsAndSqlNullsInEitherLayout) {
  for (auto layout : {VariantLayout::kCanonical, VariantLayout::kSpark}) {
    VariantArrayBuilder builder;
    VS_ASSERT_OK(builder.Reserve(3, 8));
    VS_ASSERT_OK(builder.Append(kMd, kInt1));
    VS_ASSERT_OK(builder.AppendNull());
    VS_ASSERT_OK(builder.Append(kMd, kStrAb));
    EXPECT_EQ(builder.length(), 3);
    VS_ASSIGN_OR_FAIL(auto array, builder.Finish(layout));
    EXPECT_TRUE(array->type()->Equals(VariantStorageType(layout)));
    ASSERT_EQ(array->length(), 3);
    EXPECT_EQ(array->null_count(), 1);
    EXPECT_TRUE(array->IsNull(1));
    VS_ASSERT_OK(array->ValidateFull());
    const auto& st = static_cast<const arrow::StructArray&>(*array);
    // No child is ever null, even under a SQL NULL row (Spark rejects that).
    EXPECT_EQ(st.field(0)->null_count(), 0);
    EXPECT_EQ(st.field(1)->null_count(), 0);

    VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(array));
    EXPECT_EQ(view.length(), 3);
    EXPECT_FALSE(view.IsNull(0));
    EXPECT_EQ(ToHex(view.metadata(0)), "01 00 00");
    EXPECT_EQ(ToHex(view.value(0)), "0c 01");
    EXPECT_TRUE(view.IsNull(1));
    EXPECT_EQ(ToHex(view.value(2)), "09 61 62");
    EXPECT_EQ(view.typed_value(), nullptr);
    EXPECT_TRUE(view.has_value());
  }
  // The builder resets after Finish().
  VariantArrayBuilder builder;
  VS_ASSERT_OK(builder.AppendNull());
  VS_ASSERT_OK(builder.Finish().status());
  EXPECT_EQ(builder.length(), 0);
  VS_ASSIGN_OR_FAIL(auto empty, builder.Finish());
  EXPECT_EQ(empty->length(), 0);
  EXPECT_EQ(empty->null_count(), 0);
}

// Validity bits are set in place while the builder has room and grow it otherwise:
// rows past a small reservation and past each doubling keep their nulls.
TEST(VariantArrayTest, BuilderKeepsNullsAcrossItsGrowth) {
  for (const int64_t reserved : {0, 3, 64}) {
    VariantArrayBuilder builder;
    VS_ASSERT_OK(builder.Reserve(reserved, 8));
    constexpr int64_t kRows = 1000;
    for (int64_t i = 0; i < kRows; ++i) {
      VS_ASSERT_OK(i % 7 == 3 ? builder.AppendNull() : builder.Append(kMd, kInt1));
    }
    VS_ASSIGN_OR_FAIL(auto array, builder.Finish());
    VS_ASSERT_OK(array->ValidateFull());
    ASSERT_EQ(array->length(), kRows);
    EXPECT_EQ(array->null_count(), (kRows + 3) / 7);
    for (int64_t i = 0; i < kRows; ++i) {
      ASSERT_EQ(array->IsNull(i), i % 7 == 3) << "reserved " << reserved << " row " << i;
    }
  }
}

// The validity bitmap is built only once a null arrives, from the rows before it: a
// first null at any row, after any reservation, and arrays without nulls, which have
// no bitmap, in turn from one builder.
TEST(VariantArrayTest, BuilderBuildsItsValidityAtTheFirstNull) {
  constexpr int64_t kRows = 200;
  for (const int64_t reserved : {0, 5, 500}) {
    VariantArrayBuilder builder;
    for (const int64_t first_null : {int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{8},
                                     int64_t{63}, int64_t{64}, kRows - 1}) {
      auto is_null = [&](int64_t i) {
        return first_null >= 0 && (i == first_null || (i > first_null && i % 5 == 0));
      };
      VS_ASSERT_OK(builder.Reserve(reserved, 0));
      for (int64_t i = 0; i < kRows; ++i) {
        VS_ASSERT_OK(is_null(i) ? builder.AppendNull() : builder.Append(kMd, kInt1));
      }
      VS_ASSIGN_OR_FAIL(auto array, builder.Finish());
      VS_ASSERT_OK(array->ValidateFull());
      ASSERT_EQ(array->length(), kRows);
      EXPECT_EQ(array->null_bitmap() == nullptr, first_null < 0);
      for (int64_t i = 0; i < kRows; ++i) {
        ASSERT_EQ(array->IsNull(i), is_null(i))
            << "reserved " << reserved << ", first null " << first_null << ", row " << i;
      }
    }
  }
}

// After its first rows the builder reserves what they predict for the rows reserved.
// Rows that outgrow the prediction, calls that stop short of it, a null on the probe
// row and a second array from the same builder all keep every byte.
TEST(VariantArrayTest, BuilderKeepsBytesAroundItsPrediction) {
  const std::string long_md = Hex("01 01 00 03") + "abc";
  const std::string long_value = Hex("49 2c 01 00 00") + std::string(300, 'x');
  auto is_long = [](int64_t i) { return i >= 1024 && i % 3 != 0; };
  for (const int64_t rows : {4096, 1500}) {
    VariantArrayBuilder builder;
    for (int round = 0; round < 2; ++round) {
      VS_ASSERT_OK(builder.Reserve(4096, 0));
      for (int64_t i = 0; i < rows; ++i) {
        VS_ASSERT_OK(i == 1023    ? builder.AppendNull()
                     : is_long(i) ? builder.Append(long_md, long_value)
                                  : builder.Append(kMd, kInt1));
      }
      VS_ASSIGN_OR_FAIL(auto array, builder.Finish());
      VS_ASSERT_OK(array->ValidateFull());
      VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(array));
      ASSERT_EQ(view.length(), rows);
      for (int64_t i = 0; i < rows; ++i) {
        if (i == 1023) {
          ASSERT_TRUE(view.IsNull(i));
          continue;
        }
        ASSERT_EQ(view.metadata(i), is_long(i) ? long_md : kMd) << "row " << i;
        ASSERT_EQ(view.value(i), is_long(i) ? long_value : kInt1) << "row " << i;
      }
    }
  }
}

TEST(VariantArrayTest, ViewMatchesChildrenByNameInAnyOrder) {
  auto md = MakeBinaryLike<arrow::BinaryBuilder>({kMd, kMd});
  auto val = MakeBinaryLike<arrow::BinaryBuilder>({kInt1, kStrAb});
  for (bool value_first : {false, true}) {
    auto array = value_first ? MakeStruct({"value", "metadata"}, {val, md})
                             : MakeStruct({"metadata", "value"}, {md, val});
    VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(array));
    EXPECT_EQ(ToHex(view.metadata(1)), "01 00 00");
    EXPECT_EQ(ToHex(view.value(0)), "0c 01");
    EXPECT_EQ(ToHex(view.value(1)), "09 61 62");
  }
}

TEST(VariantArrayTest, ViewReadsLargeBinaryAndBinaryViewChildren) {
  const std::string long_value = Hex("40") + std::string(100, 'x');  // > view inline size
  Cells values = {kInt1, long_value};
  arrow::ArrayVector mds = {MakeBinaryLike<arrow::LargeBinaryBuilder>({kMd, kMd}),
                            MakeBinaryLike<arrow::BinaryViewBuilder>({kMd, kMd}),
                            MakeBinaryLike<arrow::StringBuilder>({kMd, kMd})};
  arrow::ArrayVector vals = {MakeBinaryLike<arrow::LargeBinaryBuilder>(values),
                             MakeBinaryLike<arrow::BinaryViewBuilder>(values),
                             MakeBinaryLike<arrow::LargeStringBuilder>(values)};
  for (size_t k = 0; k < mds.size(); ++k) {
    SCOPED_TRACE(vals[k]->type()->ToString());
    VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(MakeStruct({"metadata", "value"},
                                                                   {mds[k], vals[k]})));
    EXPECT_EQ(view.metadata(1), kMd);
    EXPECT_EQ(view.value(0), kInt1);
    EXPECT_EQ(view.value(1), long_value);
  }
}

TEST(VariantArrayTest, ViewRejectsWhatIsNotAVariantColumn) {
  auto md = MakeBinaryLike<arrow::BinaryBuilder>({kMd});
  auto val = MakeBinaryLike<arrow::BinaryBuilder>({kInt1});
  arrow::Int32Builder ints;
  ASSERT_TRUE(ints.Append(1).ok());
  std::shared_ptr<arrow::Array> int_array;
  ASSERT_TRUE(ints.Finish(&int_array).ok());

  auto not_struct = VariantArrayView::Make(val);
  EXPECT_TRUE(not_struct.status().IsTypeError());
  EXPECT_NE(not_struct.status().message().find("must be a struct"), std::string::npos);

  auto no_metadata = VariantArrayView::Make(MakeStruct({"value"}, {val}));
  EXPECT_TRUE(no_metadata.status().IsTypeError());
  EXPECT_NE(no_metadata.status().message().find("\"metadata\""), std::string::npos);

  auto extra =
      VariantArrayView::Make(MakeStruct({"metadata", "value", "x"}, {md, val, val}));
  EXPECT_TRUE(extra.status().IsTypeError());
  EXPECT_NE(extra.status().message().find("found \"x\""), std::string::npos);

  auto int_metadata =
      VariantArrayView::Make(MakeStruct({"metadata", "value"}, {int_array, val}));
  EXPECT_TRUE(int_metadata.status().IsTypeError());
  EXPECT_NE(int_metadata.status().message().find("expected a binary column"),
            std::string::npos);

  auto only_metadata = VariantArrayView::Make(MakeStruct({"metadata"}, {md}));
  EXPECT_TRUE(only_metadata.status().IsTypeError());
}

TEST(VariantArrayTest, ViewOfShreddedArrayExposesTypedValueAndNullValues) {
  auto md = MakeBinaryLike<arrow::BinaryBuilder>({kMd, kMd});
  auto val = MakeBinaryLike<arrow::BinaryBuilder>({std::nullopt, kStrAb});
  arrow::Int64Builder typed;
  ASSERT_TRUE(typed.Append(5).ok());
  ASSERT_TRUE(typed.AppendNull().ok());
  std::shared_ptr<arrow::Array> typed_array;
  ASSERT_TRUE(typed.Finish(&typed_array).ok());
  VS_ASSIGN_OR_FAIL(
      auto view, VariantArrayView::Make(MakeStruct({"metadata", "value", "typed_value"},
                                                   {md, val, typed_array})));
  ASSERT_NE(view.typed_value(), nullptr);
  EXPECT_TRUE(view.value_is_null(0));
  EXPECT_FALSE(view.value_is_null(1));

  // typed_value alone (no value child) is a valid shredded column.
  VS_ASSIGN_OR_FAIL(
      auto typed_only,
      VariantArrayView::Make(MakeStruct({"metadata", "typed_value"}, {md, typed_array})));
  EXPECT_FALSE(typed_only.has_value());
  EXPECT_TRUE(typed_only.value_is_null(1));
}

TEST(VariantArrayTest, ToLayoutSharesBuffersWhenChildrenArePlainBinary) {
  VariantArrayBuilder builder;
  VS_ASSERT_OK(builder.Append(kMd, kInt1));
  VS_ASSERT_OK(builder.AppendNull());
  VS_ASSERT_OK(builder.Append(kMd, kStrAb));
  VS_ASSERT_OK(builder.Append(kMd, kInt1));
  VS_ASSIGN_OR_FAIL(auto canonical, builder.Finish(VariantLayout::kCanonical));
  auto sliced = canonical->Slice(1, 3);  // rows: NULL, "ab", 1

  VS_ASSIGN_OR_FAIL(auto spark, ToLayout(sliced, VariantLayout::kSpark));
  EXPECT_TRUE(spark->type()->Equals(VariantStorageType(VariantLayout::kSpark)));
  VS_ASSERT_OK(spark->ValidateFull());
  ASSERT_EQ(spark->length(), 3);
  EXPECT_TRUE(spark->IsNull(0));
  EXPECT_FALSE(spark->IsNull(1));
  const auto& in = static_cast<const arrow::StructArray&>(*canonical);
  const auto& out = static_cast<const arrow::StructArray&>(*spark);
  // Zero-copy: the same data buffers, children swapped.
  EXPECT_EQ(out.field(0)->data()->buffers[2]->data(),
            in.field(1)->data()->buffers[2]->data());
  EXPECT_EQ(out.field(1)->data()->buffers[2]->data(),
            in.field(0)->data()->buffers[2]->data());
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(spark));
  EXPECT_EQ(view.value(1), kStrAb);
  EXPECT_EQ(view.value(2), kInt1);

  // And back: canonical again, equal to the slice.
  VS_ASSIGN_OR_FAIL(auto back, ToLayout(spark, VariantLayout::kCanonical));
  EXPECT_TRUE(back->Equals(*sliced));
}

TEST(VariantArrayTest, ToLayoutCopiesLargeAndViewChildrenAndNullValues) {
  auto md = MakeBinaryLike<arrow::LargeBinaryBuilder>({kMd, kMd, kMd});
  auto val = MakeBinaryLike<arrow::BinaryViewBuilder>({kInt1, std::nullopt, kStrAb});
  auto array = MakeStruct({"value", "metadata"}, {val, md}, ValidityWithNull(3, 2), 1);
  VS_ASSIGN_OR_FAIL(auto out, ToLayout(array, VariantLayout::kCanonical));
  EXPECT_TRUE(out->type()->Equals(VariantStorageType(VariantLayout::kCanonical)));
  VS_ASSERT_OK(out->ValidateFull());
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(out));
  EXPECT_EQ(view.value(0), kInt1);
  // A null value in a non-null row reads as Variant null.
  EXPECT_EQ(ToHex(view.value(1)), "00");
  EXPECT_TRUE(view.IsNull(2));
  const auto& st = static_cast<const arrow::StructArray&>(*out);
  EXPECT_EQ(st.field(1)->null_count(), 0);
}

TEST(VariantArrayTest, ToLayoutRejectsShreddedAndNullMetadata) {
  auto md = MakeBinaryLike<arrow::BinaryBuilder>({kMd, std::nullopt});
  auto val = MakeBinaryLike<arrow::BinaryBuilder>({kInt1, kInt1});
  auto shredded = MakeStruct({"metadata", "value", "typed_value"}, {md, val, val});
  auto st = ToLayout(shredded, VariantLayout::kSpark).status();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("unshred it first"), std::string::npos);

  auto bad =
      ToLayout(MakeStruct({"metadata", "value"}, {md, val}), VariantLayout::kSpark);
  EXPECT_TRUE(bad.status().IsInvalid());
  EXPECT_NE(bad.status().message().find("row 1: metadata is null in a non-null row"),
            std::string::npos);
}

}  // namespace
}  // namespace varshred
