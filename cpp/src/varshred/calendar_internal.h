// Licensed under the Apache License, Version 2.0.
//
// Proleptic Gregorian calendar arithmetic, as java.time (and so Spark) does it: days
// since 1970-01-01 <-> civil dates, and the floor division that instants before the
// epoch need.

#pragma once

#include <cstdint>

namespace varshred::internal {

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;

/// Division rounding toward negative infinity (b > 0 or b < 0, never 0).
inline int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

/// a - FloorDiv(a, b) * b, in [0, b) (b > 0), without that product: it leaves int64
/// for `a` near the ends of its range.
inline int64_t FloorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r < 0 ? r + b : r;
}

/// A time value of `units` per second (1e6: microseconds, 1e9: nanoseconds) as whole
/// seconds, floored, and the fraction left, in [0, units).
struct SplitTime {
  int64_t seconds;
  int64_t fraction;
};
inline SplitTime SplitSeconds(int64_t value, int64_t units) {
  return {FloorDiv(value, units), FloorMod(value, units)};
}

inline bool IsLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/// \pre 1 <= month <= 12
inline int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

/// \brief Days since 1970-01-01 -> proleptic Gregorian year, month (1-12), day.
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day);
/// \brief The inverse of CivilFromDays.
int64_t DaysFromCivil(int64_t year, int month, int day);

}  // namespace varshred::internal
