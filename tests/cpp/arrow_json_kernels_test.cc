// Tests for varshred/arrow/json_kernels.h.

#include <arrow/array/array_binary.h>
#include <arrow/array/array_dict.h>
#include <arrow/array/builder_binary.h>
#include <arrow/extension/json.h>
#include <arrow/json/from_string.h>
#include <arrow/type.h>

#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shred.h"
#include "varshred/format.h"

namespace varshred {
namespace {

using testing::ToHex;
using Cells = std::vector<std::optional<std::string>>;

template <typename BuilderType = arrow::StringBuilder>
std::shared_ptr<arrow::Array> Strings(const Cells& cells) {
  BuilderType builder;
  for (const auto& cell : cells) {
    EXPECT_TRUE((cell ? builder.Append(*cell) : builder.AppendNull()).ok());
  }
  return builder.Finish().ValueOrDie();
}

std::vector<std::optional<std::string>> Texts(const arrow::Array& array) {
  const auto& strings = static_cast<const arrow::StringArray&>(array);
  std::vector<std::optional<std::string>> out;
  for (int64_t i = 0; i < strings.length(); ++i) {
    if (strings.IsNull(i)) {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(std::string(strings.GetView(i)));
    }
  }
  return out;
}

TEST(JsonToVariantTest, WritesExactBytesAndKeepsSqlNulls) {
  auto input = Strings({R"({"b":1,"a":null})", std::nullopt, "null", "1.5"});
  VS_ASSIGN_OR_FAIL(auto out, JsonToVariant(*input));
  EXPECT_TRUE(out->type()->Equals(VariantStorageType(VariantLayout::kCanonical)));
  VS_ASSERT_OK(out->ValidateFull());
  ASSERT_EQ(out->length(), 4);
  EXPECT_EQ(out->null_count(), 1);
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(out));
  EXPECT_EQ(ToHex(view.metadata(0)), "01 02 00 01 02 62 61");
  EXPECT_EQ(ToHex(view.value(0)), "02 02 01 00 02 00 03 0c 01 00");
  EXPECT_TRUE(view.IsNull(1));
  EXPECT_EQ(ToHex(view.metadata(2)), "01 00 00");
  EXPECT_EQ(ToHex(view.value(2)), "00");
  EXPECT_EQ(ToHex(view.value(3)), "20 01 0f 00 00 00");  // decimal4 15, scale 1
}

TEST(JsonToVariantTest, ReadsDictionaryEncodedAndArrowJsonText) {
  // Found by probing from outside: pyarrow's arrow.json type and dictionary-encoded
  // strings (what Parquet readers give for repeated text) were refused.
  auto plain = Strings({R"({"a":1})", std::nullopt, "[2]", R"({"a":1})"});
  VS_ASSIGN_OR_FAIL(auto expected, JsonToVariant(*plain));
  auto entries = Strings({"[2]", R"({"a":1})", "x"});  // "x" is never used
  auto indices =
      arrow::json::ArrayFromJSONString(arrow::int8(), "[1, null, 0, 1]").ValueOrDie();
  VS_ASSIGN_OR_FAIL(
      auto dict, arrow::DictionaryArray::FromArrays(
                     arrow::dictionary(arrow::int8(), arrow::utf8()), indices, entries));
  VS_ASSIGN_OR_FAIL(auto from_dict, JsonToVariant(*dict));
  EXPECT_TRUE(from_dict->Equals(*expected));
  auto json =
      arrow::ExtensionType::WrapArray(arrow::extension::json(arrow::utf8()), plain);
  VS_ASSIGN_OR_FAIL(auto from_json, JsonToVariant(*json));
  EXPECT_TRUE(from_json->Equals(*expected));
  // A row pointing at a bad entry names the row.
  auto bad = arrow::json::ArrayFromJSONString(arrow::int8(), "[0, 2]").ValueOrDie();
  VS_ASSIGN_OR_FAIL(auto bad_dict,
                    arrow::DictionaryArray::FromArrays(
                        arrow::dictionary(arrow::int8(), arrow::utf8()), bad, entries));
  const arrow::Status st = JsonToVariant(*bad_dict).status();
  EXPECT_EQ(st.message().rfind("row 1: ", 0), 0u) << st.message();
}

// Rows are parsed in place inside the Arrow data buffer, each followed by the next
// rows' bytes: a document must end where its row ends, whatever follows it.
TEST(JsonToVariantTest, AdjacentRowsParsedInPlaceStopAtTheirOwnEnd) {
  const Cells cells = {"1",         "23",    "4.5",  "true",    "nul", "null",
                       "\"x\"",     "[1,2]", "{}",   "-0",      "1e2", "7",
                       "{\"a\":1}", "8",     "9.25", "\"tail\""};
  auto input = Strings(cells);
  JsonToVariantOptions options;
  options.errors = JsonErrorPolicy::kNull;
  VS_ASSIGN_OR_FAIL(auto out, JsonToVariant(*input, options));
  VS_ASSIGN_OR_FAIL(auto json, VariantToJson(*out));
  EXPECT_EQ(Texts(*json),
            (Cells{"1", "23", "4.5", "true", std::nullopt, "null", "\"x\"", "[1,2]", "{}",
                   "0", "100.0", "7", "{\"a\":1}", "8", "9.25", "\"tail\""}));
  // Each row alone (copied into the parser's padded buffer) gives the same bytes.
  for (size_t i = 0; i < cells.size(); ++i) {
    VS_ASSIGN_OR_FAIL(auto one, JsonToVariant(*Strings({cells[i]}), options));
    VS_ASSIGN_OR_FAIL(auto a, VariantArrayView::Make(out));
    VS_ASSIGN_OR_FAIL(auto b, VariantArrayView::Make(one));
    ASSERT_EQ(a.IsNull(static_cast<int64_t>(i)), b.IsNull(0)) << i;
    if (b.IsNull(0)) continue;
    EXPECT_EQ(ToHex(a.value(static_cast<int64_t>(i))), ToHex(b.value(0)))
        << cells[i].value();
  }
}

// The value bytes of each row, or nullopt for a null (an invalid document).
std::vector<std::optional<std::string>> ValueHex(
    const std::shared_ptr<arrow::Array>& out) {
  auto view = VariantArrayView::Make(out).ValueOrDie();
  std::vector<std::optional<std::string>> hex;
  for (int64_t i = 0; i < out->length(); ++i) {
    if (view.IsNull(i)) {
      hex.emplace_back(std::nullopt);
    } else {
      hex.emplace_back(ToHex(view.metadata(i)) + " | " + ToHex(view.value(i)));
    }
  }
  return hex;
}

// Rows lying back to back are indexed a window at a time (JsonReader::IndexAhead): the
// quotes, escapes and UTF-8 of one row must never change how the next one reads. Every
// row must read as it does alone, copied into the parser's own buffer; also as lines.
void ExpectRowsReadAsEachAlone(const Cells& cells) {
  JsonToVariantOptions options;
  options.errors = JsonErrorPolicy::kNull;
  VS_ASSIGN_OR_FAIL(auto together, JsonToVariant(*Strings(cells), options));
  const auto got = ValueHex(together);
  std::string lines;
  Cells line_cells;
  for (size_t i = 0; i < cells.size(); ++i) {
    SCOPED_TRACE(cells[i].value_or("(null)"));
    VS_ASSIGN_OR_FAIL(auto alone, JsonToVariant(*Strings({cells[i]}), options));
    const auto want = ValueHex(alone);
    ASSERT_EQ(got[i], want[0]) << "row " << i;
    // As JSON lines, blank lines of every whitespace byte between them.
    if (!cells[i] || cells[i]->find('\n') != std::string::npos ||
        cells[i]->find_first_not_of(" \t\n\v\f\r") == std::string::npos) {
      continue;
    }
    lines += *cells[i] + (i % 3 == 0 ? "\n \v\f\r\n" : "\n");
    line_cells.push_back(want[0]);
  }
  VS_ASSIGN_OR_FAIL(auto from_lines, JsonLinesToVariant(lines, options));
  EXPECT_EQ(ValueHex(from_lines.variants), line_cells);
}

TEST(JsonToVariantTest, RowsIndexedTogetherReadAsEachAlone) {
  // Groups of rows, back to back in one array: each group's first rows would read
  // differently as one text.
  const std::vector<Cells> groups = {
      // a row closed by the next one; a number running on into the next row
      {R"({"a":)", "1}", R"({"b":2})", R"({"a":1)", "2}", R"([3])"},
      // an unclosed string; a row after it read inside out ([" [3] as [3])
      {R"({"s":"open)", R"(x"})", R"({"t":"u"})", R"(["a)", R"([" [3])", R"(["[4]"])"},
      // a closing quote escaped; a backslash at the end
      {R"({"s":"esc\"})", R"({"n":"m"})", R"(["tail\)", R"("]")", R"({"k":[1,"\\"]})"},
      // a character cut in two; bytes after the last bracket
      {"{\"c\":\"\xc3", "\xa9\"}", R"({"d":"é"})", "[1]\xc3", "\xa9", "[2]"},
      // two documents in one row; whitespace, empty and nested containers
      {R"({"x":1} {"y":2})", R"({"z":3})", "  [5]  ", "\t{}\r", "[]", "[[[]]]",
       R"({"e":{}})"},
      // a byte order mark, scalars between containers, a raw control character
      {"\xef\xbb\xbf[6]", "[7]", "\"str\"", "8", "[9]", "{\"v\":\x01}", "[10]"},
  };
  Cells cells;
  for (const Cells& group : groups) cells.insert(cells.end(), group.begin(), group.end());
  ExpectRowsReadAsEachAlone(cells);
  // Rows across the end of a window, which ends 1 KiB after its first row or 64 bytes
  // (simdjson's padding) before the end of the data: a row of two documents must not
  // read as its first when the window ends inside its second.
  auto padding = [](size_t n) { return "[\"" + std::string(n, 'a') + "\"]"; };
  for (size_t pad = 0; pad < 120; ++pad) {
    SCOPED_TRACE("end pad " + std::to_string(pad));
    ExpectRowsReadAsEachAlone({"[1]", R"({"x":1} {"y":2})", R"([2] "3")", padding(pad)});
  }
  // A window starting at a row whose second document runs on into the next row past
  // the window's end: simdjson drops that document's tokens, the row's own included.
  ExpectRowsReadAsEachAlone(
      {"\"s\"", R"({"x":1} {"y":)", "\"" + std::string(200, 'a') + "\"}"});
  for (size_t pad = 980; pad < 1040; ++pad) {
    SCOPED_TRACE("start pad " + std::to_string(pad));
    ExpectRowsReadAsEachAlone(
        {padding(pad), R"({"x":1} {"y":2})", R"([2] "3")", padding(200)});
  }
}

TEST(JsonToVariantTest, MutatedRowsSideBySideReadAsEachAlone) {
  const std::vector<std::string> seeds = {
      R"({"id": 17, "name": "user_17", "score": 8.5, "tags": ["a","b"], "nested": {"x": 3, "flag": true}})",
      R"({"k": [1, [2, [3, {"deep": "é\"\\"}]]], "e": 1e5, "s": "\u00e9\n"})",
      R"([{"a": null}, {"b": false}, "x", -0.0, 12345678901234567890])",
  };
  std::mt19937_64 rng(20261128);
  const int rounds = testing::FuzzRounds(150);
  for (int round = 0; round < rounds; ++round) {
    Cells cells;
    for (int i = 0; i < 12; ++i) {
      const std::string& seed = seeds[rng() % seeds.size()];
      cells.push_back(rng() % 3 == 0 ? seed : testing::MutatedJson(seed, rng, 1));
    }
    SCOPED_TRACE("round " + std::to_string(round));
    ExpectRowsReadAsEachAlone(cells);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(JsonToVariantTest, HonoursNumberAndDuplicateKeyOptions) {
  auto input = Strings({"1.5", R"({"a":1,"a":2})"});
  JsonToVariantOptions options;
  options.parse.numbers = JsonNumbers::kDouble;
  options.parse.duplicate_keys = DuplicateKeyPolicy::kLastWins;
  VS_ASSIGN_OR_FAIL(auto out, JsonToVariant(*input, options));
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(out));
  EXPECT_EQ(ToHex(view.value(0)), "1c 00 00 00 00 00 00 f8 3f");
  EXPECT_EQ(ToHex(view.value(1)), "02 01 00 00 02 0c 02");

  auto st = JsonToVariant(*Strings({"1", R"({"a":1,"a":2})"})).status();
  ASSERT_TRUE(st.IsInvalid()) << st.ToString();
  EXPECT_EQ(st.message().rfind("row 1: ", 0), 0u) << st.message();
}

