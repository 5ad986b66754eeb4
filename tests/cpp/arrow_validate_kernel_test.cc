// Tests for varshred/arrow/validate_kernel.h.

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>

#include <string>

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

TEST(ValidateVariantsTest, NullValueIsAnErrorOnlyWhenUnshredded) {
  arrow::BinaryBuilder md, val;
  ASSERT_TRUE(md.Append(kMd).ok());
  ASSERT_TRUE(val.AppendNull().ok());
  auto md_array = md.Finish().ValueOrDie();
  auto val_array = val.Finish().ValueOrDie();
  auto unshredded = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("metadata", arrow::binary()),
                      arrow::field("value", arrow::binary())}),
      1, arrow::ArrayVector{md_array, val_array});
  auto st = ValidateVariants(*unshredded);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message(),
            "row 0: value is null in a non-null row of an unshredded Variant column");

  arrow::Int64Builder typed;
  ASSERT_TRUE(typed.Append(3).ok());
  auto typed_array = typed.Finish().ValueOrDie();
  auto shredded = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("metadata", arrow::binary()),
                      arrow::field("value", arrow::binary()),
                      arrow::field("typed_value", arrow::int64())}),
      1, arrow::ArrayVector{md_array, val_array, typed_array});
  VS_EXPECT_OK(ValidateVariants(*shredded));
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
