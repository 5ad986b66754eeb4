// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/typed_scalar_internal.h"

#include <arrow/array/array_primitive.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include <cstring>
#include <string_view>

#include "varshred/arrow/extension_internal.h"
#include "varshred/decimal_internal.h"
#include "varshred/endian_internal.h"
#include "varshred/format.h"
#include "varshred/utf8_internal.h"

namespace varshred::internal {

struct TypedScalarColumn::Encoders {
  template <PrimitiveType kId, int kWidth>
  static void Fixed(const TypedScalarColumn& c, int64_t i, std::string* out) {
    out->push_back(static_cast<char>(PrimitiveHeader(kId)));
    out->append(reinterpret_cast<const char*>(c.values_) + i * kWidth, kWidth);
  }

  static void Bool(const TypedScalarColumn& c, int64_t i, std::string* out) {
    const bool v = static_cast<const arrow::BooleanArray&>(*c.array_).Value(i);
    out->push_back(static_cast<char>(
        PrimitiveHeader(v ? PrimitiveType::kTrue : PrimitiveType::kFalse)));
  }

  template <PrimitiveType kId, int kWidth>
  static void Decimal(const TypedScalarColumn& c, int64_t i, std::string* out) {
    out->push_back(static_cast<char>(PrimitiveHeader(kId)));
    out->push_back(static_cast<char>(c.scale_));
    out->append(reinterpret_cast<const char*>(c.values_) + i * kWidth, kWidth);
  }

  // decimal128 storage written at the width its precision implies; Make checked that
  // the precision bounds the values, so the narrowing loses nothing.
  template <PrimitiveType kId, typename T>
  static void Decimal128As(const TypedScalarColumn& c, int64_t i, std::string* out) {
    int128_t v;
    std::memcpy(&v, c.values_ + i * 16, 16);
    out->push_back(static_cast<char>(PrimitiveHeader(kId)));
    out->push_back(static_cast<char>(c.scale_));
    AppendLE(out, static_cast<T>(v));
  }

  static void String(const TypedScalarColumn& c, int64_t i, std::string* out) {
    const std::string_view s = c.binary_.Get(i);
    if (s.size() <= kMaxShortStringSize) {
      out->push_back(
          static_cast<char>(ShortStringHeader(static_cast<uint32_t>(s.size()))));
    } else {
      out->push_back(static_cast<char>(PrimitiveHeader(PrimitiveType::kString)));
      AppendLE(out, static_cast<uint32_t>(s.size()));
    }
    out->append(s.data(), s.size());
  }

  static void Binary(const TypedScalarColumn& c, int64_t i, std::string* out) {
    const std::string_view s = c.binary_.Get(i);
    out->push_back(static_cast<char>(PrimitiveHeader(PrimitiveType::kBinary)));
    AppendLE(out, static_cast<uint32_t>(s.size()));
    out->append(s.data(), s.size());
  }