TEST(JsonToVariantTest, ErrorsNameTheRowOrBecomeNulls) {
  auto input = Strings({"[1]", "{", std::nullopt, "tru", "2"});
  auto st = JsonToVariant(*input).status();
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 1: ", 0), 0u) << st.message();

  JsonToVariantOptions options;
  options.errors = JsonErrorPolicy::kNull;
  options.layout = VariantLayout::kSpark;
  VS_ASSIGN_OR_FAIL(auto result, JsonToVariantWithStats(*input, options));
  EXPECT_EQ(result.invalid_rows, 2);
  EXPECT_TRUE(result.variants->type()->Equals(VariantStorageType(VariantLayout::kSpark)));
  EXPECT_EQ(result.variants->null_count(), 3);
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(result.variants));
  EXPECT_EQ(ToHex(view.value(4)), "0c 02");
  // The parser recovers: rows after a bad one are correct.
  EXPECT_EQ(ToHex(view.value(0)), "03 01 00 02 0c 01");
}

// A bad option is the call's error, before any row: under kNull it made every row a
// NULL counted as invalid, and under kRaise blamed row 0, until 2026-11-30.
TEST(JsonToVariantTest, BadParseOptionsFailTheCallNotTheRows) {
  const auto input = Strings({"1", "[2]"});
  for (const int depth : {-1, 501}) {
    for (const auto errors : {JsonErrorPolicy::kNull, JsonErrorPolicy::kRaise}) {
      JsonToVariantOptions options;
      options.errors = errors;
      options.parse.max_depth = depth;
      for (const auto& st : {JsonToVariantWithStats(*input, options).status(),
                             JsonLinesToVariant("1\n[2]\n", options).status()}) {
        EXPECT_TRUE(st.IsInvalid()) << st.ToString();
        EXPECT_EQ(st.message().rfind("JSON max_depth " + std::to_string(depth), 0), 0u)
            << st.message();
      }
    }
  }
}

