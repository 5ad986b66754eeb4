// Licensed under the Apache License, Version 2.0.
//
// JSON -> Variant with simdjson's on-demand API, following Spark 4.3's parse_json
// (VariantBuilder.buildJson / tryParseDecimal), checked against a real Spark session:
//  * integers take the smallest of int8..int64; beyond int64 they become a decimal
//    (scale 0) when they have at most 38 digits, else a double;
//  * a number with a fraction and no exponent becomes the exact decimal of its text
//    (trailing zeros kept: 1.50 is 150 scale 2) when precision and scale are <= 38,
//    else a double;
//  * a number with an exponent is always a double (1e400 -> Infinity, 1e-400 -> 0.0,
//    as Java's Double.parseDouble).
// Where we differ from Spark on purpose: trailing content after the value ("1 2") is
// an error (Spark's Jackson parser ignores it), invalid UTF-8 is an error (Spark
// replaces it with U+FFFD), and numbers longer than 1000 characters are accepted.

#include <simdjson.h>

#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "varshred/endian_internal.h"
#include "varshred/json.h"
#include "varshred/json_reader_internal.h"
#include "varshred/utf8_internal.h"

namespace varshred {

namespace sj = simdjson;
namespace od = simdjson::ondemand;

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Whether `token` is `literal` followed by nothing but whitespace (a literal's length
// is a constant, so the comparison is a load or two, not a call).
template <size_t N>
bool IsLiteral(std::string_view token, const char (&literal)[N]) {
  constexpr size_t n = N - 1;
  if (token.size() < n || std::memcmp(token.data(), literal, n) != 0) return false;
  for (size_t i = n; i < token.size(); ++i) {
    if (!IsJsonSpace(token[i])) return false;
  }
  return true;
}

// One JSON number token, scanned once.
struct ScannedNumber {
  std::string_view text;  // the number without trailing whitespace
  bool negative = false;
  bool has_fraction = false;
  bool has_exponent = false;
  int significant_digits = 0;  // digits of the unscaled value without leading zeros
  int scale = 0;               // digits after '.'
  // |unscaled| while significant_digits <= 19 (most numbers: no 128-bit arithmetic).
  uint64_t small = 0;
  int128_t magnitude = 0;        // |unscaled|, valid while significant_digits <= 38
  int64_t decimal_exponent = 0;  // for the double overflow/underflow decision

  int128_t Magnitude() const {
    return significant_digits <= kSmallDigits ? static_cast<int128_t>(small) : magnitude;
  }
  static constexpr int kSmallDigits = 19;  // 10^19 - 1 < 2^64
};

// Scans `token` (a raw simdjson token: the number plus any whitespace after it).
// Returns false if it is not a valid JSON number.
bool ScanNumber(std::string_view token, ScannedNumber* out) {
  const char* p = token.data();
  const char* end = p + token.size();
  const char* begin = p;
  if (p < end && *p == '-') {
    out->negative = true;
    ++p;
  }
  if (p == end || !IsDigit(*p)) return false;
  uint64_t small = 0;
  int128_t mag = 0;
  int sig = 0;
  int int_sig = 0;
  auto add_digit = [&](char c) {
    if (sig == 0 && c == '0') return;
    const int d = c - '0';
    if (sig < ScannedNumber::kSmallDigits) {
      small = small * 10 + static_cast<uint64_t>(d);
    } else if (sig < 38) {
      // Only 38 digits matter (more means precision > 38: a double); 39 would overflow.
      if (sig == ScannedNumber::kSmallDigits) mag = static_cast<int128_t>(small);
      mag = mag * 10 + d;
    }
    ++sig;
  };
  if (*p == '0') {
    ++p;
  } else {
    while (p < end && IsDigit(*p)) add_digit(*p++);
  }
  int_sig = sig;
  int leading_fraction_zeros = 0;
  if (p < end && *p == '.') {
    ++p;
    if (p == end || !IsDigit(*p)) return false;
    out->has_fraction = true;
    while (p < end && IsDigit(*p)) {
      if (sig == 0 && *p == '0') ++leading_fraction_zeros;
      add_digit(*p++);
      ++out->scale;
    }
  }
  int64_t exp = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool exp_negative = false;
    if (p < end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end || !IsDigit(*p)) return false;
    out->has_exponent = true;
    while (p < end && IsDigit(*p)) {
      if (exp < 1'000'000'000) exp = exp * 10 + (*p - '0');
      ++p;
    }
    if (exp_negative) exp = -exp;
  }
  out->text = std::string_view(begin, static_cast<size_t>(p - begin));
  while (p < end && IsJsonSpace(*p)) ++p;
  if (p != end) return false;
  out->significant_digits = sig;
  out->small = small;
  out->magnitude = mag;
  out->decimal_exponent = exp + (int_sig > 0 ? int_sig : -leading_fraction_zeros);
  return true;
}

// Java's Double.parseDouble: correctly rounded, overflow to +-Infinity, underflow to
// +-0.0.
double ToDouble(const ScannedNumber& n) {
  double d = 0;
  const auto [ptr, ec] = std::from_chars(n.text.data(), n.text.data() + n.text.size(), d);
  if (ec == std::errc::result_out_of_range) {
    const double mag = n.significant_digits > 0 && n.decimal_exponent > 0
                           ? std::numeric_limits<double>::infinity()
                           : 0.0;
    return n.negative ? -mag : mag;
  }
  return d;
}

// Error descriptions for what simdjson reports with one generic code. They run on the
// error path only.

size_t SkipJsonSpace(std::string_view s, size_t i) {
  while (i < s.size() && IsJsonSpace(s[i])) ++i;
  return i;
}

// The end of the object or array starting at s[i] when its brackets balance (strings
// skipped), else npos.
size_t ContainerEnd(std::string_view s, size_t i) {
  std::string open;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      if (i >= s.size()) return std::string_view::npos;
    } else if (c == '[' || c == '{') {
      open.push_back(c);
    } else if (c == ']' || c == '}') {
      if (open.empty() || open.back() != (c == ']' ? '[' : '{')) {
        return std::string_view::npos;
      }
      open.pop_back();
      if (open.empty()) return i + 1;
    }
  }
  return std::string_view::npos;
}

