// Licensed under the Apache License, Version 2.0.
//
// ShreddingSchema <-> Arrow types: FromArrow() (the typed_value type of a shredded
// column) and ToArrow() / TypedValueArrowType().

#include <arrow/extension/uuid.h>
#include <arrow/extension_type.h>
#include <arrow/status.h>
#include <arrow/type.h>

#include <string>

#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/variant_array.h"

namespace varshred {

namespace {

std::shared_ptr<arrow::Field> PairField(const std::string& name,
                                        const ShreddingSchema& node) {
  arrow::FieldVector children = {arrow::field("value", arrow::binary())};
  if (auto t = node.TypedValueArrowType())
    children.push_back(arrow::field("typed_value", t));
  return arrow::field(name, arrow::struct_(std::move(children)), /*nullable=*/false);
}

// The typed_value type of a {value, typed_value} pair, or null for a value-only pair.
arrow::Result<const arrow::DataType*> PairTypedValue(const arrow::DataType& type,
                                                     const std::string& where) {
  if (type.id() != arrow::Type::STRUCT) {
    return arrow::Status::TypeError("shredded ", where, " must be a struct, got ",
                                    type.ToString());
  }
  const auto& st = static_cast<const arrow::StructType&>(type);
  int typed = -1;
  bool has_value = false;
  for (int i = 0; i < st.num_fields(); ++i) {
    const auto& f = st.field(i);
    if (f->name() == "typed_value") {
      typed = i;
    } else if (f->name() == "value") {
      has_value = true;
    } else {
      return arrow::Status::TypeError("shredded ", where, " has an unexpected child '",
                                      f->name(), "'");
    }
  }
  if (typed < 0 && !has_value) {
    return arrow::Status::TypeError("shredded ", where,
                                    " has neither value nor typed_value");
  }
  if (typed < 0) return nullptr;
  return st.field(typed)->type().get();
}

}  // namespace

arrow::Result<ShreddingSchema> ShreddingSchema::FromArrow(const arrow::DataType& type) {
  return FromArrowAt(type, 0);
}

arrow::Result<ShreddingSchema> ShreddingSchema::FromArrowAt(const arrow::DataType& type,
                                                            int depth) {
  using arrow::Type;
  // A pair's typed_value (null: value-only), one level below this node.
  auto pair = [depth](const arrow::DataType& t,
                      const std::string& where) -> arrow::Result<ShreddingSchema> {
    ARROW_ASSIGN_OR_RAISE(const arrow::DataType* typed, PairTypedValue(t, where));
    if (typed == nullptr) return ValueOnly();
    return FromArrowAt(*typed, depth + 1);
  };
  if ((type.id() == Type::STRUCT || type.id() == Type::LIST ||
       type.id() == Type::LARGE_LIST || type.id() == Type::LIST_VIEW ||
       type.id() == Type::LARGE_LIST_VIEW) &&
      depth >= kMaxShreddingDepth) {
    return arrow::Status::Invalid("shredded typed_value nested deeper than the limit of ",
                                  kMaxShreddingDepth);
  }
  switch (type.id()) {
    case Type::BOOL:
      return Primitive(VariantType::kBoolean);
    case Type::INT8:
      return Primitive(VariantType::kInt8);
    case Type::INT16:
      return Primitive(VariantType::kInt16);
    case Type::INT32:
      return Primitive(VariantType::kInt32);
    case Type::INT64:
      return Primitive(VariantType::kInt64);
    case Type::FLOAT:
      return Primitive(VariantType::kFloat);
    case Type::DOUBLE:
      return Primitive(VariantType::kDouble);
    case Type::DATE32:
      return Primitive(VariantType::kDate);
    case Type::BINARY:
    case Type::LARGE_BINARY:
    case Type::BINARY_VIEW:
      return Primitive(VariantType::kBinary);
    case Type::STRING:
    case Type::LARGE_STRING:
    case Type::STRING_VIEW:
      return Primitive(VariantType::kString);
    case Type::DECIMAL32:
    case Type::DECIMAL64:
    case Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::DecimalType&>(type);
      ARROW_ASSIGN_OR_RAISE(auto s, Decimal(d.precision(), d.scale()));
      // The Arrow width, when narrower than 16 bytes, names the Variant width.
      if (type.id() == Type::DECIMAL32) s.type_ = VariantType::kDecimal4;
      if (type.id() == Type::DECIMAL64) s.type_ = VariantType::kDecimal8;
      return s;
    }
    case Type::TIME64: {
      const auto& t = static_cast<const arrow::Time64Type&>(type);
      if (t.unit() == arrow::TimeUnit::MICRO)
        return Primitive(VariantType::kTimeNtzMicros);
      break;
    }
    case Type::TIMESTAMP: {
      const auto& t = static_cast<const arrow::TimestampType&>(type);
      const bool utc = !t.timezone().empty();
      if (t.unit() == arrow::TimeUnit::MICRO) {
        return Primitive(utc ? VariantType::kTimestampMicros
                             : VariantType::kTimestampNtzMicros);
      }
      if (t.unit() == arrow::TimeUnit::NANO) {
        return Primitive(utc ? VariantType::kTimestampNanos
                             : VariantType::kTimestampNtzNanos);
      }
      break;
    }
    case Type::FIXED_SIZE_BINARY:
      if (static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width() == 16) {
        return Primitive(VariantType::kUuid);
      }
      break;
    case Type::EXTENSION: {
      const auto& ext = static_cast<const arrow::ExtensionType&>(type);
      if (ext.extension_name() == "arrow.uuid") return Primitive(VariantType::kUuid);
      break;
    }
    case Type::STRUCT: {
      std::vector<Field> fields;
      for (const auto& f : type.fields()) {
        ARROW_ASSIGN_OR_RAISE(auto child, pair(*f->type(), "field '" + f->name() + "'"));
        fields.emplace_back(f->name(), std::move(child));
      }
      return Object(std::move(fields));
    }
    case Type::LIST:
    case Type::LARGE_LIST:
    case Type::LIST_VIEW:
    case Type::LARGE_LIST_VIEW: {
      ARROW_ASSIGN_OR_RAISE(auto element, pair(*type.field(0)->type(), "array element"));
      return Array(std::move(element));
    }
    default:
      break;
  }
  return arrow::Status::TypeError("unsupported shredded typed_value type ",
                                  type.ToString());
}