TEST(JsonToVariantTest, AcceptsEveryStringTypeAndRejectsOthers) {
  const Cells cells = {R"({"k":"v"})", std::nullopt};
  arrow::ArrayVector inputs = {Strings<arrow::StringBuilder>(cells),
                               Strings<arrow::LargeStringBuilder>(cells),
                               Strings<arrow::StringViewBuilder>(cells)};
  VS_ASSIGN_OR_FAIL(auto expected, JsonToVariant(*inputs[0]));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input->type()->ToString());
    VS_ASSIGN_OR_FAIL(auto out, JsonToVariant(*input));
    EXPECT_TRUE(out->Equals(*expected));
  }
  auto binary = Strings<arrow::BinaryBuilder>(cells);
  auto st = JsonToVariant(*binary).status();
  EXPECT_TRUE(st.IsTypeError());
  EXPECT_NE(st.message().find("got binary"), std::string::npos);
}

TEST(JsonToVariantTest, SlicedInputUsesItsOwnRows) {
  auto input = Strings({"1", "{", "[2]", "3"})->Slice(2, 2);
  VS_ASSIGN_OR_FAIL(auto out, JsonToVariant(*input));
  VS_ASSIGN_OR_FAIL(auto text, VariantToJson(*out));
  EXPECT_EQ(Texts(*text), (Cells{"[2]", "3"}));
}

