// Licensed under the Apache License, Version 2.0.
//
// Spark 4.3 VariantGet.cast semantics: VariantCaster, one conversion per target type.
// The text grammars (strings to numbers, dates and timestamps and back) are in
// cast_text.cc. Every rule was checked against a local Spark 4.3.0 session
// (try_variant_get / variant_get over a few hundred (value, type) pairs);
// tests/cpp/cast_test.cc pins the results.

#include "varshred/cast.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "calendar_internal.h"
#include "cast_text_internal.h"
#include "decimal_internal.h"
#include "java_float_internal.h"
#include "utf8_internal.h"
#include "varshred/json.h"

namespace varshred {

namespace {

using internal::AppendDate;
using internal::AppendDecimalString;
using internal::AppendTimeOfDay;
using internal::AppendTimestamp;
using internal::AppendUtf8Lossy;
using internal::AppendUuid;
using internal::FloorDiv;
using internal::kMicrosPerDay;
using internal::kMicrosPerSecond;
using internal::ParseBoolean;
using internal::ParseDate;
using internal::ParseDecimalText;
using internal::ParseFloating;
using internal::ParseInteger;
using internal::ParseTimestamp;
using internal::Pow10;
using internal::SplitSeconds;
using internal::SplitTime;
using internal::Trim;

// ----------------------------------------------------------------------
// Decimal arithmetic

int128_t Abs(int128_t v) { return v < 0 ? -v : v; }

// Rescales (unscaled, scale) to `target_scale`, rounding half up (away from zero on
// ties, as java.math.RoundingMode.HALF_UP), then checks `precision`.
bool Rescale(int128_t unscaled, int scale, int precision, int target_scale,
             int128_t* out) {
  int128_t v = unscaled;
  if (target_scale >= scale) {
    const int grow = target_scale - scale;
    if (v != 0 && DecimalPrecision(v) + grow > precision) return false;
    v *= Pow10(grow);
  } else {
    const int128_t d = Pow10(scale - target_scale);
    int128_t q = v / d;
    const int128_t r = v % d;
    // |r| >= d - |r| is 2|r| >= d without the doubling, which overflows for d = 10^38.
    if (Abs(r) >= d - Abs(r)) q += v < 0 ? -1 : 1;
    v = q;
  }
  if (v != 0 && DecimalPrecision(v) > precision) return false;
  *out = v;
  return true;
}

// The decimal as a double, correctly rounded (strtod on its exact text).
double DecimalToDouble(int128_t unscaled, int scale) {
  std::string text;
  AppendDecimalString(unscaled, 0, &text);
  text += "e-" + std::to_string(scale);
  return std::strtod(text.c_str(), nullptr);
}

float DecimalToFloat(int128_t unscaled, int scale) {
  std::string text;
  AppendDecimalString(unscaled, 0, &text);
  text += "e-" + std::to_string(scale);
  return std::strtof(text.c_str(), nullptr);
}

// ----------------------------------------------------------------------
// Floating point

// Spark's ANSI double -> integral check: floor(x) <= MAX && ceil(x) >= MIN, compared
// in double (so 2^63 passes for BIGINT and saturates, as on the JVM).
bool DoubleToInteger(double x, int64_t min, int64_t max, int64_t* out) {
  if (std::isnan(x) || std::isinf(x)) return false;
  if (!(std::floor(x) <= static_cast<double>(max) &&
        std::ceil(x) >= static_cast<double>(min))) {
    return false;
  }
  const double t = std::trunc(x);
  if (t >= 9223372036854775807.0) {
    *out = std::numeric_limits<int64_t>::max();
  } else {
    *out = static_cast<int64_t>(t);
  }
  return true;
}

// Text of a double as Scala's BigDecimal(d) sees it (Double.toString), for decimal
// conversion.
bool DoubleToDecimal(double x, int precision, int scale, int128_t* out) {
  if (std::isnan(x) || std::isinf(x)) return false;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific);
  return ParseDecimalText(std::string_view(buf, static_cast<size_t>(res.ptr - buf)),
                          precision, scale, out);
}

// A cast to timestamp / timestamp_ntz whose result may lie past int64 microseconds
// (nullopt): invalid then, as Spark's try_variant_get gives null.
CastResult Instant(std::optional<int64_t> micros, int64_t* out) {
  if (!micros) return CastResult::kInvalid;
  *out = *micros;
  return CastResult::kOk;
}

// Microseconds of a (ntz) timestamp value, nanoseconds floored.
int64_t TimestampMicros(const VariantView& v) {
  const int64_t t = v.GetTimeValue();
  if (v.type() == VariantType::kTimestampNanos ||
      v.type() == VariantType::kTimestampNtzNanos) {
    return FloorDiv(t, 1000);
  }
  return t;
}

bool CheckedMul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

}  // namespace

