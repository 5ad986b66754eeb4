// Licensed under the Apache License, Version 2.0.
//
// Spark's text forms of values (see cast_text_internal.h). Every grammar here was
// checked against Spark 4.3's casts; tests/cpp/cast_test.cc pins the results.

#include <charconv>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "calendar_internal.h"
#include "cast_text_internal.h"
#include "varshred/value.h"

namespace varshred::internal {

namespace {

// What Spark's casts trim from text: ASCII whitespace and control characters, DEL
// included (Character.isWhitespace || isISOControl, byte by byte).
bool IsSpace(char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }

void AppendTwo(int v, std::string* out) {
  out->push_back(static_cast<char>('0' + v / 10));
  out->push_back(static_cast<char>('0' + v % 10));
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

// Date part of Spark's stringToDate: [+-]yyyy[y..][-m[m][-d[d]]]. Leaves *i after the
// date and sets *whole when it has a day.
bool ParseDatePart(std::string_view s, size_t* i, int64_t* days, bool* whole) {
  *whole = false;
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
      *whole = true;
    }
  }
  if (month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  *days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  return true;
}

}  // namespace

// ----------------------------------------------------------------------
// Numbers and booleans

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
  if (!s.empty() &&
      (s.back() == 'f' || s.back() == 'F' || s.back() == 'd' || s.back() == 'D')) {
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

template bool ParseFloating<float>(std::string_view, float*);
template bool ParseFloating<double>(std::string_view, double*);

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

// ----------------------------------------------------------------------
// Dates and times

bool ParseDate(std::string_view s, int32_t* out) {
  s = Trim(s);
  size_t i = 0;
  int64_t days;
  bool whole;
  if (!ParseDatePart(s, &i, &days, &whole)) return false;
  // Spark ignores whatever follows a ' ' or 'T' after a whole date; `yyyy` and
  // `yyyy-[m]m` must be the whole text.
  if (i < s.size() && (!whole || (s[i] != ' ' && s[i] != 'T'))) return false;
  if (days < std::numeric_limits<int32_t>::min() ||
      days > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  *out = static_cast<int32_t>(days);
  return true;
}

// Spark's getZoneId for everything but region ids: Z, UTC, UT, GMT, optionally
// followed by an offset; or a bare offset in Java's ZoneOffset forms (+h, +hh, +hh:mm,
// +hhmm, +hh:mm:ss, +hhmmss, at most 18:00), after Spark pads a one-digit hour before a
// colon and a one-digit minute at the end (+5:3 is +05:03).
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
      const bool lone_minute = i + 1 == z.size();
      if (!ReadDigits(z, &i, lone_minute ? 1 : 2, 2, &m)) return false;
      if (i < z.size() && z[i] == ':') {
        ++i;
        if (!ReadDigits(z, &i, 2, 2, &sec)) return false;
      }
    }
  } else if (n == 4 || n == 6) {
    h = num(digits.substr(0, 2));
    m = num(digits.substr(2, 2));
    if (n == 6) sec = num(digits.substr(4, 2));
  } else {
    return false;
  }
  const int64_t total = h * 3600 + m * 60 + sec;
  if (i != z.size() || m > 59 || sec > 59 || total > 18 * 3600) return false;
  *offset_seconds = static_cast<int32_t>(sign * total);
  return true;
}

// Spark's stringToTimestamp reads the text as up to seven numeric segments -- year,
// month, day, hour, minute, second, fraction -- each closed by the separator its place
// allows ('-' '-' ' '|'T' ':' ':' '.'), so that any prefix of the full form is a
// timestamp ("2024", "2024-02-29 12", "2024-02-29 12:34:56."). Where the seconds or the
// fraction end at anything else, the rest of the text is the zone. A text starting with
// 'T' or holding hh:mm first is a time alone (`*time_only`, the caller's to refuse).
bool ParseTimestamp(std::string_view s, int64_t* local_seconds, int32_t* micros,
                    std::string_view* zone, bool* time_only) {
  s = Trim(s);
  *zone = {};
  *time_only = false;
  if (s.empty()) return false;
  int64_t segment[7] = {1, 1, 1, 0, 0, 0, 0};
  int at = 0;  // the segment being read
  int64_t value = 0;
  int digits = 0;
  int fraction_digits = 0;
  int sign = 0;
  size_t j = 0;
  if (s[0] == '-' || s[0] == '+') {
    sign = s[0] == '-' ? -1 : 1;
    j = 1;
  }
  // Years take 4 to 6 digits, the fraction any number (past 6 they are dropped), the
  // others 1 or 2.
  auto valid = [](int segment_index, int n) {
    if (segment_index == 0) return n >= 4 && n <= 6;
    if (segment_index >= 6) return true;
    return n >= 1 && n <= 2;
  };
  auto close = [&](int segment_index) {
    if (!valid(segment_index, digits)) return false;
    if (segment_index < 7) segment[segment_index] = value;
    value = 0;
    digits = 0;
    return true;
  };
  for (; j < s.size(); ++j) {
    const char b = s[j];
    if (b >= '0' && b <= '9') {
      if (at == 6) ++fraction_digits;
      if ((at != 6 || digits < 6) && digits < 18) value = value * 10 + (b - '0');
      ++digits;
      continue;
    }
    if (j == 0 && b == 'T') {
      *time_only = true;
      at = 3;
    } else if (at < 2) {
      if (b == '-') {
        if (!close(at++)) return false;
      } else if (at == 0 && b == ':' && sign == 0) {
        *time_only = true;
        if (!close(3)) return false;
        at = 4;
      } else {
        return false;
      }
    } else if (at == 2) {
      if ((b != ' ' && b != 'T') || !close(at++)) return false;
    } else if (at == 3 || at == 4) {
      if (b != ':' || !close(at++)) return false;
    } else if (at == 5 && b == '.') {
      if (!close(at++)) return false;
    } else if (at == 5 || at == 6) {
      if (!close(at)) return false;
      at = 7;
      *zone = s.substr(j);
      break;
    } else {
      return false;
    }
  }
  if (!close(at)) return false;
  if (*time_only) return true;
  for (int k = fraction_digits; k < 6; ++k) segment[6] *= 10;
  const int64_t year = sign < 0 ? -segment[0] : segment[0];
  const int64_t month = segment[1], day = segment[2];
  if (month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, static_cast<int>(month)) || segment[3] > 23 ||
      segment[4] > 59 || segment[5] > 59) {
    return false;
  }
  // Seconds: six-digit years reach past int64 microseconds, which only the instant,
  // once the zone applies, must fit (as Spark checks it).
  const int64_t days =
      DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  *local_seconds =
      days * kSecondsPerDay + (segment[3] * 60 + segment[4]) * 60 + segment[5];
  *micros = static_cast<int32_t>(segment[6]);
  return true;
}

