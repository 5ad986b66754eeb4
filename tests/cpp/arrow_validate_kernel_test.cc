// Tests for varshred/arrow/validate_kernel.h.

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>

#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "varshred/arrow/validate_kernel.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/format.h"

namespace varshred {
namespace {

using testing::Hex;

const std::string kMd(kEmptyMetadata);
// Metadata {"a"} and the object {"a": [1, "x"]}.
const std::string kMdA = Hex("01 01 00 01 61");
const std::string kObj = Hex("02 01 00 00 09 03 02 00 02 04 0c 01 05 78");

std::shared_ptr<arrow::Array> Build(
    const std::vector<std::pair<std::string, std::string>>& rows, int null_row = -1,
    VariantLayout layout = VariantLayout::kCanonical) {
  VariantArrayBuilder builder;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    auto st = i == null_row ? builder.AppendNull()
                            : builder.Append(rows[i].first, rows[i].second);
    EXPECT_TRUE(st.ok());
  }
  return builder.Finish(layout).ValueOrDie();
}

TEST(ValidateVariantsTest, AcceptsValidRowsInBothLayoutsAndSkipsSqlNulls) {
  for (auto layout : {VariantLayout::kCanonical, VariantLayout::kSpark}) {
    // Row 1 holds garbage but is a SQL NULL: never looked at.
    auto array = Build({{kMd, Hex("0c 05")}, {"", ""}, {kMdA, kObj}}, 1, layout);
    VS_EXPECT_OK(ValidateVariants(*array));
  }
}

TEST(ValidateVariantsTest, NamesTheRowAndThePath) {
  // Row 2's array element 1 is a short string of 2 bytes with only 1 left.
  const std::string bad = Hex("02 01 00 00 09 03 02 00 02 04 0c 01 09 78");
  auto array = Build({{kMd, Hex("00")}, {kMdA, kObj}, {kMdA, bad}});
  auto st = ValidateVariants(*array);
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_EQ(st.message().rfind("row 2: $.a[1]: ", 0), 0u) << st.message();
}

TEST(ValidateVariantsTest, ReportsBadMetadataAndTrailingBytesWithTheRow) {
  auto bad_md = Build({{kMd, Hex("00")}, {Hex("02 00 00"), Hex("00")}});
  auto st = ValidateVariants(*bad_md);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 1: metadata: unsupported version", 0), 0u)
      << st.message();

  auto trailing = Build({{kMd, Hex("0c 01 00")}});
  st = ValidateVariants(*trailing);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 0: $: ", 0), 0u) << st.message();
}

TEST(ValidateVariantsTest, RejectsNonVariantInputAsTypeError) {
  arrow::Int32Builder ints;
  ASSERT_TRUE(ints.Append(1).ok());
  auto array = ints.Finish().ValueOrDie();
  EXPECT_TRUE(ValidateVariants(*array).IsTypeError());
}

std::shared_ptr<arrow::Array> Binary(const std::vector<std::optional<std::string>>& v) {
  arrow::BinaryBuilder b;
  for (const auto& s : v) EXPECT_TRUE((s ? b.Append(*s) : b.AppendNull()).ok());
  return b.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> Int64s(const std::vector<std::optional<int64_t>>& v) {
  arrow::Int64Builder b;
  for (const auto& x : v) EXPECT_TRUE((x ? b.Append(*x) : b.AppendNull()).ok());
  return b.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> Struct(const std::vector<std::string>& names,
                                     const arrow::ArrayVector& children) {
  arrow::FieldVector fields;
  for (size_t i = 0; i < names.size(); ++i) {
    fields.push_back(arrow::field(names[i], children[i]->type()));
  }
  return std::make_shared<arrow::StructArray>(arrow::struct_(fields),
                                              children[0]->length(), children);
}

// A null value in a valid row is the Variant null to every reader (docs/shredding.md),
// shredded or not: only its metadata is checked.
TEST(ValidateVariantsTest, NullValueIsTheVariantNull) {
  auto unshredded =
      Struct({"metadata", "value"}, {Binary({kMd}), Binary({std::nullopt})});
  VS_EXPECT_OK(ValidateVariants(*unshredded));
  auto bad_metadata =
      Struct({"metadata", "value"}, {Binary({Hex("07")}), Binary({std::nullopt})});
  auto st = ValidateVariants(*bad_metadata);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 0: ", 0), 0u) << st.message();

  auto shredded = Struct({"metadata", "value", "typed_value"},
                         {Binary({kMd}), Binary({std::nullopt}), Int64s({3})});
  VS_EXPECT_OK(ValidateVariants(*shredded));
}

// Below the top level, a shredded column is checked as readers check it: they would
// refuse these rows.
TEST(ValidateVariantsTest, ChecksShreddedColumnsBelowTheTopLevel) {
  // Row 1's field `a` holds a short string of 3 bytes with one byte.
  auto field_a = Struct({"value", "typed_value"},
                        {Binary({Hex("0c 01"), Hex("0d 78")}), Int64s({{}, {}})});
  auto shredded = Struct({"metadata", "value", "typed_value"},
                         {Binary({kMdA, kMdA}), Binary({std::nullopt, std::nullopt}),
                          Struct({"a"}, {field_a})});
  auto st = ValidateVariants(*shredded);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 1, $.a: ", 0), 0u) << st.message();

  // A scalar in both value and typed_value: only an object may be in both.
  auto conflict = Struct({"metadata", "value", "typed_value"},
                         {Binary({kMd}), Binary({Hex("0c 01")}), Int64s({3})});
  EXPECT_TRUE(ValidateVariants(*conflict).IsInvalid());
}

TEST(ValidateVariantsTest, AppliesTheOptions) {
  auto array = Build({{kMdA, kObj}});
  ValidateOptions shallow;
  shallow.max_depth = 1;
  auto st = ValidateVariants(*array, shallow);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 0: ", 0), 0u) << st.message();
}

}  // namespace
}  // namespace varshred
