// Licensed under the Apache License, Version 2.0.

#include "varshred/value.h"

#include <cstring>

#include "varshred/decimal_internal.h"
#include "varshred/endian_internal.h"
#include "varshred/validate.h"

namespace varshred {

using internal::ReadLE;

std::string_view VariantTypeName(VariantType type) {
  switch (type) {
    case VariantType::kNull:
      return "null";
    case VariantType::kBoolean:
      return "boolean";
    case VariantType::kInt8:
      return "int8";
    case VariantType::kInt16:
      return "int16";
    case VariantType::kInt32:
      return "int32";
    case VariantType::kInt64:
      return "int64";
    case VariantType::kFloat:
      return "float";
    case VariantType::kDouble:
      return "double";
    case VariantType::kDecimal4:
      return "decimal4";
    case VariantType::kDecimal8:
      return "decimal8";
    case VariantType::kDecimal16:
      return "decimal16";
    case VariantType::kDate:
      return "date";
    case VariantType::kTimestampMicros:
      return "timestamp";
    case VariantType::kTimestampNtzMicros:
      return "timestamp_ntz";
    case VariantType::kTimeNtzMicros:
      return "time";
    case VariantType::kTimestampNanos:
      return "timestamp_nanos";
    case VariantType::kTimestampNtzNanos:
      return "timestamp_ntz_nanos";
    case VariantType::kBinary:
      return "binary";
    case VariantType::kString:
      return "string";
    case VariantType::kUuid:
      return "uuid";
    case VariantType::kObject:
      return "object";
    case VariantType::kArray:
      return "array";
  }
  return "unknown";
}

int DecimalPrecision(int128_t unscaled) {
  const unsigned __int128 v = unscaled < 0 ? -static_cast<unsigned __int128>(unscaled)
                                           : static_cast<unsigned __int128>(unscaled);
  return internal::CountDigits(v);
}

VariantType TypeFromHeader(uint8_t header) {
  switch (static_cast<BasicType>(header & kBasicTypeMask)) {
    case BasicType::kPrimitive: {
      const uint8_t id = header >> kValueHeaderShift;
      return id <= kMaxPrimitiveTypeId ? kPrimitiveVariantTypes[id] : VariantType::kNull;
    }
    case BasicType::kShortString:
      return VariantType::kString;
    case BasicType::kObject:
      return VariantType::kObject;
    case BasicType::kArray:
      return VariantType::kArray;
  }
  return VariantType::kNull;
}

size_t ValueSize(std::string_view value) {
  const auto* p = reinterpret_cast<const uint8_t*>(value.data());
  const uint8_t header = p[0];
  const uint8_t vh = header >> kValueHeaderShift;
  switch (static_cast<BasicType>(header & kBasicTypeMask)) {
    case BasicType::kPrimitive: {
      // Unknown ids never pass validation; stay inside the table regardless.
      if (vh > kMaxPrimitiveTypeId) return 1;
      const int fixed = kPrimitivePayloadSize[vh];
      if (fixed >= 0) return 1 + fixed;
      return 5 + static_cast<size_t>(ReadLE<uint32_t>(p + 1));
    }
    case BasicType::kShortString:
      return 1 + vh;
    case BasicType::kObject: {
      const bool large = (vh & kObjectIsLargeBit) != 0;
      const int offset_size = (vh & 0x03) + 1;
      const int id_size = ((vh >> kObjectIdSizeShift) & 0x03) + 1;
      const int count_size = large ? 4 : 1;
      const size_t n = ReadUnsigned(p + 1, count_size);
      const size_t offsets = 1 + count_size + n * id_size;
      const size_t values = offsets + (n + 1) * offset_size;
      return values + ReadUnsigned(p + offsets + n * offset_size, offset_size);
    }
    case BasicType::kArray: {
      const bool large = (vh & kArrayIsLargeBit) != 0;
      const int offset_size = (vh & 0x03) + 1;
      const int count_size = large ? 4 : 1;
      const size_t n = ReadUnsigned(p + 1, count_size);
      const size_t values = 1 + count_size + (n + 1) * offset_size;
      return values + ReadUnsigned(p + 1 + count_size + n * offset_size, offset_size);
    }
  }
  return 1;
}

// ----------------------------------------------------------------------
// VariantView

arrow::Result<VariantView> VariantView::Make(MetadataView metadata,
                                             std::string_view value,
                                             const ValidateOptions& options) {
  ARROW_RETURN_NOT_OK(ValidateValue(metadata, value, options));
  return MakeUnchecked(metadata, value);
}

VariantView VariantView::MakeUnchecked(const MetadataView& metadata,
                                       std::string_view value) {
  VariantView view;
  view.metadata_ = metadata;
  view.value_ = value.substr(0, ValueSize(value));
  view.type_ = TypeFromHeader(static_cast<uint8_t>(value[0]));
  return view;
}

VariantView VariantView::MakeExact(const MetadataView& metadata, std::string_view value) {
  VariantView view;
  view.metadata_ = metadata;
  view.value_ = value;
  view.type_ = TypeFromHeader(static_cast<uint8_t>(value[0]));
  return view;
}

bool VariantView::GetBool() const {
  return (header() >> kValueHeaderShift) == static_cast<uint8_t>(PrimitiveType::kTrue);
}
int16_t VariantView::GetInt16() const { return ReadLE<int16_t>(payload()); }
int32_t VariantView::GetInt32() const { return ReadLE<int32_t>(payload()); }
int64_t VariantView::GetInt64() const { return ReadLE<int64_t>(payload()); }

int64_t VariantView::GetInteger() const {
  switch (type_) {
    case VariantType::kInt8:
      return GetInt8();
    case VariantType::kInt16:
      return GetInt16();
    case VariantType::kInt32:
      return GetInt32();
    default:
      return GetInt64();
  }
}

float VariantView::GetFloat() const { return ReadLE<float>(payload()); }
double VariantView::GetDouble() const { return ReadLE<double>(payload()); }

Decimal VariantView::GetDecimal() const {
  Decimal d;
  d.scale = payload()[0];
  const uint8_t* u = payload() + 1;
  switch (type_) {
    case VariantType::kDecimal4:
      d.unscaled = ReadLE<int32_t>(u);
      break;
    case VariantType::kDecimal8:
      d.unscaled = ReadLE<int64_t>(u);
      break;
    default:
      d.unscaled = ReadLE<int128_t>(u);
      break;
  }
  return d;
}

int32_t VariantView::GetDate() const { return ReadLE<int32_t>(payload()); }
int64_t VariantView::GetTimeValue() const { return ReadLE<int64_t>(payload()); }

std::string_view VariantView::GetString() const {
  if (basic_type() == BasicType::kShortString) return value_.substr(1);
  return value_.substr(5);
}
std::string_view VariantView::GetBinary() const { return value_.substr(5); }

ObjectView VariantView::GetObject() const { return ObjectView(metadata_, value_); }
ArrayView VariantView::GetArray() const { return ArrayView(metadata_, value_); }

// ----------------------------------------------------------------------
// ObjectView

ObjectView::ObjectView(const MetadataView& metadata, std::string_view value)
    : metadata_(metadata) {
  begin_ = reinterpret_cast<const uint8_t*>(value.data());
  const uint8_t vh = begin_[0] >> kValueHeaderShift;
  const bool large = (vh & kObjectIsLargeBit) != 0;
  offset_size_ = static_cast<uint8_t>((vh & 0x03) + 1);
  id_size_ = static_cast<uint8_t>(((vh >> kObjectIdSizeShift) & 0x03) + 1);
  const int count_size = large ? 4 : 1;
  num_fields_ = ReadUnsigned(begin_ + 1, count_size);
  ids_ = begin_ + 1 + count_size;
  offsets_ = ids_ + static_cast<size_t>(num_fields_) * id_size_;
  values_ = offsets_ + (static_cast<size_t>(num_fields_) + 1) * offset_size_;
}

VariantView ObjectView::value(uint32_t i) const {
  const uint32_t begin = field_offset(i);
  const uint32_t end = field_offset(num_fields_);
  return VariantView::MakeUnchecked(
      metadata_, {reinterpret_cast<const char*>(values_) + begin, end - begin});
}

size_t ObjectView::size_bytes() const {
  return static_cast<size_t>(values_ - begin_) + field_offset(num_fields_);
}

std::optional<uint32_t> ObjectView::FindIndex(std::string_view key) const {
  // docs/format.md: field ids are listed in key-byte order, so binary search...
  uint32_t lo = 0, hi = num_fields_;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const std::string_view k = this->key(mid);
    if (k == key) return mid;
    if (k < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  // ...but some engines write ids in insertion order (docs/format.md#key-order): scan on
  // a miss.
  for (uint32_t i = 0; i < num_fields_; ++i) {
    if (this->key(i) == key) return i;
  }
  return std::nullopt;
}

std::optional<VariantView> ObjectView::Find(std::string_view key) const {
  auto index = FindIndex(key);
  if (!index) return std::nullopt;
  return value(*index);
}

// ----------------------------------------------------------------------
// ArrayView

ArrayView::ArrayView(const MetadataView& metadata, std::string_view value)
    : metadata_(metadata) {
  begin_ = reinterpret_cast<const uint8_t*>(value.data());
  const uint8_t vh = begin_[0] >> kValueHeaderShift;
  const bool large = (vh & kArrayIsLargeBit) != 0;
  offset_size_ = static_cast<uint8_t>((vh & 0x03) + 1);
  const int count_size = large ? 4 : 1;
  num_elements_ = ReadUnsigned(begin_ + 1, count_size);
  offsets_ = begin_ + 1 + count_size;
  values_ = offsets_ + (static_cast<size_t>(num_elements_) + 1) * offset_size_;
}

VariantView ArrayView::element(uint32_t i) const {
  const uint32_t begin = element_offset(i);
  const uint32_t end = element_offset(num_elements_);
  return VariantView::MakeUnchecked(
      metadata_, {reinterpret_cast<const char*>(values_) + begin, end - begin});
}

size_t ArrayView::size_bytes() const {
  return static_cast<size_t>(values_ - begin_) + element_offset(num_elements_);
}

}  // namespace varshred
