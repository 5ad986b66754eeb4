// Licensed under the Apache License, Version 2.0.
//
// Variant value -> SQL type conversions with the rules of Spark 4.3's variant_get /
// try_variant_get (VariantGet.cast: a variant null gives SQL NULL; otherwise an ANSI
// cast in TRY mode, where a failed cast is "invalid"). Arrow-free: the Arrow kernel
// (arrow/variant_get.h) and the shredded read path build on these functions.

#pragma once

#include <arrow/result.h>
#include <arrow/status.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "varshred/format.h"
#include "varshred/timezone.h"
#include "varshred/value.h"

namespace varshred {

/// \brief The SQL types variant_get can cast to.
enum class CastTargetType : uint8_t {
  kBoolean,
  kInt8,   ///< Spark TINYINT / BYTE
  kInt16,  ///< SMALLINT / SHORT
  kInt32,  ///< INT
  kInt64,  ///< BIGINT / LONG
  kFloat,
  kDouble,
  kDecimal,  ///< DECIMAL(precision, scale)
  kString,
  kDate,          ///< days since 1970-01-01
  kTimestamp,     ///< microseconds since the epoch, UTC
  kTimestampNtz,  ///< microseconds since 1970-01-01 00:00, no time zone
  kBinary,
};

/// \brief A cast target: a type and, for decimals, its precision (1-38) and scale.
struct CastTarget {
  CastTargetType type = CastTargetType::kString;
  uint8_t precision = 0;
  uint8_t scale = 0;

  static CastTarget Decimal(uint8_t precision, uint8_t scale) {
    return CastTarget{CastTargetType::kDecimal, precision, scale};
  }
  /// Spark's SQL name of the type: "BIGINT", "DECIMAL(5,2)", "TIMESTAMP_NTZ", ...
  std::string ToString() const;
  bool operator==(const CastTarget&) const = default;
};

/// \brief Outcome of one cast.
enum class CastResult : uint8_t {
  kOk,       ///< the output was written
  kNull,     ///< the value is a variant null: SQL NULL, never an error
  kInvalid,  ///< the cast failed: NULL for try_variant_get, an error for variant_get
};

/// \brief Options shared by all casts.
struct CastOptions {
  /// Session time zone: used by timestamp <-> date/string/timestamp_ntz casts.
  std::string timezone = "UTC";
};

/// \brief Converts Variant values to one target type. Build it once per column (the
/// target and the time zone are resolved then); the Cast*() methods are const and
/// allocate only for strings. Each method requires the matching target type.
///
/// The rules, verified against Spark 4.3 (see tests/cpp/cast_test.cc):
///  * a variant null gives kNull for every target;
///  * objects and arrays cast only to string (their JSON text, as to_json);
///  * uuid casts only to string; time (not a Spark type) casts only to string
///    ("HH:mm:ss[.ffffff]"); nanosecond timestamps act as microsecond ones (floored);
///  * integers, decimals, floats, doubles and booleans convert between each other with
///    overflow checks (overflow is kInvalid); fractions truncate toward zero when
///    cast to integers and round half up when cast to a decimal of smaller scale;
///  * strings parse as Spark's ANSI cast does (trimmed; "1.5" is no integer; booleans
///    t/true/y/yes/1 and f/false/n/no/0, any case; dates yyyy[-mm[-dd]];
///    timestamps yyyy-mm-dd[ T]hh:mm[:ss[.ffffff]][zone]);
///  * numbers cast to timestamps as seconds since the epoch (overflow is kInvalid);
///    timestamps cast to numbers as seconds (integers floor, doubles keep fractions);
///  * dates and timestamps do not cast to booleans or numbers but dates, timestamps and
///    timestamp_ntz convert into each other through the session time zone.
class VariantCaster {
 public:
  static arrow::Result<VariantCaster> Make(const CastTarget& target,
                                           const CastOptions& options = {});
  ~VariantCaster();
  VariantCaster(VariantCaster&&) noexcept;
  VariantCaster& operator=(VariantCaster&&) noexcept;

  const CastTarget& target() const { return target_; }
  const TimeZone& timezone() const { return tz_; }

  CastResult CastBoolean(const VariantView& v, bool* out) const;
  /// \pre target is kInt8..kInt64; `out` is widened: it fits the target type.
  CastResult CastInteger(const VariantView& v, int64_t* out) const;
  CastResult CastFloat(const VariantView& v, float* out) const;
  CastResult CastDouble(const VariantView& v, double* out) const;
  /// The unscaled value at the target's scale, within the target's precision.
  CastResult CastDecimal(const VariantView& v, int128_t* out) const;
  /// Appends the text to `out` (left untouched unless kOk).
  CastResult CastString(const VariantView& v, std::string* out) const;
  CastResult CastDate(const VariantView& v, int32_t* out) const;
  /// Timestamp (UTC) or timestamp_ntz (local) microseconds, by target.
  CastResult CastTimestamp(const VariantView& v, int64_t* out) const;
  /// `out` views the value bytes (strings and binaries): valid while they live.
  CastResult CastBinary(const VariantView& v, std::string_view* out) const;

  /// \brief The message of a failed cast, Spark-like: `[INVALID_VARIANT_CAST] The
  /// variant value `<json>` (<type>) cannot be cast into <target>`.
  std::string InvalidCastMessage(const VariantView& v) const;

 private:
  VariantCaster();
  struct Impl;
  CastTarget target_;
  TimeZone tz_;
  std::unique_ptr<Impl> impl_;  // JSON writer for object/array -> string
};

}  // namespace varshred
