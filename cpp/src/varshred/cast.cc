// Licensed under the Apache License, Version 2.0.
//
// Spark 4.3 VariantGet.cast semantics. Every rule below was checked against a local
// Spark 4.3.0 session (try_variant_get / variant_get over a few hundred
// (value, type) pairs); tests/cpp/cast_test.cc pins the results.

#include "varshred/cast.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "varshred/json.h"
#include "java_float_internal.h"
#include "timezone_internal.h"
#include "utf8_internal.h"

namespace varshred {

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

// ----------------------------------------------------------------------------
// Decimal arithmetic

int128_t Pow10(int n) {
  int128_t p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

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
    if (Abs(r) * 2 >= d) q += v < 0 ? -1 : 1;
    v = q;
  }
  if (v != 0 && DecimalPrecision(v) > precision) return false;
  *out = v;
  return true;
}

// Plain text of a decimal without trailing fractional zeros (Spark prints
// Variant decimals stripped: 3.0 -> "3", 1.50 -> "1.5").
void AppendDecimalString(int128_t unscaled, int scale, std::string* out) {
  while (scale > 0 && unscaled % 10 == 0) {
    unscaled /= 10;
    --scale;
  }
  char buf[64];
  int n = 0;
  const bool negative = unscaled < 0;
  // Digits of |unscaled|, least significant first; works for the int128 minimum too.
  do {
    int digit = static_cast<int>(unscaled % 10);
    buf[n++] = static_cast<char>('0' + (digit < 0 ? -digit : digit));
    unscaled /= 10;
  } while (unscaled != 0);
  while (n <= scale) buf[n++] = '0';
  if (negative) out->push_back('-');
  for (int i = n - 1; i >= 0; --i) {
    out->push_back(buf[i]);
    if (i == scale && scale > 0) out->push_back('.');
  }
}

// Parses the digits of a decimal number in text: [+-]? digits [. digits] [e [+-] digits]
// (java.math.BigDecimal's grammar), then rounds it half up to `scale` and checks
// `precision`.
bool ParseDecimalText(std::string_view s, int precision, int scale, int128_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  std::string digits;
  int64_t exponent = 0;
  bool any_digit = false;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    digits.push_back(s[i++]);
    any_digit = true;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      digits.push_back(s[i++]);
      --exponent;
      any_digit = true;
    }
  }
  if (!any_digit) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i >= s.size()) return false;
    int64_t e = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (e < 100000000) e = e * 10 + (s[i] - '0');
      ++i;
    }
    exponent += exp_negative ? -e : e;
  }
  if (i != s.size()) return false;
  // Strip leading zeros: the value is digits * 10^exponent.
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    *out = 0;
    return true;
  }
  digits.erase(0, first);
  // Shift to the target scale: value * 10^scale = digits * 10^(exponent + scale).
  const int64_t shift = exponent + scale;
  bool round_up = false;
  if (shift >= 0) {
    if (static_cast<int64_t>(digits.size()) + shift > precision) return false;
    digits.append(static_cast<size_t>(shift), '0');
  } else {
    const int64_t drop = -shift;
    if (drop > static_cast<int64_t>(digits.size())) {
      digits.clear();  // below half a unit of the last place: rounds to zero
    } else {
      const size_t keep = digits.size() - static_cast<size_t>(drop);
      round_up = digits[keep] >= '5';  // HALF_UP looks at the first dropped digit only
      digits.resize(keep);
    }
  }
  if (static_cast<int>(digits.size()) > precision) return false;
  int128_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  if (round_up) ++v;
  if (v != 0 && DecimalPrecision(v) > precision) return false;
  *out = negative ? -v : v;
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

// ----------------------------------------------------------------------------
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

// ----------------------------------------------------------------------------
// Strings

bool IsSpace(char c) { return static_cast<unsigned char>(c) <= 0x20; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (x != b[i]) return false;
  }
  return true;
}

