#include "varshred/builder.h"

#include "test_util.h"
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
