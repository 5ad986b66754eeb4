// Licensed under the Apache License, Version 2.0.
//
// Variant -> JSON text exactly as Spark 4.3's SQL to_json(variant) prints it
// (org.apache.spark.types.variant.Variant.toJsonImpl), checked against a real Spark
// session:
//  * object fields in stored (key) order, no spaces; strings escaped as Jackson's
//    writeString does (\" \\ \b \t \n \f \r, other controls as \u00XX in upper case,
//    everything else raw);
//  * decimals with trailing zeros stripped, never in exponent form (3.0 -> 3,
//    100 -> 100, -0.00100 -> -0.001);
//  * float/double as Java's Float/Double.toString; NaN and +-Infinity as quoted
//    strings;
//  * date as "yyyy-MM-dd"; timestamps as "yyyy-MM-dd HH:mm:ss[.ffffff]" with the
//    fraction's trailing zeros trimmed, plus "+HH:MM" (seconds of the offset dropped,
//    "+00:00" for zero) in the writer's zone; timestamp_ntz without offset;
//  * binary as standard base64; uuid as lowercase 8-4-4-4-12.
// Spark 4.3 cannot print time and nanosecond timestamps (it raises
// UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT); we print them the way its formatters would:
// time as "HH:mm:ss[.ffffff]", nanosecond timestamps with up to 9 fraction digits.
//
// Float/double text comes from internal::AppendFloating (json_write_internal.h), whose
// Java text the string cast shares.

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "varshred/calendar_internal.h"
#include "varshred/cast_text_internal.h"
#include "varshred/endian_internal.h"
#include "varshred/json.h"
#include "varshred/json_write_internal.h"
#include "varshred/timezone_internal.h"
#include "varshred/validate_walk_internal.h"

namespace varshred {

namespace {

using internal::AppendDate;
using internal::AppendFloating;
using internal::AppendInt;
using internal::AppendOffset;
using internal::AppendTimeOfDay;
using internal::CountDigits;
using internal::PutDigits;
using internal::ReadLE;
using internal::TextSink;
using internal::TimeZone;

// Escape for each byte below 0x80: 0 = raw, 'u' = \u00XX, else the short escape.
struct EscapeTable {
  char code[128];
  constexpr EscapeTable() : code() {
    for (int i = 0; i < 0x20; ++i) code[i] = 'u';
    code['\b'] = 'b';
    code['\t'] = 't';
    code['\n'] = 'n';
    code['\f'] = 'f';
    code['\r'] = 'r';
    code['"'] = '"';
    code['\\'] = '\\';
  }
};
constexpr EscapeTable kEscapes;

// Whether any of the 8 bytes in `w` needs an escape: a control byte (< 0x20), '"' or
// '\\'. Bytes >= 0x80 never do (the subtraction's borrow is masked by ~w).
bool NeedsEscape(uint64_t w) {
  return (internal::BytesBelow(w, 0x20) | internal::BytesEqual(w, '"') |
          internal::BytesEqual(w, '\\')) != 0;
}

#if defined(__SSE2__)
// Whether any of the 16 bytes at `p` needs an escape (as NeedsEscape()).
inline bool NeedsEscape16(const char* p) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // A byte <= 0x1F (unsigned) is its own maximum with 0x1F.
  const __m128i control_max = _mm_set1_epi8(0x1F);
  const __m128i special =
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
                   _mm_cmpeq_epi8(_mm_max_epu8(x, control_max), control_max));
  return _mm_movemask_epi8(special) != 0;
}
#endif

// The length of the prefix of `s` that needs no escape, rounded down to a multiple of
// 8: 16 bytes at a time with SSE2 (every x86-64 has it; long text such as tweets),
// then 8. Out of line: inlined into AppendJsonString's loop for escapes, it cost the
// common case of a plain string registers saved and restored (measured).
[[gnu::noinline]] size_t RawPrefix(std::string_view s) {
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= s.size(); i += 16) {
    if (NeedsEscape16(s.data() + i)) break;
  }
#endif
  for (; i + 8 <= s.size(); i += 8) {
    if (NeedsEscape(ReadLE<uint64_t>(s.data() + i))) break;
  }
  return i;
}