  // The encoder for `c->array_`'s type (setting what it reads), or null when the type
  // has no Variant equivalent.
  static arrow::Result<EncodeFn> Pick(TypedScalarColumn* c);
};

arrow::Result<TypedScalarColumn::EncodeFn> TypedScalarColumn::Encoders::Pick(
    TypedScalarColumn* c) {
  const arrow::Array& array = *c->array_;
  const arrow::DataType& type = *array.type();
  auto fixed = [&](int width) {
    const auto& buffer = array.data()->buffers[1];
    c->values_ = buffer ? buffer->data() + array.offset() * width : nullptr;
  };
  using T = arrow::Type;
  using P = PrimitiveType;
  switch (type.id()) {
    case T::BOOL:
      return Bool;
    case T::INT8:
      fixed(1);
      return Fixed<P::kInt8, 1>;
    case T::INT16:
      fixed(2);
      return Fixed<P::kInt16, 2>;
    case T::INT32:
      fixed(4);
      return Fixed<P::kInt32, 4>;
    case T::INT64:
      fixed(8);
      return Fixed<P::kInt64, 8>;
    case T::FLOAT:
      fixed(4);
      return Fixed<P::kFloat, 4>;
    case T::DOUBLE:
      fixed(8);
      return Fixed<P::kDouble, 8>;
    case T::DATE32:
      fixed(4);
      return Fixed<P::kDate, 4>;
    case T::TIME64:
      if (static_cast<const arrow::Time64Type&>(type).unit() != arrow::TimeUnit::MICRO) {
        return nullptr;
      }
      fixed(8);
      return Fixed<P::kTimeNtzMicros, 8>;
    case T::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      const bool utc = !ts.timezone().empty();
      fixed(8);
      if (ts.unit() == arrow::TimeUnit::MICRO) {
        return utc ? Fixed<P::kTimestampMicros, 8> : Fixed<P::kTimestampNtzMicros, 8>;
      }
      if (ts.unit() == arrow::TimeUnit::NANO) {
        return utc ? Fixed<P::kTimestampNanos, 8> : Fixed<P::kTimestampNtzNanos, 8>;
      }
      return nullptr;
    }
    case T::DECIMAL32:
    case T::DECIMAL64:
    case T::DECIMAL128: {
      const auto& d = static_cast<const arrow::DecimalType&>(type);
      if (d.scale() < 0 || d.scale() > kMaxDecimal16Precision ||
          d.precision() > kMaxDecimal16Precision) {
        return nullptr;
      }
      c->scale_ = static_cast<uint8_t>(d.scale());
      c->precision_ = static_cast<uint8_t>(d.precision());
      c->decimal_width_ = d.byte_width();
      if (type.id() == T::DECIMAL32) {
        fixed(4);
        return Decimal<P::kDecimal4, 4>;
      }
      if (type.id() == T::DECIMAL64) {
        fixed(8);
        return Decimal<P::kDecimal8, 8>;
      }
      // Parquet readers return decimal128 whatever the physical type; the precision
      // names the physical width (INT32 <= 9, INT64 <= 18),
      // docs/shredding.md#reconstruction.
      fixed(16);
      if (d.precision() <= kMaxDecimal4Precision) {
        return Decimal128As<P::kDecimal4, int32_t>;
      }
      if (d.precision() <= kMaxDecimal8Precision) {
        return Decimal128As<P::kDecimal8, int64_t>;
      }
      return Decimal<P::kDecimal16, 16>;
    }
    case T::STRING:
    case T::LARGE_STRING:
    case T::STRING_VIEW: {
      ARROW_ASSIGN_OR_RAISE(c->binary_, BinaryColumn::Make(c->array_));
      return String;
    }
    case T::BINARY:
    case T::LARGE_BINARY:
    case T::BINARY_VIEW: {
      ARROW_ASSIGN_OR_RAISE(c->binary_, BinaryColumn::Make(c->array_));
      return Binary;
    }
    case T::DICTIONARY: {
      // As Parquet readers decode dictionary-encoded strings when asked to.
      const arrow::Type::type values =
          static_cast<const arrow::DictionaryType&>(type).value_type()->id();
      if (values != T::STRING && values != T::BINARY) return nullptr;
      ARROW_ASSIGN_OR_RAISE(c->binary_, BinaryColumn::Make(c->array_));
      return values == T::STRING ? String : Binary;
    }
    case T::FIXED_SIZE_BINARY:
      if (static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width() != 16) {
        return nullptr;
      }
      fixed(16);
      return Fixed<P::kUuid, 16>;
    default:
      return nullptr;
  }
}