TEST(JsonLinesToVariantTest, ParsesEachNonBlankLineAsJsonToVariantDoes) {
  // Blank lines (only " \t\n\v\f\r") give no row; "\r\n" ends are whitespace; the
  // last line may lack its newline and end exactly where the text does.
  const std::string text = "\n{\"b\":1,\"a\":[true]}\r\n \t\n\v\f\n1.50\n\"x\"";
  VS_ASSIGN_OR_FAIL(auto result, JsonLinesToVariant(text));
  VS_ASSIGN_OR_FAIL(auto expected,
                    JsonToVariant(*Strings({"{\"b\":1,\"a\":[true]}", "1.50", "\"x\""})));
  EXPECT_TRUE(result.variants->Equals(*expected));
  VS_ASSIGN_OR_FAIL(auto none, JsonLinesToVariant(" \n\n"));
  EXPECT_EQ(none.variants->length(), 0);
}

TEST(JsonLinesToVariantTest, ErrorsCountNonBlankLinesOrBecomeNulls) {
  const std::string text = "[1]\n\n{\n2\n";
  auto st = JsonLinesToVariant(text).status();
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 1: ", 0), 0u) << st.message();
  JsonToVariantOptions options;
  options.errors = JsonErrorPolicy::kNull;
  VS_ASSIGN_OR_FAIL(auto result, JsonLinesToVariant(text, options));
  EXPECT_EQ(result.invalid_rows, 1);
  ASSERT_EQ(result.variants->length(), 3);
  EXPECT_TRUE(result.variants->IsNull(1));
}