std::shared_ptr<arrow::DataType> ShreddingSchema::TypedValueArrowType() const {
  switch (kind_) {
    case Kind::kValueOnly:
      return nullptr;
    case Kind::kObject: {
      arrow::FieldVector fields;
      for (const auto& [name, child] : fields_) fields.push_back(PairField(name, child));
      return arrow::struct_(std::move(fields));
    }
    case Kind::kArray:
      return arrow::list(PairField("element", element()));
    case Kind::kPrimitive:
      break;
  }
  switch (type_) {
    case VariantType::kBoolean:
      return arrow::boolean();
    case VariantType::kInt8:
      return arrow::int8();
    case VariantType::kInt16:
      return arrow::int16();
    case VariantType::kInt32:
      return arrow::int32();
    case VariantType::kInt64:
      return arrow::int64();
    case VariantType::kFloat:
      return arrow::float32();
    case VariantType::kDouble:
      return arrow::float64();
    case VariantType::kDecimal4:
      return arrow::decimal32(precision_, scale_);
    case VariantType::kDecimal8:
      return arrow::decimal64(precision_, scale_);
    case VariantType::kDecimal16:
      return arrow::decimal128(precision_, scale_);
    case VariantType::kDate:
      return arrow::date32();
    case VariantType::kTimeNtzMicros:
      return arrow::time64(arrow::TimeUnit::MICRO);
    case VariantType::kTimestampMicros:
      return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case VariantType::kTimestampNtzMicros:
      return arrow::timestamp(arrow::TimeUnit::MICRO);
    case VariantType::kTimestampNanos:
      return arrow::timestamp(arrow::TimeUnit::NANO, "UTC");
    case VariantType::kTimestampNtzNanos:
      return arrow::timestamp(arrow::TimeUnit::NANO);
    case VariantType::kBinary:
      return arrow::binary();
    case VariantType::kString:
      return arrow::utf8();
    case VariantType::kUuid:
      return arrow::fixed_size_binary(16);
    default:
      return nullptr;
  }
}

std::shared_ptr<arrow::DataType> ShreddingSchema::SqlArrowType() const {
  switch (kind_) {
    case Kind::kValueOnly:
      return VariantStorageType(VariantLayout::kCanonical);
    case Kind::kObject: {
      arrow::FieldVector fields;
      for (const auto& [name, child] : fields_) {
        fields.push_back(arrow::field(name, child.SqlArrowType()));
      }
      return arrow::struct_(std::move(fields));
    }
    case Kind::kArray:
      return arrow::list(element().SqlArrowType());
    case Kind::kPrimitive:
      break;
  }
  if (IsDecimal(type_)) return arrow::decimal128(precision_, scale_);
  return TypedValueArrowType();
}

std::shared_ptr<arrow::DataType> ShreddingSchema::ToArrow() const {
  arrow::FieldVector fields = {arrow::field("metadata", arrow::binary(), false),
                               arrow::field("value", arrow::binary())};
  if (auto t = TypedValueArrowType()) fields.push_back(arrow::field("typed_value", t));
  return arrow::struct_(std::move(fields));
}

}  // namespace varshred
