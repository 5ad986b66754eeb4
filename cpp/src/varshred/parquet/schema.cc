// Licensed under the Apache License, Version 2.0.
//
// The Parquet schema of a shredded Variant column (VARIANT(1)-annotated group).

#include "varshred/parquet/schema.h"

#include <arrow/status.h>
#include <parquet/types.h>

#include <string>

namespace varshred {

namespace {

using parquet::LogicalType;
using parquet::schema::GroupNode;
using parquet::schema::NodePtr;
using parquet::schema::PrimitiveNode;
namespace pq = parquet;

arrow::Result<NodePtr> TypedValueNode(const ShreddingSchema& s);

arrow::Result<parquet::schema::NodeVector> PairNodes(const ShreddingSchema& s,
                                                     bool with_value = true) {
  parquet::schema::NodeVector out;
  if (with_value) {
    out.push_back(
        PrimitiveNode::Make("value", pq::Repetition::OPTIONAL, pq::Type::BYTE_ARRAY));
  }
  if (s.has_typed_value()) {
    ARROW_ASSIGN_OR_RAISE(auto typed, TypedValueNode(s));
    out.push_back(std::move(typed));
  }
  return out;
}

arrow::Result<NodePtr> TypedValueNode(const ShreddingSchema& s) {
  const auto opt = pq::Repetition::OPTIONAL;
  const std::string name = "typed_value";
  switch (s.kind()) {
    case ShreddingSchema::Kind::kValueOnly:
      return arrow::Status::Invalid("value-only node has no typed_value");
    case ShreddingSchema::Kind::kObject: {
      if (s.fields().empty()) {
        return arrow::Status::Invalid(
            "shredding schema: an object with no fields (struct<>) cannot be stored in "
            "Parquet (a group needs a child); use 'variant' to leave it unshredded");
      }
      parquet::schema::NodeVector fields;
      for (const auto& [fname, child] : s.fields()) {
        ARROW_ASSIGN_OR_RAISE(auto pair, PairNodes(child));
        // docs/shredding.md: object field groups must be required.
        fields.push_back(GroupNode::Make(fname, pq::Repetition::REQUIRED, pair));
      }
      return GroupNode::Make(name, opt, fields);
    }
    case ShreddingSchema::Kind::kArray: {
      ARROW_ASSIGN_OR_RAISE(auto pair, PairNodes(s.element()));
      // 3-level LIST with a required element group.
      auto element = GroupNode::Make("element", pq::Repetition::REQUIRED, pair);
      auto list = GroupNode::Make("list", pq::Repetition::REPEATED, {element});
      return GroupNode::Make(name, opt, {list}, LogicalType::List());
    }
    case ShreddingSchema::Kind::kPrimitive:
      break;
  }
  using T = pq::Type;
  const auto micros = LogicalType::TimeUnit::MICROS;
  const auto nanos = LogicalType::TimeUnit::NANOS;
  switch (s.type()) {
    case VariantType::kBoolean:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::BOOLEAN);
    case VariantType::kInt8:
      return PrimitiveNode::Make(name, opt, LogicalType::Int(8, true), T::INT32);
    case VariantType::kInt16:
      return PrimitiveNode::Make(name, opt, LogicalType::Int(16, true), T::INT32);
    case VariantType::kInt32:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::INT32);
    case VariantType::kInt64:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::INT64);
    case VariantType::kFloat:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::FLOAT);
    case VariantType::kDouble:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::DOUBLE);
    case VariantType::kDecimal4:
      return PrimitiveNode::Make(
          name, opt, LogicalType::Decimal(s.precision(), s.scale()), T::INT32);
    case VariantType::kDecimal8:
      return PrimitiveNode::Make(
          name, opt, LogicalType::Decimal(s.precision(), s.scale()), T::INT64);
    case VariantType::kDecimal16:
      return PrimitiveNode::Make(name, opt,
                                 LogicalType::Decimal(s.precision(), s.scale()),
                                 T::FIXED_LEN_BYTE_ARRAY, 16);
    case VariantType::kDate:
      return PrimitiveNode::Make(name, opt, LogicalType::Date(), T::INT32);
    case VariantType::kTimeNtzMicros:
      return PrimitiveNode::Make(name, opt, LogicalType::Time(false, micros), T::INT64);
    case VariantType::kTimestampMicros:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(true, micros),
                                 T::INT64);
    case VariantType::kTimestampNtzMicros:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(false, micros),
                                 T::INT64);
    case VariantType::kTimestampNanos:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(true, nanos),
                                 T::INT64);
    case VariantType::kTimestampNtzNanos:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(false, nanos),
                                 T::INT64);
    case VariantType::kBinary:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::BYTE_ARRAY);
    case VariantType::kString:
      return PrimitiveNode::Make(name, opt, LogicalType::String(), T::BYTE_ARRAY);
    case VariantType::kUuid:
      return PrimitiveNode::Make(name, opt, LogicalType::UUID(), T::FIXED_LEN_BYTE_ARRAY,
                                 16);
    default:
      return arrow::Status::Invalid("no Parquet type for ", VariantTypeName(s.type()));
  }
}

}  // namespace

arrow::Result<parquet::schema::NodePtr> ToParquetSchema(
    const ShreddingSchema& schema, const std::string& name,
    parquet::Repetition::type repetition) {
  parquet::schema::NodeVector children = {
      PrimitiveNode::Make("metadata", pq::Repetition::REQUIRED, pq::Type::BYTE_ARRAY)};
  ARROW_ASSIGN_OR_RAISE(auto pair, PairNodes(schema));
  for (auto& n : pair) children.push_back(std::move(n));
  return GroupNode::Make(name, repetition, children, LogicalType::Variant());
}

}  // namespace varshred
