// Licensed under the Apache License, Version 2.0.
//
// Constants and enums of the Variant binary encoding (docs/format.md). No
// dependencies: everything else in varshred builds on this.

#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace varshred {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "varshred assumes a little-endian host");

/// \brief Reads the unsigned little-endian integer of `size` (1-4) bytes at `p`: how
/// the format stores counts, field ids and offsets. Inline: views read one per field.
/// One byte first: the width of ids and offsets in all but large values.
inline uint32_t ReadUnsigned(const uint8_t* p, int size) {
  if (size == 1) [[likely]] {
    return p[0];
  }
  switch (size) {
    case 2:
      return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8);
    case 3:
      return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
             (static_cast<uint32_t>(p[2]) << 16);
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

/// Signed 128-bit integer, used for decimal16 unscaled values.
using int128_t = __int128;

/// \brief Bits 0-1 of a value header byte.
enum class BasicType : uint8_t {
  kPrimitive = 0,
  kShortString = 1,
  kObject = 2,
  kArray = 3,
};

/// \brief Primitive type ids (value_header of a primitive), docs/format.md.
/// Ids 17-20 were 21-24 in drafts from Dec 2024 to Feb 2025; those are not accepted.
enum class PrimitiveType : uint8_t {
  kNull = 0,
  kTrue = 1,
  kFalse = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt64 = 6,
  kDouble = 7,
  kDecimal4 = 8,
  kDecimal8 = 9,
  kDecimal16 = 10,
  kDate = 11,
  kTimestampMicros = 12,     ///< UTC-adjusted
  kTimestampNtzMicros = 13,  ///< no time zone
  kFloat = 14,
  kBinary = 15,
  kString = 16,  ///< long form: 4-byte length + UTF-8
  kTimeNtzMicros = 17,
  kTimestampNanos = 18,
  kTimestampNtzNanos = 19,
  kUuid = 20,
};
constexpr uint8_t kMaxPrimitiveTypeId = 20;

/// \brief The logical type of one Variant value: a primitive type, with short and long
/// strings merged, plus object and array. This is what views report.
enum class VariantType : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat,
  kDouble,
  kDecimal4,
  kDecimal8,
  kDecimal16,
  kDate,
  kTimestampMicros,
  kTimestampNtzMicros,
  kTimeNtzMicros,
  kTimestampNanos,
  kTimestampNtzNanos,
  kBinary,
  kString,
  kUuid,
  kObject,
  kArray,
};

/// \brief The VariantType of each primitive type id.
inline constexpr VariantType kPrimitiveVariantTypes[kMaxPrimitiveTypeId + 1] = {
    VariantType::kNull,
    VariantType::kBoolean,
    VariantType::kBoolean,
    VariantType::kInt8,
    VariantType::kInt16,
    VariantType::kInt32,
    VariantType::kInt64,
    VariantType::kDouble,
    VariantType::kDecimal4,
    VariantType::kDecimal8,
    VariantType::kDecimal16,
    VariantType::kDate,
    VariantType::kTimestampMicros,
    VariantType::kTimestampNtzMicros,
    VariantType::kFloat,
    VariantType::kBinary,
    VariantType::kString,
    VariantType::kTimeNtzMicros,
    VariantType::kTimestampNanos,
    VariantType::kTimestampNtzNanos,
    VariantType::kUuid,
};

/// \brief Payload bytes of each primitive type id; -1 for binary and string, whose
/// payload is a 4-byte length and that many bytes.
inline constexpr int8_t kPrimitivePayloadSize[kMaxPrimitiveTypeId + 1] = {
    0, 0, 0, 1, 2, 4, 8, 8, 5, 9, 17, 4, 8, 8, 4, -1, -1, 8, 8, 8, 16};

/// \brief A readable name for a VariantType ("int8", "decimal16", "object", ...).
std::string_view VariantTypeName(VariantType type);

/// \brief True for int8..int64 and decimal4..16 (the "Exact Numeric" class).
constexpr bool IsExactNumeric(VariantType t) {
  return (t >= VariantType::kInt8 && t <= VariantType::kInt64) ||
         (t >= VariantType::kDecimal4 && t <= VariantType::kDecimal16);
}
constexpr bool IsInteger(VariantType t) {
  return t >= VariantType::kInt8 && t <= VariantType::kInt64;
}
constexpr bool IsDecimal(VariantType t) {
  return t >= VariantType::kDecimal4 && t <= VariantType::kDecimal16;
}