// ----------------------------------------------------------------------
// CastTarget

std::string CastTarget::ToString() const {
  switch (type) {
    case CastTargetType::kBoolean:
      return "BOOLEAN";
    case CastTargetType::kInt8:
      return "TINYINT";
    case CastTargetType::kInt16:
      return "SMALLINT";
    case CastTargetType::kInt32:
      return "INT";
    case CastTargetType::kInt64:
      return "BIGINT";
    case CastTargetType::kFloat:
      return "FLOAT";
    case CastTargetType::kDouble:
      return "DOUBLE";
    case CastTargetType::kDecimal:
      return "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case CastTargetType::kString:
      return "STRING";
    case CastTargetType::kDate:
      return "DATE";
    case CastTargetType::kTimestamp:
      return "TIMESTAMP";
    case CastTargetType::kTimestampNtz:
      return "TIMESTAMP_NTZ";
    case CastTargetType::kBinary:
      return "BINARY";
  }
  return "?";
}

// ----------------------------------------------------------------------
// VariantCaster

struct VariantCaster::Impl {
  std::optional<JsonWriter> json;
};

VariantCaster::VariantCaster() : impl_(std::make_unique<Impl>()) {}
VariantCaster::~VariantCaster() = default;
VariantCaster::VariantCaster(VariantCaster&&) noexcept = default;
VariantCaster& VariantCaster::operator=(VariantCaster&&) noexcept = default;

arrow::Result<VariantCaster> VariantCaster::Make(const CastTarget& target,
                                                 const CastOptions& options) {
  if (target.type == CastTargetType::kDecimal &&
      (target.precision < 1 || target.precision > kMaxDecimal16Precision ||
       target.scale > target.precision)) {
    return arrow::Status::Invalid("invalid cast target DECIMAL(", int{target.precision},
                                  ",", int{target.scale}, ")");
  }
  VariantCaster caster;
  caster.target_ = target;
  ARROW_ASSIGN_OR_RAISE(caster.tz_, TimeZone::Make(options.timezone));
  // Objects and arrays cast to strings as JSON; failure messages print values as JSON.
  JsonWriteOptions json_options;
  json_options.timezone = options.timezone;
  ARROW_ASSIGN_OR_RAISE(JsonWriter writer, JsonWriter::Make(json_options));
  caster.impl_->json.emplace(std::move(writer));
  return caster;
}

CastResult VariantCaster::CastBoolean(const VariantView& v, bool* out) const {
  const VariantType t = v.type();
  switch (t) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kBoolean:
      *out = v.GetBool();
      return CastResult::kOk;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      *out = v.GetInteger() != 0;
      return CastResult::kOk;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16:
      *out = v.GetDecimal().unscaled != 0;
      return CastResult::kOk;
    case VariantType::kFloat:
      *out = v.GetFloat() != 0;  // NaN is true, as on the JVM
      return CastResult::kOk;
    case VariantType::kDouble:
      *out = v.GetDouble() != 0;
      return CastResult::kOk;
    case VariantType::kString:
      return ParseBoolean(v.GetString(), out) ? CastResult::kOk : CastResult::kInvalid;
    default:
      return CastResult::kInvalid;
  }
}