// Whether byte `c` needs an escape (bytes of multi-byte UTF-8 characters never do).
inline bool NeedsEscapeByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x80 && kEscapes.code[u] != 0;
}

// Whether a string of 1 to 3 bytes needs an escape: its bytes 0, n / 2 and n - 1,
// padded with spaces (which need none), checked as one word.
bool TinyNeedsEscape(const char* s, size_t n) {
  const uint64_t w = 0x2020202020000000ULL | static_cast<uint8_t>(s[0]) |
                     (uint64_t{static_cast<uint8_t>(s[n / 2])} << 8) |
                     (uint64_t{static_cast<uint8_t>(s[n - 1])} << 16);
  return NeedsEscape(w);
}

// Whether any byte of `s` needs an escape. Most strings and keys have none and are
// copied in one piece. Whole blocks from the start, then one block that ends with `s`
// (overlapping the last whole one) for the bytes left over.
bool NeedsAnyEscape(std::string_view s) {
  const char* d = s.data();
  const size_t n = s.size();
#if defined(__SSE2__)
  if (n >= 16) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      if (NeedsEscape16(d + i)) return true;
    }
    return i != n && NeedsEscape16(d + n - 16);
  }
#endif
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      if (NeedsEscape(ReadLE<uint64_t>(d + i))) return true;
    }
    return i != n && NeedsEscape(ReadLE<uint64_t>(d + n - 8));
  }
  if (n >= 4) {
    return NeedsEscape(ReadLE<uint32_t>(d) | uint64_t{ReadLE<uint32_t>(d + n - 4)} << 32);
  }
  return n > 0 && TinyNeedsEscape(d, n);
}

// Copies `n` bytes of `s` to `p` and returns the end. Up to 16 bytes (most keys and
// short strings) are copied with overlapping loads within `s`, without a call.
[[gnu::always_inline]] inline char* CopyShort(char* p, const char* s, size_t n) {
  if (n > 16) {
    std::memcpy(p, s, n);
  } else if (n >= 8) {
    const auto head = ReadLE<uint64_t>(s);
    const auto tail = ReadLE<uint64_t>(s + n - 8);
    std::memcpy(p, &head, 8);
    std::memcpy(p + n - 8, &tail, 8);
  } else if (n >= 4) {
    const auto head = ReadLE<uint32_t>(s);
    const auto tail = ReadLE<uint32_t>(s + n - 4);
    std::memcpy(p, &head, 4);
    std::memcpy(p + n - 4, &tail, 4);
  } else if (n > 0) {  // bytes 0, n / 2 and n - 1 cover 1 to 3 bytes
    p[0] = s[0];
    p[n / 2] = s[n / 2];
    p[n - 1] = s[n - 1];
  }
  return p + n;
}

// `s` in quotes at `p`, which has room for s.size() + 2 bytes; returns the end.
[[gnu::always_inline]] inline char* PutQuoted(std::string_view s, char* p) {
  *p++ = '"';
  p = CopyShort(p, s.data(), s.size());
  *p++ = '"';
  return p;
}

// Puts `s` in quotes when none of its bytes needs an escape, else nothing; returns
// whether it did. Strings of at most 16 bytes (most keys and short values) are checked
// and copied inline, those of 4 to 16 with the same two overlapping loads within `s`.
bool PutQuotedIfPlain(std::string_view s, TextSink* out) {
  const char* d = s.data();
  const size_t n = s.size();
  if (n > 16 || n < 4) {
    if (n > 16 ? NeedsAnyEscape(s) : n > 0 && TinyNeedsEscape(d, n)) return false;
    out->Advance(PutQuoted(s, out->Reserve(n + 2)));
    return true;
  }
  char* p = out->Reserve(n + 2);
  p[0] = '"';
  if (n >= 8) {
    const auto head = ReadLE<uint64_t>(d);
    const auto tail = ReadLE<uint64_t>(d + n - 8);
    if (NeedsEscape(head) || NeedsEscape(tail)) return false;
    std::memcpy(p + 1, &head, 8);
    std::memcpy(p + 1 + n - 8, &tail, 8);
  } else {
    const auto head = ReadLE<uint32_t>(d);
    const auto tail = ReadLE<uint32_t>(d + n - 4);
    if (NeedsEscape(head | (uint64_t{tail} << 32))) return false;
    std::memcpy(p + 1, &head, 4);
    std::memcpy(p + 1 + n - 4, &tail, 4);
  }
  p[n + 1] = '"';
  out->Advance(p + n + 2);
  return true;
}

}  // namespace

