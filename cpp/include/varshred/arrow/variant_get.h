// Licensed under the Apache License, Version 2.0.
//
// variant_get over Arrow arrays: extract a path from every row of a Variant column
// and cast it to an Arrow type with Spark 4.3's rules (cast.h).

#pragma once

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>

#include "varshred/cast.h"
#include "varshred/path.h"
#include "varshred/value.h"

namespace varshred {

/// \brief What a failed cast does.
enum class VariantGetErrors : uint8_t {
  kRaise,  ///< variant_get: the call fails with INVALID_VARIANT_CAST
  kNull,   ///< try_variant_get: the row is null
};

struct VariantGetOptions {
  VariantGetErrors errors = VariantGetErrors::kNull;
  /// Session time zone for timestamp casts (see TimeZone::Make).
  std::string timezone = "UTC";
  /// Validate what is read before reading it: each row's metadata, the containers on
  /// the path (header, every id and offset, key order) and all of the value found.
  /// Other fields and elements are not read, so not checked. Turn it off only for
  /// bytes already validated (e.g. written by this library): invalid bytes are then
  /// undefined behaviour.
  bool validate = true;
};

/// \brief The CastTarget for an Arrow type: boolean, int8/16/32/64, float32/64,
/// decimal128(p, s), utf8/large_utf8, date32, timestamp(us) (no zone:
/// timestamp_ntz; any zone: UTC instants), binary/large_binary. TypeError otherwise.
arrow::Result<CastTarget> CastTargetForArrowType(const arrow::DataType& type);

/// \brief Casts Variant values into an Arrow builder of one type, row by row.
///
/// Make() resolves the type once; Append() then runs without type dispatch on the
/// target. This is the per-value step of VariantGet, reusable by readers that find
/// the value elsewhere (e.g. a shredded column's residual `value` bytes) and append
/// typed values themselves between calls.
class CastAppender {
 public:
  /// \param[in] type the output type (see CastTargetForArrowType)
  /// \param[in] path_for_errors the path named in error messages
  static arrow::Result<std::unique_ptr<CastAppender>> Make(
      const std::shared_ptr<arrow::DataType>& type, const VariantGetOptions& options,
      std::string path_for_errors = "$",
      arrow::MemoryPool* pool = arrow::default_memory_pool());

  virtual ~CastAppender() = default;

  /// \brief Appends the cast of `v`: the value; null for a variant null; for a failed
  /// cast, null under kNull or an Invalid status under kRaise, naming the output row,
  /// the path, the value (as JSON), its type and the target type.
  virtual arrow::Status Append(const VariantView& v) = 0;
  /// \brief Appends a SQL NULL (missing path, null input row).
  virtual arrow::Status AppendNull() = 0;
  virtual arrow::Status Reserve(int64_t rows) = 0;
  virtual int64_t length() const = 0;
  /// \brief The array built so far; resets the appender.
  virtual arrow::Result<std::shared_ptr<arrow::Array>> Finish() = 0;

  /// The underlying builder, for readers that append typed values directly (e.g.
  /// from a shredded typed_value column). Its concrete type follows the output type.
  virtual arrow::ArrayBuilder* builder() = 0;
  const std::shared_ptr<arrow::DataType>& type() const { return type_; }
  const VariantCaster& caster() const { return caster_; }

 protected:
  CastAppender(std::shared_ptr<arrow::DataType> type, VariantCaster caster,
               VariantGetErrors errors, std::string path)
      : type_(std::move(type)),
        caster_(std::move(caster)),
        errors_(errors),
        path_(std::move(path)) {}
  arrow::Status Failed(const VariantView& v);

  std::shared_ptr<arrow::DataType> type_;
  VariantCaster caster_;
  VariantGetErrors errors_;
  std::string path_;
};

/// \brief variant_get / try_variant_get over a Variant struct array: unshredded
/// (canonical or Spark layout, see VariantArrayView) or shredded (a typed_value child,
/// any layout Unshred accepts; an arrow.parquet.variant extension array is read
/// through its storage).
///
/// Every row is looked up with `path`; a null row or a missing path gives null. With
/// `type` set, the value is cast (CastAppender) and the result has that type; a type
/// CastAppender does not take -- a struct, list or map (Spark's variant_get of
/// `struct<...>`, `array<...>`, `map<string, ...>`) or another of VariantToArrow's --
/// casts the value found as VariantToArrow does. With
/// `type` null, the result is a canonical Variant struct array
/// (VariantStorageType(kCanonical)) whose rows are the sub-values: a variant null at
/// the path stays a variant null (as in Spark). The sub-value bytes are copied; the
/// metadata child is the input's metadata child, shared without copying when it is a
/// binary array without nulls (the sub-values refer to the same dictionary; unlike
/// Spark, unused keys are not dropped from it).
///
/// On shredded input the result is the one VariantGet gives on Unshred(variants), but
/// the path is followed through the typed columns: `.key` into a typed object's field
/// group, `[i]` into a typed list's element i; a row falls back to its residual
/// `value` bytes only where it leaves the typed layout. A typed scalar at the path is
/// copied when its type is `type` and cast by the same rules otherwise; a typed object
/// or array at the path is rebuilt (Unshred on that sub-column only). When no `value`
/// column along the path holds a value and the leaf's type is `type`, the result reuses
/// the leaf's buffers (zero-copy) with the validity of every level ANDed in. Value and
/// typed_value both set for a scalar or array on the path is Invalid naming the row
/// and path, as is a non-object residual beside typed fields when the path reads it;
/// other invalid data off the path is not looked at. Residual bytes are validated along
/// the rest of the path when options.validate (unsorted object ids accepted, as
/// Unshred does).
arrow::Result<std::shared_ptr<arrow::Array>> VariantGet(
    const arrow::Array& variants, const VariantPath& path,
    const std::shared_ptr<arrow::DataType>& type, const VariantGetOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