CastResult VariantCaster::CastInteger(const VariantView& v, int64_t* out) const {
  int64_t min, max;
  switch (target_.type) {
    case CastTargetType::kInt8:
      min = INT8_MIN, max = INT8_MAX;
      break;
    case CastTargetType::kInt16:
      min = INT16_MIN, max = INT16_MAX;
      break;
    case CastTargetType::kInt32:
      min = INT32_MIN, max = INT32_MAX;
      break;
    default:
      min = INT64_MIN, max = INT64_MAX;
      break;
  }
  const VariantType t = v.type();
  int64_t r;
  switch (t) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kBoolean:
      r = v.GetBool() ? 1 : 0;
      break;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      r = v.GetInteger();
      break;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      if (target_.type != CastTargetType::kInt64) {
        // Spark holds a Variant's decimal as a java BigDecimal, which it casts to int,
        // smallint and tinyint through its double value (Decimal.roundToInt):
        // 0.99999999999999999 is 1, 127.99...9 (38 digits) overflows a tinyint.
        if (!DoubleToInteger(DecimalToDouble(d.unscaled, d.scale), min, max, &r)) {
          return CastResult::kInvalid;
        }
        break;
      }
      const int128_t q = d.unscaled / Pow10(d.scale);  // truncates toward zero, exact
      if (q < min || q > max) return CastResult::kInvalid;
      r = static_cast<int64_t>(q);
      break;
    }
    case VariantType::kFloat:
      if (!DoubleToInteger(v.GetFloat(), min, max, &r)) return CastResult::kInvalid;
      break;
    case VariantType::kDouble:
      if (!DoubleToInteger(v.GetDouble(), min, max, &r)) return CastResult::kInvalid;
      break;
    case VariantType::kString:
      if (!ParseInteger(v.GetString(), min, max, &r)) return CastResult::kInvalid;
      break;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
      // Spark: timestamp -> integral is floor(seconds).
      r = FloorDiv(TimestampMicros(v), kMicrosPerSecond);
      break;
    default:
      return CastResult::kInvalid;
  }
  if (r < min || r > max) return CastResult::kInvalid;
  *out = r;
  return CastResult::kOk;
}

namespace {

// The numeric value of `v` as a double, for float/double targets. False when the
// source does not convert.
template <typename T>
CastResult ToFloating(const VariantView& v, T* out) {
  switch (v.type()) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kBoolean:
      *out = v.GetBool() ? 1 : 0;
      return CastResult::kOk;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      *out = static_cast<T>(v.GetInteger());
      return CastResult::kOk;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      if constexpr (std::is_same_v<T, float>) {
        *out = DecimalToFloat(d.unscaled, d.scale);
      } else {
        *out = DecimalToDouble(d.unscaled, d.scale);
      }
      return CastResult::kOk;
    }
    case VariantType::kFloat:
      *out = static_cast<T>(v.GetFloat());
      return CastResult::kOk;
    case VariantType::kDouble:
      *out = static_cast<T>(v.GetDouble());  // overflow to a float gives infinity
      return CastResult::kOk;
    case VariantType::kString:
      return ParseFloating<T>(v.GetString(), out) ? CastResult::kOk
                                                  : CastResult::kInvalid;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
      // Spark: seconds with the fraction, computed in double.
      *out = static_cast<T>(static_cast<double>(TimestampMicros(v)) / kMicrosPerSecond);
      return CastResult::kOk;
    default:
      return CastResult::kInvalid;
  }
}

}  // namespace

CastResult VariantCaster::CastFloat(const VariantView& v, float* out) const {
  return ToFloating<float>(v, out);
}

CastResult VariantCaster::CastDouble(const VariantView& v, double* out) const {
  return ToFloating<double>(v, out);
}

CastResult VariantCaster::CastDecimal(const VariantView& v, int128_t* out) const {
  const int p = target_.precision, s = target_.scale;
  bool ok;
  switch (v.type()) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kBoolean:
      ok = Rescale(v.GetBool() ? 1 : 0, 0, p, s, out);
      break;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      ok = Rescale(v.GetInteger(), 0, p, s, out);
      break;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      ok = Rescale(d.unscaled, d.scale, p, s, out);
      break;
    }
    case VariantType::kFloat:
      ok = DoubleToDecimal(v.GetFloat(), p, s, out);
      break;
    case VariantType::kDouble:
      ok = DoubleToDecimal(v.GetDouble(), p, s, out);
      break;
    case VariantType::kString:
      ok = ParseDecimalText(Trim(v.GetString()), p, s, out);
      break;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
      // Exact seconds (scale 6), then rounded half up.
      ok = Rescale(TimestampMicros(v), 6, p, s, out);
      break;
    default:
      ok = false;
  }
  return ok ? CastResult::kOk : CastResult::kInvalid;
}

