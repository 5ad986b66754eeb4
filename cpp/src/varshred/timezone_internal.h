// Licensed under the Apache License, Version 2.0.
//
// Time zones for printing timestamps: UTC, fixed offsets, and IANA zones read from the
// system tz database (TZif files, RFC 8536, with the POSIX TZ footer for instants after
// the last transition).

#pragma once

#include <arrow/result.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace varshred::internal {

/// \brief A POSIX TZ rule ("PST8PDT,M3.2.0,M11.1.0"): a standard offset and an
/// optional yearly daylight-saving window.
struct PosixTzRule {
  struct Date {
    char kind = 'M';  // 'J' (1-365, no Feb 29), 'N' (0-365), 'M' (month.week.day)
    int month = 0, week = 0, day = 0;  // for 'M'; `day` is the number for 'J'/'N'
    int32_t time = 7200;               // seconds after local midnight
  };
  int32_t std_offset = 0;  // seconds east of UTC
  int32_t dst_offset = 0;
  bool has_dst = false;
  Date start, end;

  int32_t OffsetAt(int64_t utc_seconds) const;
};

/// \brief Parses the POSIX TZ string of a TZif footer.
arrow::Result<PosixTzRule> ParsePosixTz(std::string_view tz);

/// \brief A time zone: maps UTC instants to their UTC offset.
class TimeZone {
 public:
  /// \brief "UTC", "Z", "GMT", a fixed offset ("+05:30", "-08", "+0530", "UTC+01:00",
  /// "GMT-3"), or an IANA name read from $TZDIR or /usr/share/zoneinfo.
  static arrow::Result<TimeZone> Make(std::string_view name);
  /// \brief From the bytes of a TZif file (versions 1-4).
  static arrow::Result<TimeZone> FromTzif(std::string_view data, std::string_view name);
  static TimeZone Fixed(int32_t offset_seconds);

  /// Offset from UTC in seconds at `utc_seconds` (seconds since the epoch).
  int32_t OffsetAt(int64_t utc_seconds) const;
  bool is_fixed() const { return transitions_.empty() && !has_rule_; }

 private:
  int32_t fixed_offset_ = 0;  // offset before the first transition, or the fixed one
  std::vector<int64_t> transitions_;  // UTC seconds, ascending
  std::vector<int32_t> offsets_;      // offset in force from transitions_[i]
  bool has_rule_ = false;
  PosixTzRule rule_;  // after the last transition, when has_rule_
};

}  // namespace varshred::internal
