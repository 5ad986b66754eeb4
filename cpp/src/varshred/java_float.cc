// Licensed under the Apache License, Version 2.0.
//
// Java 19+ prints the shortest decimal that round-trips (at least two digits: 4.9E-324,
// 1.0E23). Java 17's older algorithm sometimes printed longer digits (2e23 ->
// 1.9999999999999998E23); we follow the shortest form.

#include <charconv>
#include <cmath>

#include "varshred/java_float_internal.h"

namespace varshred::internal {

namespace {

// Digits (no sign, no point) and decimal exponent of the shortest round-trip form of
// `v` (> 0), with Java's at-least-two-digits rule.
template <typename T>
void ShortestDigits(T v, std::string* digits, int* exponent) {
  char buf[64];
  auto parse = [&](const char* end) {
    digits->clear();
    const char* p = buf;
    for (; p < end && *p != 'e'; ++p) {
      if (*p != '.') digits->push_back(*p);
    }
    int e = 0;
    std::from_chars(p + 1 + (p[1] == '+'), end, e);
    *exponent = e;
  };
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  parse(r.ptr);
  if (digits->size() == 1) {
    // Java prints at least two digits and then picks the two-digit decimal closest to
    // the exact value (Double.MIN_VALUE -> 4.9E-324, not 5.0E-324).
    r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific, 1);
    T back = 0;
    std::from_chars(buf, r.ptr, back);
    if (back == v) {
      parse(r.ptr);
    } else {
      digits->push_back('0');
    }
  }
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
}

template <typename T>
void AppendFinite(T v, std::string* out) {
  if (std::signbit(v)) out->push_back('-');
  v = std::fabs(v);
  if (v == 0) {
    out->append("0.0");
    return;
  }
  std::string digits;
  int e = 0;
  ShortestDigits(v, &digits, &e);
  const int n = static_cast<int>(digits.size());
  if (e >= -3 && e < 7) {
    if (e >= 0) {
      for (int i = 0; i <= e; ++i) out->push_back(i < n ? digits[i] : '0');
      out->push_back('.');
      if (n > e + 1) {
        out->append(digits, static_cast<size_t>(e + 1), std::string::npos);
      } else {
        out->push_back('0');
      }
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(-e - 1), '0');
      out->append(digits);
    }
    return;
  }
  out->push_back(digits[0]);
  out->push_back('.');
  if (n > 1) {
    out->append(digits, 1, std::string::npos);
  } else {
    out->push_back('0');
  }
  out->push_back('E');
  out->append(std::to_string(e));
}

template <typename T>
void Append(T v, std::string* out) {
  if (std::isnan(v)) {
    out->append("NaN");
  } else if (std::isinf(v)) {
    out->append(v > 0 ? "Infinity" : "-Infinity");
  } else {
    AppendFinite(v, out);
  }
}

}  // namespace

void AppendJavaFloating(double v, std::string* out) { Append(v, out); }
void AppendJavaFloating(float v, std::string* out) { Append(v, out); }

}  // namespace varshred::internal