// The first string of the document (in document order, as simdjson decodes them) with
// a bad escape, an unpaired surrogate or a raw control character, described with its
// offset; empty when none is found.
std::string DescribeBadString(std::string_view s) {
  auto hex4 = [&](size_t at, uint32_t* out) {
    if (at + 4 > s.size()) return false;
    *out = 0;
    for (size_t k = at; k < at + 4; ++k) {
      const char c = s[k];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return false;
      *out = *out * 16 + static_cast<uint32_t>(d);
    }
    return true;
  };
  auto surrogate = [&](size_t at) {
    return "unpaired surrogate '" + std::string(s.substr(at, 6)) + "' at byte " +
           std::to_string(at);
  };
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!in_string) {
      in_string = s[i] == '"';
      continue;
    }
    if (s[i] == '"') {
      in_string = false;
    } else if (static_cast<unsigned char>(s[i]) < 0x20) {
      return "control character in a string at byte " + std::to_string(i) +
             " (escape it)";
    } else if (s[i] == '\\' && i + 1 < s.size()) {
      const size_t at = i++;
      if (std::string_view("\"\\/bfnrt").find(s[i]) != std::string_view::npos) continue;
      uint32_t unit = 0;
      if (s[i] != 'u' || !hex4(i + 1, &unit)) {
        return "invalid escape '\\" + std::string(1, s[i]) + "' at byte " +
               std::to_string(at);
      }
      i += 4;
      if (unit >= 0xDC00 && unit <= 0xDFFF) return surrogate(at);
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        uint32_t low = 0;
        if (!(i + 2 < s.size() && s[i + 1] == '\\' && s[i + 2] == 'u' &&
              hex4(i + 3, &low) && low >= 0xDC00 && low <= 0xDFFF)) {
          return surrogate(at);
        }
        i += 6;
      }
    }
  }
  return {};
}

// A document that is a single scalar: simdjson cannot hand it out as a value.
std::string_view RawToken(std::string_view t) { return t; }
std::string_view RawToken(sj::simdjson_result<std::string_view>&& t) {
  std::string_view out;
  if (std::move(t).get(out) != sj::SUCCESS) return {};
  return out;
}

}  // namespace

