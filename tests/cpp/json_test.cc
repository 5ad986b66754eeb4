// Tests for JSON <-> Variant. Every expected byte string and text below was produced
// by Spark 4.3.0 (parse_json / to_json in a local session) unless a comment says
// otherwise.

#include "varshred/json.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"
#include "varshred/json_reader_internal.h"
#include "varshred/json_write_internal.h"
#include "varshred/validate.h"

namespace varshred {
namespace {

namespace od = simdjson::ondemand;
using testing::Hex;
using testing::ToHex;

struct Parsed {
  std::string metadata;
  std::string value;
};

arrow::Result<Parsed> ParseJson(std::string_view json, JsonParseOptions options = {}) {
  JsonParser parser(options);
  VariantBuilder builder(options.duplicate_keys);
  ARROW_RETURN_NOT_OK(parser.Parse(json, &builder));
  Parsed p;
  ARROW_RETURN_NOT_OK(builder.Finish(&p.metadata, &p.value));
  ARROW_RETURN_NOT_OK(Validate(p.metadata, p.value));
  return p;
}

// Asserts that `json` parses to exactly Spark's value bytes (metadata 01 00 00).
void ExpectScalar(std::string_view json, std::string_view value_hex) {
  auto r = ParseJson(json);
  ASSERT_TRUE(r.ok()) << json << ": " << r.status().ToString();
  EXPECT_EQ(ToHex(r->value), ToHex(Hex(value_hex))) << json;
  EXPECT_EQ(ToHex(r->metadata), "01 00 00") << json;
}

void ExpectInvalid(std::string_view json, std::string_view message_part,
                   JsonParseOptions options = {}) {
  auto r = ParseJson(json, options);
  ASSERT_FALSE(r.ok()) << json;
  EXPECT_TRUE(r.status().IsInvalid()) << r.status().ToString();
  EXPECT_NE(r.status().message().find(message_part), std::string::npos)
      << json << " -> " << r.status().message();
}

TEST(JsonParseTest, IntegersTakeTheSmallestWidth) {
  ExpectScalar("0", "0c 00");
  ExpectScalar("-0", "0c 00");
  ExpectScalar("100", "0c 64");
  ExpectScalar("-129", "10 7f ff");
  ExpectScalar("32768", "14 00 80 00 00");
  ExpectScalar("2147483648", "18 00 00 00 80 00 00 00 00");
  ExpectScalar("-9223372036854775808", "18 00 00 00 00 00 00 00 80");
}

TEST(JsonParseTest, IntegersBeyondInt64BecomeDecimalThenDouble) {
  ExpectScalar("9223372036854775808",
               "28 00 00 00 00 00 00 00 00 80 00 00 00 00 00 00 00 00");
  ExpectScalar("12345678901234567890",
               "28 00 d2 0a 1f eb 8c a9 54 ab 00 00 00 00 00 00 00 00");
  // 38 digits: still a decimal16; 39 digits: a double.
  ExpectScalar("12345678901234567890123456789012345678",
               "28 00 4e f3 38 de 50 90 49 c4 13 33 02 f0 f6 b0 49 09");
  ExpectScalar("123456789012345678901234567890123456789", "1c 80 05 58 69 3a 38 d7 47");
}

TEST(JsonParseTest, FractionsAreExactDecimalsKeepingTrailingZeros) {
  ExpectScalar("1.0", "20 01 0a 00 00 00");
  ExpectScalar("1.50", "20 02 96 00 00 00");
  ExpectScalar("-0.0", "20 01 00 00 00 00");
  ExpectScalar("0.00", "20 02 00 00 00 00");
  ExpectScalar("3.141592653589793238462643383279",
               "28 1e ef 2b 3d ab 0d 14 e6 53 1c 89 08 a7 27 00 00 00");
}

TEST(JsonParseTest, FractionsBeyondDecimal38BecomeDouble) {
  // scale 40
  ExpectScalar("0.1234567890123456789012345678901234567890",
               "1c 5f f6 46 37 dd 9a bf 3f");
  // precision 39
  ExpectScalar("99999999999999999999999999999999999999.5", "1c b1 a1 16 2a d3 ce d2 47");
  // scale 39, precision 1
  ExpectScalar("0.000000000000000000000000000000000000001", "1c 83 2d 55 b1 2f c7 d5 37");
}

TEST(JsonParseTest, ExponentsAreAlwaysDouble) {
  ExpectScalar("1e2", "1c 00 00 00 00 00 00 59 40");
  ExpectScalar("1E2", "1c 00 00 00 00 00 00 59 40");
  ExpectScalar("1.5E+2", "1c 00 00 00 00 00 c0 62 40");
  ExpectScalar("1E-3", "1c fc a9 f1 d2 4d 62 50 3f");
  ExpectScalar("-1.5e-7", "1c 76 83 0d f4 f5 21 84 be");
  ExpectScalar("1.0e0", "1c 00 00 00 00 00 00 f0 3f");
  ExpectScalar("0e5", "1c 00 00 00 00 00 00 00 00");
  ExpectScalar("-0e0", "1c 00 00 00 00 00 00 00 80");
}

TEST(JsonParseTest, DoublesAreCorrectlyRoundedWithJavaOverflowRules) {
  ExpectScalar("1.7976931348623157e308", "1c ff ff ff ff ff ff ef 7f");
  ExpectScalar("4.9e-324", "1c 01 00 00 00 00 00 00 00");
  ExpectScalar("2.5e-324", "1c 01 00 00 00 00 00 00 00");
  ExpectScalar("1e-310", "1c 2b e6 70 8b 68 12 00 00");
  ExpectScalar("1e400", "1c 00 00 00 00 00 00 f0 7f");
  ExpectScalar("-1e400", "1c 00 00 00 00 00 00 f0 ff");
  ExpectScalar("1e-400", "1c 00 00 00 00 00 00 00 00");
}

TEST(JsonParseTest, DoubleModeTurnsEveryNonIntegerIntoDouble) {
  JsonParseOptions options;
  options.numbers = JsonNumbers::kDouble;
  VS_ASSIGN_OR_FAIL(auto p, ParseJson("[1.50,7,12345678901234567890]", options));
  // Not a Spark mode: expected bytes written by hand (1.5, int8
  // 7, 1.2345678901234567e19).
  EXPECT_EQ(ToHex(p.value),
            ToHex(Hex("03 03 00 09 0b 14 1c 00 00 00 00 00 00 f8 3f 0c 07 "
                      "1c e1 63 9d 31 95 6a e5 43")));
}

TEST(JsonParseTest, StringsAndEscapes) {
  ExpectScalar("\"a\"", "05 61");
  ExpectScalar(R"("\u0000\"\\/\t\u2028")", "21 00 22 5c 2f 09 e2 80 a8");
  ExpectScalar(R"("\u00e9\u0080")", "11 c3 a9 c2 80");
  ExpectScalar(R"("\uD83D\uDE00")", "11 f0 9f 98 80");
  ExpectScalar("\"\x7f\"", "05 7f");
  // 64 bytes: long string form.
  ExpectScalar("\"" + std::string(64, 'x') + "\"",
               "40 40 00 00 00 " + ToHex(std::string(64, 'x')));
}

TEST(JsonParseTest, KeysAndStringsWithAndWithoutEscapes) {
  // Keys and strings without a backslash are taken from the text as they stand; with
  // one, decoded. An escape at every position of every length up to 20, with and
  // without spaces around the string, in objects and arrays.
  const std::pair<std::string, std::string> escapes[] = {
      {R"(\")", "\""}, {R"(\\)", "\\"}, {R"(\u00e9)", "\xc3\xa9"}, {R"(\n)", "\n"}};
  for (const auto& [escaped, decoded] : escapes) {
    for (size_t length = 0; length <= 20; ++length) {
      for (size_t at = 0; at <= length; ++at) {
        const std::string plain(length, 'k');
        const std::string text = plain.substr(0, at) + escaped + plain.substr(at);
        const std::string want = plain.substr(0, at) + decoded + plain.substr(at);
        for (const std::string& json :
             {"{\"" + text + "\":\"" + text + "\",\"" + plain + "\":\"" + plain + "\"}",
              "{ \"" + text + "\" : \"" + text + "\" , \"" + plain + "\" : \"" + plain +
                  "\" }"}) {
          VS_ASSIGN_OR_FAIL(auto p, ParseJson(json));
          const MetadataView md = MetadataView::MakeUnchecked(p.metadata);
          const ObjectView obj(md, p.value);
          ASSERT_EQ(obj.num_fields(), 2u) << json;
          const auto a = obj.Find(want), b = obj.Find(plain);
          ASSERT_TRUE(a.has_value() && b.has_value()) << json;
          EXPECT_EQ(a->GetString(), want) << json;
          EXPECT_EQ(b->GetString(), plain) << json;
        }
        VS_ASSIGN_OR_FAIL(auto p, ParseJson("[\"" + text + "\" ,\"" + plain + "\"]"));
        const ArrayView arr(MetadataView::MakeUnchecked(p.metadata), p.value);
        EXPECT_EQ(arr.element(0).GetString(), want);
        EXPECT_EQ(arr.element(1).GetString(), plain);
      }
    }
  }
}

TEST(JsonParseTest, ContainersAndWhitespace) {
  ExpectScalar("{}", "02 00 00");
  ExpectScalar("[]", "03 00 00");
  ExpectScalar(" 1 ", "0c 01");
  ExpectScalar("[1,2,3,4] ", "03 04 00 02 04 06 08 0c 01 0c 02 0c 03 0c 04");
  ExpectScalar("[1,[2,{}]]", "03 02 00 02 0c 0c 01 03 02 00 02 05 0c 02 02 00 00");
}

TEST(JsonParseTest, ObjectKeysSortedByteWiseMetadataFirstSeen) {
  VS_ASSIGN_OR_FAIL(auto p, ParseJson(R"({"b":1,"a":[1.50,null,"x"],"é":{}})"));
  EXPECT_EQ(ToHex(p.metadata), ToHex(Hex("01 03 00 01 02 04 62 61 c3 a9")));
  EXPECT_EQ(ToHex(p.value),
            ToHex(Hex("02 03 01 00 02 02 00 11 14 0c 01 03 03 00 06 07 09 20 02 96 00 "
                      "00 00 00 05 78 02 00 00")));
}

TEST(JsonParseTest, SupplementaryKeysSortByBytesNotUtf16) {
  // Spark sorts by Java String (UTF-16) order: "z" < U+1F600 < U+FFFF, giving ids
  // 02 00 01 and value 02 03 02 00 01 04 00 02 06 0c 01 0c 02 0c 03. The spec orders
  // by UTF-8 bytes, so U+FFFF (ef bf bf) sorts before U+1F600 (f0 9f 98 80): we follow
  // the spec, and this is the one place our bytes differ from Spark's.
  VS_ASSIGN_OR_FAIL(auto p, ParseJson(R"({"\ud83d\ude00":1,"\uffff":2,"z":3})"));
  EXPECT_EQ(ToHex(p.metadata), ToHex(Hex("01 03 00 04 07 08 f0 9f 98 80 ef bf bf 7a")));
  EXPECT_EQ(ToHex(p.value), ToHex(Hex("02 03 02 01 00 04 02 00 06 0c 01 0c 02 0c 03")));
}

TEST(JsonParseTest, DuplicateKeysFailByDefault) {
  ExpectInvalid(R"({"a":1,"a":2})", "duplicate key \"a\"");
  ExpectInvalid(R"({"x":{"a":1,"a":2}})", "object at byte 5");
}

TEST(JsonParseTest, DepthLimit) {
  // The readers' limit (format.h), so that every parsed document can be read back.
  std::string ok = std::string(500, '[') + std::string(500, ']');
  VS_EXPECT_OK(ParseJson(ok).status());
  std::string deep = std::string(501, '[') + std::string(501, ']');
  ExpectInvalid(deep, "nesting deeper than 500");
  std::string deep_obj;
  for (int i = 0; i < 501; ++i) deep_obj += "{\"a\":";
  deep_obj += "1" + std::string(501, '}');
  ExpectInvalid(deep_obj, "at byte 2500: nesting deeper than 500");
  JsonParseOptions shallow;
  shallow.max_depth = 2;
  VS_EXPECT_OK(ParseJson("[[1]]", shallow).status());
  ExpectInvalid("[[[1]]]", "at byte 2: nesting deeper than 2", shallow);
  // Far deeper than simdjson's own limit: still a clean error.
  std::string very_deep = std::string(100000, '[') + std::string(100000, ']');
  ExpectInvalid(very_deep, "nesting deeper than 500");
  // A larger limit than readers accept is refused.
  JsonParseOptions too_deep;
  too_deep.max_depth = 501;
  ExpectInvalid("1", "max_depth 501 is outside 0..500", too_deep);
}

TEST(JsonParseTest, MalformedInputsFailWithOffsets) {
  ExpectInvalid("", "empty input");
  ExpectInvalid("  ", "empty input");
  ExpectInvalid("nul", "at byte 0: invalid literal (expected true, false or null)");
  ExpectInvalid("truex", "at byte 0: invalid literal");
  ExpectInvalid("[1, falsey]", "at byte 4: invalid literal");
  ExpectInvalid(R"({"a": nulll})", "at byte 6: invalid literal");
  // A bad literal followed by more text is the literal's error, not trailing content
  // (found by probing from outside: "not json" read as trailing content at byte 4).
  ExpectInvalid("not json", "at byte 0: invalid literal");
  ExpectInvalid("falsey 1", "at byte 0: invalid literal");
  ExpectInvalid("  nul l", "at byte 2: invalid literal");
  ExpectInvalid("true x", "at byte 5: trailing content after the document");
  ExpectInvalid("01", "at byte 0: malformed number");
  ExpectInvalid("1.", "malformed number");
  ExpectInvalid(".5", "invalid JSON");
  ExpectInvalid("NaN", "invalid JSON");
  ExpectInvalid("[1,2x]", "at byte 3: malformed number");
  ExpectInvalid("-", "malformed number");
  ExpectInvalid("1e", "malformed number");
  ExpectInvalid(R"("\ud800")", R"(unpaired surrogate '\ud800' at byte 1)");
  ExpectInvalid(R"(["ab\uDE00"])", R"(unpaired surrogate '\uDE00' at byte 4)");
  ExpectInvalid(R"("\ud800\u0041")", R"(unpaired surrogate '\ud800' at byte 1)");
  ExpectInvalid(R"("\x")", R"(invalid escape '\x' at byte 1)");
  ExpectInvalid(R"({"k": "a\qb"})", R"(invalid escape '\q' at byte 8)");
  ExpectInvalid(R"({"a\qb": 1})", R"(invalid escape '\q' at byte 3)");
  ExpectInvalid(R"(["ok\n", "\u12"])", R"(invalid escape '\u' at byte 10)");
  ExpectInvalid("{'a':1}", "invalid JSON");
  ExpectInvalid("[1,]", "at byte 2: trailing comma before ']'");
  ExpectInvalid(R"({"a":1,})", "at byte 6: trailing comma before '}'");
  ExpectInvalid("[1 2]", "at byte 3: unexpected character");
  ExpectInvalid("\"a\nb\"", "invalid JSON");
  // Raw control characters in keys and values at every depth (strings without a
  // backslash are taken from the input as they are: the checks must still run).
  ExpectInvalid("{\"k\":\"a\x01b\"}", "control character in a string at byte 7");
  ExpectInvalid("{\"a\tb\":1}", "control character in a string at byte 3");
  ExpectInvalid("[\"ab\", [\"\x1f\"]]", "control character in a string at byte 9");
  ExpectInvalid("{\"k\":{\"\x7f\x02\":2}}", "control character in a string at byte 8");
  ExpectInvalid("//c\n1", "invalid JSON");
  ExpectInvalid("{\"a\":1", "at byte 0: the document ends inside this object or array");
  ExpectInvalid("  [1", "at byte 2: the document ends inside this object or array");
  ExpectInvalid("[1}", "the document ends inside");
  // simdjson would skip a byte order mark; Jackson (Spark) rejects it.
  ExpectInvalid(
      "\xEF\xBB\xBF"
      "1",
      "at byte 0: byte order mark");
}

TEST(JsonParseTest, TrailingContentIsAnErrorUnlikeSpark) {
  // Spark's Jackson parser stops after the first value: parse_json('1 2') is 1 and
  // parse_json('[1] x') is [1]. We reject trailing content.
  ExpectInvalid("1 2", "at byte 2: trailing content after the document");
  // simdjson reports these while indexing, as if the container were unfinished.
  ExpectInvalid("{} x", "at byte 3: trailing content after the document");
  ExpectInvalid("[1] x", "at byte 4: trailing content after the document");
  ExpectInvalid("{\"a\":1}x", "at byte 7: trailing content after the document");
  ExpectInvalid("[1] 2", "at byte 4: trailing content after the document");
  ExpectInvalid(R"(["]"] ])", "at byte 6: trailing content after the document");
  ExpectInvalid("\"a\" \"b\"", "trailing content");
  ExpectInvalid("true false", "trailing content");
}

TEST(JsonParseTest, InvalidUtf8IsAnErrorWithOffset) {
  ExpectInvalid("\"ab\xC3\"", "invalid UTF-8 at byte 3");
  ExpectInvalid("[\"\xED\xA0\x80\"]", "invalid UTF-8 at byte 2");
  ExpectInvalid("{\"\xFF\":1}", "invalid UTF-8 at byte 2");
}

TEST(JsonParseTest, ParserIsReusableAfterErrors) {
  JsonParser parser;
  VariantBuilder builder;
  std::string md, v;
  ASSERT_FALSE(parser.Parse("[1,", &builder).ok());
  builder.Reset();
  const std::string big = "[" + std::string(10000, '1') + "]";
  VS_ASSERT_OK(parser.Parse(big, &builder));
  VS_ASSERT_OK(builder.Finish(&md, &v));
  md.clear();
  v.clear();
  VS_ASSERT_OK(parser.Parse("{\"k\":true}", &builder));
  VS_ASSERT_OK(builder.Finish(&md, &v));
  EXPECT_EQ(ToHex(v), "02 01 00 00 01 04");
  EXPECT_EQ(ToHex(md), "01 01 00 01 6b");
}

TEST(JsonParseTest, DuplicateKeysLastWinsAsSpark) {
  JsonParseOptions options;
  options.duplicate_keys = DuplicateKeyPolicy::kLastWins;
  // spark.sql.variant.allowDuplicateKeys=true
  VS_ASSIGN_OR_FAIL(auto p, ParseJson(R"({"a":1,"a":2,"b":3})", options));
  EXPECT_EQ(ToHex(p.metadata), "01 02 00 01 02 61 62");
  EXPECT_EQ(ToHex(p.value), "02 02 00 01 00 02 04 0c 02 0c 03");
  VS_ASSIGN_OR_FAIL(auto nested, ParseJson(R"({"a":{"c":1,"c":2},"a":5})", options));
  EXPECT_EQ(ToHex(nested.metadata), "01 02 00 01 02 61 63");
  EXPECT_EQ(ToHex(nested.value), "02 01 00 00 02 0c 05");
}

// Spark compacts the kept values in their original order (sorted by old offset).
TEST(JsonParseTest, DuplicateKeysLastWinsKeepsValueOrderAsSpark) {
  JsonParseOptions options;
  options.duplicate_keys = DuplicateKeyPolicy::kLastWins;
  VS_ASSIGN_OR_FAIL(auto p, ParseJson(R"({"b":1,"a":2,"a":3})", options));
  EXPECT_EQ(ToHex(p.value), "02 02 01 00 02 00 04 0c 01 0c 03");
  VS_ASSIGN_OR_FAIL(auto q, ParseJson(R"({"a":1,"b":2,"a":3})", options));
  EXPECT_EQ(ToHex(q.value), "02 02 00 01 02 00 04 0c 02 0c 03");
}

// ----------------------------------------------------------------------
// The parser's two readings
//
// JsonParser::Parse() reads objects and arrays with its own walk of simdjson's token
// index and hands every document it does not accept to simdjson's on-demand reading,
// which alone reads the JSON shredder's documents. Both must give the same bytes, or
// the same error, for every input.

struct Outcome {
  std::string error;  // empty when parsed
  std::string metadata, value;
};

Outcome Finished(const arrow::Status& parsed, VariantBuilder* builder) {
  Outcome out;
  arrow::Status st = parsed;
  if (st.ok()) st = builder->Finish(&out.metadata, &out.value);
  if (!st.ok()) out.error = st.ToString();
  builder->Reset();
  return out;
}

// The on-demand reading alone.
Outcome ReadOnDemand(std::string_view json, const JsonParseOptions& options) {
  internal::JsonReader reader(options);
  VariantBuilder builder;
  od::json_type type;
  arrow::Status st = reader.Open(json, &builder, &type);
  if (st.ok()) st = reader.ParseOpened(type);
  return Finished(st, &builder);
}

// JsonParser::Parse() on `json` in place, followed by bytes that would close any
// container (the walk must stop at the document's end).
Outcome ParseInPlace(JsonParser* parser, VariantBuilder* builder, std::string_view json) {
  std::string buffer(json);
  buffer.append(JsonParser::kPadding, '}');
  return Finished(parser->Parse(std::string_view(buffer).substr(0, json.size()),
                                JsonParser::kPadding, builder),
                  builder);
}

void ExpectSameReadings(JsonParser* parser, VariantBuilder* builder,
                        std::string_view json, const JsonParseOptions& options) {
  const Outcome expected = ReadOnDemand(json, options);
  for (const Outcome& got : {Finished(parser->Parse(json, builder), builder),
                             ParseInPlace(parser, builder, json)}) {
    ASSERT_EQ(got.error, expected.error) << json;
    ASSERT_EQ(ToHex(got.metadata), ToHex(expected.metadata)) << json;
    ASSERT_EQ(ToHex(got.value), ToHex(expected.value)) << json;
  }
}

// Documents of every shape the walk reads, and the real documents in ../shared/data
// when they are there: the tweets and the catalogue whole, product records by line.
std::vector<std::string> SeedDocuments() {
  std::vector<std::string> docs = {
      R"({"id": 12345, "name": "user_12345", "score": 42.5, "tags": ["a", "vip"],
          "nested": {"x": 7, "flag": true}, "none": null, "off": false})",
      R"([1, -2, 3.25, -0.0, 1e10, 1E-3, 123456789012345678901234567890, 0.10])",
      R"({"esc\"aped": "tab\there \u00e9 \ud83d\ude00 \/ \\", "\u0000": "\n"})",
      R"({"": {}, "e": [], "d": [[[]], {"a": {"b": {"c": [null]}}}]})",
      R"({"b": 1, "a": 2, "\u00e9": 3, "z": {"y": 1, "x": [true, false]}})",
      "  [ \"spaced\" ,\t{ \"k\" :\n 1 } ]\r\n",
      R"({"long": "0123456789012345678901234567890123456789012345678901234567890123456789"})",
      R"({"ünï": "cödé", "日本": ["語", 1.5e300, -9223372036854775808]})",
  };
  const std::string dir = VARSHRED_DEFAULT_SHARED_DATA;
  for (const char* whole : {"/twitter.json", "/citm_catalog.json"}) {
    std::string text = testing::ReadFile(dir + whole);
    if (!text.empty()) docs.push_back(std::move(text));
  }
  std::istringstream products(testing::ReadFile(dir + "/amazon_cellphones.ndjson"));
  std::string line;
  for (int i = 0; i < 300 && std::getline(products, line); ++i) docs.push_back(line);
  return docs;
}