TEST(VariantToJsonTest, PrintsBothLayoutsAndKeepsNulls) {
  auto input = Strings({R"({"b":[true,null,"x"],"a":-1})", std::nullopt, R"("é")"});
  for (auto layout : {VariantLayout::kCanonical, VariantLayout::kSpark}) {
    JsonToVariantOptions options;
    options.layout = layout;
    VS_ASSIGN_OR_FAIL(auto variants, JsonToVariant(*input, options));
    VS_ASSIGN_OR_FAIL(auto text, VariantToJson(*variants));
    EXPECT_TRUE(text->type()->Equals(arrow::utf8()));
    EXPECT_EQ(Texts(*text),
              (Cells{R"({"a":-1,"b":[true,null,"x"]})", std::nullopt, R"("é")"}));
  }
}

TEST(VariantToJsonTest, HonoursTheTimeZone) {
  VariantArrayBuilder builder;
  std::string value(1,
                    static_cast<char>(PrimitiveHeader(PrimitiveType::kTimestampMicros)));
  value.append(8, '\0');  // 1970-01-01T00:00:00Z
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, value));
  VS_ASSIGN_OR_FAIL(auto variants, builder.Finish());
  VS_ASSIGN_OR_FAIL(auto utc, VariantToJson(*variants));
  VariantToJsonOptions options;
  options.json.timezone = "+05:30";
  VS_ASSIGN_OR_FAIL(auto shifted, VariantToJson(*variants, options));
  EXPECT_NE(Texts(*utc)[0], Texts(*shifted)[0]);
  EXPECT_NE(Texts(*shifted)[0]->find("05:30"), std::string::npos) << *Texts(*shifted)[0];

  options.json.timezone = "Not/AZone";
  EXPECT_FALSE(VariantToJson(*variants, options).ok());
}

TEST(VariantToJsonTest, RejectsBadBytesWithTheRow) {
  VariantArrayBuilder builder;
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, kNullValue));
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, std::string("\x09\x61", 2)));  // truncated
  VS_ASSIGN_OR_FAIL(auto bad, builder.Finish());
  auto st = VariantToJson(*bad).status();
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message().rfind("row 1: $: ", 0), 0u) << st.message();
}

// Whether a dictionary's keys need escapes is known once per dictionary, while rows
// share its bytes: rows whose dictionaries switch between plain keys and keys that
// need escapes print every key as Jackson escapes it, unshredded and as the residual
// of a shredded column.
TEST(VariantToJsonTest, KeysNeedingEscapesPrintEscapedWhateverTheRowBefore) {
  const Cells docs = {R"({"a":1})",
                      R"({"a":1})",
                      R"({"q\"t":2,"tab\t":3})",
                      R"({"q\"t":2,"tab\t":3})",
                      R"({"a":4})",
                      R"({"\u0001":[{"\\":4}],"a":5})",
                      std::nullopt,
                      R"({"a":6,"q\"t":7})"};
  VS_ASSIGN_OR_FAIL(auto variants, JsonToVariant(*Strings(docs)));
  VS_ASSIGN_OR_FAIL(auto text, VariantToJson(*variants));
  EXPECT_EQ(Texts(*text), docs);
  VS_ASSIGN_OR_FAIL(auto schema, ShreddingSchema::Parse("struct<a: bigint>"));
  VS_ASSIGN_OR_FAIL(auto shredded, Shred(*variants, schema));
  VS_ASSIGN_OR_FAIL(auto shredded_text, VariantToJson(*shredded));
  EXPECT_EQ(Texts(*shredded_text), docs);
}

