// Licensed under the Apache License, Version 2.0.
//
// Java 19+ prints the shortest decimal that round-trips (at least two digits: 4.9E-324,
// 1.0E23). Java 17's older algorithm sometimes printed longer digits (2e23 ->
// 1.9999999999999998E23); we follow the shortest form.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "varshred/java_float_internal.h"

namespace varshred::internal {

namespace {

// The shortest round-trip form of a value > 0: its digits (no sign, no point, at most
// 17, trailing zeros dropped) and the decimal exponent of the first.
struct Digits {
  char digit[32];
  int count;
  int exponent;
};

// Reads to_chars' scientific form "d[.ddd]e[+-]xx[x]" (an exponent of two or three
// digits) into `out`.
void ReadScientific(const char* begin, const char* end, Digits* out) {
  const char* sign = (end[-3] == '+' || end[-3] == '-') ? end - 3 : end - 4;
  int e = 0;
  for (const char* p = sign + 1; p < end; ++p) e = e * 10 + (*p - '0');
  out->exponent = *sign == '-' ? -e : e;
  const char* mantissa_end = sign - 1;  // at the 'e'
  out->digit[0] = begin[0];
  out->count = 1;
  if (mantissa_end - begin > 2) {  // the digits after the point: at most 16
    out->count += static_cast<int>(mantissa_end - begin - 2);
    std::memcpy(out->digit + 1, begin + 2, 24);  // one copy of a known size
  }
}

// With Java's at-least-two-digits rule.
template <typename T>
Digits ShortestDigits(T v) {
  char buf[64];  // to_chars' text and room for ReadScientific()'s copy
  Digits d;
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  ReadScientific(buf, r.ptr, &d);
  if (d.count == 1) {
    // Java prints at least two digits and then picks the two-digit decimal closest to
    // the exact value (Double.MIN_VALUE -> 4.9E-324, not 5.0E-324).
    r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific, 1);
    T back = 0;
    std::from_chars(buf, r.ptr, back);
    if (back == v) {
      ReadScientific(buf, r.ptr, &d);
    } else {
      d.digit[d.count++] = '0';
    }
  }
  while (d.count > 1 && d.digit[d.count - 1] == '0') --d.count;
  return d;
}

char* PutFinite(auto v, char* o) {
  if (std::signbit(v)) *o++ = '-';
  v = std::fabs(v);
  if (v == 0) return std::copy_n("0.0", 3, o);
  const Digits d = ShortestDigits(v);
  const char* digits = d.digit;
  const int n = d.count;
  const int e = d.exponent;
  if (e >= -3 && e < 7) {
    if (e < 0) {  // 0.00ddd
      o = std::copy_n("0.", 2, o);
      o = std::fill_n(o, -e - 1, '0');
      return std::copy_n(digits, n, o);
    }
    for (int i = 0; i <= e; ++i) *o++ = i < n ? digits[i] : '0';
    *o++ = '.';
    if (n <= e + 1) {
      *o++ = '0';
      return o;
    }
    return std::copy_n(digits + e + 1, n - e - 1, o);
  }
  *o++ = digits[0];
  *o++ = '.';
  if (n > 1) {
    o = std::copy_n(digits + 1, n - 1, o);
  } else {
    *o++ = '0';
  }
  *o++ = 'E';
  return std::to_chars(o, o + 8, e).ptr;
}

template <typename T>
char* Put(T v, char* o) {
  if (std::isnan(v)) return std::copy_n("NaN", 3, o);
  if (std::isinf(v)) {
    return v > 0 ? std::copy_n("Infinity", 8, o) : std::copy_n("-Infinity", 9, o);
  }
  return PutFinite(v, o);
}

template <typename T>
void Append(T v, std::string* out) {
  char text[kMaxJavaFloatingSize];
  out->append(text, static_cast<size_t>(Put(v, text) - text));
}

}  // namespace

char* PutJavaFloating(double v, char* out) { return Put(v, out); }
char* PutJavaFloating(float v, char* out) { return Put(v, out); }
void AppendJavaFloating(double v, std::string* out) { Append(v, out); }
void AppendJavaFloating(float v, std::string* out) { Append(v, out); }

}  // namespace varshred::internal