bool ParseTime(std::string_view s, int64_t* micros_of_day) {
  s = Trim(s);
  size_t i = s.starts_with('T') ? 1 : 0;
  int64_t hour, minute, second = 0, fraction = 0;
  if (!ReadDigits(s, &i, 1, 2, &hour) || i == s.size() || s[i++] != ':' ||
      !ReadDigits(s, &i, 1, 2, &minute)) {
    return false;
  }
  if (i < s.size() && s[i] == ':') {
    ++i;
    if (!ReadDigits(s, &i, 1, 2, &second)) return false;
    if (i < s.size() && s[i] == '.') {
      int digits = 0;
      for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
        if (digits < 6) fraction = fraction * 10 + (s[i] - '0');
      }
      for (; digits < 6; ++digits) fraction *= 10;
    }
  }
  // A 12-hour clock: AM or PM (any case), after spaces or none, hours 1 to 12.
  if (i < s.size()) {
    const std::string_view suffix = Trim(s.substr(i));
    const bool am = EqualsIgnoreCase(suffix, "am");
    if ((!am && !EqualsIgnoreCase(suffix, "pm")) || hour < 1 || hour > 12) return false;
    hour = hour % 12 + (am ? 0 : 12);
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  *micros_of_day = ((hour * 60 + minute) * 60 + second) * 1'000'000 + fraction;
  return true;
}

void AppendDate(int64_t days, std::string* out) {
  int64_t year;
  int month, day;
  CivilFromDays(days, &year, &month, &day);
  if (year > 9999) out->push_back('+');
  if (year < 0) out->push_back('-');
  const uint64_t abs_year = year < 0 ? static_cast<uint64_t>(-year) : year;
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof(buf), abs_year);
  for (auto len = r.ptr - buf; len < 4; ++len) out->push_back('0');
  out->append(buf, r.ptr);
  out->push_back('-');
  AppendTwo(month, out);
  out->push_back('-');
  AppendTwo(day, out);
}

void AppendTimeOfDay(int64_t seconds_of_day, int64_t fraction, int digits,
                     std::string* out) {
  AppendTwo(static_cast<int>(seconds_of_day / 3600), out);
  out->push_back(':');
  AppendTwo(static_cast<int>(seconds_of_day / 60 % 60), out);
  out->push_back(':');
  AppendTwo(static_cast<int>(seconds_of_day % 60), out);
  if (fraction == 0) return;
  char buf[9];
  for (int i = digits - 1; i >= 0; --i) {
    buf[i] = static_cast<char>('0' + fraction % 10);
    fraction /= 10;
  }
  int n = digits;
  while (buf[n - 1] == '0') --n;
  out->push_back('.');
  out->append(buf, static_cast<size_t>(n));
}

void AppendTimestamp(int64_t local_seconds, int64_t fraction, int digits,
                     std::string* out) {
  AppendDate(FloorDiv(local_seconds, kSecondsPerDay), out);
  out->push_back(' ');
  AppendTimeOfDay(FloorMod(local_seconds, kSecondsPerDay), fraction, digits, out);
}

void AppendOffset(int32_t offset_seconds, std::string* out) {
  const int32_t abs = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  const int hours = abs / 3600 % 100;
  const int minutes = abs / 60 % 60;
  if (hours == 0 && minutes == 0) {
    out->append("+00:00");
    return;
  }
  out->push_back(offset_seconds < 0 ? '-' : '+');
  AppendTwo(hours, out);
  out->push_back(':');
  AppendTwo(minutes, out);
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

}  // namespace varshred::internal
