// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/variant_get.h"

#include <arrow/array/array_binary.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include <string_view>
#include <utility>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get_internal.h"
#include "varshred/row_error_internal.h"
#include "varshred/validate.h"
#include "varshred/validate_internal.h"

namespace varshred {

// ----------------------------------------------------------------------
// Target types

arrow::Result<CastTarget> CastTargetForArrowType(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::BOOL:
      return CastTarget{CastTargetType::kBoolean};
    case arrow::Type::INT8:
      return CastTarget{CastTargetType::kInt8};
    case arrow::Type::INT16:
      return CastTarget{CastTargetType::kInt16};
    case arrow::Type::INT32:
      return CastTarget{CastTargetType::kInt32};
    case arrow::Type::INT64:
      return CastTarget{CastTargetType::kInt64};
    case arrow::Type::FLOAT:
      return CastTarget{CastTargetType::kFloat};
    case arrow::Type::DOUBLE:
      return CastTarget{CastTargetType::kDouble};
    case arrow::Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::Decimal128Type&>(type);
      if (const std::string_view problem = internal::DecimalTargetProblem(d);
          !problem.empty()) {
        return arrow::Status::TypeError("variant_get cannot cast to ", type.ToString(),
                                        " (", problem, ")");
      }
      return CastTarget::Decimal(static_cast<uint8_t>(d.precision()),
                                 static_cast<uint8_t>(d.scale()));
    }
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
      return CastTarget{CastTargetType::kString};
    case arrow::Type::DATE32:
      return CastTarget{CastTargetType::kDate};
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      if (ts.unit() != arrow::TimeUnit::MICRO) break;
      return CastTarget{ts.timezone().empty() ? CastTargetType::kTimestampNtz
                                              : CastTargetType::kTimestamp};
    }
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY:
      return CastTarget{CastTargetType::kBinary};
    default:
      break;
  }
  return arrow::Status::TypeError(
      "variant_get cannot cast to ", type.ToString(),
      ": supported types are bool, int8/16/32/64, float, double, decimal128, "
      "string/large_string, date32, timestamp[us] (with or without a time zone), "
      "binary/large_binary");
}

std::string_view internal::DecimalTargetProblem(const arrow::DecimalType& d) {
  if (d.scale() < 0) return "a negative scale: Variant and Spark decimals have none";
  if (d.precision() > kMaxDecimal16Precision) {
    return "Variant decimals hold at most 38 digits";
  }
  if (d.scale() > d.precision()) return "a scale above its precision";
  return {};
}

// ----------------------------------------------------------------------
// CastAppender

arrow::Status CastAppender::Failed(const VariantView& v) {
  if (errors_ == VariantGetErrors::kNull) return builder()->AppendNull();
  return arrow::Status::Invalid("row ", length(), ", path ", path_, ": ",
                                caster_.InvalidCastMessage(v),
                                ". Use errors=\"null\" (try_variant_get) to get NULL.");
}

namespace {

// One appender per target kind: the switch on the target happens in Make(), the
// cast's switch on the value's type is the only branch per row.
template <CastTargetType kTarget, typename BuilderType>
class TypedCastAppender final : public CastAppender {
 public:
  TypedCastAppender(std::shared_ptr<arrow::DataType> type, VariantCaster caster,
                    VariantGetErrors errors, std::string path, arrow::MemoryPool* pool)
      : CastAppender(type, std::move(caster), errors, std::move(path)),
        builder_(std::move(type), pool) {}