// A document whose Variant passes the size limit is refused where its value does,
// by both readings, not after the whole value is built (a 300 MB line took 3 GB):
// an array of 7-digit numbers (5 bytes and an offset each) and an object of them.
TEST(JsonParseTest, ValuesPastTheSizeLimitStopThere) {
  const size_t n = kMaxValueSize / 6 + 1;  // at least 5 + 1 bytes per element
  std::string array = "[";
  array.reserve(n * 8 + 2);
  for (size_t i = 0; i < n; ++i) array += i ? ",1234567" : "1234567";
  array += "]";
  std::string object = "{\"a\": [" + array.substr(1) + "}";
  for (const std::string* doc : {&array, &object}) {
    JsonParser parser;
    VariantBuilder builder;
    const Outcome parsed = Finished(parser.Parse(*doc, &builder), &builder);
    EXPECT_NE(parsed.error.find("value exceeds the size limit of 134217728 bytes"),
              std::string::npos)
        << parsed.error;
    EXPECT_EQ(ReadOnDemand(*doc, {}).error, parsed.error);
  }
}

TEST(JsonParseTest, TheIndexedWalkReadsAsTheOnDemandReading) {
  const auto docs = SeedDocuments();
  JsonParser parser;
  VariantBuilder builder;
  for (const auto& d : docs) ExpectSameReadings(&parser, &builder, d, {});
  JsonParseOptions other;
  other.numbers = JsonNumbers::kDouble;
  other.duplicate_keys = DuplicateKeyPolicy::kLastWins;
  JsonParser other_parser(other);
  for (const auto& d : docs) ExpectSameReadings(&other_parser, &builder, d, other);
}