void internal::AppendJsonString(std::string_view s, std::string* out) {
  if (NeedsAnyEscape(s)) {
    TextSink sink(out);
    AppendJsonString(s, &sink);
    return;
  }
  const size_t at = out->size();
  out->resize(at + s.size() + 2);
  PutQuoted(s, out->data() + at);
}

void internal::AppendJsonString(std::string_view s, TextSink* out) {
  if (PutQuotedIfPlain(s, out)) return;
  out->Put('"');
  // In pieces of at most kPiece bytes, each with room for all of its bytes escaped
  // (\u00XX: six bytes out per byte in), so that a long string does not reserve six
  // times its size at once.
  constexpr size_t kPiece = 4096;
  for (size_t start = 0; start < s.size(); start += kPiece) {
    const std::string_view piece = s.substr(start, kPiece);
    char* p = out->Reserve(6 * piece.size());
    for (size_t i = 0; i < piece.size();) {
      // The next escape: a byte at a time among the next 16 (escapes often come
      // close together), then past whole words without one.
      size_t end = i;
      const size_t near = std::min(piece.size(), i + 16);
      while (end < near && !NeedsEscapeByte(piece[end])) ++end;
      if (end == near) {
        end += RawPrefix(piece.substr(end));
        while (end < piece.size() && !NeedsEscapeByte(piece[end])) ++end;
      }
      p = CopyShort(p, piece.data() + i, end - i);
      if (end == piece.size()) break;
      const auto c = static_cast<unsigned char>(piece[end]);
      const char e = kEscapes.code[c];
      *p++ = '\\';
      if (e == 'u') {
        static constexpr char kHex[] = "0123456789ABCDEF";
        const char code[5] = {'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        p = std::copy_n(code, 5, p);
      } else {
        *p++ = e;
      }
      i = end + 1;
    }
    out->Advance(p);
  }
  out->Put('"');
}

namespace {

// The most room a decimal's text reserves (AppendDecimal): a sign, then at most "0.", 38
// zeros and 39 digits, or 39 digits, the point and the fixed-size copy there.
constexpr size_t kDecimalRoom = 96;

// BigDecimal.stripTrailingZeros().toPlainString() of `unscaled` / 10^scale; Decimal4
// and Decimal8 in 64 bits, Decimal16 in 128.
template <typename Unscaled>
void AppendDecimal(Unscaled unscaled, int scale, TextSink* out) {
  using Magnitude =
      std::conditional_t<(sizeof(Unscaled) > 8), unsigned __int128, uint64_t>;
  const bool negative = unscaled < 0;
  // Negated as unsigned: the most negative value has no signed negation.
  Magnitude mag = negative ? Magnitude{0} - static_cast<Magnitude>(unscaled)
                           : static_cast<Magnitude>(unscaled);
  while (scale > 0 && mag != 0 && mag % 10 == 0) {
    mag /= 10;
    --scale;
  }
  if (mag == 0) {
    out->Put('0');
    return;
  }
  char* o = out->Reserve(kDecimalRoom);
  *o = '-';
  o += negative;
  const int digits = CountDigits(mag);
  if (digits <= scale) {
    *o++ = '0';
    *o++ = '.';
    o = std::fill_n(o, scale - digits, '0');
    o += digits;
    PutDigits(mag, o);
  } else {
    o += digits;
    PutDigits(mag, o);
    if (scale > 0) {
      // The fraction (at most 38 digits) moves right by one for the point, in one
      // copy of a known size.
      char* point = o - scale;
      char fraction[48];
      std::memcpy(fraction, point, sizeof(fraction));
      std::memcpy(point + 1, fraction, sizeof(fraction));
      *point = '.';
      ++o;
    }
  }
  out->Advance(o);
}

void AppendBase64(std::string_view data, std::string* out) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const uint32_t v = (uint32_t{p[i]} << 16) | (uint32_t{p[i + 1]} << 8) | p[i + 2];
    const char buf[4] = {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63],
                         kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
    out->append(buf, 4);
  }
  const size_t rest = data.size() - i;
  if (rest > 0) {
    const uint32_t v = (uint32_t{p[i]} << 16) | (rest == 2 ? uint32_t{p[i + 1]} << 8 : 0);
    out->push_back(kAlphabet[v >> 18]);
    out->push_back(kAlphabet[(v >> 12) & 63]);
    out->push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out->push_back('=');
  }
}

