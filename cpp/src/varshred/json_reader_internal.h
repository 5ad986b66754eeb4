// Licensed under the Apache License, Version 2.0.
//
// The JSON reader behind JsonParser (json_parse.cc): one document at a time into a
// VariantBuilder. simdjson's first stage indexes a document's tokens (JsonCursor) and
// our own walk of that index builds the Variant. JsonParser reads whole documents;
// the JSON shredder (arrow/json_shredder_internal.h) walks the objects and arrays its
// shredding schema types itself and hands the reader every other value to encode
// whole. A document either walk does not accept (bad or unusual input) is read again
// with simdjson's on-demand API, which finds the error and says what is wrong and at
// which byte.

#pragma once

#include <arrow/status.h>
#include <simdjson.h>

#include <cstddef>
#include <memory>
#include <string_view>

#include "varshred/builder.h"
#include "varshred/endian_internal.h"
#include "varshred/json.h"

namespace varshred::internal {

namespace od = simdjson::ondemand;

/// Whether `s`, a string of a document simdjson indexed, holds a backslash, 8 bytes at
/// a time (overlapping loads within `s`): keys and strings are mostly short, where a
/// call to memchr costs more than the test. A string under 8 bytes is tested in one
/// load of its first 8, masked to its length: the document is padded (simdjson reads
/// SIMDJSON_PADDING bytes past its end), so they are readable.
[[gnu::always_inline]] inline bool HasBackslash(std::string_view s) {
  const size_t n = s.size();
  if (n < 8) {
    const uint64_t own = (uint64_t{1} << (8 * n)) - 1;  // the low n bytes
    return (BytesEqual(ReadLE<uint64_t>(s.data()), '\\') & own) != 0;
  }
  for (size_t i = 0; i + 8 <= n; i += 8) {
    if (BytesEqual(ReadLE<uint64_t>(s.data() + i), '\\') != 0) return true;
  }
  return BytesEqual(ReadLE<uint64_t>(s.data() + n - 8), '\\') != 0;
}

/// \brief A position in the token index of a document (simdjson's first stage): the
/// brackets, colons and commas, and the first byte of each string, number and
/// literal. A token runs up to the next one, whitespace included. The index may go on
/// past the document, into the rows after it (JsonReader's windows): the document's
/// tokens are those before `end`.
struct JsonCursor {
  const char* text = nullptr;
  const uint32_t* index = nullptr;  // index[count] is where the indexed text ends
  uint32_t pos = 0;
  uint32_t count = 0;
  uint32_t end = 0;  // where the document ends in `text`

  /// The character that starts the current token; 0 past the last one.
  char Peek() const { return pos < count ? text[index[pos]] : '\0'; }
  /// The current token, up to where the next begins. \pre pos < count.
  std::string_view Token() const {
    return {text + index[pos], static_cast<size_t>(index[pos + 1] - index[pos])};
  }
  /// Whether the tokens read (at least one) are exactly the document's: the last one
  /// read lies inside it and the next, if any, after it. A walk may have run on into
  /// the next row's tokens: the row is then refused.
  bool AtEnd() const {
    return index[pos - 1] < end && (pos == count || index[pos] >= end);
  }
};

// The per-string steps are defined here, not in json_parse.cc, so that both walks
// (JsonParser's and the JSON shredder's) inline them: they run once per key and value.
class JsonReader {
 public:
  explicit JsonReader(JsonParseOptions options);

  const JsonParseOptions& options() const { return options_; }

  /// \brief JsonParser::Parse(): the whole document into `builder`.
  arrow::Status Parse(std::string_view json, size_t readable_after,
                      VariantBuilder* builder);

  // -- walking the token index ------------------------------------------------
  // Each step checks the grammar as it goes and returns false at the first thing it
  // does not accept, having added part of the value to the builder: the caller drops
  // it and has Parse() read the document, which names the problem.

