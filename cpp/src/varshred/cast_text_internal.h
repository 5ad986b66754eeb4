// Licensed under the Apache License, Version 2.0.
//
// Spark's text forms of values, as its casts read and print them: strings parsed to
// booleans, integers, floating point, decimals, dates, timestamps and zone offsets;
// decimals, dates, timestamps and uuids printed. Used by the caster (cast.cc), by
// TimeZone::Make (zone offsets) and by JsonWriter (dates and times, which Spark's
// to_json prints as its casts do).

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "varshred/format.h"

namespace varshred::internal {

/// Strips the bytes <= 0x20 and DEL (0x7f) at both ends (UTF8String.trimAll).
std::string_view Trim(std::string_view s);
/// Whether `a` equals the lower-case ASCII `b`, ignoring the case of `a`.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

/// t/true/y/yes/1 and f/false/n/no/0, any case, trimmed.
bool ParseBoolean(std::string_view s, bool* out);
/// [+-]?digits within [min, max], trimmed (UTF8String.toLongExact).
bool ParseInteger(std::string_view s, int64_t min, int64_t max, int64_t* out);
/// The special literals (inf, nan, any case), then Double.parseDouble's decimal
/// grammar with an optional f/F/d/D suffix, trimmed. T is float or double.
template <typename T>
bool ParseFloating(std::string_view s, T* out);
/// [+-]? digits [. digits] [e [+-] digits] (BigDecimal's grammar, not trimmed), rounded
/// half up to `scale`, within `precision`.
bool ParseDecimalText(std::string_view s, int precision, int scale, int128_t* out);
/// [+-]yyyy[y..][-m[m][-d[d]]], trimmed; anything after a ' ' or 'T' following a whole
/// date is ignored.
bool ParseDate(std::string_view s, int32_t* out);
/// Z, UTC, UT, GMT, optionally followed by an offset; or a bare offset +h, +hh,
/// +hh:m[m], +hhmm, +hh:mm:ss, +hhmmss. Region ids are TimeZone::Make's.
bool ParseZone(std::string_view z, int32_t* offset_seconds);
/// Spark's stringToTimestamp: [+-]yyyy[-m[m][-d[d][( |T)h[h][:m[m][:s[s][.fraction]]]]]]
/// then, after the seconds or the fraction, an optional zone. The wall-clock time is
/// `*local_seconds` since 1970-01-01 plus `*micros`; `*zone` the zone's text as written
/// (empty when none; may start with spaces), for the caller to resolve; `*time_only`
/// marks a time without a date (`T12:00`, `12:00:00`), whose time is not set.
bool ParseTimestamp(std::string_view s, int64_t* local_seconds, int32_t* micros,
                    std::string_view* zone, bool* time_only);

/// Spark 4.3's text to TIME: T? h[h]:m[m][:s[s][.fraction]], then AM or PM (any case,
/// after spaces or none) for hours 1 to 12, trimmed; nothing else (a zone or a date
/// makes it NULL). Past six fraction digits they are dropped.
bool ParseTime(std::string_view s, int64_t* micros_of_day);

/// Plain text without trailing fractional zeros: 3.0 -> "3", 1.50 -> "1.5".
void AppendDecimalString(int128_t unscaled, int scale, std::string* out);
/// yyyy-MM-dd as ISO_LOCAL_DATE prints it (and so Spark's casts and to_json): at least
/// four year digits, '+' past year 9999, '-' before year 0.
void AppendDate(int64_t days, std::string* out);
/// HH:mm:ss, then the fraction of a second (`fraction` of `digits` digits: 6 for
/// microseconds, 9 for nanoseconds) without trailing zeros. \pre 0 <= seconds_of_day
/// < 86400.
void AppendTimeOfDay(int64_t seconds_of_day, int64_t fraction, int digits,
                     std::string* out);
/// Date ' ' time of day of a wall-clock time: whole seconds since 1970-01-01 and a
/// fraction as AppendTimeOfDay's. Callers split an instant into seconds (SplitTime)
/// before adding a zone's offset, which the instant's microseconds may have no room for.
void AppendTimestamp(int64_t local_seconds, int64_t fraction, int digits,
                     std::string* out);
/// A zone offset as DateTimeFormatter's appendOffset("+HH:MM", "+00:00"): seconds
/// dropped, and an offset that prints as zero is "+00:00".
void AppendOffset(int32_t offset_seconds, std::string* out);
/// 8-4-4-4-12 lower-case hex digits of 16 bytes.
void AppendUuid(std::string_view bytes16, std::string* out);

}  // namespace varshred::internal