void AppendUuid(std::string_view bytes, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out->push_back('-');
    const auto c = static_cast<unsigned char>(bytes[i]);
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
  out->push_back('"');
}

}  // namespace

struct JsonWriter::Impl {
  TimeZone zone;

  // `units` per second: 1e6 (micros) or 1e9 (nanos). In seconds, so that the zone's
  // offset cannot leave the range of an instant at either end of int64.
  void AppendTimestamp(int64_t value, int64_t units, int digits, bool with_zone,
                       std::string* out) const {
    const internal::SplitTime t = internal::SplitSeconds(value, units);
    const int32_t offset = with_zone ? zone.OffsetAt(t.seconds) : 0;
    out->push_back('"');
    internal::AppendTimestamp(t.seconds + offset, t.fraction, digits, out);
    if (with_zone) AppendOffset(offset, out);
    out->push_back('"');
  }

  // Whether every key of `metadata` can be printed without escapes, when that is cheap
  // to know: one scan of a dictionary no larger than a few times the value (a row's own
  // dictionary, whose keys the value mostly prints; each printed key costs the value at
  // least two bytes) replaces a check per printed key. A dictionary shared by many rows
  // may be far larger than one row: the column kernels scan it once for all of them
  // (internal::PlainKeysCache).
  static bool PlainKeys(const MetadataView& metadata, std::string_view v) {
    return metadata.key_bytes().size() <= 4 * v.size() && internal::PlainKeys(metadata);
  }

  // `v` starts with the value and may run on past it (a container's later values).
  // Objects, arrays and the scalars of most documents are printed here; the rest
  // through WriteOther(). `plain_keys`: no key needs an escape (see PlainKeys()).
  void Write(const MetadataView& metadata, std::string_view v, bool plain_keys,
             TextSink* out) const {
    switch (static_cast<BasicType>(static_cast<uint8_t>(v[0]) & kBasicTypeMask)) {
      case BasicType::kObject: {
        const ObjectView obj(metadata, v);
        const std::string_view values = obj.values_area();
        out->Put('{');
        for (uint32_t i = 0; i < obj.num_fields(); ++i) {
          PutKey(i, obj.key(i), plain_keys, out);
          Write(metadata, values.substr(obj.field_offset(i)), plain_keys, out);
        }
        out->Put('}');
        return;
      }
      case BasicType::kArray: {
        const ArrayView arr(metadata, v);
        const std::string_view values = arr.values_area();
        out->Put('[');
        for (uint32_t i = 0; i < arr.size(); ++i) {
          if (i != 0) out->Put(',');
          Write(metadata, values.substr(arr.element_offset(i)), plain_keys, out);
        }
        out->Put(']');
        return;
      }
      default:
        WriteScalar(metadata, v, out);
        return;
    }
  }

  // The key of field `i` of an object, with the comma before it and the colon after.
  [[gnu::always_inline]] static void PutKey(uint64_t i, std::string_view key,
                                            bool plain_keys, TextSink* out) {
    if (plain_keys) {  // ,"key": with one reservation
      char* p = out->Reserve(key.size() + 4);
      *p = ',';
      p = PutQuoted(key, p + (i != 0));
      *p = ':';
      out->Advance(p + 1);
    } else {
      if (i != 0) out->Put(',');
      internal::AppendJsonString(key, out);
      out->Put(':');
    }
  }