bool ParseBoolean(std::string_view s, bool* out) {
  s = Trim(s);
  for (const char* t : {"t", "true", "y", "yes", "1"}) {
    if (EqualsIgnoreCase(s, t)) return *out = true, true;
  }
  for (const char* f : {"f", "false", "n", "no", "0"}) {
    if (EqualsIgnoreCase(s, f)) return *out = false, true;
  }
  return false;
}

// [+-]?digits, with overflow checks: Spark's UTF8String.toLongExact.
bool ParseInteger(std::string_view s, int64_t min, int64_t max, int64_t* out) {
  s = Trim(s);
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return false;
  // Accumulate negatively so that INT64_MIN fits.
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    const int d = s[i] - '0';
    if (v < (std::numeric_limits<int64_t>::min() + d) / 10) return false;
    v = v * 10 - d;
  }
  if (!negative) {
    if (v == std::numeric_limits<int64_t>::min()) return false;
    v = -v;
  }
  if (v < min || v > max) return false;
  *out = v;
  return true;
}

// Spark: the special literals first (any case), then java.lang.Double.parseDouble's
// decimal grammar with an optional f/F/d/D suffix.
template <typename T>
bool ParseFloating(std::string_view s, T* out) {
  s = Trim(s);
  constexpr T inf = std::numeric_limits<T>::infinity();
  for (const char* p : {"inf", "+inf", "infinity", "+infinity"}) {
    if (EqualsIgnoreCase(s, p)) return *out = inf, true;
  }
  for (const char* n : {"-inf", "-infinity"}) {
    if (EqualsIgnoreCase(s, n)) return *out = -inf, true;
  }
  if (EqualsIgnoreCase(s, "nan")) return *out = std::numeric_limits<T>::quiet_NaN(), true;
  if (!s.empty() && (s.back() == 'f' || s.back() == 'F' || s.back() == 'd' ||
                     s.back() == 'D')) {
    s.remove_suffix(1);
  }
  // Check the grammar ourselves: strtod would also take hex and "inf" forms.
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool digits = false;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, digits = true;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, digits = true;
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    bool exp_digits = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, exp_digits = true;
    if (!exp_digits) return false;
  }
  if (i != s.size()) return false;
  std::string text(s);
  if constexpr (std::is_same_v<T, float>) {
    *out = std::strtof(text.c_str(), nullptr);
  } else {
    *out = std::strtod(text.c_str(), nullptr);
  }
  return true;
}

// ----------------------------------------------------------------------------
// Dates and times (proleptic Gregorian, as java.time)

int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, int* m, int* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

