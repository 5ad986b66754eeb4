// Licensed under the Apache License, Version 2.0.
//
// The shape a Variant column is shredded into (docs/shredding.md): a tree of typed
// leaves, objects and arrays, each of which may also be "value only". Its Parquet
// schema: varshred/parquet/schema.h.

#pragma once

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "varshred/format.h"

namespace varshred {

/// \brief One node of a shredding schema: the `{value, typed_value}` pair of the top
/// level, of an object field or of an array element.
///
/// Primitive leaves are identified by the VariantType they shred (kBoolean, kInt8 ..
/// kInt64, kFloat, kDouble, kDecimal4/8/16 with precision and scale, kDate,
/// kTimeNtzMicros, kTimestampMicros/Nanos, kTimestampNtzMicros/Nanos, kBinary,
/// kString, kUuid). A decimal's Variant width follows its precision (<= 9: decimal4,
/// <= 18: decimal8, else decimal16), as the Parquet physical type does.
///
/// DDL type names (Parse / ToDdl, case-insensitive): boolean, tinyint|byte,
/// smallint|short, int|integer, bigint|long, float|real, double, decimal(p,s) |
/// decimal(p) | decimal | numeric (default 10,0 as Spark), date, time (µs, no zone),
/// timestamp (µs, UTC-adjusted), timestamp_ntz (µs), timestamp_ns, timestamp_ntz_ns,
/// binary, string|varchar, uuid, array<T>, struct<name: T, ...>, and variant (a
/// value-only node).
class ShreddingSchema {
 public:
  enum class Kind : uint8_t { kValueOnly, kPrimitive, kObject, kArray };
  using Field = std::pair<std::string, ShreddingSchema>;

  /// A value-only node: no typed_value.
  ShreddingSchema() = default;

  static ShreddingSchema ValueOnly() { return ShreddingSchema(); }
  /// \brief A primitive leaf. \pre `type` is a primitive VariantType other than null
  /// and the decimals (use Decimal()).
  static ShreddingSchema Primitive(VariantType type);
  /// \brief A decimal leaf; fails unless 1 <= precision <= 38 and 0 <= scale <=
  /// precision.
  static arrow::Result<ShreddingSchema> Decimal(int precision, int scale);
  /// \brief An object; fails on duplicate field names ("" is a valid name).
  static arrow::Result<ShreddingSchema> Object(std::vector<Field> fields);
  static ShreddingSchema Array(ShreddingSchema element);

  /// \brief From the Arrow type of a `typed_value` column
  /// (docs/shredding.md#typed-value-types mapping): struct of non-nullable struct{value?,
  /// typed_value?} for objects, list/large_list of such a struct for arrays, mapped
  /// primitives, fixed_size_binary(16) or the `arrow.uuid` extension for uuid. Unsigned
  /// integers, other fixed-size binaries, timestamps in s/ms, time32 and the like are
  /// rejected, and so is nesting deeper than kMaxShreddingDepth.
  static arrow::Result<ShreddingSchema> FromArrow(const arrow::DataType& typed_value);
  /// \brief From a Spark-style DDL string: `struct<id: bigint, tags: array<string>>`,
  /// or the bare form `id bigint, name string`. Names may be backquoted (`` `a b` ``,
  /// doubled backquotes escape one; two backquotes alone are the empty name). Errors
  /// give the column: "unknown type 'bigintt' at column 12". Spark's `COMMENT '...'`
  /// after a field's type and `STRING COLLATE name` are accepted and dropped; `NOT NULL`
  /// is refused (a shredded field is always nullable).
  static arrow::Result<ShreddingSchema> Parse(std::string_view ddl);
  /// \brief Parse() for the target type of a cast, as Spark's variant_get reads it: a
  /// field's `NOT NULL` is accepted and dropped too (Spark's result is nullable).
  static arrow::Result<ShreddingSchema> ParseSqlType(std::string_view ddl);
  /// \brief From (path, DDL type) pairs merged into one object tree: "a.b" is field b
  /// of object a, "tags[]" the element of array tags, "events[].kind" field kind of
  /// the elements of events. Path segments may be backquoted. A path that conflicts
  /// with another (a leaf used as an object, two types for one path) is an error.
  static arrow::Result<ShreddingSchema> FromPaths(
      const std::vector<std::pair<std::string, std::string>>& paths);

  Kind kind() const { return kind_; }
  /// The shredded Variant type of a primitive leaf (kNull for other kinds).
  VariantType type() const { return type_; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  const std::vector<Field>& fields() const { return fields_; }
  /// \pre kind() == kArray.
  const ShreddingSchema& element() const { return children_[0]; }
  bool has_typed_value() const { return kind_ != Kind::kValueOnly; }

  /// \brief DDL text that Parse() reads back to an equal schema. A top-level object is
  /// written `struct<...>`.
  std::string ToDdl() const;
  /// \brief The Arrow type of the whole shredded column:
  /// struct<metadata: binary not null, value: binary, typed_value: ...>.
  std::shared_ptr<arrow::DataType> ToArrow() const;
  /// \brief The Arrow type of this node's typed_value (null for value-only nodes).
  std::shared_ptr<arrow::DataType> TypedValueArrowType() const;
  /// \brief The Arrow type of a value of this node's SQL type as Spark hands it to Arrow:
  /// decimals are decimal128 (Spark's DecimalType), objects structs of nullable fields,
  /// arrays lists, `variant` the canonical Variant struct. What variant_get and
  /// to_arrow cast to when given this node's DDL as the target type.
  std::shared_ptr<arrow::DataType> SqlArrowType() const;

  bool Equals(const ShreddingSchema& other) const;
  bool operator==(const ShreddingSchema& other) const { return Equals(other); }

 private:
  // FromArrow() for a typed_value under `depth` objects and arrays.
  static arrow::Result<ShreddingSchema> FromArrowAt(const arrow::DataType& typed_value,
                                                    int depth);

  Kind kind_ = Kind::kValueOnly;
  VariantType type_ = VariantType::kNull;
  uint8_t precision_ = 0;
  uint8_t scale_ = 0;
  std::vector<Field> fields_;
  std::vector<ShreddingSchema> children_;  // the array element
};

}  // namespace varshred
