// Licensed under the Apache License, Version 2.0.
//
// Non-owning views over Variant value bytes (docs/format.md, "Value encoding").

#pragma once

#include <arrow/result.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "varshred/format.h"
#include "varshred/metadata.h"

namespace varshred {

/// \brief A decimal: unscaled integer and scale (0-38). The precision is not stored.
struct Decimal {
  int128_t unscaled = 0;
  uint8_t scale = 0;
};

/// \brief Number of decimal digits of |unscaled| (1 for 0), as the spec defines it.
int DecimalPrecision(int128_t unscaled);

class ObjectView;
class ArrayView;

/// \brief Limits applied while validating untrusted values.
struct ValidateOptions {
  /// Deepest nesting of objects and arrays accepted, at most kMaxNestingDepth (deeper
  /// is refused: validation recurses once per level).
  int max_depth = kMaxNestingDepth;
  /// Largest value accepted, in bytes (format.h).
  uint64_t max_size = kMaxValueSize;
  /// Accept objects whose field ids are not in key order (DuckDB writes them; the spec
  /// forbids them). Keys must still be unique.
  bool allow_unsorted_keys = false;

  /// \brief The options of every reader and kernel: unsorted ids accepted, since
  /// DuckDB writes objects in insertion order and Spark in UTF-16 order (which differs
  /// from byte order past the BMP). Only Validate() itself defaults to strict.
  static ValidateOptions ForReading() {
    ValidateOptions o;
    o.allow_unsorted_keys = true;
    return o;
  }
};

/// \brief A cursor over one Variant value and the metadata its keys refer to.
///
/// It is only valid while the metadata and value bytes it was made from are alive and
/// unchanged; it never allocates. Accessors named Get<Type>() require type() to be that
/// type (they do not check); value_bytes() is the exact slice of this value.
class VariantView {
 public:
  VariantView() = default;

  /// \brief Validates `value` fully against `metadata` (see validate.h) and returns a
  /// view. O(size of the value).
  static arrow::Result<VariantView> Make(MetadataView metadata, std::string_view value,
                                         const ValidateOptions& options = {});
  /// \brief O(1). `value` must be valid for `metadata`.
  static VariantView MakeUnchecked(const MetadataView& metadata, std::string_view value);
  /// \brief As MakeUnchecked(), for a `value` that is exactly one value's bytes (its
  /// size is not measured again).
  static VariantView MakeExact(const MetadataView& metadata, std::string_view value);

  VariantType type() const { return type_; }
  BasicType basic_type() const {
    return static_cast<BasicType>(header() & kBasicTypeMask);
  }
  const MetadataView& metadata() const { return metadata_; }
  /// The bytes of this value, exactly (nested values included).
  std::string_view value_bytes() const { return value_; }

  bool is_null() const { return type_ == VariantType::kNull; }
  bool GetBool() const;
  int8_t GetInt8() const { return static_cast<int8_t>(payload()[0]); }
  int16_t GetInt16() const;
  int32_t GetInt32() const;
  int64_t GetInt64() const;
  /// Any integer width, widened. \pre IsInteger(type()).
  int64_t GetInteger() const;
  float GetFloat() const;
  double GetDouble() const;
  /// Any decimal width. \pre IsDecimal(type()).
  Decimal GetDecimal() const;
  /// Days since 1970-01-01.
  int32_t GetDate() const;
  /// Microseconds or nanoseconds since the epoch (UTC or local, by type()), or
  /// microseconds since midnight for kTimeNtzMicros.
  int64_t GetTimeValue() const;
  /// String bytes, short or long form. Valid while the value bytes live.
  std::string_view GetString() const;
  std::string_view GetBinary() const;
  /// The 16 UUID bytes in big-endian (RFC 4122) order.
  std::string_view GetUuid() const { return value_.substr(1, 16); }
  ObjectView GetObject() const;
  ArrayView GetArray() const;

 private:
  uint8_t header() const { return static_cast<uint8_t>(value_[0]); }
  const uint8_t* payload() const {
    return reinterpret_cast<const uint8_t*>(value_.data()) + 1;
  }

  MetadataView metadata_;
  std::string_view value_;
  VariantType type_ = VariantType::kNull;
};

/// \brief A cursor over a Variant object. Fields are in key order for valid data, but
/// Find() also copes with unsorted field ids written by other engines.
class ObjectView {
 public:
  ObjectView() = default;
  ObjectView(const MetadataView& metadata, std::string_view value);

  uint32_t num_fields() const { return num_fields_; }
  uint32_t field_id(uint32_t i) const {
    return ReadUnsigned(ids_ + static_cast<size_t>(i) * id_size_, id_size_);
  }
  std::string_view key(uint32_t i) const { return metadata_.key(field_id(i)); }
  VariantView value(uint32_t i) const;
  /// Offset of field i's value from the start of the values area.
  uint32_t field_offset(uint32_t i) const {
    return ReadUnsigned(offsets_ + static_cast<size_t>(i) * offset_size_, offset_size_);
  }
  /// The values area: the fields' values, field_offset(i) bytes apart from its start.
  std::string_view values_area() const {
    return {reinterpret_cast<const char*>(values_), field_offset(num_fields_)};
  }

  /// \brief The value of `key`: binary search by key bytes, then a linear scan if the
  /// search misses (objects with unsorted ids). Never allocates.
  std::optional<VariantView> Find(std::string_view key) const;
  /// \brief Index of `key` among the fields, as Find().
  std::optional<uint32_t> FindIndex(std::string_view key) const;

  /// Size of the whole object in bytes (header through last value).
  size_t size_bytes() const;
  const MetadataView& metadata() const { return metadata_; }

 private:
  MetadataView metadata_;
  const uint8_t* ids_ = nullptr;
  const uint8_t* offsets_ = nullptr;
  const uint8_t* values_ = nullptr;
  const uint8_t* begin_ = nullptr;
  uint32_t num_fields_ = 0;
  uint8_t id_size_ = 1;
  uint8_t offset_size_ = 1;
};

/// \brief A cursor over a Variant array.
class ArrayView {
 public:
  ArrayView() = default;
  ArrayView(const MetadataView& metadata, std::string_view value);

  uint32_t size() const { return num_elements_; }
  VariantView element(uint32_t i) const;
  /// Offset of element i from the start of the values area.
  uint32_t element_offset(uint32_t i) const {
    return ReadUnsigned(offsets_ + static_cast<size_t>(i) * offset_size_, offset_size_);
  }
  /// The values area: the elements, element_offset(i) bytes apart from its start.
  std::string_view values_area() const {
    return {reinterpret_cast<const char*>(values_), element_offset(num_elements_)};
  }
  size_t size_bytes() const;

 private:
  MetadataView metadata_;
  const uint8_t* offsets_ = nullptr;
  const uint8_t* values_ = nullptr;
  const uint8_t* begin_ = nullptr;
  uint32_t num_elements_ = 0;
  uint8_t offset_size_ = 1;
};

// Views stay small: they are passed by value through every row loop.
static_assert(sizeof(MetadataView) <= 48, "MetadataView grew");
static_assert(sizeof(ObjectView) <= 96, "ObjectView grew");

/// \brief Exact size of the value starting at `value[0]`, for valid data.
size_t ValueSize(std::string_view value);

/// \brief The VariantType a valid header byte denotes.
VariantType TypeFromHeader(uint8_t header);

}  // namespace varshred