  arrow::Status Append(const VariantView& v) override {
    CastResult r;
    if constexpr (kTarget == CastTargetType::kBoolean) {
      bool out = false;
      r = caster_.CastBoolean(v, &out);
      if (r == CastResult::kOk) return builder_.Append(out);
    } else if constexpr (kTarget == CastTargetType::kInt8 ||
                         kTarget == CastTargetType::kInt16 ||
                         kTarget == CastTargetType::kInt32 ||
                         kTarget == CastTargetType::kInt64) {
      int64_t out = 0;
      r = caster_.CastInteger(v, &out);
      if (r == CastResult::kOk) {
        return builder_.Append(static_cast<typename BuilderType::value_type>(out));
      }
    } else if constexpr (kTarget == CastTargetType::kFloat) {
      float out = 0;
      r = caster_.CastFloat(v, &out);
      if (r == CastResult::kOk) return builder_.Append(out);
    } else if constexpr (kTarget == CastTargetType::kDouble) {
      double out = 0;
      r = caster_.CastDouble(v, &out);
      if (r == CastResult::kOk) return builder_.Append(out);
    } else if constexpr (kTarget == CastTargetType::kDecimal) {
      int128_t out = 0;
      r = caster_.CastDecimal(v, &out);
      if (r == CastResult::kOk) {
        const auto u = static_cast<unsigned __int128>(out);
        return builder_.Append(
            arrow::Decimal128(static_cast<int64_t>(u >> 64), static_cast<uint64_t>(u)));
      }
    } else if constexpr (kTarget == CastTargetType::kString) {
      scratch_.clear();
      r = caster_.CastString(v, &scratch_);
      if (r == CastResult::kOk) return builder_.Append(scratch_);
    } else if constexpr (kTarget == CastTargetType::kDate) {
      int32_t out = 0;
      r = caster_.CastDate(v, &out);
      if (r == CastResult::kOk) return builder_.Append(out);
    } else if constexpr (kTarget == CastTargetType::kTimestamp ||
                         kTarget == CastTargetType::kTimestampNtz) {
      int64_t out = 0;
      r = caster_.CastTimestamp(v, &out);
      if (r == CastResult::kOk) return builder_.Append(out);
    } else {
      static_assert(kTarget == CastTargetType::kBinary);
      std::string_view out;
      r = caster_.CastBinary(v, &out);
      if (r == CastResult::kOk) return builder_.Append(out);
    }
    if (r == CastResult::kNull) return builder_.AppendNull();
    return Failed(v);
  }

  arrow::Status AppendNull() override { return builder_.AppendNull(); }
  arrow::Status Reserve(int64_t rows) override { return builder_.Reserve(rows); }
  int64_t length() const override { return builder_.length(); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    return builder_.Finish();
  }
  arrow::ArrayBuilder* builder() override { return &builder_; }

 private:
  BuilderType builder_;
  std::string scratch_;
};

template <CastTargetType kTarget, typename BuilderType>
std::unique_ptr<CastAppender> MakeTyped(const std::shared_ptr<arrow::DataType>& type,
                                        VariantCaster caster, VariantGetErrors errors,
                                        std::string path, arrow::MemoryPool* pool) {
  return std::make_unique<TypedCastAppender<kTarget, BuilderType>>(
      type, std::move(caster), errors, std::move(path), pool);
}

}  // namespace