namespace internal {

JsonReader::JsonReader(JsonParseOptions options) : options_(options) {
  // simdjson counts the document itself as one level.
  const size_t depth = static_cast<size_t>(std::max(options_.max_depth, 1)) + 2;
  allocate_status_ = parser_.allocate(4096, depth);
  if (sj::get_active_implementation()->create_dom_parser_implementation(
          4096, depth, indexer_) != sj::SUCCESS) {
    indexer_.reset();
  }
}

size_t JsonReader::OffsetOf(const char* p) const {
  if (p < begin_ || p > begin_ + size_) return size_;
  return static_cast<size_t>(p - begin_);
}

arrow::Status JsonReader::Error(sj::error_code code, const char* where) const {
  const std::string_view text(begin_, size_);
  const size_t at = OffsetOf(where);
  switch (code) {
    case sj::UTF8_ERROR:
      return arrow::Status::Invalid("invalid JSON: invalid UTF-8 at byte ",
                                    internal::FirstInvalidUtf8(text));
    case sj::DEPTH_ERROR:
      return DepthError(where);
    case sj::INCORRECT_TYPE:  // get_bool()/is_null() on a token that looked like one
    case sj::T_ATOM_ERROR:
    case sj::F_ATOM_ERROR:
    case sj::N_ATOM_ERROR:
      return arrow::Status::Invalid("invalid JSON at byte ", at,
                                    ": invalid literal (expected true, false or null)");
    case sj::STRING_ERROR:
    case sj::UNESCAPED_CHARS: {
      const std::string problem = DescribeBadString(text);
      if (!problem.empty()) return arrow::Status::Invalid("invalid JSON: ", problem);
      break;
    }
    case sj::TAPE_ERROR:
      // Where simdjson reports a closing bracket right after a comma: `[1,]`.
      if (at < size_ && (text[at] == ']' || text[at] == '}')) {
        size_t k = at;
        while (k > 0 && IsJsonSpace(text[k - 1])) --k;
        if (k > 0 && text[k - 1] == ',') {
          return arrow::Status::Invalid("invalid JSON at byte ", k - 1,
                                        ": trailing comma before '", text[at], "'");
        }
      }
      return arrow::Status::Invalid(
          "invalid JSON at byte ", at,
          ": unexpected character (a missing or extra comma, colon, bracket or value)");
    case sj::INCOMPLETE_ARRAY_OR_OBJECT: {
      // simdjson's indexer reports `[1] x` like `[1`: tell them apart.
      const size_t start = SkipJsonSpace(text, 0);
      const size_t end = ContainerEnd(text, start);
      if (end != std::string_view::npos) {
        return arrow::Status::Invalid("invalid JSON at byte ", SkipJsonSpace(text, end),
                                      ": trailing content after the document");
      }
      return arrow::Status::Invalid("invalid JSON at byte ", start,
                                    ": the document ends inside this object or array");
    }
    default:
      break;
  }
  return arrow::Status::Invalid("invalid JSON at byte ", at, ": ",
                                sj::error_message(code));
}
arrow::Status JsonReader::SizeError() const {
  return arrow::Status::Invalid("value exceeds the size limit of ", kMaxValueSize,
                                " bytes (stopped there, in a JSON document of ", size_,
                                " bytes)");
}
arrow::Status JsonReader::DepthError(const char* where) const {
  return arrow::Status::Invalid("invalid JSON at byte ", OffsetOf(where),
                                ": nesting deeper than ", options_.max_depth);
}

const char* JsonReader::Location() {
  const char* loc = nullptr;
  if (doc_.current_location().get(loc) != sj::SUCCESS) return begin_ + size_;
  return loc;
}

// The common numbers, read in one pass: an integer or a plain decimal (no exponent)
// whose first digit is not 0 and which has at most 18 digits, so that every digit is
// significant (precision = digits) and the unscaled value fits int64; and a number of
// the same first digits with an exponent, which is a double (its text handed to
// from_chars once checked). False, having added nothing, for every other number:
// AppendNumber() reads those. Only the index walk takes this path; the on-demand
// reading keeps AppendNumber() alone, so that the tests comparing the two readings
// check this path against the full scan.
[[gnu::always_inline]] inline bool JsonReader::AppendShortNumber(std::string_view token) {
  const char* p = token.data();
  const char* const end = p + token.size();
  const bool negative = *p == '-';
  if (negative) ++p;
  if (p == end || *p < '1' || *p > '9') return false;
  const char* const first = p;
  uint64_t unscaled = 0;  // wraps past 19 digits, which the digit count then rejects
  while (p < end && IsDigit(*p))
    unscaled = unscaled * 10 + static_cast<uint8_t>(*p++ - '0');
  int digits = static_cast<int>(p - first);
  int scale = 0;
  if (p < end && *p == '.') {
    if (options_.numbers != JsonNumbers::kDecimal) return false;
    const char* const fraction = ++p;
    while (p < end && IsDigit(*p))
      unscaled = unscaled * 10 + static_cast<uint8_t>(*p++ - '0');
    scale = static_cast<int>(p - fraction);
    if (scale == 0) return false;
    digits += scale;
  }
  if (p < end && (*p == 'e' || *p == 'E')) return AppendExponentNumber(token, p + 1);
  if (digits > kMaxDecimal8Precision) return false;
  while (p < end && IsJsonSpace(*p)) ++p;
  if (p != end) return false;  // not a number
  const auto magnitude = static_cast<int64_t>(unscaled);
  const int64_t value = negative ? -magnitude : magnitude;
  if (scale == 0) {
    builder_->AppendInt(value);
  } else {
    AppendShortDecimal(value, digits, scale);
  }
  return true;
}

// The rest of a number after its mantissa and the 'e' at `exponent`[-1]: the exponent's
// digits, then only space. A result out of range (to infinity or zero) is left to
// AppendNumber(), which decides it.
inline bool JsonReader::AppendExponentNumber(std::string_view token,
                                             const char* exponent) {
  const char* p = exponent;
  const char* const end = token.data() + token.size();
  if (p < end && (*p == '+' || *p == '-')) ++p;
  if (p == end || !IsDigit(*p)) return false;
  while (p < end && IsDigit(*p)) ++p;
  const char* const text_end = p;
  while (p < end && IsJsonSpace(*p)) ++p;
  if (p != end) return false;
  double d = 0;
  if (std::from_chars(token.data(), text_end, d).ec != std::errc()) return false;
  builder_->AppendDouble(d);
  return true;
}

// A decimal of at most 18 digits in the narrowest width covering both its precision
// and its scale (VariantBuilder::AppendDecimal()'s rule, without 128-bit arithmetic).
inline void JsonReader::AppendShortDecimal(int64_t unscaled, int precision, int scale) {
  const auto s = static_cast<uint8_t>(scale);
  if (precision <= kMaxDecimal4Precision && scale <= kMaxDecimal4Precision) {
    builder_->AppendDecimal4(static_cast<int32_t>(unscaled), s);
  } else {
    builder_->AppendDecimal8(unscaled, s);
  }
}

inline arrow::Status JsonReader::AppendNumber(std::string_view token) {
  ScannedNumber n;
  if (!ScanNumber(token, &n)) {
    return arrow::Status::Invalid("invalid JSON at byte ", OffsetOf(token.data()),
                                  ": malformed number");
  }
  if (!n.has_fraction && !n.has_exponent) {
    // 19 digits may or may not fit int64; 20 never do.
    if (n.significant_digits <= ScannedNumber::kSmallDigits) {
      const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) +
                             (n.negative ? 1 : 0);
      if (n.small <= limit) {
        // Two's complement negation also maps 2^63 to INT64_MIN.
        builder_->AppendInt(static_cast<int64_t>(n.negative ? 0 - n.small : n.small));
        return arrow::Status::OK();
      }
    }
    if (options_.numbers == JsonNumbers::kDecimal &&
        n.significant_digits <= kMaxDecimal16Precision) {
      const int128_t mag = n.Magnitude();
      builder_->AppendDecimal(Decimal{n.negative ? -mag : mag, 0});
      return arrow::Status::OK();
    }
    builder_->AppendDouble(ToDouble(n));
    return arrow::Status::OK();
  }
  // Spark: BigDecimal precision counts the unscaled digits, at least 1 (for zero).
  const int precision = std::max(n.significant_digits, 1);
  if (!n.has_exponent && options_.numbers == JsonNumbers::kDecimal &&
      precision <= kMaxDecimal16Precision && n.scale <= kMaxDecimal16Precision) {
    if (precision <= kMaxDecimal8Precision && n.scale <= kMaxDecimal8Precision) {
      const auto v = static_cast<int64_t>(n.small);
      AppendShortDecimal(n.negative ? -v : v, precision, n.scale);
    } else {
      const int128_t mag = n.Magnitude();
      builder_->AppendDecimal16(n.negative ? -mag : mag, static_cast<uint8_t>(n.scale));
    }
    return arrow::Status::OK();
  }
  builder_->AppendDouble(ToDouble(n));
  return arrow::Status::OK();
}

