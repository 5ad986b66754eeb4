// Licensed under the Apache License, Version 2.0.
//
// The session time zone of the casts (cast.h): UTC, a fixed offset, or an IANA region
// read from the system tz database. Arrow-free.

#pragma once

#include <arrow/result.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace varshred {

namespace internal {
class TimeZone;
}  // namespace internal

/// \brief A session time zone: UTC, a fixed offset, or an IANA region ("Europe/Paris")
/// read from the system tz database ($TZDIR or /usr/share/zoneinfo).
class TimeZone {
 public:
  TimeZone();  ///< UTC
  /// \brief "UTC", "Z", "GMT", "UTC+01:00", "+05:30", "-08", "+0530", a region id, or
  /// one of java.time's short ids ("PST"), as Spark resolves zones. Unknown names and
  /// offsets beyond +-18:00 are Invalid (an argument error, as a bad option).
  static arrow::Result<TimeZone> Make(std::string_view name);

  /// Seconds east of UTC in force at the instant `utc_seconds`.
  int32_t OffsetAt(int64_t utc_seconds) const;
  /// The wall-clock time of an instant (microseconds since 1970-01-01 local), or
  /// nullopt when the zone's offset takes it past the range of int64 microseconds.
  std::optional<int64_t> ToLocalMicros(int64_t utc_micros) const;
  /// The instant of a wall-clock time, resolved as java.time does (and so Spark): in an
  /// overlap the earlier offset; in a gap the time moves later by the gap's length.
  /// nullopt when that instant is past the range of int64 microseconds.
  std::optional<int64_t> ToUtcMicros(int64_t local_micros) const;
  /// ToUtcMicros() of `local_seconds` plus `micros` (0..999999), for wall-clock times
  /// themselves past the range of int64 microseconds whose instant is inside it.
  std::optional<int64_t> ToUtcMicros(int64_t local_seconds, int32_t micros) const;

 private:
  std::shared_ptr<const internal::TimeZone> zone_;
};

}  // namespace varshred