CastResult VariantCaster::CastString(const VariantView& v, std::string* out) const {
  const VariantType t = v.type();
  switch (t) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kBoolean:
      out->append(v.GetBool() ? "true" : "false");
      return CastResult::kOk;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      out->append(std::to_string(v.GetInteger()));
      return CastResult::kOk;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      AppendDecimalString(d.unscaled, d.scale, out);
      return CastResult::kOk;
    }
    case VariantType::kFloat:
      internal::AppendJavaFloating(v.GetFloat(), out);
      return CastResult::kOk;
    case VariantType::kDouble:
      internal::AppendJavaFloating(v.GetDouble(), out);
      return CastResult::kOk;
    case VariantType::kString:
      out->append(v.GetString());
      return CastResult::kOk;
    case VariantType::kBinary:
      AppendUtf8Lossy(v.GetBinary(), out);
      return CastResult::kOk;
    case VariantType::kDate:
      AppendDate(v.GetDate(), out);
      return CastResult::kOk;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimestampNtzNanos: {
      // Every digit the value holds, as to_json prints it. In seconds: the zone's
      // offset may not fit beside an instant near either end.
      const bool nanos =
          t == VariantType::kTimestampNanos || t == VariantType::kTimestampNtzNanos;
      const SplitTime split =
          SplitSeconds(v.GetTimeValue(), nanos ? 1'000'000'000 : kMicrosPerSecond);
      const bool with_zone =
          t == VariantType::kTimestampMicros || t == VariantType::kTimestampNanos;
      const int64_t offset = with_zone ? tz_.OffsetAt(split.seconds) : 0;
      AppendTimestamp(split.seconds + offset, split.fraction, nanos ? 9 : 6, out);
      return CastResult::kOk;
    }
    case VariantType::kTimeNtzMicros: {
      const int64_t micros = v.GetTimeValue();
      if (micros < 0 || micros >= kMicrosPerDay) return CastResult::kInvalid;
      AppendTimeOfDay(micros / kMicrosPerSecond, micros % kMicrosPerSecond, 6, out);
      return CastResult::kOk;
    }
    case VariantType::kUuid:
      AppendUuid(v.GetUuid(), out);
      return CastResult::kOk;
    case VariantType::kObject:
    case VariantType::kArray: {
      // Spark: the JSON text, as to_json prints it.
      const size_t size = out->size();
      if (!impl_->json->Write(v, out).ok()) {
        out->resize(size);
        return CastResult::kInvalid;
      }
      return CastResult::kOk;
    }
  }
  return CastResult::kInvalid;
}

CastResult VariantCaster::CastDate(const VariantView& v, int32_t* out) const {
  int64_t days;
  switch (v.type()) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kDate:
      *out = v.GetDate();
      return CastResult::kOk;
    case VariantType::kString:
      return ParseDate(v.GetString(), out) ? CastResult::kOk : CastResult::kInvalid;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos: {
      const int64_t seconds = SplitSeconds(TimestampMicros(v), kMicrosPerSecond).seconds;
      days = FloorDiv(seconds + tz_.OffsetAt(seconds), internal::kSecondsPerDay);
      break;
    }
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimestampNtzNanos:
      days = FloorDiv(TimestampMicros(v), kMicrosPerDay);
      break;
    default:
      return CastResult::kInvalid;
  }
  *out = static_cast<int32_t>(days);
  return CastResult::kOk;
}