// Numbers on both sides of the borders of the walk's one-pass reading of short
// numbers (first digit not 0, at most 18 digits, no exponent): decimal4 to decimal8 at
// 10 digits, to decimal16 or int64 past 18, signs, zeros and malformed neighbours; and
// of its reading of exponents (first digit not 0, any number of digits): signs, out of
// range both ways, and malformed exponents.
TEST(JsonParseTest, NumbersAtTheShortPathsBordersReadAsTheOnDemandReading) {
  const std::vector<std::string> numbers = {"7",
                                            "-7",
                                            "0",
                                            "-0",
                                            "00",
                                            "01",
                                            "1.",
                                            "1.e5",
                                            "-",
                                            "--1",
                                            "1.5",
                                            "-1.50",
                                            "123456789.0",
                                            "12345678.9",
                                            "123456789.01",
                                            "-999999999",
                                            "9999999999",
                                            "123456789012345678",
                                            "-123456789012345678",
                                            "1234567890123456789",
                                            "12345678901234567.8",
                                            "12345678901234567.89",
                                            "1234567890123456789.5",
                                            "9223372036854775807",
                                            "-9223372036854775808",
                                            "9223372036854775808",
                                            "99999999999999999999",
                                            "1e3",
                                            "1.5E-3",
                                            "0.05",
                                            "-0.000",
                                            "1.5 ",
                                            "1.5x",
                                            "2147483648",
                                            "-2147483649",
                                            "128",
                                            "-129",
                                            "32768",
                                            "1e5",
                                            "-1E+05",
                                            "1.25e-3 ",
                                            "9.999999999999999e22",
                                            "-1.2345678901234567e+02",
                                            "123456789012345678901234567890e-10",
                                            "1e400",
                                            "-1e400",
                                            "1e-400",
                                            "2.4703282292062328e-324",
                                            "1e",
                                            "1e+",
                                            "1E-",
                                            "1ee5",
                                            "1e+-5",
                                            "1e5.5",
                                            "1e5x",
                                            "0.5e3",
                                            "00e3"};
  JsonParseOptions doubles;
  doubles.numbers = JsonNumbers::kDouble;
  for (const JsonParseOptions& options : {JsonParseOptions{}, doubles}) {
    JsonParser parser(options);
    VariantBuilder builder;
    for (const auto& n : numbers) {
      for (const std::string& d :
           {"[" + n + "]", "{\"k\": " + n + " }", "[" + n + ",1]"}) {
        ExpectSameReadings(&parser, &builder, d, options);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// Strings under 8 bytes are tested for escapes in one load of 8 bytes masked to their
// length: an escape at each place of strings of 0 to 9 bytes, as keys and values, and
// short plain strings whose next bytes (in the document) hold a backslash.
TEST(JsonParseTest, EscapesInShortStringsReadAsTheOnDemandReading) {
  std::vector<std::string> strings;
  for (size_t n = 0; n <= 9; ++n) {
    strings.push_back(std::string(n, 'a'));
    for (size_t p = 0; p < n; ++p) {
      for (const char* escape : {"\\n", "\\\\", "\\\"", "\\u00e9"}) {
        std::string s(n, 'a');
        s.replace(p, 1, escape);
        strings.push_back(std::move(s));
      }
    }
  }
  JsonParser parser;
  VariantBuilder builder;
  for (const auto& s : strings) {
    for (const std::string& d :
         {"[\"" + s + "\"]", "{\"" + s + "\": 1}", "[\"" + s + "\",\"\\\\\"]",
          "{\"" + s + "\":\"\\n\"}", "{\"k\": \"" + s + "\", \"\\u0041\": 2}"}) {
      ExpectSameReadings(&parser, &builder, d, JsonParseOptions{});
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Fixed-seed mutations of the small seeds (bytes replaced, inserted or deleted, the
// text cut short), under the default options, doubles with last-wins keys, and a
// shallow depth limit: valid or not, both readings agree.
TEST(JsonParseTest, MutatedDocumentsReadAsTheOnDemandReading) {
  std::vector<std::string> seeds;
  for (auto& d : SeedDocuments()) {
    if (d.size() < 2000) seeds.push_back(std::move(d));
  }
  JsonParseOptions options[3];
  options[1].numbers = JsonNumbers::kDouble;
  options[1].duplicate_keys = DuplicateKeyPolicy::kLastWins;
  options[2].max_depth = 3;
  JsonParser parsers[3] = {JsonParser(options[0]), JsonParser(options[1]),
                           JsonParser(options[2])};
  VariantBuilder builder;
  std::mt19937_64 rng(20261126);
  const int rounds = testing::FuzzRounds(20000);
  for (int round = 0; round < rounds; ++round) {
    const std::string d = testing::MutatedJson(seeds[rng() % seeds.size()], rng,
                                               1 + static_cast<int>(rng() % 3));
    const size_t k = static_cast<size_t>(round % 3);
    ExpectSameReadings(&parsers[k], &builder, d, options[k]);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// ----------------------------------------------------------------------
// Variant -> JSON

std::string ToJson(std::string_view metadata_hex, std::string_view value_hex,
                   std::string timezone = "UTC") {
  const std::string md = Hex(metadata_hex), v = Hex(value_hex);
  auto view = VariantView::Make(MetadataView::MakeUnchecked(md), v);
  EXPECT_TRUE(view.ok()) << view.status().ToString();
  if (!view.ok()) return "<invalid>";
  JsonWriteOptions options;
  options.timezone = std::move(timezone);
  auto writer = JsonWriter::Make(options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return "<no writer>";
  std::string out;
  EXPECT_TRUE(writer->Write(*view, &out).ok());
  return out;
}

std::string ScalarToJson(std::string_view value_hex, std::string timezone = "UTC") {
  return ToJson("01 00 00", value_hex, std::move(timezone));
}

TEST(JsonWriteTest, DecimalsStripTrailingZeros) {
  EXPECT_EQ(ScalarToJson("20 02 96 00 00 00"), "1.5");
  EXPECT_EQ(ScalarToJson("20 01 1e 00 00 00"), "3");
  EXPECT_EQ(ScalarToJson("20 00 64 00 00 00"), "100");
  EXPECT_EQ(ScalarToJson("20 05 9c ff ff ff"), "-0.001");
  EXPECT_EQ(ScalarToJson("20 02 00 00 00 00"), "0");
  // The 64-bit path at the ends of decimal4's and decimal8's unscaled integers.
  EXPECT_EQ(ScalarToJson("20 00 00 00 00 80"), "-2147483648");
  EXPECT_EQ(ScalarToJson("20 04 ff ff ff 7f"), "214748.3647");
  EXPECT_EQ(ScalarToJson("24 03 00 00 00 00 00 00 00 80"), "-9223372036854775.808");
  EXPECT_EQ(ScalarToJson("24 12 ff ff ff ff ff ff ff 7f"), "9.223372036854775807");
  EXPECT_EQ(ScalarToJson("24 05 60 79 fe ff ff ff ff ff"), "-1");
  EXPECT_EQ(ScalarToJson("28 09 15 81 39 6e b1 c9 be 46 32 1b e4 27 00 00 00 00"),
            "12345678901234567890.123456789");
  // Digits past 64 bits, at and around the boundary of the printer's 64-bit path.
  EXPECT_EQ(ScalarToJson("28 00 ff ff ff ff 3f 22 8a 09 7a c4 86 5a a8 4c 3b 4b"),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(ScalarToJson("28 00 00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff"),
            "-18446744073709551616");
  EXPECT_EQ(ScalarToJson("28 02 ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00"),
            "184467440737095516.15");
  EXPECT_EQ(ScalarToJson("28 01 f6 ff ff ff ff ff ff ff fe ff ff ff ff ff ff ff"),
            "-1844674407370955162.6");
}

// Reference text of `negative` `digits` / 10^scale with trailing fraction zeros
// stripped (BigDecimal.stripTrailingZeros().toPlainString()), by string handling.
std::string PlainDecimal(bool negative, std::string digits, int scale) {
  while (scale > 0 && digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    --scale;
  }
  if (digits == "0") return "0";
  if (static_cast<int>(digits.size()) <= scale) {
    digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
  }
  if (scale > 0) digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  return (negative ? "-" : "") + digits;
}

std::string DigitsOf(unsigned __int128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

std::string BuiltToJson(const std::function<void(VariantBuilder*)>& build) {
  VariantBuilder builder;
  build(&builder);
  std::string md, v, out;
  EXPECT_TRUE(builder.Finish(&md, &v).ok());
  auto writer = JsonWriter::Make({});
  EXPECT_TRUE(writer.ok());
  EXPECT_TRUE(
      writer->Write(VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v), &out)
          .ok());
  return out;
}

// Every digit count, on both sides of each power of ten, against string arithmetic:
// the printer counts digits from the bit length and writes them two at a time.
TEST(JsonWriteTest, IntegersAndDecimalsAtEveryDigitCount) {
  std::vector<unsigned __int128> magnitudes = {0, 1, 9, 10, 11, 99, 100, 101};
  unsigned __int128 power = 100;
  for (int k = 3; k <= 38; ++k) {
    power *= 10;
    for (auto m : {power - 1, power, power + 1, power / 2, power - power / 7}) {
      magnitudes.push_back(m);
    }
  }
  magnitudes.push_back(std::numeric_limits<uint64_t>::max());
  for (const unsigned __int128 m : magnitudes) {
    for (const bool negative : {false, true}) {
      const auto signed_value =
          negative ? -static_cast<int128_t>(m) : static_cast<int128_t>(m);
      const std::string digits = DigitsOf(m);
      SCOPED_TRACE((negative ? "-" : "") + digits);
      if (m <= static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max())) {
        const auto i = static_cast<int64_t>(signed_value);
        EXPECT_EQ(BuiltToJson([&](VariantBuilder* b) { b->AppendInt64(i); }),
                  std::to_string(i));
        for (int scale = 0; scale <= 18; ++scale) {
          EXPECT_EQ(BuiltToJson([&](VariantBuilder* b) { b->AppendDecimal8(i, scale); }),
                    PlainDecimal(negative && m != 0, digits, scale))
              << "scale " << scale;
        }
      }
      if (digits.size() <= 38) {
        for (int scale = 0; scale <= 38; ++scale) {
          EXPECT_EQ(BuiltToJson([&](VariantBuilder* b) {
                      b->AppendDecimal16(signed_value, static_cast<uint8_t>(scale));
                    }),
                    PlainDecimal(negative && m != 0, digits, scale))
              << "scale " << scale;
        }
      }
    }
  }
  EXPECT_EQ(BuiltToJson([](VariantBuilder* b) {
              b->AppendInt64(std::numeric_limits<int64_t>::min());
            }),
            "-9223372036854775808");
}

TEST(JsonWriteTest, FloatsAsJavaToString) {
  EXPECT_EQ(ScalarToJson("38 cd cc 8c 3f"), "1.1");
  EXPECT_EQ(ScalarToJson("38 f9 02 15 50"), "1.0E10");
  EXPECT_EQ(ScalarToJson("38 ac c5 27 37"), "1.0E-5");
  EXPECT_EQ(ScalarToJson("38 00 00 f6 42"), "123.0");
  EXPECT_EQ(ScalarToJson("38 00 00 c0 7f"), "\"NaN\"");
  EXPECT_EQ(ScalarToJson("38 00 00 80 ff"), "\"-Infinity\"");
  EXPECT_EQ(ScalarToJson("38 ff ff 7f 7f"), "3.4028235E38");
  EXPECT_EQ(ScalarToJson("38 01 00 00 00"), "1.4E-45");
  EXPECT_EQ(ScalarToJson("38 9a 99 99 3e"), "0.3");
  EXPECT_EQ(ScalarToJson("38 80 96 18 4b"), "1.0E7");
  EXPECT_EQ(ScalarToJson("38 7f 96 18 4b"), "9999999.0");
  EXPECT_EQ(ScalarToJson("38 6f 12 83 3a"), "0.001");
}

TEST(JsonWriteTest, DoublesAsJavaToString) {
  EXPECT_EQ(ScalarToJson("1c 00 00 00 00 00 00 f0 7f"), "\"Infinity\"");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 00 00 00 f8 7f"), "\"NaN\"");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 20 5f a0 02 42"), "1.0E10");
  EXPECT_EQ(ScalarToJson("1c f1 68 e3 88 b5 f8 e4 3e"), "1.0E-5");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 00 00 c0 5e 40"), "123.0");
  EXPECT_EQ(ScalarToJson("1c fc a9 f1 d2 4d 62 50 3f"), "0.001");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 00 d0 12 63 41"), "1.0E7");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 e0 cf 12 63 41"), "9999999.0");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 00 00 00 00 80"), "-0.0");
  EXPECT_EQ(ScalarToJson("1c 00 00 00 00 00 00 00 00"), "0.0");
  EXPECT_EQ(ScalarToJson("1c 01 00 00 00 00 00 00 00"), "4.9E-324");
  EXPECT_EQ(ScalarToJson("1c ff ff ff ff ff ff ef 7f"), "1.7976931348623157E308");
  EXPECT_EQ(ScalarToJson("1c 9a 99 99 99 99 99 b9 3f"), "0.1");
  EXPECT_EQ(ScalarToJson("1c 2d 43 1c eb e2 36 1a 3f"), "1.0E-4");
  EXPECT_EQ(ScalarToJson("1c 8b 53 e2 e5 bf f7 e0 3d"), "1.2345678901234568E-10");
  EXPECT_EQ(ScalarToJson("1c 76 83 0d f4 f5 21 84 be"), "-1.5E-7");
}

TEST(JsonWriteTest, DoublesFollowShortestFormNotJava17) {
  // Spark on Java 17 prints 1.9999999999999998E23, 9.999999999999999E22 and
  // 2.82879384806159008E17 (the pre-JDK 19 algorithm); Java 19+ and we print the
  // shortest round-trip form.
  EXPECT_EQ(ScalarToJson("1c f6 4a e1 c7 02 2d c5 44"), "2.0E23");
  EXPECT_EQ(ScalarToJson("1c f6 4a e1 c7 02 2d b5 44"), "1.0E23");
  EXPECT_EQ(ScalarToJson("1c 95 37 ed 69 ea 67 8f 43"), "2.82879384806159E17");
}

// Random doubles and floats of every magnitude (fixed seed): the text reads back to
// the same value, in plain form exactly for 1e-3 <= |v| < 1e7, as Java prints them.
TEST(JsonWriteTest, FloatingTextRoundTripsAtEveryMagnitude) {
  std::mt19937_64 rng(20261129);
  auto check = [](auto v, const std::string& text) {
    SCOPED_TRACE(text);
    decltype(v) back = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), back);
    EXPECT_EQ(r.ec, std::errc());
    EXPECT_EQ(r.ptr, text.data() + text.size());
    EXPECT_EQ(back, v);
    const double a = std::fabs(static_cast<double>(v));
    EXPECT_EQ(text.find('E') == std::string::npos, a == 0 || (a >= 1e-3 && a < 1e7));
    EXPECT_NE(text.find('.'), std::string::npos);
  };
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    if (std::isfinite(d)) {
      check(d, BuiltToJson([&](VariantBuilder* b) { b->AppendDouble(d); }));
    }
    const auto fbits = static_cast<uint32_t>(bits >> 32);
    float f;
    std::memcpy(&f, &fbits, sizeof(f));
    if (std::isfinite(f)) {
      check(f, BuiltToJson([&](VariantBuilder* b) { b->AppendFloat(f); }));
    }
  }
}

// Inside containers floats print through the walk's own cases, not as top-level
// scalars do: the same text, quoted where JSON has no number.
TEST(JsonWriteTest, FloatsInsideContainers) {
  EXPECT_EQ(BuiltToJson([](VariantBuilder* b) {
              b->StartArray();
              b->AppendDouble(std::numeric_limits<double>::quiet_NaN());
              b->AppendDouble(-std::numeric_limits<double>::infinity());
              b->AppendFloat(std::numeric_limits<float>::infinity());
              b->AppendDouble(1.5);
              b->AppendFloat(1e-5f);
              b->AppendDouble(-0.0);
              b->AppendDouble(-2.2250738585072014E-308);
              b->EndArray();
            }),
            R"(["NaN","-Infinity","Infinity",1.5,1.0E-5,-0.0,-2.2250738585072014E-308])");
}

TEST(JsonWriteTest, ScalarsStringsAndBinary) {
  EXPECT_EQ(ScalarToJson("00"), "null");
  EXPECT_EQ(ScalarToJson("04"), "true");
  EXPECT_EQ(ScalarToJson("08"), "false");
  EXPECT_EQ(ScalarToJson("0c fb"), "-5");
  EXPECT_EQ(ScalarToJson("18 ff ff ff ff ff ff ff 7f"), "9223372036854775807");
  EXPECT_EQ(ScalarToJson("4d 61 22 62 5c 63 2f 0a 09 01 7f e2 80 a8 c3 a9 f0 9f 98 80"),
            "\"a\\\"b\\\\c/\\n\\t\\u0001\x7f\xe2\x80\xa8\xc3\xa9\xf0\x9f\x98\x80\"");
  EXPECT_EQ(ScalarToJson("15 00 1f 08 0c 0d"), R"("\u0000\u001F\b\f\r")");
  EXPECT_EQ(ScalarToJson("3c 02 00 00 00 01 02"), R"("AQI=")");
  EXPECT_EQ(ScalarToJson("3c 00 00 00 00"), R"("")");
  EXPECT_EQ(ScalarToJson("3c 04 00 00 00 ff fe fd 01"), R"("//79AQ==")");
  EXPECT_EQ(ScalarToJson("3c 05 00 00 00 01 02 03 04 05"), R"("AQIDBAU=")");
  // uuid: Spark's to_json prints java.util.UUID.toString().
  EXPECT_EQ(ScalarToJson("50 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff"),
            R"("00112233-4455-6677-8899-aabbccddeeff")");
}

TEST(JsonWriteTest, ObjectsInStoredOrderWithEscapedKeys) {
  EXPECT_EQ(ToJson("01 03 00 01 02 04 62 61 c3 a9",
                   "02 03 01 00 02 02 00 11 14 0c 01 03 03 00 06 07 09 20 02 96 00 "
                   "00 00 00 05 78 02 00 00"),
            "{\"a\":[1.5,null,\"x\"],\"b\":1,\"\xc3\xa9\":{}}");
  EXPECT_EQ(ToJson("01 01 00 02 0a 22", "02 01 00 00 01 00"), R"({"\n\"":null})");
  EXPECT_EQ(ScalarToJson("03 00 00"), "[]");
}

// The JSON text of `s` as Spark's to_json prints it, one byte at a time.
std::string ExpectedJsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r') {
      out += '\\';
      out += "btnfr"[std::string_view("\b\t\n\f\r").find(static_cast<char>(c))];
    } else if (c < 0x20) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

TEST(JsonWriteTest, EscapesAtEveryPositionOfLongStrings) {
  // Strings are scanned 16 and 8 bytes at a time: every byte needing an escape, at
  // every position of strings of 1 to 40 bytes, beside multi-byte UTF-8 (never escaped).
  const auto writer = JsonWriter::Make().ValueOrDie();
  for (const char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
    for (size_t length = 1; length <= 40; ++length) {
      for (size_t at = 0; at < length; ++at) {
        std::string s(length, 'a');
        for (size_t k = 0; k + 1 < length; k += 5) s.replace(k, 2, "\xc3\xa9");
        s[at] = special;
        std::string out;
        internal::AppendJsonString(s, &out);
        ASSERT_EQ(out, ExpectedJsonString(s)) << "length " << length << " at " << at;
        // The printer's own path (into a TextSink), as a string value and as a key.
        std::string printed;
        VariantBuilder builder;
        builder.StartObject();
        builder.AddKey(s);
        builder.AppendString(s);
        VS_ASSERT_OK(builder.EndObject());
        std::string m, v;
        VS_ASSERT_OK(builder.Finish(&m, &v));
        VS_ASSERT_OK(writer.Write(
            VariantView::MakeUnchecked(MetadataView::MakeUnchecked(m), v), &printed));
        ASSERT_EQ(printed,
                  "{" + ExpectedJsonString(s) + ":" + ExpectedJsonString(s) + "}")
            << "length " << length << " at " << at;
      }
    }
  }
  std::string out;
  internal::AppendJsonString("\x7f\x20 \xf0\x9f\x98\x80 ~plain text~", &out);
  EXPECT_EQ(out, "\"\x7f\x20 \xf0\x9f\x98\x80 ~plain text~\"");
}

// Many escapes in strings longer than the printer's 4 KiB pieces (fixed seed): after
// each escape the printer skips plain words again.
TEST(JsonWriteTest, ManyEscapesInLongStrings) {
  std::mt19937_64 rng(20261129);
  const char* kBytes[] = {"a", "b", "\xc3\xa9", "\"", "\\", "\n", "\t", "\x01", "\x1f"};
  for (int round = 0; round < 40; ++round) {
    const size_t length = rng() % 10000;
    const unsigned every = 1 + static_cast<unsigned>(rng() % 64);  // how rare escapes are
    std::string s;
    while (s.size() < length) {
      s += rng() % every == 0 ? kBytes[3 + rng() % 6] : kBytes[rng() % 3];
    }
    std::string out;
    internal::AppendJsonString(s, &out);
    ASSERT_EQ(out, ExpectedJsonString(s)) << "round " << round;
  }
}

TEST(JsonWriteTest, KeysOfADictionaryLargerThanTheValue) {
  // The printer checks a dictionary many times larger than the value key by key as it
  // prints them, not all at once (a dictionary shared by many rows may be far larger).
  VariantBuilder builder;
  builder.StartObject();
  std::string expected = "{";
  for (int k = 0; k < 20; ++k) {
    const std::string key =
        "a rather long key, number " + std::to_string(10 + k) + (k == 7 ? "\"" : "");
    builder.AddKey(key);
    builder.AppendNull();
    expected += (k ? ",\"" : "\"") +
                (k == 7 ? key.substr(0, key.size() - 1) + "\\\"" : key) + "\":null";
  }
  VS_ASSERT_OK(builder.EndObject());
  std::string m, v;
  VS_ASSERT_OK(builder.Finish(&m, &v));
  const MetadataView metadata = MetadataView::MakeUnchecked(m);
  ASSERT_GT(metadata.key_bytes().size(), 8 * v.size());
  std::string out;
  VS_ASSERT_OK(JsonWriter::Make().ValueOrDie().Write(
      VariantView::MakeUnchecked(metadata, v), &out));
  EXPECT_EQ(out, expected + "}");
}

TEST(JsonWriteTest, DatesAndNtzTimestamps) {
  EXPECT_EQ(ScalarToJson("2c 46 4d 00 00"), R"("2024-02-29")");
  EXPECT_EQ(ScalarToJson("2c c6 06 f5 ff"), R"("0001-01-01")");
  EXPECT_EQ(ScalarToJson("2c a0 c0 2c 00"), R"("9999-12-31")");
  EXPECT_EQ(ScalarToJson("34 00 a8 4f c0 ed 0d 06 00"), R"("2024-01-02 03:04:05.12")");
  EXPECT_EQ(ScalarToJson("34 ff ff ff ff ff ff ff ff"),
            R"("1969-12-31 23:59:59.999999")");
  // ntz ignores the writer's zone.
  EXPECT_EQ(ScalarToJson("34 00 a8 4f c0 ed 0d 06 00", "Asia/Kolkata"),
            R"("2024-01-02 03:04:05.12")");
}

TEST(JsonWriteTest, YearsOutsideFourDigitsAsJava) {
  // Not producible by Spark's SQL literals; LocalDate.toString's rules:
  // 10000-01-01 is +10000-01-01, year 0 is 0000, year -1 is -0001.
  VariantBuilder b;
  std::string md, v;
  auto date_json = [&](int32_t days) {
    md.clear();
    v.clear();
    b.AppendDate(days);
    EXPECT_TRUE(b.Finish(&md, &v).ok());
    std::string out;
    auto writer = JsonWriter::Make();
    EXPECT_TRUE(
        writer
            ->Write(VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v), &out)
            .ok());
    return out;
  };
  EXPECT_EQ(date_json(2932897), R"("+10000-01-01")");
  EXPECT_EQ(date_json(-719528), R"("0000-01-01")");
  EXPECT_EQ(date_json(-719529), R"("-0001-12-31")");
  EXPECT_EQ(date_json(std::numeric_limits<int32_t>::max()), R"("+5881580-07-11")");
}

TEST(JsonWriteTest, TimestampsAtTheEndsOfInt64) {
  // The last 0.22 s before the minimum: the whole second below lies outside int64
  // microseconds (its fraction was computed through it).
  EXPECT_EQ(ScalarToJson("30 00 00 00 00 00 00 00 80"),
            R"("-290308-12-21 19:59:05.224192+00:00")");
  EXPECT_EQ(ScalarToJson("30 00 00 00 00 00 00 00 80", "America/Los_Angeles"),
            R"("-290308-12-21 12:06:07.224192-07:52")");
  EXPECT_EQ(ScalarToJson("30 ff ff ff ff ff ff ff 7f"),
            R"("+294247-01-10 04:00:54.775807+00:00")");
  EXPECT_EQ(ScalarToJson("48 00 00 00 00 00 00 00 80"),  // nanoseconds
            R"("1677-09-21 00:12:43.145224192+00:00")");
}

TEST(JsonWriteTest, TimestampsInZones) {
  const char* kFraction = "30 80 b5 4f c0 ed 0d 06 00";  // 2024-01-02 03:04:05.123456Z
  EXPECT_EQ(ScalarToJson(kFraction), R"("2024-01-02 03:04:05.123456+00:00")");
  EXPECT_EQ(ScalarToJson("30 40 d3 4d c0 ed 0d 06 00"), R"("2024-01-02 03:04:05+00:00")");
  EXPECT_EQ(ScalarToJson("30 e0 59 4f c0 ed 0d 06 00"),
            R"("2024-01-02 03:04:05.1+00:00")");
  EXPECT_EQ(ScalarToJson("30 00 40 d4 00 01 40 23 ff"), R"("0001-01-01 00:00:00+00:00")");
  EXPECT_EQ(ScalarToJson("30 64 10 2b 56 2e 1c 06 00"),
            R"("2024-07-01 12:00:00.0001+00:00")");
  // America/Los_Angeles: PST, PDT, 1900 and the local mean time -07:52:58 before 1883
  // (Java prints the offset without its seconds).
  EXPECT_EQ(ScalarToJson("30 80 d5 ec 74 f4 0d 06 00", "America/Los_Angeles"),
            R"("2024-01-02 03:04:05.123456-08:00")");
  EXPECT_EQ(ScalarToJson("30 64 8c 34 34 34 1c 06 00", "America/Los_Angeles"),
            R"("2024-07-01 12:00:00.0001-07:00")");
  EXPECT_EQ(ScalarToJson("30 00 80 e0 6b f6 26 f8 ff", "America/Los_Angeles"),
            R"("1900-01-01 00:00:00-08:00")");
  EXPECT_EQ(ScalarToJson("30 80 1a ba 77 cc fc ec ff", "America/Los_Angeles"),
            R"("1800-06-01 12:00:00-07:52")");
  EXPECT_EQ(ScalarToJson("30 80 2a 4a 9c 07 40 23 ff", "America/Los_Angeles"),
            R"("0001-01-01 00:00:00-07:52")");
  // Asia/Kolkata: +05:30, and the older +05:21:10 / +05:53:28 offsets.
  EXPECT_EQ(ScalarToJson("30 80 af 23 24 e9 0d 06 00", "Asia/Kolkata"),
            R"("2024-01-02 03:04:05.123456+05:30")");
  EXPECT_EQ(ScalarToJson("30 80 82 ae 3a eb 26 f8 ff", "Asia/Kolkata"),
            R"("1900-01-01 00:00:00+05:21")");
  EXPECT_EQ(ScalarToJson("30 00 ca 2b ec c0 fc ec ff", "Asia/Kolkata"),
            R"("1800-06-01 12:00:00+05:53")");
  // Fixed offsets.
  EXPECT_EQ(ScalarToJson("30 80 af 23 24 e9 0d 06 00", "+05:30"),
            R"("2024-01-02 03:04:05.123456+05:30")");
  EXPECT_EQ(ScalarToJson("30 80 87 99 2b ee 0d 06 00", "-00:30"),
            R"("2024-01-02 03:04:05.123456-00:30")");
  EXPECT_EQ(ScalarToJson("30 00 12 1e 6c 01 40 23 ff", "-00:30"),
            R"("0001-01-01 00:00:00-00:30")");
}

TEST(JsonWriteTest, FutureInstantsUseTheTzifFooterRule) {
  // 2100 is past the last transition of every TZif file: the POSIX footer rule
  // ("PST8PDT,M3.2.0,M11.1.0", Sydney's southern-hemisphere rule) applies. Expected
  // texts from Spark (to_json(cast(timestamp_micros(x) as variant))).
  VariantBuilder b;
  std::string md, v;
  auto ts_json = [&](int64_t micros, const char* zone) {
    md.clear();
    v.clear();
    b.AppendTimestampMicros(micros);
    EXPECT_TRUE(b.Finish(&md, &v).ok());
    JsonWriteOptions options;
    options.timezone = zone;
    std::string out;
    auto writer = JsonWriter::Make(options);
    EXPECT_TRUE(writer.ok());
    EXPECT_TRUE(
        writer
            ->Write(VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v), &out)
            .ok());
    return out;
  };
  EXPECT_EQ(ts_json(4118068800LL * 1000000, "America/Los_Angeles"),
            R"("2100-06-30 13:00:00-07:00")");
  EXPECT_EQ(ts_json(4102444800LL * 1000000, "America/Los_Angeles"),
            R"("2099-12-31 16:00:00-08:00")");
  EXPECT_EQ(ts_json(4118068800LL * 1000000, "Australia/Sydney"),
            R"("2100-07-01 06:00:00+10:00")");
  EXPECT_EQ(ts_json(4102444800LL * 1000000, "Australia/Sydney"),
            R"("2100-01-01 11:00:00+11:00")");
}

TEST(JsonWriteTest, TypesSparkCannotPrint) {
  // Spark 4.3 raises UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT for these; we print them as its
  // formatters would.
  VariantBuilder b;
  std::string md, v;
  auto json = [&](auto append, const char* zone = "UTC") {
    md.clear();
    v.clear();
    append();
    EXPECT_TRUE(b.Finish(&md, &v).ok());
    JsonWriteOptions options;
    options.timezone = zone;
    std::string out;
    auto writer = JsonWriter::Make(options);
    EXPECT_TRUE(
        writer
            ->Write(VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), v), &out)
            .ok());
    return out;
  };
  EXPECT_EQ(json([&] { b.AppendTimeMicros(3723000001); }), R"("01:02:03.000001")");
  EXPECT_EQ(json([&] { b.AppendTimeMicros(0); }), R"("00:00:00")");
  EXPECT_EQ(json([&] { b.AppendTimestampNanos(1704164645123456789); }),
            R"("2024-01-02 03:04:05.123456789+00:00")");
  EXPECT_EQ(json([&] { b.AppendTimestampNanos(1704164645100000000); }, "+01:00"),
            R"("2024-01-02 04:04:05.1+01:00")");
  EXPECT_EQ(json([&] { b.AppendTimestampNtzNanos(-1); }),
            R"("1969-12-31 23:59:59.999999999")");
}

