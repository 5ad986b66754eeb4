// Tests for java_case_internal.h: each expectation is what Java 17's
// String.equalsIgnoreCase answers (and so Spark's default name resolution).

#include <gtest/gtest.h>

#include "varshred/java_case_internal.h"

namespace varshred::internal {
namespace {

TEST(JavaEqualsIgnoreCaseTest, FoldsAsJava) {
  EXPECT_TRUE(JavaEqualsIgnoreCase("", ""));
  EXPECT_TRUE(JavaEqualsIgnoreCase("userId", "USERID"));
  EXPECT_TRUE(JavaEqualsIgnoreCase("k", "\u212A"));  // KELVIN SIGN
  EXPECT_TRUE(JavaEqualsIgnoreCase("I", "\u0130"));  // I WITH DOT ABOVE
  EXPECT_TRUE(JavaEqualsIgnoreCase("i", "\u0130"));
  EXPECT_TRUE(JavaEqualsIgnoreCase("\u0131", "I"));       // DOTLESS I
  EXPECT_TRUE(JavaEqualsIgnoreCase("\u00B5", "\u039C"));  // MICRO SIGN, MU
  EXPECT_TRUE(JavaEqualsIgnoreCase("\u01C5", "\u01C6"));  // Dz, dz digraphs
  EXPECT_TRUE(JavaEqualsIgnoreCase("\u00E9t\u00E9", "\u00C9T\u00C9"));
  EXPECT_TRUE(
      JavaEqualsIgnoreCase("\U00010400", "\U00010428"));  // Deseret, outside the BMP
  EXPECT_FALSE(JavaEqualsIgnoreCase("\u00DF", "SS"));     // no multi-letter folds
  EXPECT_FALSE(JavaEqualsIgnoreCase("a", "ab"));
  EXPECT_FALSE(JavaEqualsIgnoreCase("ab", "a"));
  EXPECT_FALSE(JavaEqualsIgnoreCase("a", "b"));
  EXPECT_FALSE(JavaEqualsIgnoreCase("@", "`"));  // neighbours of the ASCII letters
  EXPECT_FALSE(JavaEqualsIgnoreCase("[", "{"));
  EXPECT_FALSE(JavaEqualsIgnoreCase("\u00D7", "\u00F7"));  // x and / signs, 32 apart
}

}  // namespace
}  // namespace varshred::internal