inline arrow::Status JsonReader::ParseObject(od::object obj, const char* where,
                                             int depth) {
  builder_->StartObject();
  for (auto field_result : obj) {
    if (auto err = field_result.error()) return Error(err, Location(obj));
    // Used where it lies: a copy reloads the value's iterator, just stored in two
    // pieces, as one 16-byte word (a store-forwarding stall per field).
    od::field& field = field_result.value_unsafe();
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return Error(err, Location());
    builder_->AddKey(key);
    ARROW_RETURN_NOT_OK(ParseAny(field.value(), depth));
    if (MayPassSizeLimit(size_) && OverSizeLimit()) return SizeError();
  }
  const arrow::Status st = builder_->EndObject();
  if (!st.ok()) {
    return arrow::Status::Invalid(st.message(), " (object at byte ", OffsetOf(where),
                                  ")");
  }
  return st;
}

inline arrow::Status JsonReader::ParseArray(od::array arr, int depth) {
  builder_->StartArray();
  for (auto element : arr) {
    if (auto err = element.error()) return Error(err, Location(arr));
    ARROW_RETURN_NOT_OK(ParseAny(element.value_unsafe(), depth));
    if (MayPassSizeLimit(size_) && OverSizeLimit()) return SizeError();
  }
  builder_->EndArray();
  return arrow::Status::OK();
}