CastResult VariantCaster::CastTimestamp(const VariantView& v, int64_t* out) const {
  const bool ntz = target_.type == CastTargetType::kTimestampNtz;
  const VariantType t = v.type();
  switch (t) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kDate: {
      // Days beyond the microsecond range (past year 294247) have no timestamp.
      constexpr int64_t kMaxDays = std::numeric_limits<int64_t>::max() / kMicrosPerDay;
      const int64_t days = v.GetDate();
      if (days > kMaxDays || days < -kMaxDays) return CastResult::kInvalid;
      const int64_t local = days * kMicrosPerDay;
      return Instant(ntz ? local : tz_.ToUtcMicros(local), out);
    }
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
      return Instant(ntz ? tz_.ToLocalMicros(TimestampMicros(v)) : TimestampMicros(v),
                     out);
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimestampNtzNanos:
      return Instant(ntz ? TimestampMicros(v) : tz_.ToUtcMicros(TimestampMicros(v)), out);
    case VariantType::kString: {
      int64_t seconds;
      int32_t micros;
      std::string_view zone_text;
      bool time_only;
      // A time alone is NULL, not today's (docs/interop.md#variant_get).
      if (!ParseTimestamp(v.GetString(), &seconds, &micros, &zone_text, &time_only) ||
          time_only) {
        return CastResult::kInvalid;
      }
      // A zone must name one (Spark's getZoneId), even for timestamp_ntz, which then
      // ignores it (Spark 4.3).
      const TimeZone* zone = &tz_;
      std::optional<TimeZone> named;  // not an arrow::Result: its default allocates
      if (!zone_text.empty()) {
        auto made = TimeZone::Make(Trim(zone_text));
        if (!made.ok()) return CastResult::kInvalid;
        zone = &named.emplace(std::move(made).ValueOrDie());
      }
      static const TimeZone kUtc;  // timestamp_ntz keeps the wall-clock time
      return Instant((ntz ? &kUtc : zone)->ToUtcMicros(seconds, micros), out);
    }
    default:
      break;
  }
  if (ntz) return CastResult::kInvalid;  // numbers do not cast to timestamp_ntz
  // Numbers are seconds since the epoch; overflow is an invalid cast
  // (VariantGet.castLongToTimestamp / castDecimalToTimestamp).
  switch (t) {
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      return CheckedMul(v.GetInteger(), kMicrosPerSecond, out) ? CastResult::kOk
                                                               : CastResult::kInvalid;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      if (d.unscaled != 0 && DecimalPrecision(d.unscaled) - d.scale + 6 > 20) {
        return CastResult::kInvalid;
      }
      int128_t micros = d.scale >= 6 ? d.unscaled / Pow10(d.scale - 6)
                                     : d.unscaled * Pow10(6 - d.scale);
      if (micros < INT64_MIN || micros > INT64_MAX) return CastResult::kInvalid;
      *out = static_cast<int64_t>(micros);
      return CastResult::kOk;
    }
    case VariantType::kFloat:
    case VariantType::kDouble: {
      const double x = t == VariantType::kFloat ? v.GetFloat() : v.GetDouble();
      if (std::isnan(x) || std::isinf(x)) return CastResult::kInvalid;
      // Spark compares with Long.MaxValue as a double, 2^63, which passes, and its
      // conversion to long saturates there.
      const double micros = x * kMicrosPerSecond;
      if (!(micros >= -9223372036854775808.0 && micros <= 9223372036854775808.0)) {
        return CastResult::kInvalid;
      }
      *out = micros == 9223372036854775808.0 ? std::numeric_limits<int64_t>::max()
                                             : static_cast<int64_t>(micros);
      return CastResult::kOk;
    }
    case VariantType::kBoolean:
    default:
      return CastResult::kInvalid;
  }
}

CastResult VariantCaster::CastBinary(const VariantView& v, std::string_view* out) const {
  switch (v.type()) {
    case VariantType::kNull:
      return CastResult::kNull;
    case VariantType::kBinary:
      *out = v.GetBinary();
      return CastResult::kOk;
    case VariantType::kString:
      *out = v.GetString();
      return CastResult::kOk;
    default:
      return CastResult::kInvalid;
  }
}

std::string VariantCaster::InvalidCastMessage(const VariantView& v) const {
  std::string json;
  const bool printed = impl_->json->Write(v, &json).ok();
  std::string out = "[INVALID_VARIANT_CAST] The variant value `";
  out += printed ? std::string_view(json) : std::string_view("?");
  out += "` (";
  out += VariantTypeName(v.type());
  out += ") cannot be cast into \"";
  out += target_.ToString();
  out += "\"";
  return out;
}

}  // namespace varshred