int DaysInMonth(int64_t y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 29;
  return kDays[m - 1];
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

void AppendPadded(int64_t v, int width, std::string* out) {
  std::string s = std::to_string(v < 0 ? -v : v);
  if (v < 0) out->push_back('-');
  if (static_cast<int>(s.size()) < width) out->append(width - s.size(), '0');
  out->append(s);
}

void AppendDate(int64_t days, std::string* out) {
  int64_t y;
  int m, d;
  CivilFromDays(days, &y, &m, &d);
  AppendPadded(y, 4, out);
  out->push_back('-');
  AppendPadded(m, 2, out);
  out->push_back('-');
  AppendPadded(d, 2, out);
}

// "HH:mm:ss" plus the fraction without trailing zeros (Spark's timestamp format).
void AppendTimeOfDay(int64_t micros_of_day, std::string* out) {
  const int64_t secs = micros_of_day / kMicrosPerSecond;
  int64_t frac = micros_of_day % kMicrosPerSecond;
  AppendPadded(secs / 3600, 2, out);
  out->push_back(':');
  AppendPadded(secs / 60 % 60, 2, out);
  out->push_back(':');
  AppendPadded(secs % 60, 2, out);
  if (frac != 0) {
    int width = 6;
    while (frac % 10 == 0) frac /= 10, --width;
    out->push_back('.');
    AppendPadded(frac, width, out);
  }
}

void AppendTimestamp(int64_t local_micros, std::string* out) {
  const int64_t days = FloorDiv(local_micros, kMicrosPerDay);
  AppendDate(days, out);
  out->push_back(' ');
  AppendTimeOfDay(local_micros - days * kMicrosPerDay, out);
}

// Reads 1..max_digits digits at s[*i].
bool ReadDigits(std::string_view s, size_t* i, int min_digits, int max_digits,
                int64_t* out) {
  int64_t v = 0;
  int n = 0;
  while (*i < s.size() && s[*i] >= '0' && s[*i] <= '9' && n < max_digits) {
    v = v * 10 + (s[(*i)++] - '0');
    ++n;
  }
  if (n < min_digits) return false;
  if (*i < s.size() && s[*i] >= '0' && s[*i] <= '9') return false;  // too many digits
  *out = v;
  return true;
}

// Date part of Spark's stringToDate/stringToTimestamp: [+-]yyyy[y..][-m[m][-d[d]]].
// Leaves *i after the date.
bool ParseDatePart(std::string_view s, size_t* i, int64_t* days) {
  bool negative = false;
  if (*i < s.size() && (s[*i] == '+' || s[*i] == '-')) negative = s[(*i)++] == '-';
  int64_t year, month = 1, day = 1;
  if (!ReadDigits(s, i, 4, 7, &year)) return false;
  if (negative) year = -year;
  if (*i < s.size() && s[*i] == '-') {
    ++*i;
    if (!ReadDigits(s, i, 1, 2, &month)) return false;
    if (*i < s.size() && s[*i] == '-') {
      ++*i;
      if (!ReadDigits(s, i, 1, 2, &day)) return false;
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  *days = DaysFromCivil(year, month, day);
  return true;
}

bool ParseDate(std::string_view s, int32_t* out) {
  s = Trim(s);
  size_t i = 0;
  int64_t days;
  if (!ParseDatePart(s, &i, &days)) return false;
  // Spark ignores whatever follows a ' ' or 'T' after the date.
  if (i < s.size() && s[i] != ' ' && s[i] != 'T') return false;
  if (days < std::numeric_limits<int32_t>::min() ||
      days > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  *out = static_cast<int32_t>(days);
  return true;
}

// Zone suffix: Z, UTC, UT, GMT, optionally followed by an offset; or a bare offset
// +h, +hh, +hh:mm, +hhmm, +hh:mm:ss. Region ids are not supported.
bool ParseZone(std::string_view z, int32_t* offset_seconds) {
  if (z == "Z" || z == "UTC" || z == "UT" || z == "GMT") return *offset_seconds = 0, true;
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (z.substr(0, prefix.size()) == prefix && z.size() > prefix.size() &&
        (z[prefix.size()] == '+' || z[prefix.size()] == '-')) {
      z.remove_prefix(prefix.size());
      break;
    }
  }
  if (z.empty() || (z[0] != '+' && z[0] != '-')) return false;
  const int sign = z[0] == '-' ? -1 : 1;
  size_t i = 1;
  int64_t h = 0, m = 0, sec = 0;
  const size_t start = i;
  while (i < z.size() && z[i] >= '0' && z[i] <= '9') ++i;
  const size_t n = i - start;
  std::string_view digits = z.substr(start, n);
  auto num = [](std::string_view d) {
    int64_t v = 0;
    for (char c : d) v = v * 10 + (c - '0');
    return v;
  };
  if (n == 1 || n == 2) {
    h = num(digits);
    if (i < z.size() && z[i] == ':') {
      ++i;
      if (!ReadDigits(z, &i, 2, 2, &m)) return false;
      if (i < z.size() && z[i] == ':') {
        ++i;
        if (!ReadDigits(z, &i, 2, 2, &sec)) return false;
      }
    }
  } else if (n == 4) {
    h = num(digits.substr(0, 2));
    m = num(digits.substr(2, 2));
  } else {
    return false;
  }
  if (i != z.size() || h > 18 || m > 59 || sec > 59) return false;
  *offset_seconds = static_cast<int32_t>(sign * (h * 3600 + m * 60 + sec));
  return true;
}

// Spark's stringToTimestamp for the forms above: date, then optionally [ T] and
// h[h]:m[m][:s[s][.fraction]], then an optional zone. Fractions past microseconds are
// truncated. `*local` is the wall-clock time; `*has_zone` says whether a zone was
// given and `*zone_offset` holds it.
bool ParseTimestamp(std::string_view s, int64_t* local, bool* has_zone,
                    int32_t* zone_offset) {
  s = Trim(s);
  size_t i = 0;
  int64_t days;
  if (!ParseDatePart(s, &i, &days)) return false;
  int64_t micros_of_day = 0;
  *has_zone = false;
  if (i < s.size()) {
    if (s[i] != ' ' && s[i] != 'T') return false;
    ++i;
    int64_t h, m, sec = 0, frac = 0;
    if (!ReadDigits(s, &i, 1, 2, &h)) return false;
    if (i >= s.size() || s[i] != ':') return false;
    ++i;
    if (!ReadDigits(s, &i, 1, 2, &m)) return false;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!ReadDigits(s, &i, 1, 2, &sec)) return false;
      if (i < s.size() && s[i] == '.') {
        ++i;
        int n = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
          if (n < 6) frac = frac * 10 + (s[i] - '0');
          ++n;
          ++i;
        }
        if (n == 0 || n > 9) return false;
        for (int k = n; k < 6; ++k) frac *= 10;
      }
    }
    if (h > 23 || m > 59 || sec > 59) return false;
    micros_of_day = ((h * 60 + m) * 60 + sec) * kMicrosPerSecond + frac;
    if (i < s.size()) {
      std::string_view zone = s.substr(i);
      if (zone[0] == ' ') zone = Trim(zone);
      if (!ParseZone(zone, zone_offset)) return false;
      *has_zone = true;
    }
  }
  // |days| < 2^31 * 366 keeps this product far from int64 overflow.
  *local = days * kMicrosPerDay + micros_of_day;
  return true;
}