// `depth` is the number of containers around `v`.
inline arrow::Status JsonReader::ParseAny(od::value& v, int depth) {
  od::json_type type;
  if (auto err = v.type().get(type)) return Error(err, Location(v));
  switch (type) {
    case od::json_type::object: {
      const char* where = Location(v);
      if (depth + 1 > options_.max_depth) return DepthError(where);
      od::object obj;
      if (auto err = v.get_object().get(obj)) return Error(err, where);
      return ParseObject(obj, where, depth + 1);
    }
    case od::json_type::array: {
      const char* where = Location(v);
      if (depth + 1 > options_.max_depth) return DepthError(where);
      od::array arr;
      if (auto err = v.get_array().get(arr)) return Error(err, where);
      return ParseArray(arr, depth + 1);
    }
    case od::json_type::string: {
      std::string_view s;
      if (auto err = v.get_string().get(s)) return Error(err, Location(v));
      builder_->AppendString(s);
      return arrow::Status::OK();
    }
    case od::json_type::number: {
      return AppendNumber(RawToken(v.raw_json_token()));
    }
    case od::json_type::boolean: {
      bool b;
      if (auto err = v.get_bool().get(b)) return Error(err, Location(v));
      builder_->AppendBool(b);
      return arrow::Status::OK();
    }
    case od::json_type::null: {
      bool is_null = false;
      if (auto err = v.is_null().get(is_null)) return Error(err, Location(v));
      if (!is_null) return Error(sj::N_ATOM_ERROR, Location(v));
      builder_->AppendNull();
      return arrow::Status::OK();
    }
    default:
      return Error(sj::TAPE_ERROR, Location(v));
  }
}

inline arrow::Status JsonReader::ParseScalarDocument(od::json_type type) {
  const std::string_view token = RawToken(doc_.raw_json_token());
  // A bad literal is named before whatever follows it ("not json": the literal).
  if ((type == od::json_type::boolean && !IsLiteral(token, "true") &&
       !IsLiteral(token, "false")) ||
      (type == od::json_type::null && !IsLiteral(token, "null"))) {
    return Error(sj::N_ATOM_ERROR, token.data());
  }
  // The raw token runs up to the next token: anything after it is trailing content.
  if (token.data() + token.size() != begin_ + size_) {
    return arrow::Status::Invalid("invalid JSON at byte ",
                                  OffsetOf(token.data() + token.size()),
                                  ": trailing content after the document");
  }
  switch (type) {
    case od::json_type::number:
      return AppendNumber(token);
    case od::json_type::string: {
      std::string_view s;
      if (auto err = doc_.get_string().get(s)) return Error(err, token.data());
      builder_->AppendString(s);
      return arrow::Status::OK();
    }
    case od::json_type::boolean: {
      bool b;
      if (auto err = doc_.get_bool().get(b)) return Error(err, token.data());
      builder_->AppendBool(b);
      return arrow::Status::OK();
    }
    case od::json_type::null: {
      bool is_null = false;
      if (auto err = doc_.is_null().get(is_null)) return Error(err, token.data());
      if (!is_null) return Error(sj::N_ATOM_ERROR, token.data());
      builder_->AppendNull();
      return arrow::Status::OK();
    }
    default:
      return Error(sj::TAPE_ERROR, token.data());
  }
}

