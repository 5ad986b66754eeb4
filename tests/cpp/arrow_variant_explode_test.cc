// Tests for varshred/arrow/variant_explode.h.

#include <arrow/api.h>

#include "test_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/variant_explode.h"

namespace varshred {
namespace {

TEST(VariantExplodeTest, ObjectsAndArraysExplodeScalarsDoNot) {
  auto variants = testing::VariantsFromJson(
      {R"({"b": 1, "a": [2]})", "[1, null]", "7", nullptr, "{}"});
  for (bool outer : {false, true}) {
    VariantExplodeOptions options;
    options.outer = outer;
    VS_ASSIGN_OR_FAIL(auto out, VariantExplode(*variants, options));
    VS_ASSERT_OK(out->ValidateFull());
    const auto& s = static_cast<const arrow::StructArray&>(*out);
    EXPECT_EQ(s.length(), outer ? 7 : 4);
    auto json = VariantToJson(*s.field(3)).ValueOrDie();
    EXPECT_EQ(s.field(0)->ToString(),
              outer ? "[\n  0,\n  0,\n  1,\n  1,\n  2,\n  3,\n  4\n]"
                    : "[\n  0,\n  0,\n  1,\n  1\n]");
    const auto& keys = static_cast<const arrow::StringArray&>(*s.field(2));
    EXPECT_EQ(keys.GetView(0), "a");  // key order
    EXPECT_EQ(keys.GetView(1), "b");
    EXPECT_TRUE(keys.IsNull(2));
    const auto& texts = static_cast<const arrow::StringArray&>(*json);
    EXPECT_EQ(texts.GetView(0), "[2]");
    EXPECT_EQ(texts.GetView(3), "null");  // a Variant null element
    if (outer) EXPECT_TRUE(s.field(1)->IsNull(4));
  }
}

}  // namespace
}  // namespace varshred