  // A short string or primitive starting at `v` (which may run on past it).
  [[gnu::always_inline]] void WriteScalar(const MetadataView& metadata,
                                          std::string_view v, TextSink* out) const {
    const auto header = static_cast<uint8_t>(v[0]);
    if ((header & kBasicTypeMask) == static_cast<uint8_t>(BasicType::kShortString)) {
      internal::AppendJsonString(v.substr(1, header >> kValueHeaderShift), out);
      return;
    }
    WritePrimitive(metadata, static_cast<PrimitiveType>(header >> kValueHeaderShift), v,
                   out);
  }

  // A primitive of type `type` starting at `v` (which may run on past it).
  [[gnu::always_inline]] void WritePrimitive(const MetadataView& metadata,
                                             PrimitiveType type, std::string_view v,
                                             TextSink* out) const {
    const auto* payload = reinterpret_cast<const uint8_t*>(v.data()) + 1;
    switch (type) {
      case PrimitiveType::kNull:
        out->Put("null");
        return;
      case PrimitiveType::kTrue:
        out->Put("true");
        return;
      case PrimitiveType::kFalse:
        out->Put("false");
        return;
      case PrimitiveType::kInt8:
        AppendInt(static_cast<int8_t>(payload[0]), out);
        return;
      case PrimitiveType::kInt16:
        AppendInt(ReadLE<int16_t>(payload), out);
        return;
      case PrimitiveType::kInt32:
        AppendInt(ReadLE<int32_t>(payload), out);
        return;
      case PrimitiveType::kInt64:
        AppendInt(ReadLE<int64_t>(payload), out);
        return;
      case PrimitiveType::kDecimal4:
        AppendDecimal(int64_t{ReadLE<int32_t>(payload + 1)}, payload[0], out);
        return;
      case PrimitiveType::kDecimal8:
        AppendDecimal(ReadLE<int64_t>(payload + 1), payload[0], out);
        return;
      case PrimitiveType::kString:
        internal::AppendJsonString(v.substr(5, ReadLE<uint32_t>(payload)), out);
        return;
      case PrimitiveType::kFloat:
        AppendFloating(ReadLE<float>(payload), out);
        return;
      case PrimitiveType::kDouble:
        AppendFloating(ReadLE<double>(payload), out);
        return;
      default: {
        std::string* text = out->Scratch();
        WriteOther(VariantView::MakeUnchecked(metadata, v), text);
        out->Put(*text);
        return;
      }
    }
  }