arrow::Result<std::unique_ptr<CastAppender>> CastAppender::Make(
    const std::shared_ptr<arrow::DataType>& type, const VariantGetOptions& options,
    std::string path, arrow::MemoryPool* pool) {
  if (type == nullptr) return arrow::Status::Invalid("CastAppender needs a type");
  ARROW_ASSIGN_OR_RAISE(CastTarget target, CastTargetForArrowType(*type));
  CastOptions cast_options;
  cast_options.timezone = options.timezone;
  ARROW_ASSIGN_OR_RAISE(VariantCaster caster, VariantCaster::Make(target, cast_options));
  const VariantGetErrors e = options.errors;
  using T = CastTargetType;
  switch (type->id()) {
    case arrow::Type::BOOL:
      return MakeTyped<T::kBoolean, arrow::BooleanBuilder>(type, std::move(caster), e,
                                                           std::move(path), pool);
    case arrow::Type::INT8:
      return MakeTyped<T::kInt8, arrow::Int8Builder>(type, std::move(caster), e,
                                                     std::move(path), pool);
    case arrow::Type::INT16:
      return MakeTyped<T::kInt16, arrow::Int16Builder>(type, std::move(caster), e,
                                                       std::move(path), pool);
    case arrow::Type::INT32:
      return MakeTyped<T::kInt32, arrow::Int32Builder>(type, std::move(caster), e,
                                                       std::move(path), pool);
    case arrow::Type::INT64:
      return MakeTyped<T::kInt64, arrow::Int64Builder>(type, std::move(caster), e,
                                                       std::move(path), pool);
    case arrow::Type::FLOAT:
      return MakeTyped<T::kFloat, arrow::FloatBuilder>(type, std::move(caster), e,
                                                       std::move(path), pool);
    case arrow::Type::DOUBLE:
      return MakeTyped<T::kDouble, arrow::DoubleBuilder>(type, std::move(caster), e,
                                                         std::move(path), pool);
    case arrow::Type::DECIMAL128:
      return MakeTyped<T::kDecimal, arrow::Decimal128Builder>(type, std::move(caster), e,
                                                              std::move(path), pool);
    case arrow::Type::STRING:
      return MakeTyped<T::kString, arrow::StringBuilder>(type, std::move(caster), e,
                                                         std::move(path), pool);
    case arrow::Type::LARGE_STRING:
      return MakeTyped<T::kString, arrow::LargeStringBuilder>(type, std::move(caster), e,
                                                              std::move(path), pool);
    case arrow::Type::DATE32:
      return MakeTyped<T::kDate, arrow::Date32Builder>(type, std::move(caster), e,
                                                       std::move(path), pool);
    case arrow::Type::TIMESTAMP:
      if (target.type == T::kTimestamp) {
        return MakeTyped<T::kTimestamp, arrow::TimestampBuilder>(
            type, std::move(caster), e, std::move(path), pool);
      }
      return MakeTyped<T::kTimestampNtz, arrow::TimestampBuilder>(
          type, std::move(caster), e, std::move(path), pool);
    case arrow::Type::BINARY:
      return MakeTyped<T::kBinary, arrow::BinaryBuilder>(type, std::move(caster), e,
                                                         std::move(path), pool);
    case arrow::Type::LARGE_BINARY:
      return MakeTyped<T::kBinary, arrow::LargeBinaryBuilder>(type, std::move(caster), e,
                                                              std::move(path), pool);
    default:
      break;
  }
  return arrow::Status::TypeError("variant_get cannot cast to ", type->ToString());
}

// ----------------------------------------------------------------------
// VariantGet

namespace internal {

arrow::Result<std::shared_ptr<arrow::Array>> OutputMetadata(const BinaryColumn& metadata,
                                                            int64_t length,
                                                            arrow::MemoryPool* pool) {
  // The sub-values refer to the row's own dictionary: share the metadata child when
  // it already is a null-free binary array, else copy it (null rows get empty bytes).
  const std::shared_ptr<arrow::Array>& in = metadata.array();
  if (in->type_id() == arrow::Type::BINARY && in->null_count() == 0) return in;
  arrow::BinaryBuilder md(pool);
  ARROW_RETURN_NOT_OK(md.Reserve(length));
  for (int64_t i = 0; i < length; ++i) {
    if (metadata.IsNull(i)) {
      ARROW_RETURN_NOT_OK(md.AppendEmptyValue());
    } else {
      ARROW_RETURN_NOT_OK(md.Append(metadata.Get(i)));
    }
  }
  return md.Finish();
}

arrow::Status RowViews::Row(int64_t row, MetadataView* metadata,
                            std::string_view* value) {
  if (view_.metadata_column().IsNull(row)) {
    return internal::NullMetadataError(row);
  }
  const std::string_view md = view_.metadata(row);
  *value = view_.value_or_variant_null(row);
  if (!validate_) {
    *metadata = MetadataView::MakeUnchecked(md);
    return arrow::Status::OK();
  }
  auto checked = metadata_.Get(md);
  if (!checked.ok()) {
    return checked.status().WithMessage("row ", row, ": ", checked.status().message());
  }
  *metadata = *checked;
  return arrow::Status::OK();
}

arrow::Status RowViews::Get(int64_t row, VariantView* out) {
  MetadataView metadata;
  std::string_view value;
  ARROW_RETURN_NOT_OK(Row(row, &metadata, &value));
  if (validate_) {
    const arrow::Status st = ValidateValue(metadata, metadata_.key_ranks(), value,
                                           options_, /*facts=*/nullptr);
    if (!st.ok()) return st.WithMessage("row ", row, ": ", st.message());
  }
  *out = VariantView::MakeUnchecked(metadata, value);
  return arrow::Status::OK();
}

arrow::Status RowViews::Find(int64_t row, const VariantPath& path,
                             std::optional<VariantView>* found) {
  MetadataView metadata;
  std::string_view value;
  ARROW_RETURN_NOT_OK(Row(row, &metadata, &value));
  if (!validate_) {
    *found = Lookup(VariantView::MakeUnchecked(metadata, value), path);
    return arrow::Status::OK();
  }
  const arrow::Status st =
      ValidatePath(metadata, metadata_.key_ranks(), value, path, options_, found);
  if (!st.ok()) return st.WithMessage("row ", row, ": ", st.message());
  return arrow::Status::OK();
}

}  // namespace internal