  /// \brief Indexes the tokens of `json` (`readable_after` as in Parse()) and points
  /// `*cursor` at the first; values encoded later go to `builder`. False when
  /// simdjson refuses the text (invalid UTF-8, an unclosed string...) or the options.
  bool Index(std::string_view json, size_t readable_after, VariantBuilder* builder,
             JsonCursor* cursor);
  /// \brief JsonParser::IndexAhead(): whether rows may be read from windows of rows
  /// indexed at once; the bytes after the rows must stay unchanged until the next call.
  /// Drops the window.
  void AllowWindows(bool allowed) {
    windows_allowed_ = allowed;
    ahead_.base = nullptr;
  }
  /// \brief Tells the reader that the document last indexed was walked whole, up to
  /// `c`: the next row's first token is looked for from there (a hint; walk callers
  /// outside Parse() call it on success).
  void Walked(const JsonCursor& c) { ahead_.next_token = c.pos; }
  /// \brief Encodes the value at `c`, which sits inside `depth` containers, whole into
  /// the builder and moves past it.
  bool WalkValue(JsonCursor& c, int depth);
  /// \brief The decoded string at `c` (valid until the next call), moving past it.
  /// \pre c.Peek() == '"'.
  bool WalkString(JsonCursor& c, std::string_view* text) {
    std::string_view raw;
    if (!RawString(c, &raw)) return false;
    ++c.pos;
    // simdjson's first stage has checked the UTF-8 and the control characters: a
    // string without escapes is its own bytes, and needs no copy.
    if (!HasBackslash(raw)) [[likely]] {
      *text = raw;
      return true;
    }
    return Unescape(raw, text);
  }
  /// \brief For a string at `c` without escapes: moves past it and sets `*text` to
  /// its bytes in the document; else returns false and leaves `c` as it was.
  bool PlainString(JsonCursor& c, std::string_view* text) {
    std::string_view raw;
    if (c.Peek() != '"' || !RawString(c, &raw) || HasBackslash(raw)) return false;
    ++c.pos;
    *text = raw;
    return true;
  }
  /// \brief Walks the object whose '{' is just behind `c`: for each field, reads its key
  /// and calls `on_field(key)`, which walks the value at `c` and returns whether it
  /// could; then moves past the '}'. False at a token out of place or when `on_field`
  /// returns false. The one place that knows an object's grammar.
  template <typename OnField>
  bool WalkFields(JsonCursor& c, OnField&& on_field) {
    if (c.Peek() == '}') {
      ++c.pos;
      return true;
    }
    while (true) {
      std::string_view key;
      if (c.Peek() != '"' || !WalkString(c, &key) || c.Peek() != ':') return false;
      ++c.pos;
      if (!on_field(key)) return false;
      const char next = c.Peek();
      ++c.pos;
      if (next == '}') return true;
      if (next != ',') return false;
    }
  }
  /// \brief As WalkFields(), for the elements of the array whose '[' is just behind `c`:
  /// `on_element()` walks each.
  template <typename OnElement>
  static bool WalkElements(JsonCursor& c, OnElement&& on_element) {
    if (c.Peek() == ']') {
      ++c.pos;
      return true;
    }
    while (true) {
      if (!on_element()) return false;
      const char next = c.Peek();
      ++c.pos;
      if (next == ']') return true;
      if (next != ',') return false;
    }
  }
  /// \brief The elements of the array whose '[' is just behind `c`, for a caller that
  /// needs the count first: its commas outside nested containers, plus one unless it is
  /// empty. A malformed array may be counted wrong; its walk then fails.
  static uint32_t CountElements(const JsonCursor& c) {
    if (c.Peek() == ']') return 0;
    uint32_t commas = 0;
    int depth = 0;
    for (uint32_t p = c.pos; p < c.count; ++p) {
      switch (c.text[c.index[p]]) {
        case '[':
        case '{':
          ++depth;
          break;
        case ']':
        case '}':
          if (depth-- == 0) return commas + 1;
          break;
        case ',':
          commas += depth == 0 ? 1 : 0;
          break;
        default:
          break;
      }
    }
    return commas + 1;
  }
  /// \brief Whether a document of `json_size` bytes is large enough that its Variant
  /// may pass kMaxValueSize: the walks leave it to Parse()'s on-demand reading, which
  /// checks the size as it goes. A Variant takes at most about 3.3 bytes per byte of
  /// its JSON (`0e0,`: a double and its offset): a document under an eighth of the
  /// limit cannot pass it.
  static bool MayPassSizeLimit(size_t json_size) { return json_size > kMaxValueSize / 8; }
  /// \brief Whether the indexed document is read where it lies (its text, and the
  /// views into it, live as long as the caller's), not from a padded copy.
  bool InPlace() const { return in_place_; }

  // -- the on-demand reading alone ----------------------------------------------
  // What Parse() falls back to for the documents its walk does not accept (tests
  // compare the two readings).

  /// \brief Starts reading `json` on demand, from a padded copy: sets `*type` to its
  /// JSON type.
  arrow::Status Open(std::string_view json, VariantBuilder* builder, od::json_type* type);
  /// \brief Reads the document opened by Open() into the builder, trailing content
  /// included.
  arrow::Status ParseOpened(od::json_type type);

 private:
  // The document's text where simdjson may read it (padded), checks of the options.
  arrow::Status Prepare(std::string_view json, size_t readable_after,
                        VariantBuilder* builder);
  // The on-demand reading of the prepared document (Open() after Prepare()).
  arrow::Status Iterate(od::json_type* type);