constexpr uint8_t kMetadataVersion = 1;
constexpr uint8_t kMetadataVersionMask = 0x0F;
constexpr uint8_t kMetadataSortedBit = 0x10;
constexpr int kMetadataOffsetSizeShift = 6;

constexpr uint8_t kBasicTypeMask = 0x03;
constexpr int kValueHeaderShift = 2;
constexpr uint32_t kMaxShortStringSize = 63;

// Object header (value_header bits): offset size - 1 in bits 0-1, id size - 1 in
// bits 2-3, is_large in bit 4. Array header: offset size - 1 in bits 0-1, is_large in
// bit 2.
constexpr int kObjectIdSizeShift = 2;
constexpr uint8_t kObjectIsLargeBit = 0x10;
constexpr uint8_t kArrayIsLargeBit = 0x04;

/// Limits of what varshred writes and reads, the same on both sides so that nothing it
/// writes is refused when read back: the deepest nesting of objects and arrays
/// (parquet-java stops at 500; every recursive walk over values or shredding schemas
/// is bounded by it) and the largest value in bytes (Spark's is 16 MiB, the format's
/// 4 GiB).
constexpr int kMaxNestingDepth = 500;
constexpr uint64_t kMaxValueSize = uint64_t{128} << 20;
/// The deepest nesting of objects and arrays a shredding schema types. Each typed level
/// adds two levels to the shredded Arrow type and up to three to the Parquet group, and
/// readers stop there: Arrow's C data interface at 64 levels (a column of a record
/// batch, below the batch's own struct, its Variant struct and its leaf, has room for
/// 30 typed levels), Parquet C++ at 100 by default. Values nested deeper are kept whole
/// in the residual `value` of the deepest typed level.
constexpr int kMaxShreddingDepth = 30;
/// The deepest Parquet schema varshred reads (Parquet C++ stops at 100 by default):
/// other writers shred deeper than varshred does (Spark and DuckDB follow a value's
/// nesting), up to three Parquet levels per array level, below the column's group.
constexpr int kMaxParquetSchemaDepth = 3 * kMaxNestingDepth + 2;

constexpr int kMaxDecimal4Precision = 9;
constexpr int kMaxDecimal8Precision = 18;
constexpr int kMaxDecimal16Precision = 38;

/// Header byte of a primitive value.
constexpr uint8_t PrimitiveHeader(PrimitiveType t) {
  return static_cast<uint8_t>(static_cast<uint8_t>(t) << kValueHeaderShift);
}
/// Header byte of a short string of `size` (< 64) bytes.
constexpr uint8_t ShortStringHeader(uint32_t size) {
  return static_cast<uint8_t>((size << kValueHeaderShift) |
                              static_cast<uint8_t>(BasicType::kShortString));
}
/// Header byte of an object.
constexpr uint8_t ObjectHeader(bool is_large, int id_size, int offset_size) {
  return static_cast<uint8_t>(((is_large ? 1 : 0) << 6) | ((id_size - 1) << 4) |
                              ((offset_size - 1) << 2) |
                              static_cast<uint8_t>(BasicType::kObject));
}
/// Header byte of an array.
constexpr uint8_t ArrayHeader(bool is_large, int offset_size) {
  return static_cast<uint8_t>(((is_large ? 1 : 0) << 4) | ((offset_size - 1) << 2) |
                              static_cast<uint8_t>(BasicType::kArray));
}

/// Smallest number of bytes (1-4) that holds `value` unsigned.
constexpr int IntegerSize(uint32_t value) {
  return value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFFFF ? 3 : 4;
}

/// Empty metadata: version 1, no keys, one offset (always 3 bytes; see
/// docs/format.md#metadata).
inline constexpr std::string_view kEmptyMetadata{"\x01\x00\x00", 3};
/// A Variant null value.
inline constexpr std::string_view kNullValue{"\x00", 1};

}  // namespace varshred