TEST(JsonWriteTest, UnknownZonesFail) {
  for (const char* zone :
       {"Mars/Olympus", "../etc/passwd", "", "+19:00", "UTC+", "/etc"}) {
    JsonWriteOptions options;
    options.timezone = zone;
    auto writer = JsonWriter::Make(options);
    ASSERT_FALSE(writer.ok()) << zone;
    EXPECT_TRUE(writer.status().IsInvalid());
  }
  for (const char* zone : {"Z", "GMT", "+5", "-0830", "UTC+01:00", "Europe/Paris"}) {
    JsonWriteOptions options;
    options.timezone = zone;
    VS_EXPECT_OK(JsonWriter::Make(options).status());
  }
}

TEST(JsonRoundTripTest, ParseThenWriteIsSparkText) {
  // Spark: to_json(parse_json(x)).
  const std::pair<const char*, const char*> cases[] = {
      {R"({"b":1,"a":[1.50,null,"x"],"é":{}})",
       "{\"a\":[1.5,null,\"x\"],\"b\":1,\"\xc3\xa9\":{}}"},
      {R"("\u0000\u001f\b\f\r")", R"("\u0000\u001F\b\f\r")"},
      {"1e2", "100.0"},
      {"-0.0", "0"},
      {"1E-3", "0.001"},
      {"1e400", "\"Infinity\""},
      {"12345678901234567890", "12345678901234567890"},
  };
  for (const auto& [json, expected] : cases) {
    VS_ASSIGN_OR_FAIL(auto p, ParseJson(json));
    auto writer = JsonWriter::Make();
    std::string out;
    VS_ASSERT_OK(writer->Write(
        VariantView::MakeUnchecked(MetadataView::MakeUnchecked(p.metadata), p.value),
        &out));
    EXPECT_EQ(out, expected) << json;
  }
}

TEST(JsonRoundTripTest, LongValuesMixingEveryPrintingPath) {
  // Doubles and dates are appended to the string between stretches of the text cursor;
  // strings, keys and decimals go through the cursor: thousands of each in one value,
  // after text already in the output string.
  std::string json = "[", expected = "[";
  for (int i = 0; i < 5000; ++i) {
    const std::string n = std::to_string(i);
    // 1.<n>5: a decimal with no trailing zero to strip.
    json += (i ? "," : "") + n + "e0,\"s" + n + "\",{\"k" + n + "\":1." + n + "5}";
    expected += (i ? "," : "") + n + ".0,\"s" + n + "\",{\"k" + n + "\":1." + n + "5}";
  }
  json += "]";
  expected += "]";
  VS_ASSIGN_OR_FAIL(auto p, ParseJson(json));
  auto writer = JsonWriter::Make();
  std::string out = "prefix ";
  VS_ASSERT_OK(writer->Write(
      VariantView::MakeUnchecked(MetadataView::MakeUnchecked(p.metadata), p.value),
      &out));
  EXPECT_EQ(out, "prefix " + expected);
}

}  // namespace
}  // namespace varshred