namespace {

arrow::Result<std::shared_ptr<arrow::Array>> GetVariant(const VariantArrayView& view,
                                                        const VariantPath& path,
                                                        bool validate,
                                                        arrow::MemoryPool* pool) {
  const int64_t n = view.length();
  arrow::BinaryBuilder values(pool);
  ARROW_RETURN_NOT_OK(values.Reserve(n));
  arrow::TypedBufferBuilder<bool> validity(pool);
  ARROW_RETURN_NOT_OK(validity.Reserve(n));
  int64_t null_count = 0;
  internal::RowViews row_views(view, validate);
  for (int64_t i = 0; i < n; ++i) {
    std::optional<VariantView> found;
    if (!view.IsNull(i)) ARROW_RETURN_NOT_OK(row_views.Find(i, path, &found));
    if (found) {
      ARROW_RETURN_NOT_OK(values.Append(found->value_bytes()));
      validity.UnsafeAppend(true);
    } else {
      ARROW_RETURN_NOT_OK(values.AppendEmptyValue());
      validity.UnsafeAppend(false);
      ++null_count;
    }
  }
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Array> value_array, values.Finish());

  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Array> metadata,
                        internal::OutputMetadata(view.metadata_column(), n, pool));
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> bitmap, validity.Finish());
  return std::make_shared<arrow::StructArray>(
      VariantStorageType(VariantLayout::kCanonical), n,
      std::vector<std::shared_ptr<arrow::Array>>{metadata, value_array},
      null_count > 0 ? bitmap : nullptr, null_count);
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> VariantGet(
    const arrow::Array& variants, const VariantPath& path,
    const std::shared_ptr<arrow::DataType>& type, const VariantGetOptions& options,
    arrow::MemoryPool* pool) {
  if (type != nullptr && !CastTargetForArrowType(*type).ok()) {
    // Objects, arrays and maps (structs, lists and maps), as Spark's variant_get casts
    // them: the values at the path, then cast(v as <type>). The first step validated
    // or built the values, so the cast reads them as they are.
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Array> found,
                          VariantGet(variants, path, nullptr, options, pool));
    VariantGetOptions trusted = options;
    trusted.validate = false;
    return internal::CastVariants(*found, type, trusted, path, "try_variant_get", pool);
  }
  ARROW_ASSIGN_OR_RAISE(
      VariantArrayView view,
      VariantArrayView::Make(internal::StorageOf(arrow::MakeArray(variants.data()))));
  if (view.typed_value() != nullptr) {
    return internal::VariantGetShredded(view, path, type, options, pool);
  }
  if (!view.has_value()) {
    return arrow::Status::Invalid("variant_get: the Variant array has no value child");
  }
  if (type == nullptr) return GetVariant(view, path, options.validate, pool);

  ARROW_ASSIGN_OR_RAISE(std::unique_ptr<CastAppender> appender,
                        CastAppender::Make(type, options, path.ToString(), pool));
  const int64_t n = view.length();
  ARROW_RETURN_NOT_OK(appender->Reserve(n));
  internal::RowViews row_views(view, options.validate);
  for (int64_t i = 0; i < n; ++i) {
    if (view.IsNull(i)) {
      ARROW_RETURN_NOT_OK(appender->AppendNull());
      continue;
    }
    std::optional<VariantView> found;
    ARROW_RETURN_NOT_OK(row_views.Find(i, path, &found));
    if (found) {
      ARROW_RETURN_NOT_OK(appender->Append(*found));
    } else {
      ARROW_RETURN_NOT_OK(appender->AppendNull());
    }
  }
  return appender->Finish();
}

}  // namespace varshred
