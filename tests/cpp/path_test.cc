#include "varshred/path.h"

#include <string>

#include "test_util.h"
#include "varshred/builder.h"

namespace varshred {
namespace {

using K = PathSegment;

VariantPath MustParse(std::string_view text) {
  auto result = VariantPath::Parse(text);
  EXPECT_TRUE(result.ok()) << text << ": " << result.status().ToString();
  return result.ok() ? *result : VariantPath();
}

TEST(VariantPathTest, ParsesEverySegmentForm) {
  EXPECT_TRUE(MustParse("$").is_root());
  EXPECT_EQ(MustParse("$.a.b").segments(),
            (std::vector<PathSegment>{K::Key("a"), K::Key("b")}));
  EXPECT_EQ(MustParse("$.a[0]").segments(),
            (std::vector<PathSegment>{K::Key("a"), K::Index(0)}));
  EXPECT_EQ(MustParse("$['key with space']").segments(),
            (std::vector<PathSegment>{K::Key("key with space")}));
  EXPECT_EQ(MustParse("$[\"k\"]").segments(), (std::vector<PathSegment>{K::Key("k")}));
  EXPECT_EQ(MustParse("$.a[0].b").segments(),
            (std::vector<PathSegment>{K::Key("a"), K::Index(0), K::Key("b")}));
  EXPECT_EQ(
      MustParse("$.a.b[1][\"c\"]").segments(),
      (std::vector<PathSegment>{K::Key("a"), K::Key("b"), K::Index(1), K::Key("c")}));
}

// Verified with Spark 4.3: these parse, with these keys.
TEST(VariantPathTest, AcceptsWhatSparkAccepts) {
  // A dotted key runs to the next '.' or '[': spaces and ']' are part of it.
  EXPECT_EQ(MustParse("$.key with space").segments(),
            (std::vector<PathSegment>{K::Key("key with space")}));
  EXPECT_EQ(MustParse("$.a]").segments(), (std::vector<PathSegment>{K::Key("a]")}));
  EXPECT_EQ(MustParse("$.a ").segments(), (std::vector<PathSegment>{K::Key("a ")}));
  // Quoted keys may be empty and hold the other quote or a dot; no escapes.
  EXPECT_EQ(MustParse("$['']").segments(), (std::vector<PathSegment>{K::Key("")}));
  EXPECT_EQ(MustParse("$[\"q'\"]").segments(), (std::vector<PathSegment>{K::Key("q'")}));
  EXPECT_EQ(MustParse("$[\"a.b\"]").segments(),
            (std::vector<PathSegment>{K::Key("a.b")}));
  // Leading zeros; the largest 32-bit index.
  EXPECT_EQ(MustParse("$[01]").segments(), (std::vector<PathSegment>{K::Index(1)}));
  EXPECT_EQ(MustParse("$[2147483647]").segments(),
            (std::vector<PathSegment>{K::Index(2147483647)}));
}

// Verified with Spark 4.3: all of these fail with INVALID_VARIANT_GET_PATH.
TEST(VariantPathTest, RejectsWhatSparkRejects) {
  for (const char* bad :
       {"",       "a",     "$a",    "$.",        "$..a",      "$.a[",          "$.a[0",
        "$[ 0 ]", "$['a",  "$['a'", "$[-1]",     "$.a.b[-1]", "$[2147483648]", "$[*]",
        "$.*.",   "$.[0]", " $.a",  "$['q\\'']", "$[0]x",     "$[\"a\"]b"}) {
    auto result = VariantPath::Parse(bad);
    ASSERT_FALSE(result.ok()) << "'" << bad << "' parsed";
    EXPECT_TRUE(result.status().IsInvalid());
    EXPECT_NE(result.status().message().find("INVALID_VARIANT_GET_PATH"),
              std::string::npos)
        << result.status().ToString();
  }
  auto result = VariantPath::Parse("$.a[x]");
  EXPECT_NE(result.status().message().find("offset 4"), std::string::npos)
      << result.status().ToString();
}

TEST(VariantPathTest, ToStringRoundTrips) {
  for (const char* text : {"$", "$.a.b", "$.a[0].b", "$['key with space']", "$['']",
                           "$[\"q'\"]", "$.a_1[12][3]['x.y']"}) {
    VariantPath p = MustParse(text);
    EXPECT_EQ(p.ToString(), text);
    EXPECT_EQ(MustParse(p.ToString()), p);
  }
  EXPECT_EQ(MustParse("$[\"k\"]").ToString(), "$.k");
  EXPECT_EQ(VariantPath().Child("a").Element(2).Child("b c").ToString(), "$.a[2]['b c']");
}

class LookupTest : public ::testing::Test {
 protected:
  // {"a": {"b": [10, {"c": "x"}]}, "k": 2, "": 4}
  void SetUp() override {
    VariantBuilder b;
    b.StartObject();
    b.AddKey("a");
    b.StartObject();
    b.AddKey("b");
    b.StartArray();
    b.AppendInt(10);
    b.StartObject();
    b.AddKey("c");
    b.AppendString("x");
    ASSERT_TRUE(b.EndObject().ok());
    b.EndArray();
    ASSERT_TRUE(b.EndObject().ok());
    b.AddKey("k");
    b.AppendInt(2);
    b.AddKey("");
    b.AppendInt(4);
    ASSERT_TRUE(b.EndObject().ok());
    VS_ASSERT_OK(b.Finish(&metadata_, &value_));
    root_ = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(metadata_), value_);
  }
  std::optional<VariantView> Get(std::string_view path) {
    return Lookup(root_, MustParse(path));
  }

  std::string metadata_, value_;
  VariantView root_;
};

TEST_F(LookupTest, FollowsKeysAndIndexes) {
  auto root = Get("$");
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->value_bytes(), value_);
  auto ten = Get("$.a.b[0]");
  ASSERT_TRUE(ten.has_value());
  ASSERT_EQ(ten->type(), VariantType::kInt8);
  EXPECT_EQ(ten->GetInt8(), 10);
  auto x = Get("$.a.b[1]['c']");
  ASSERT_TRUE(x.has_value());
  ASSERT_EQ(x->type(), VariantType::kString);
  EXPECT_EQ(x->GetString(), "x");
  auto empty_key = Get("$['']");
  ASSERT_TRUE(empty_key.has_value());
  EXPECT_EQ(empty_key->GetInt8(), 4);
  // The result is a slice of the input bytes, against the same metadata.
  EXPECT_GE(x->value_bytes().data(), value_.data());
  EXPECT_EQ(x->metadata().bytes().data(), metadata_.data());
}

TEST_F(LookupTest, MissesGiveNullopt) {
  EXPECT_FALSE(Get("$.z").has_value());           // missing key
  EXPECT_FALSE(Get("$.a.b[2]").has_value());      // index past the end
  EXPECT_FALSE(Get("$[0]").has_value());          // index on an object
  EXPECT_FALSE(Get("$.a.b.c").has_value());       // key on an array
  EXPECT_FALSE(Get("$.k.x").has_value());         // key on a scalar
  EXPECT_FALSE(Get("$.k[0]").has_value());        // index on a scalar
  EXPECT_FALSE(Get("$.a.b[1].c.d").has_value());  // key on a string
}

}  // namespace
}  // namespace varshred