  // The types Write() leaves to this, appended to `out` itself; false for the others.
  bool WriteOther(const VariantView& v, std::string* out) const {
    switch (v.type()) {
      case VariantType::kDecimal16: {
        TextSink sink(out, 48);
        const Decimal d = v.GetDecimal();
        AppendDecimal(d.unscaled, d.scale, &sink);
        return true;
      }
      case VariantType::kDate:
        out->push_back('"');
        AppendDate(v.GetDate(), out);
        out->push_back('"');
        return true;
      case VariantType::kTimestampMicros:
        AppendTimestamp(v.GetTimeValue(), 1'000'000, 6, true, out);
        return true;
      case VariantType::kTimestampNtzMicros:
        AppendTimestamp(v.GetTimeValue(), 1'000'000, 6, false, out);
        return true;
      case VariantType::kTimestampNanos:
        AppendTimestamp(v.GetTimeValue(), 1'000'000'000, 9, true, out);
        return true;
      case VariantType::kTimestampNtzNanos:
        AppendTimestamp(v.GetTimeValue(), 1'000'000'000, 9, false, out);
        return true;
      case VariantType::kTimeNtzMicros: {
        // Out-of-range times (invalid data) wrap into the day rather than misprint.
        const int64_t day_micros = int64_t{86400} * 1'000'000;
        int64_t t = v.GetTimeValue() % day_micros;
        if (t < 0) t += day_micros;
        out->push_back('"');
        AppendTimeOfDay(t / 1'000'000, t % 1'000'000, 6, out);
        out->push_back('"');
        return true;
      }
      case VariantType::kBinary:
        out->push_back('"');
        AppendBase64(v.GetBinary(), out);
        out->push_back('"');
        return true;
      case VariantType::kUuid:
        AppendUuid(v.GetUuid(), out);
        return true;
      default:  // printed by Write()
        return false;
    }
  }
  // Prints a value as the Validator walks it (internal::WriteJsonChecked()): the same
  // text as JsonWriter::Impl::Write(), from the hooks the walk calls once each part is
  // checked.
  class CheckedPrinter;
};

class JsonWriter::Impl::CheckedPrinter {
 public:
  CheckedPrinter(const Impl& writer, const MetadataView& metadata, bool plain_keys,
                 TextSink* out)
      : writer_(writer), metadata_(metadata), plain_keys_(plain_keys), out_(*out) {}

  static constexpr bool kInlineScalarChecks = true;
  static constexpr bool kFollowsPath = false;

  [[gnu::always_inline]] void ShortString(const uint8_t* value, uint64_t size) {
    internal::AppendJsonString({reinterpret_cast<const char*>(value) + 1, size - 1},
                               &out_);
  }
  [[gnu::always_inline]] void Primitive(const uint8_t* value, uint8_t id, uint64_t size) {
    writer_.WritePrimitive(metadata_, static_cast<PrimitiveType>(id),
                           {reinterpret_cast<const char*>(value), size}, &out_);
  }
  void BeginObject() { out_.Put('{'); }
  void Field(uint64_t index, uint32_t id) {
    Impl::PutKey(index, metadata_.key(id), plain_keys_, &out_);
  }
  void EndObject() { out_.Put('}'); }
  void BeginArray() { out_.Put('['); }
  void Element(uint64_t index) {
    if (index != 0) out_.Put(',');
  }
  void EndArray() { out_.Put(']'); }

 private:
  const Impl& writer_;
  const MetadataView& metadata_;
  const bool plain_keys_;
  TextSink& out_;
};

JsonWriter::JsonWriter() : impl_(std::make_unique<Impl>()) {}
JsonWriter::~JsonWriter() = default;
JsonWriter::JsonWriter(JsonWriter&&) noexcept = default;
JsonWriter& JsonWriter::operator=(JsonWriter&&) noexcept = default;

arrow::Result<JsonWriter> JsonWriter::Make(const JsonWriteOptions& options) {
  JsonWriter writer;
  ARROW_ASSIGN_OR_RAISE(writer.impl_->zone, TimeZone::Make(options.timezone));
  return writer;
}

void internal::WriteJson(const JsonWriter& writer, const VariantView& value,
                         TextSink* out) {
  const std::string_view v = value.value_bytes();
  writer.impl_->Write(value.metadata(), v,
                      JsonWriter::Impl::PlainKeys(value.metadata(), v), out);
}

bool internal::PlainKeys(const MetadataView& metadata) {
  return !NeedsAnyEscape(metadata.key_bytes());
}

arrow::Status internal::WriteJsonChecked(const JsonWriter& writer,
                                         const MetadataView& metadata,
                                         const uint32_t* key_ranks, bool plain_keys,
                                         std::string_view value,
                                         const ValidateOptions& options,
                                         ValueFacts* facts, TextSink* out) {
  ARROW_RETURN_NOT_OK(CheckValidateOptions(options));
  const size_t start = out->Position();
  JsonWriter::Impl::CheckedPrinter printer(*writer.impl_, metadata, plain_keys, out);
  Validator validator(metadata, key_ranks, options, &printer);
  arrow::Status st = validator.Run(value);
  if (!st.ok()) {
    out->Truncate(start);
    return st;
  }
  if (facts != nullptr) *facts = validator.facts();
  return arrow::Status::OK();
}

arrow::Status JsonWriter::Write(const VariantView& value, std::string* out) const {
  if (impl_->WriteOther(value, out)) return arrow::Status::OK();
  // Text is mostly within twice the value's size (keys are ids in the value); a decimal
  // near its end reserves more than it prints, and a second growth of the string costs
  // more than the bytes.
  TextSink sink(out, 2 * value.value_bytes().size() + kDecimalRoom);
  const std::string_view v = value.value_bytes();
  impl_->Write(value.metadata(), v, Impl::PlainKeys(value.metadata(), v), &sink);
  return arrow::Status::OK();
}

}  // namespace varshred