arrow::Status JsonReader::Parse(std::string_view json, size_t readable_after,
                                VariantBuilder* builder) {
  ARROW_RETURN_NOT_OK(Prepare(json, readable_after, builder));
  // A document large enough to pass the size limit is read on demand, which stops
  // where it does.
  if (!MayPassSizeLimit(json.size()) && WalkIndexed()) return arrow::Status::OK();
  od::json_type type;
  ARROW_RETURN_NOT_OK(Open(json, builder, &type));
  return ParseOpened(type);
}

arrow::Status JsonReader::Open(std::string_view json, VariantBuilder* builder,
                               od::json_type* type) {
  // Always from a padded copy: simdjson's on-demand reading looks at the byte after the
  // document to decide whether its containers close, so in place (inside an Arrow
  // buffer) its errors would depend on the next row's bytes.
  ARROW_RETURN_NOT_OK(Prepare(json, /*readable_after=*/0, builder));
  return Iterate(type);
}

arrow::Status JsonReader::Prepare(std::string_view json, size_t readable_after,
                                  VariantBuilder* builder) {
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse in place when the
  // caller vouches for them, else copy into our padded buffer.
  in_place_ = readable_after >= sj::SIMDJSON_PADDING && !json.empty();
  if (in_place_) {
    begin_ = json.data();
    padded_ = json.size() + readable_after;
  } else {
    const size_t needed = json.size() + sj::SIMDJSON_PADDING;
    if (needed > capacity_) {
      const size_t new_capacity = std::max(needed, capacity_ * 2);
      buffer_.reset(new char[new_capacity]);
      capacity_ = new_capacity;
    }
    if (!json.empty()) std::memcpy(buffer_.get(), json.data(), json.size());
    std::memset(buffer_.get() + json.size(), 0, sj::SIMDJSON_PADDING);
    begin_ = buffer_.get();
    padded_ = capacity_;
  }
  size_ = json.size();
  builder_ = builder;
  builder_->set_duplicate_key_policy(options_.duplicate_keys);

  if (json.size() >= 3 && json.substr(0, 3) == "\xEF\xBB\xBF") {
    return arrow::Status::Invalid("invalid JSON at byte 0: byte order mark");
  }
  ARROW_RETURN_NOT_OK(options_.Validate());
  if (allocate_status_ != sj::SUCCESS) return Error(allocate_status_, begin_);
  return arrow::Status::OK();
}

arrow::Status JsonReader::Iterate(od::json_type* type) {
  if (auto err = parser_.iterate(begin_, size_, padded_).get(doc_)) {
    if (err == sj::EMPTY) return arrow::Status::Invalid("invalid JSON: empty input");
    return Error(err, begin_ + size_);
  }
  if (auto err = doc_.type().get(*type)) {
    if (err == sj::EMPTY) return arrow::Status::Invalid("invalid JSON: empty input");
    return Error(err, Location(doc_));
  }
  if ((*type == od::json_type::object || *type == od::json_type::array) &&
      options_.max_depth < 1) {
    return DepthError(Location(doc_));
  }
  return arrow::Status::OK();
}

// ----------------------------------------------------------------------
// The walk of simdjson's structural index
//
// simdjson's first stage validates the UTF-8 and the strings' characters and lists
// where every token starts: the brackets, colons and commas, and the first byte of
// each string, number and literal. A token runs up to the next one (whitespace
// included). The walk checks the grammar as it goes and gives up at the first thing
// it does not accept; Parse() then drops what it added and the on-demand reading
// reports the error (or reads what the walk leaves to it: single scalar documents).

bool JsonReader::Index(std::string_view json, size_t readable_after,
                       VariantBuilder* builder, JsonCursor* cursor) {
  return Prepare(json, readable_after, builder).ok() && IndexPrepared(cursor);
}

namespace {

// Window sizes for JsonReader::IndexFromWindow(): small after a start or a miss, so that
// input whose rows are not back to back wastes little; doubling while rows follow.
constexpr uint32_t kMinAhead = 1 << 10;
constexpr uint32_t kMaxAhead = 64 << 10;

}  // namespace