// Appends `bytes` as UTF-8, each invalid sequence replaced by U+FFFD (binary ->
// string; Arrow strings must be valid UTF-8).
void AppendUtf8Lossy(std::string_view bytes, std::string* out) {
  if (internal::IsValidUtf8(bytes)) {
    out->append(bytes);
    return;
  }
  size_t i = 0;
  while (i < bytes.size()) {
    // Longest valid sequence of 1..4 bytes at i.
    size_t len = 0;
    for (size_t n = 1; n <= 4 && i + n <= bytes.size(); ++n) {
      if (internal::IsValidUtf8(bytes.substr(i, n))) {
        len = n;
        break;
      }
    }
    if (len == 0) {
      out->append("\xEF\xBF\xBD");
      ++i;
    } else {
      out->append(bytes.substr(i, len));
      i += len;
    }
  }
}

void AppendUuid(std::string_view b, std::string* out) {
  static const char* kHex = "0123456789abcdef";
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out->push_back('-');
    const auto c = static_cast<unsigned char>(b[i]);
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
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

// ----------------------------------------------------------------------------
// CastTarget, TimeZone

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

TimeZone::TimeZone()
    : zone_(std::make_shared<internal::TimeZone>(internal::TimeZone::Fixed(0))) {}

arrow::Result<TimeZone> TimeZone::Make(std::string_view name) {
  TimeZone tz;
  if (name == "Etc/UTC" || name == "Etc/GMT" || name == "Z") return tz;
  int32_t offset = 0;
  if (ParseZone(name, &offset)) {
    tz.zone_ = std::make_shared<internal::TimeZone>(internal::TimeZone::Fixed(offset));
    return tz;
  }
  auto zone = internal::TimeZone::Make(name);
  if (!zone.ok()) {
    return arrow::Status::NotImplemented("time zone '", name, "': ", zone.status().message());
  }
  tz.zone_ = std::make_shared<internal::TimeZone>(std::move(zone).ValueOrDie());
  return tz;
}

int32_t TimeZone::OffsetAt(int64_t utc_seconds) const { return zone_->OffsetAt(utc_seconds); }

int64_t TimeZone::ToLocalMicros(int64_t utc_micros) const {
  return utc_micros +
         int64_t{OffsetAt(FloorDiv(utc_micros, kMicrosPerSecond))} * kMicrosPerSecond;
}

int64_t TimeZone::ToUtcMicros(int64_t local_micros) const {
  const int64_t local = FloorDiv(local_micros, kMicrosPerSecond);
  // Offsets stay within +-18 h, so the instants of `local` lie within 18 h of it and
  // at most one transition matters: the offsets before and after that window.
  constexpr int64_t kWindow = 18 * 3600;
  const int32_t before = OffsetAt(local - kWindow);
  const int32_t after = OffsetAt(local + kWindow);
  int32_t offset = before;  // normal time, overlap (earlier offset), or gap (shift later)
  if (before != after && OffsetAt(local - before) != before &&
      OffsetAt(local - after) == after) {
    offset = after;
  }
  return local_micros - int64_t{offset} * kMicrosPerSecond;
}

// ----------------------------------------------------------------------------
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
      const int128_t q = d.unscaled / Pow10(d.scale);  // truncates toward zero
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
      AppendTimestamp(tz_.ToLocalMicros(TimestampMicros(v)), out);
      return CastResult::kOk;
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimestampNtzNanos:
      AppendTimestamp(TimestampMicros(v), out);
      return CastResult::kOk;
    case VariantType::kTimeNtzMicros: {
      const int64_t micros = v.GetTimeValue();
      if (micros < 0 || micros >= kMicrosPerDay) return CastResult::kInvalid;
      AppendTimeOfDay(micros, out);
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
    case VariantType::kTimestampNanos:
      days = FloorDiv(tz_.ToLocalMicros(TimestampMicros(v)), kMicrosPerDay);
      break;
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
      // Days beyond the microsecond range (past year 294247) have no timestamp; the
      // day's margin keeps the time zone shift in range too.
      constexpr int64_t kMaxDays = std::numeric_limits<int64_t>::max() / kMicrosPerDay - 1;
      const int64_t days = v.GetDate();
      if (days > kMaxDays || days < -kMaxDays) return CastResult::kInvalid;
      const int64_t local = days * kMicrosPerDay;
      *out = ntz ? local : tz_.ToUtcMicros(local);
      return CastResult::kOk;
    }
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
      *out = ntz ? tz_.ToLocalMicros(TimestampMicros(v)) : TimestampMicros(v);
      return CastResult::kOk;
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimestampNtzNanos:
      *out = ntz ? TimestampMicros(v) : tz_.ToUtcMicros(TimestampMicros(v));
      return CastResult::kOk;
    case VariantType::kString: {
      int64_t local;
      bool has_zone;
      int32_t zone = 0;
      if (!ParseTimestamp(v.GetString(), &local, &has_zone, &zone)) {
        return CastResult::kInvalid;
      }
      // timestamp_ntz ignores a zone in the text (Spark 4.3).
      if (ntz) {
        *out = local;
      } else {
        *out = has_zone ? local - int64_t{zone} * kMicrosPerSecond : tz_.ToUtcMicros(local);
      }
      return CastResult::kOk;
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
      const double micros = x * kMicrosPerSecond;
      if (!(micros >= -9223372036854775808.0 && micros < 9223372036854775808.0)) {
        return CastResult::kInvalid;
      }
      *out = static_cast<int64_t>(micros);
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
  if (!impl_->json->Write(v, &json).ok()) json = "?";
  std::string out = "[INVALID_VARIANT_CAST] The variant value `";
  out += json;
  out += "` (";
  out += VariantTypeName(v.type());
  out += ") cannot be cast into \"";
  out += target_.ToString();
  out += "\"";
  return out;
}

}  // namespace varshred