  // Parse()'s walk: true when the prepared document, an object or an array, was read
  // whole into the builder; false (nothing added) for every other document, which
  // the on-demand reading then handles.
  bool WalkIndexed();
  bool IndexPrepared(JsonCursor* cursor);
  // Points `cursor` at the prepared document's tokens in an index of the bytes from it
  // onwards (`ahead_`), made at once for the rows that follow it in the caller's buffer;
  // false when the document is not one it can serve (IndexPrepared() then drops the
  // window and indexes the document alone).
  bool IndexFromWindow(JsonCursor* cursor);
  // simdjson's first stage over the prepared document's first `size` bytes.
  bool Stage1(size_t size, simdjson::stage1_mode mode);
  // The text between the quotes of the string token at `c`: its closing quote is the
  // last one before the next token.
  [[gnu::always_inline]] static bool RawString(const JsonCursor& c,
                                               std::string_view* raw) {
    const std::string_view token = c.Token();
    size_t close = token.size();
    do {
      if (close <= 1) return false;
      --close;
    } while (token[close] != '"');
    *raw = token.substr(1, close - 1);
    return true;
  }
  // WalkValue()'s steps: any value (scalars inline), and the object or array whose
  // '{' or '[' is at `c`.
  bool WalkNested(JsonCursor& c, int depth);
  bool WalkObject(JsonCursor& c, int depth);
  bool WalkArray(JsonCursor& c, int depth);
  // simdjson's own decoding of a string with escapes, as the on-demand reading's.
  bool Unescape(std::string_view raw, std::string_view* text);

  size_t OffsetOf(const char* p) const;
  // Whether the value built so far is past kMaxValueSize, which Finish() would refuse.
  // The on-demand reading checks it after each element and field of a document that
  // MayPassSizeLimit(), so that a document of hundreds of MB is refused for the price
  // of the limit, not of its whole value.
  bool OverSizeLimit() const { return builder_->MinimumSize() > kMaxValueSize; }
  arrow::Status SizeError() const;
  arrow::Status Error(simdjson::error_code code, const char* where) const;
  arrow::Status DepthError(const char* where) const;
  // Where the document iterator stands (for error messages).
  const char* Location();
  template <typename V>
  const char* Location(V&) {
    return Location();
  }
  arrow::Status AppendNumber(std::string_view token);
  bool AppendShortNumber(std::string_view token);
  bool AppendExponentNumber(std::string_view token, const char* exponent);
  void AppendShortDecimal(int64_t unscaled, int precision, int scale);
  arrow::Status ParseAny(od::value& v, int depth);
  arrow::Status ParseObject(od::object obj, const char* where, int depth);
  arrow::Status ParseArray(od::array arr, int depth);
  arrow::Status ParseScalarDocument(od::json_type type);

  JsonParseOptions options_;
  od::parser parser_;
  simdjson::error_code allocate_status_ = simdjson::SUCCESS;
  // simdjson's first stage alone, for WalkIndexed(); null when simdjson could not make
  // one (the on-demand reading then serves every document).
  std::unique_ptr<simdjson::internal::dom_parser_implementation> indexer_;
  std::string unescaped_;  // Unescape()'s decoded strings
  od::document doc_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;  // bytes usable in buffer_, padding included
  const char* begin_ = nullptr;
  size_t size_ = 0;
  size_t padded_ = 0;  // bytes readable from begin_
  bool in_place_ = false;
  VariantBuilder* builder_ = nullptr;

  // simdjson's first stage costs about three times as much run per row of ~100 bytes
  // as run once over many rows, so rows lying back to back in one buffer (Arrow string
  // data, JSON lines) are indexed a window at a time. Which bytes are inside strings
  // depends on every quote before them, but a row is read from a window only when its
  // first byte, a bracket, is a token there: a bracket is one only outside strings, so
  // the row's tokens are those it has alone, whatever the rows before it hold. Its
  // walk must end at its own end (JsonCursor::AtEnd()).
  struct Ahead {
    const char* base = nullptr;  // the window's first byte; null: no window
    uint32_t size = 0;           // bytes indexed
    uint32_t tokens = 0;         // tokens in the index
    uint32_t next_token = 0;     // where to look for the next row's first token
    uint32_t next_byte = 0;      // the byte after the last row handed out
    uint32_t window = 0;         // bytes to index at the next start (doubles, capped)
  };
  Ahead ahead_;
  bool windows_allowed_ = false;  // AllowWindows()
};

}  // namespace varshred::internal