bool JsonReader::IndexFromWindow(JsonCursor* cursor) {
  Ahead& a = ahead_;
  // Only containers: their opening bracket tells that the row starts outside strings.
  size_t first = 0;
  while (first < size_ && IsJsonSpace(begin_[first])) ++first;
  if (first == size_ || (begin_[first] != '{' && begin_[first] != '[') ||
      size_ >= (size_t{1} << 30)) {
    return false;
  }
  // Whether this row starts after the last one handed out, inside the window.
  const auto at = reinterpret_cast<uintptr_t>(begin_);
  const auto base = reinterpret_cast<uintptr_t>(a.base);
  const bool follows =
      a.base != nullptr && at >= base + a.next_byte && at <= base + a.size;
  if (!follows || at + size_ > base + a.size) {
    // A new window from this row: twice the last when the rows ran past its end, the
    // smallest after a start or a miss.
    a.window = follows ? std::min(2 * a.window, kMaxAhead) : kMinAhead;
    const size_t readable = padded_ - sj::SIMDJSON_PADDING;  // in place: >= size_
    size_t size = std::min(readable, std::max<size_t>(size_, a.window));
    // Never cut a character: its UTF-8 would read as invalid.
    while (size > size_ && (static_cast<uint8_t>(begin_[size]) & 0xC0) == 0x80) --size;
    // The window may cut a later row, inside a string too: the partial mode keeps the
    // tokens of the complete documents before the cut.
    if (!Stage1(size, size == size_ ? sj::stage1_mode::regular
                                    : sj::stage1_mode::streaming_partial)) {
      return false;
    }
    const uint32_t tokens = indexer_->n_structural_indexes;
    // The rows before the first dropped token are indexed whole.
    a = {begin_, indexer_->structural_indexes[tokens], tokens, 0, 0, a.window};
  }
  const uint32_t* index = indexer_->structural_indexes.get();
  const auto start = static_cast<uint32_t>(begin_ - a.base);
  const auto end = static_cast<uint32_t>(start + size_);
  if (end > a.size) return false;  // the partial mode dropped this row's last tokens
  uint32_t lo = a.next_token;
  while (lo < a.tokens && index[lo] < start) ++lo;
  // The row's first token must open it: else its start lies inside another token.
  if (lo == a.tokens || index[lo] != start + first) return false;
  // The walk finds where the row ends (its last bracket), and AtEnd() checks it;
  // Walked() moves the next row's search for its first token past it.
  a.next_token = lo;
  a.next_byte = end;
  *cursor = {a.base, index, lo, a.tokens, end};
  return true;
}

bool JsonReader::Stage1(size_t size, sj::stage1_mode mode) {
  if (size > indexer_->capacity() &&
      indexer_->allocate(size, indexer_->max_depth()) != sj::SUCCESS) {
    return false;
  }
  return indexer_->stage1(reinterpret_cast<const uint8_t*>(begin_), size, mode) ==
         sj::SUCCESS;
}

bool JsonReader::IndexPrepared(JsonCursor* cursor) {
  if (indexer_ == nullptr || size_ == 0) return false;
  if (in_place_ && windows_allowed_ && IndexFromWindow(cursor)) return true;
  // Any window is gone: the index is replaced below, or was by a failed new window.
  ahead_.base = nullptr;
  if (!Stage1(size_, sj::stage1_mode::regular)) return false;
  *cursor = {begin_, indexer_->structural_indexes.get(), 0,
             indexer_->n_structural_indexes, static_cast<uint32_t>(size_)};
  return true;
}

bool JsonReader::WalkIndexed() {
  JsonCursor c;
  if (!IndexPrepared(&c)) return false;
  const char first = c.Peek();
  if (first != '{' && first != '[') return false;
  const VariantBuilder::Checkpoint start = builder_->MakeCheckpoint();
  if (WalkValue(c, 0) && c.AtEnd()) {
    Walked(c);
    return true;
  }
  builder_->Rollback(start);
  return false;
}

bool JsonReader::Unescape(std::string_view raw, std::string_view* text) {
  unescaped_.resize(raw.size() + sj::SIMDJSON_PADDING);
  auto* dst = reinterpret_cast<uint8_t*>(unescaped_.data());
  const uint8_t* end = indexer_->parse_string(
      reinterpret_cast<const uint8_t*>(raw.data()), dst, /*allow_replacement=*/false);
  if (end == nullptr) return false;
  *text = std::string_view(unescaped_.data(), static_cast<size_t>(end - dst));
  return true;
}

