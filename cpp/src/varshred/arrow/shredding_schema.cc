// Licensed under the Apache License, Version 2.0.
//
// ShreddingSchema, the tree: constructors and equality. Its DDL text is in
// shredding_ddl.cc, FromPaths() in shredding_path.cc, the Arrow mapping in
// shredding_schema_arrow.cc, the Parquet schema in parquet/schema.cc.

#include "varshred/arrow/shredding_schema.h"

#include <arrow/status.h>

#include <set>

namespace varshred {

namespace {

VariantType DecimalWidth(int precision) {
  return precision <= kMaxDecimal4Precision   ? VariantType::kDecimal4
         : precision <= kMaxDecimal8Precision ? VariantType::kDecimal8
                                              : VariantType::kDecimal16;
}

}  // namespace

ShreddingSchema ShreddingSchema::Primitive(VariantType type) {
  ShreddingSchema s;
  s.kind_ = Kind::kPrimitive;
  s.type_ = type;
  return s;
}

arrow::Result<ShreddingSchema> ShreddingSchema::Decimal(int precision, int scale) {
  if (precision < 1 || precision > kMaxDecimal16Precision || scale < 0 ||
      scale > precision) {
    return arrow::Status::Invalid(
        "invalid decimal(", precision, ",", scale,
        "): need 1 <= precision <= 38, 0 <= scale <= precision");
  }
  ShreddingSchema s;
  s.kind_ = Kind::kPrimitive;
  s.type_ = DecimalWidth(precision);
  s.precision_ = static_cast<uint8_t>(precision);
  s.scale_ = static_cast<uint8_t>(scale);
  return s;
}

arrow::Result<ShreddingSchema> ShreddingSchema::Object(std::vector<Field> fields) {
  std::set<std::string_view> seen;
  for (const auto& f : fields) {
    if (!seen.insert(f.first).second) {
      return arrow::Status::Invalid("duplicate field '", f.first,
                                    "' in shredding schema");
    }
  }
  ShreddingSchema s;
  s.kind_ = Kind::kObject;
  s.fields_ = std::move(fields);
  return s;
}

ShreddingSchema ShreddingSchema::Array(ShreddingSchema element) {
  ShreddingSchema s;
  s.kind_ = Kind::kArray;
  s.children_.push_back(std::move(element));
  return s;
}

bool ShreddingSchema::Equals(const ShreddingSchema& o) const {
  if (kind_ != o.kind_ || type_ != o.type_ || precision_ != o.precision_ ||
      scale_ != o.scale_ || fields_.size() != o.fields_.size() ||
      children_.size() != o.children_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].first != o.fields_[i].first ||
        !fields_[i].second.Equals(o.fields_[i].second)) {
      return false;
    }
  }
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!children_[i].Equals(o.children_[i])) return false;
  }
  return true;
}

}  // namespace varshred