// Rows are checked and printed in one walk; a row with unsorted ids is printed again
// from a sorted copy when sort_keys asks for key order, and the rows around it keep
// their text (all rows share one text buffer).
TEST(VariantToJsonTest, UnsortedIdsPrintInStoredOrderOrSorted) {
  const std::string meta = testing::Hex("01 02 00 01 02 61 62");  // ["a", "b"]
  const std::string unsorted = testing::Hex("02 02 01 00 00 02 04 0c 02 0c 01");
  const std::string nested = testing::Hex("03 02 00 0b 16 ") + unsorted + unsorted;
  VariantArrayBuilder builder;
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, testing::Hex("0c 07")));
  VS_ASSERT_OK(builder.Append(meta, unsorted));
  VS_ASSERT_OK(builder.Append(meta, nested));
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, testing::Hex("0c 08")));
  VS_ASSIGN_OR_FAIL(auto variants, builder.Finish());
  VS_ASSIGN_OR_FAIL(auto stored, VariantToJson(*variants));
  EXPECT_EQ(Texts(*stored),
            (Cells{"7", R"({"b":2,"a":1})", R"([{"b":2,"a":1},{"b":2,"a":1}])", "8"}));
  VariantToJsonOptions options;
  options.sort_keys = true;
  VS_ASSIGN_OR_FAIL(auto sorted, VariantToJson(*variants, options));
  EXPECT_EQ(Texts(*sorted),
            (Cells{"7", R"({"a":1,"b":2})", R"([{"a":1,"b":2},{"a":1,"b":2}])", "8"}));
  VS_ASSIGN_OR_FAIL(auto lines, VariantToJsonLines(*variants, options));
  EXPECT_EQ(lines->ToString(),
            "7\n{\"a\":1,\"b\":2}\n[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2}]\n8\n");
}

// Each call prints over the thread's text of the call before (TextSink's Overwrite):
// a short text after a long one, a long one after it, and lines after both hold
// their own rows only, on the thread that printed before and on a new one.
TEST(VariantToJsonTest, CallsAfterLongerAndShorterOnesPrintOnlyTheirRows) {
  Cells long_rows, short_rows = {R"({"s":1})", std::nullopt, "[2]"};
  for (int i = 0; i < 3000; ++i) {
    long_rows.emplace_back(R"({"pad":")" + std::string(static_cast<size_t>(i % 97), 'x') +
                           R"(","row":)" + std::to_string(i) + "}");
  }
  VS_ASSIGN_OR_FAIL(auto long_variants, JsonToVariant(*Strings(long_rows)));
  VS_ASSIGN_OR_FAIL(auto short_variants, JsonToVariant(*Strings(short_rows)));
  auto check = [&] {
    for (int round = 0; round < 2; ++round) {
      VS_ASSIGN_OR_FAIL(auto text, VariantToJson(*long_variants));
      EXPECT_EQ(Texts(*text), long_rows);
      VS_ASSIGN_OR_FAIL(auto short_text, VariantToJson(*short_variants));
      EXPECT_EQ(Texts(*short_text), short_rows);
      EXPECT_EQ(short_text->data()->buffers[2]->size(), 10);
      VS_ASSIGN_OR_FAIL(auto lines, VariantToJsonLines(*short_variants));
      EXPECT_EQ(lines->ToString(), "{\"s\":1}\nnull\n[2]\n");
    }
  };
  check();
  std::thread other(check);
  other.join();
}

}  // namespace
}  // namespace varshred
