// Licensed under the Apache License, Version 2.0.
//
// The pieces of JsonWriter (json_write.cc) that other printers of Variant text reuse,
// so that every printer escapes the same way.

#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "varshred/decimal_internal.h"
#include "varshred/java_float_internal.h"
#include "varshred/json.h"
#include "varshred/validate.h"

namespace varshred::internal {

/// \brief Appends text to a std::string through a raw cursor: push_back() reloads and
/// stores the string's size with every character. The string grows in steps (bytes
/// past the cursor are room) and is trimmed to the text by the destructor, unless the
/// sink writes over a string's old bytes (Overwrite). Nothing else may touch the string
/// while the sink is open.
class TextSink {
 public:
  /// `step`: about how much text is expected. The string grows by that much (within
  /// 64 B-64 KiB) at a time: resize() zero-fills what it adds, so a step much larger
  /// than the text costs more than the text, and its capacity grows geometrically
  /// anyway.
  explicit TextSink(std::string* s, size_t step = 256)
      : s_(s), step_(std::clamp<size_t>(step, 64, 64 << 10)), trim_(true) {
    p_ = end_ = s_->data() + s_->size();
  }
  /// Writes from the start of `s` over the bytes it holds, which are room: a string
  /// kept from call to call is not zero-filled again. The destructor leaves the
  /// string's size alone; the text is its first Position() bytes.
  struct Overwrite {};
  TextSink(std::string* s, size_t step, Overwrite)
      : s_(s), step_(std::clamp<size_t>(step, 64, 64 << 10)), trim_(false) {
    p_ = s_->data();
    end_ = p_ + s_->size();
  }
  ~TextSink() {
    if (trim_) s_->resize(Position());
  }
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;

  /// Room for `n` more bytes at the returned cursor; Advance() past what was written.
  char* Reserve(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) Grow(n);
    return p_;
  }
  void Advance(char* to) { p_ = to; }
  void Put(char c) {
    *Reserve(1) = c;
    ++p_;
  }
  void Put(std::string_view s) {
    std::memcpy(Reserve(s.size()), s.data(), s.size());
    p_ += s.size();
  }
  /// A string literal: its size is known, so the copy is a store or two.
  template <size_t N>
  void Put(const char (&literal)[N]) {
    std::memcpy(Reserve(N - 1), literal, N - 1);
    p_ += N - 1;
  }
  /// An empty string for code that appends to a std::string itself; Put() it after.
  std::string* Scratch() {
    scratch_.clear();
    return &scratch_;
  }
  /// Bytes of text in the string so far; Truncate() drops what came after.
  size_t Position() const { return static_cast<size_t>(p_ - s_->data()); }
  void Truncate(size_t position) { p_ = s_->data() + position; }
  /// Room for `bytes` of text in all, made at once: spares a large text its copies
  /// as the string doubles.
  void ReserveTotal(size_t bytes) {
    if (bytes > s_->size()) Resize(bytes);
  }

 private:
  void Grow(size_t n) { Resize(Position() + std::max(n, step_)); }
  void Resize(size_t size) {
    const size_t used = Position();
    s_->resize(size);
    p_ = s_->data() + used;
    end_ = s_->data() + s_->size();
  }

  std::string* s_;
  size_t step_;
  bool trim_;  // trim the string to the text when done
  char* p_;
  char* end_;
  std::string scratch_;
};

/// Appends the decimal text of `v`.
inline void AppendInt(int64_t v, TextSink* out) {
  char* p = out->Reserve(20);  // "-9223372036854775808"
  // Negated as unsigned: the most negative value has no signed negation.
  const uint64_t mag = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  *p = '-';
  p += (v < 0) + CountDigits(mag);
  PutDigits(mag, p);
  out->Advance(p);
}

/// Appends the JSON text of a float or double: Java's (AppendJavaFloating()), and
/// NaN and the infinities as strings ("NaN"), as Spark prints them; JSON has no such
/// numbers.
template <typename T>
void AppendFloating(T v, TextSink* out) {
  char* p = out->Reserve(kMaxJavaFloatingSize + 2);
  if (std::isfinite(v)) {
    out->Advance(PutJavaFloating(v, p));
    return;
  }
  *p = '"';
  p = PutJavaFloating(v, p + 1);
  *p = '"';
  out->Advance(p + 1);
}

/// As JsonWriter::Write(), through `out`.
void WriteJson(const JsonWriter& writer, const VariantView& value, TextSink* out);

/// Whether no key of `metadata` needs an escape in JSON (a scan of all its key bytes).
bool PlainKeys(const MetadataView& metadata);

/// \brief PlainKeys() of the dictionary an internal::MetadataCache holds, scanned once
/// per dictionary (the cache's epoch) rather than once per row.
class PlainKeysCache {
 public:
  bool Get(const MetadataView& metadata, uint64_t epoch) {
    if (epoch != epoch_) {
      epoch_ = epoch;
      plain_ = PlainKeys(metadata);
    }
    return plain_;
  }

 private:
  uint64_t epoch_ = 0;  // MetadataCache's epochs start at 1
  bool plain_ = false;
};

/// \brief Validates `value` as internal::ValidateValue() does and appends its text as
/// JsonWriter::Write() would, in one walk: for bytes from outside, which would
/// otherwise be read twice. `plain_keys`: PlainKeys(metadata) (false is always
/// correct: each printed key is then checked). On failure `out` is left as it was.
/// With unsorted keys (facts->keys_sorted false) the text has them in stored order.
arrow::Status WriteJsonChecked(const JsonWriter& writer, const MetadataView& metadata,
                               const uint32_t* key_ranks, bool plain_keys,
                               std::string_view value, const ValidateOptions& options,
                               ValueFacts* facts, TextSink* out);

/// Appends `s` as a quoted JSON string escaped as Jackson's writeString does.
void AppendJsonString(std::string_view s, TextSink* out);
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace varshred::internal