namespace {

// Whether all `n` values of `b`, nulls' bytes included, are UTF-8, in one pass over
// their bytes: each value is when the whole run is and no value starts inside a
// character (on a continuation byte). False sends the caller to its per-value check.
bool AllUtf8(const BinaryColumn& b, int64_t n) {
  if (b.dictionary() != nullptr) {
    // Rows are the dictionary's values: checking each of those once is enough.
    const auto values = BinaryColumn::Make(b.dictionary());
    return values.ok() && AllUtf8(*values, b.dictionary()->length());
  }
  if (n == 0 || !b.contiguous()) return n == 0;
  const char* begin = b.Get(0).data();
  const std::string_view last = b.Get(n - 1);
  const char* end = last.data() + last.size();
  if (end < begin || !IsValidUtf8({begin, static_cast<size_t>(end - begin)})) {
    return false;
  }
  const char* previous = begin;
  for (int64_t i = 1; i < n; ++i) {
    const char* start = b.Get(i).data();
    if (start < previous || start > end) return false;  // malformed offsets
    if (start < end && (static_cast<unsigned char>(*start) & 0xC0) == 0x80) return false;
    previous = start;
  }
  return true;
}

}  // namespace

arrow::Result<TypedScalarColumn> TypedScalarColumn::Typed(
    const std::shared_ptr<arrow::Array>& typed, const std::string& path) {
  TypedScalarColumn c;
  // arrow.uuid arrives here as its fixed_size_binary(16) storage.
  c.array_ = StorageOf(typed);
  c.nulls_ = NullMask(*c.array_);
  ARROW_ASSIGN_OR_RAISE(c.encode_, Encoders::Pick(&c));
  if (c.encode_ == nullptr) return UnsupportedShreddedType(*c.array_->type(), path);
  return c;
}

arrow::Status TypedScalarColumn::CheckType(const std::shared_ptr<arrow::Array>& typed,
                                           const std::string& path) {
  return Typed(typed, path).status();
}

arrow::Result<TypedScalarColumn> TypedScalarColumn::Make(
    const std::shared_ptr<arrow::Array>& typed, const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(TypedScalarColumn c, Typed(typed, path));
  if (c.encode_ == Encoders::String) {
    // Parquet readers do not check UTF-8 of STRING columns; residual strings are
    // checked (Validate), so typed ones must be too, before any row is read.
    const int64_t n = c.array_->length();
    if (!AllUtf8(c.binary_, n)) {
      for (int64_t i = 0; i < n; ++i) {
        if (c.binary_.IsNull(i) || IsValidUtf8(c.binary_.Get(i))) continue;
        // Paths below an array ("$.a[]") index elements, not rows.
        const bool element = path.find("[]") != std::string::npos;
        return arrow::Status::Invalid(element ? "element " : "row ", i, ", ", path,
                                      ": typed string is not valid UTF-8");
      }
    }
  }
  if (c.decimal_width_ > 0) {
    // One pass over the values: in-range columns (all of them, but for hostile files)
    // need no check per value, and bulk copies of them stay exact.
    c.first_out_of_range_ = 0;
    for (int64_t i = 0; i < c.array_->length(); ++i) {
      if (!c.array_->IsNull(i) && !c.InRange(i)) return c;
    }
    c.first_out_of_range_ = -1;
  }
  return c;
}

int128_t TypedScalarColumn::Unscaled(int64_t i) const {
  const uint8_t* p = values_ + i * decimal_width_;
  if (decimal_width_ == 4) return ReadLE<int32_t>(p);
  if (decimal_width_ == 8) return ReadLE<int64_t>(p);
  return ReadLE<int128_t>(p);
}

bool TypedScalarColumn::InRange(int64_t i) const {
  if (decimal_width_ == 0) return true;
  const int128_t v = Unscaled(i);
  const int128_t bound = Pow10Table()[precision_];
  return v < bound && v > -bound;
}

arrow::Status TypedScalarColumn::OutOfRange(int64_t i) const {
  const int128_t v = Unscaled(i);
  const arrow::Decimal128 d(static_cast<int64_t>(v >> 64), static_cast<uint64_t>(v));
  return arrow::Status::Invalid("decimal value ", d.ToString(scale_), " has more than ",
                                int{precision_}, " digits, the precision of its type ",
                                array_->type()->ToString());
}

arrow::Status UnsupportedShreddedType(const arrow::DataType& type,
                                      const std::string& path) {
  return arrow::Status::TypeError("unsupported shredded value type ", type.ToString(),
                                  " at ", path);
}

}  // namespace varshred::internal