// `depth` is the number of containers around the value. Scalars are encoded here,
// inline in the container walks that call it: only containers recurse (a call per
// scalar cost about a tenth of the walk).
[[gnu::always_inline]] inline bool JsonReader::WalkNested(JsonCursor& c, int depth) {
  const char first = c.Peek();
  switch (first) {
    // Two cases, not one: the jump has told objects from arrays already.
    case '{':
      return WalkObject(c, depth);
    case '[':
      return WalkArray(c, depth);
    case '"': {
      std::string_view s;
      if (!WalkString(c, &s)) return false;
      builder_->AppendString(s);
      return true;
    }
    case 't':
      if (!IsLiteral(c.Token(), "true")) return false;
      builder_->AppendBool(true);
      break;
    case 'f':
      if (!IsLiteral(c.Token(), "false")) return false;
      builder_->AppendBool(false);
      break;
    case 'n':
      if (!IsLiteral(c.Token(), "null")) return false;
      builder_->AppendNull();
      break;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      if (!AppendShortNumber(c.Token()) && !AppendNumber(c.Token()).ok()) return false;
      break;
    default:
      return false;
  }
  ++c.pos;
  return true;
}

bool JsonReader::WalkObject(JsonCursor& c, int depth) {
  if (depth + 1 > options_.max_depth) return false;
  ++c.pos;
  builder_->StartObject();
  return WalkFields(c,
                    [&](std::string_view key) {
                      builder_->AddKey(key);
                      return WalkNested(c, depth + 1);
                    }) &&
         builder_->EndObject().ok();
}

bool JsonReader::WalkArray(JsonCursor& c, int depth) {
  if (depth + 1 > options_.max_depth) return false;
  ++c.pos;
  builder_->StartArray();
  if (!WalkElements(c, [&] { return WalkNested(c, depth + 1); })) return false;
  builder_->EndArray();
  return true;
}

bool JsonReader::WalkValue(JsonCursor& c, int depth) { return WalkNested(c, depth); }

arrow::Status JsonReader::ParseOpened(od::json_type type) {
  if (type == od::json_type::object || type == od::json_type::array) {
    const char* where = Location(doc_);
    if (type == od::json_type::object) {
      od::object obj;
      if (auto err = doc_.get_object().get(obj)) return Error(err, where);
      ARROW_RETURN_NOT_OK(ParseObject(obj, where, 1));
    } else {
      od::array arr;
      if (auto err = doc_.get_array().get(arr)) return Error(err, where);
      ARROW_RETURN_NOT_OK(ParseArray(arr, 1));
    }
    if (!doc_.at_end()) {
      return arrow::Status::Invalid("invalid JSON at byte ", OffsetOf(Location(doc_)),
                                    ": trailing content after the document");
    }
    return arrow::Status::OK();
  }
  return ParseScalarDocument(type);
}

}  // namespace internal

arrow::Status JsonParseOptions::Validate() const {
  if (max_depth < 0 || max_depth > kMaxNestingDepth) {
    return arrow::Status::Invalid("JSON max_depth ", max_depth, " is outside 0..",
                                  kMaxNestingDepth, ", varshred's nesting limit");
  }
  return arrow::Status::OK();
}

struct JsonParser::Impl : internal::JsonReader {
  using JsonReader::JsonReader;
};

JsonParser::JsonParser(JsonParseOptions options)
    : impl_(std::make_unique<Impl>(options)) {}
JsonParser::~JsonParser() = default;
JsonParser::JsonParser(JsonParser&&) noexcept = default;
JsonParser& JsonParser::operator=(JsonParser&&) noexcept = default;

const size_t JsonParser::kPadding = sj::SIMDJSON_PADDING;

void JsonParser::IndexAhead(bool allowed) { impl_->AllowWindows(allowed); }

arrow::Status JsonParser::Parse(std::string_view json, VariantBuilder* builder) {
  return impl_->Parse(json, 0, builder);
}

arrow::Status JsonParser::Parse(std::string_view json, size_t readable_after,
                                VariantBuilder* builder) {
  return impl_->Parse(json, readable_after, builder);
}

}  // namespace varshred
