// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/variant_to_arrow.h"

#include <arrow/array.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/buffer_builder.h>
#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/float16.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "varshred/arrow/bit_builder_internal.h"
#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get_internal.h"
#include "varshred/calendar_internal.h"
#include "varshred/cast_text_internal.h"
#include "varshred/json.h"

namespace varshred {

namespace {

// State shared by the decoders of one call.
struct Context {
  VariantGetErrors errors = VariantGetErrors::kNull;
  VariantGetOptions options;
  JsonWriter json;
  // The steps from the failing value up to the row, innermost first (see Encoder in
  // arrow_to_variant.cc): pushed only on the way out of an error.
  std::vector<PathSegment> error_path;
  // The metadata of the row being read (Variant-typed outputs keep it).
  std::string_view metadata;
  arrow::MemoryPool* pool = nullptr;
};

// One decoder per node of the output type, built once per call.
class Decoder {
 public:
  Decoder(std::shared_ptr<arrow::DataType> type, Context* ctx)
      : type_(std::move(type)), ctx_(ctx) {}
  virtual ~Decoder() = default;

  /// Appends the cast of `v` (a Variant null gives null).
  virtual arrow::Status Append(const VariantView& v) = 0;
  virtual arrow::Status AppendNull() = 0;
  virtual arrow::Result<std::shared_ptr<arrow::Array>> Finish() = 0;

 protected:
  // A failed cast: null in try mode, else Invalid (the row and path are added above).
  arrow::Status Failed(const VariantView& v) {
    if (ctx_->errors == VariantGetErrors::kNull) return AppendNull();
    std::string json;
    if (!ctx_->json.Write(v, &json).ok()) json = "?";
    return arrow::Status::Invalid("[INVALID_VARIANT_CAST] The variant value `", json,
                                  "` (", VariantTypeName(v.type()),
                                  ") cannot be cast into ", type_->ToString());
  }

  std::shared_ptr<arrow::DataType> type_;
  Context* ctx_;
};

using DecoderPtr = std::unique_ptr<Decoder>;

arrow::Result<DecoderPtr> MakeDecoder(const std::shared_ptr<arrow::DataType>& type,
                                      const VariantPath& path, Context* ctx);

// The types of variant_get, through its CastAppender.
class CastDecoder final : public Decoder {
 public:
  CastDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx,
              std::unique_ptr<CastAppender> appender)
      : Decoder(std::move(type), ctx), appender_(std::move(appender)) {}

  arrow::Status Append(const VariantView& v) override {
    arrow::Status st = appender_->Append(v);
    // The appender names its own row count, not the input row: say it again here.
    if (st.IsInvalid() && ctx_->errors == VariantGetErrors::kRaise) {
      return arrow::Status::Invalid(appender_->caster().InvalidCastMessage(v));
    }
    return st;
  }
  arrow::Status AppendNull() override { return appender_->AppendNull(); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    return appender_->Finish();
  }

 private:
  std::unique_ptr<CastAppender> appender_;
};

// Types outside variant_get's: `fn(v, &builder)` appends on kOk.
template <typename BuilderType, typename Fn>
class FnDecoder final : public Decoder {
 public:
  FnDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx, Fn fn)
      : Decoder(type, ctx), builder_(type, ctx->pool), fn_(std::move(fn)) {}

  arrow::Status Append(const VariantView& v) override {
    if (v.is_null()) return builder_.AppendNull();
    const CastResult r = fn_(v, &builder_);
    if (r == CastResult::kOk) return arrow::Status::OK();
    if (r == CastResult::kNull) return builder_.AppendNull();
    return Failed(v);
  }
  arrow::Status AppendNull() override { return builder_.AppendNull(); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    return builder_.Finish();
  }

 private:
  BuilderType builder_;
  Fn fn_;
};

template <typename BuilderType, typename Fn>
DecoderPtr Custom(const std::shared_ptr<arrow::DataType>& type, Context* ctx, Fn fn) {
  return std::make_unique<FnDecoder<BuilderType, Fn>>(type, ctx, std::move(fn));
}

// Validity of a nested output, built beside its children.
class Validity {
 public:
  explicit Validity(arrow::MemoryPool* pool) : bits_(pool) {}
  arrow::Status Append(bool valid) {
    null_count_ += !valid;
    ++length_;
    return internal::AppendBit(&bits_, valid);
  }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  arrow::Result<std::shared_ptr<arrow::Buffer>> Finish() {
    ARROW_ASSIGN_OR_RAISE(auto bitmap, bits_.Finish());
    length_ = 0;
    null_count_ = 0;
    return bitmap;
  }

 private:
  arrow::TypedBufferBuilder<bool> bits_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
};

class StructDecoder final : public Decoder {
 public:
  StructDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx)
      : Decoder(std::move(type), ctx), validity_(ctx->pool) {}
  std::vector<DecoderPtr> fields;

  arrow::Status Append(const VariantView& v) override {
    if (v.is_null()) return AppendNull();
    if (v.type() != VariantType::kObject) return Failed(v);
    const ObjectView object = v.GetObject();
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string& name = type_->field(static_cast<int>(f))->name();
      std::optional<VariantView> found = object.Find(name);
      arrow::Status st = found ? fields[f]->Append(*found) : fields[f]->AppendNull();
      if (!st.ok()) {
        ctx_->error_path.push_back(PathSegment::Key(name));
        return st;
      }
    }
    return validity_.Append(true);
  }
  arrow::Status AppendNull() override {
    for (auto& f : fields) ARROW_RETURN_NOT_OK(f->AppendNull());
    return validity_.Append(false);
  }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    std::vector<std::shared_ptr<arrow::Array>> children;
    for (auto& f : fields) {
      ARROW_ASSIGN_OR_RAISE(auto child, f->Finish());
      children.push_back(std::move(child));
    }
    const int64_t length = validity_.length(), nulls = validity_.null_count();
    ARROW_ASSIGN_OR_RAISE(auto bitmap, validity_.Finish());
    return std::make_shared<arrow::StructArray>(type_, length, std::move(children),
                                                nulls > 0 ? bitmap : nullptr, nulls);
  }

 private:
  Validity validity_;
};

// list / large_list (OffsetType int32 / int64) and fixed_size_list (no offsets).
template <typename ArrayType>
class ListDecoder final : public Decoder {
 public:
  using offset_type = typename ArrayType::offset_type;
  static constexpr bool kFixed = std::is_same_v<ArrayType, arrow::FixedSizeListArray>;

  ListDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx, DecoderPtr elements)
      : Decoder(std::move(type), ctx),
        elements_(std::move(elements)),
        validity_(ctx->pool),
        offsets_(ctx->pool) {
    if constexpr (kFixed) {
      size_ = static_cast<const arrow::FixedSizeListType&>(*type_).list_size();
    }
  }

  arrow::Status Append(const VariantView& v) override {
    if (v.is_null()) return AppendNull();
    if (v.type() != VariantType::kArray) return Failed(v);
    const ArrayView array = v.GetArray();
    if (kFixed && array.size() != static_cast<uint32_t>(size_)) return Failed(v);
    ARROW_RETURN_NOT_OK(StartSlot());
    for (uint32_t j = 0; j < array.size(); ++j) {
      arrow::Status st = elements_->Append(array.element(j));
      if (!st.ok()) {
        ctx_->error_path.push_back(PathSegment::Index(static_cast<int32_t>(j)));
        return st;
      }
    }
    end_ += array.size();
    return validity_.Append(true);
  }
  arrow::Status AppendNull() override {
    ARROW_RETURN_NOT_OK(StartSlot());
    if constexpr (kFixed) {
      for (int32_t j = 0; j < size_; ++j) ARROW_RETURN_NOT_OK(elements_->AppendNull());
      end_ += size_;
    }
    return validity_.Append(false);
  }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    ARROW_ASSIGN_OR_RAISE(auto values, elements_->Finish());
    const int64_t length = validity_.length(), nulls = validity_.null_count();
    ARROW_ASSIGN_OR_RAISE(auto bitmap, validity_.Finish());
    if (nulls == 0) bitmap = nullptr;
    if constexpr (kFixed) {
      return std::make_shared<arrow::FixedSizeListArray>(type_, length, values, bitmap,
                                                         nulls);
    } else {
      ARROW_RETURN_NOT_OK(offsets_.Append(static_cast<offset_type>(end_)));
      ARROW_ASSIGN_OR_RAISE(auto offsets, offsets_.Finish());
      end_ = 0;
      return std::make_shared<ArrayType>(type_, length, offsets, values, bitmap, nulls);
    }
  }

 private:
  arrow::Status StartSlot() {
    if constexpr (!kFixed) {
      if (end_ > std::numeric_limits<offset_type>::max()) {
        return arrow::Status::CapacityError("to_arrow: more elements than ",
                                            type_->ToString(), " offsets can hold");
      }
      return offsets_.Append(static_cast<offset_type>(end_));
    }
    return arrow::Status::OK();
  }

  DecoderPtr elements_;
  Validity validity_;
  arrow::TypedBufferBuilder<std::conditional_t<kFixed, int32_t, offset_type>> offsets_;
  int64_t end_ = 0;
  int32_t size_ = 0;
};

template <typename KeyBuilder>
class MapDecoder final : public Decoder {
 public:
  MapDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx, DecoderPtr items)
      : Decoder(std::move(type), ctx),
        keys_(static_cast<const arrow::MapType&>(*type_).key_type(), ctx->pool),
        items_(std::move(items)),
        validity_(ctx->pool),
        offsets_(ctx->pool) {}

  arrow::Status Append(const VariantView& v) override {
    if (v.is_null()) return AppendNull();
    if (v.type() != VariantType::kObject) return Failed(v);
    const ObjectView object = v.GetObject();
    ARROW_RETURN_NOT_OK(offsets_.Append(static_cast<int32_t>(keys_.length())));
    for (uint32_t j = 0; j < object.num_fields(); ++j) {
      const std::string_view key = object.key(j);
      ARROW_RETURN_NOT_OK(keys_.Append(key));
      arrow::Status st = items_->Append(object.value(j));
      if (!st.ok()) {
        ctx_->error_path.push_back(PathSegment::Key(std::string(key)));
        return st;
      }
    }
    return validity_.Append(true);
  }
  arrow::Status AppendNull() override {
    ARROW_RETURN_NOT_OK(offsets_.Append(static_cast<int32_t>(keys_.length())));
    return validity_.Append(false);
  }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    if (keys_.length() > std::numeric_limits<int32_t>::max()) {
      return arrow::Status::CapacityError("to_arrow: more map entries than int32");
    }
    ARROW_RETURN_NOT_OK(offsets_.Append(static_cast<int32_t>(keys_.length())));
    ARROW_ASSIGN_OR_RAISE(auto keys, keys_.Finish());
    ARROW_ASSIGN_OR_RAISE(auto items, items_->Finish());
    const int64_t length = validity_.length(), nulls = validity_.null_count();
    ARROW_ASSIGN_OR_RAISE(auto bitmap, validity_.Finish());
    ARROW_ASSIGN_OR_RAISE(auto offsets, offsets_.Finish());
    return std::make_shared<arrow::MapArray>(type_, length, offsets, keys, items,
                                             nulls > 0 ? bitmap : nullptr, nulls);
  }

 private:
  KeyBuilder keys_;
  DecoderPtr items_;
  Validity validity_;
  arrow::TypedBufferBuilder<int32_t> offsets_;
};

// A Variant output: the sub-value, with its row's metadata.
class VariantDecoder final : public Decoder {
 public:
  VariantDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx,
                 VariantLayout layout)
      : Decoder(std::move(type), ctx), out_(ctx->pool), layout_(layout) {}

  arrow::Status Append(const VariantView& v) override {
    return out_.Append(ctx_->metadata, v.value_bytes());
  }
  arrow::Status AppendNull() override { return out_.AppendNull(); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    return out_.Finish(layout_);
  }

 private:
  VariantArrayBuilder out_;
  VariantLayout layout_;
};

// Wraps the storage built by `storage` in the extension type.
class ExtensionDecoder final : public Decoder {
 public:
  ExtensionDecoder(std::shared_ptr<arrow::DataType> type, Context* ctx,
                   DecoderPtr storage)
      : Decoder(std::move(type), ctx), storage_(std::move(storage)) {}
  arrow::Status Append(const VariantView& v) override { return storage_->Append(v); }
  arrow::Status AppendNull() override { return storage_->AppendNull(); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() override {
    ARROW_ASSIGN_OR_RAISE(auto storage, storage_->Finish());
    return arrow::ExtensionType::WrapArray(type_, storage);
  }

 private:
  DecoderPtr storage_;
};

arrow::Result<VariantCaster> Caster(CastTargetType target, const Context& ctx,
                                    uint8_t precision = 0, uint8_t scale = 0) {
  CastOptions options;
  options.timezone = ctx.options.timezone;
  return VariantCaster::Make(CastTarget{target, precision, scale}, options);
}

template <typename BuilderType, typename T>
DecoderPtr Unsigned(const std::shared_ptr<arrow::DataType>& type, Context* ctx,
                    VariantCaster caster) {
  return Custom<BuilderType>(
      type, ctx, [c = std::move(caster)](const VariantView& v, BuilderType* b) {
        int64_t x = 0;
        CastResult r = c.CastInteger(v, &x);
        if (r == CastResult::kOk) {
          if (x < 0 || static_cast<uint64_t>(x) > std::numeric_limits<T>::max()) {
            return CastResult::kInvalid;
          }
          return b->Append(static_cast<T>(x)).ok() ? r : CastResult::kInvalid;
        }
        // uint64 above INT64_MAX arrives as decimal(20, 0) (from_arrow's widening).
        if constexpr (std::is_same_v<T, uint64_t>) {
          if (IsDecimal(v.type())) {
            const Decimal d = v.GetDecimal();
            if (d.scale == 0 && d.unscaled >= 0 &&
                d.unscaled <=
                    static_cast<int128_t>(std::numeric_limits<uint64_t>::max())) {
              return b->Append(static_cast<uint64_t>(d.unscaled)).ok()
                         ? CastResult::kOk
                         : CastResult::kInvalid;
            }
          }
        }
        return r;
      });
}

template <typename BuilderType, typename DecimalType>
DecoderPtr Decimals(const std::shared_ptr<arrow::DataType>& type, Context* ctx,
                    VariantCaster caster) {
  return Custom<BuilderType>(
      type, ctx, [c = std::move(caster)](const VariantView& v, BuilderType* b) {
        int128_t x = 0;
        const CastResult r = c.CastDecimal(v, &x);
        if (r != CastResult::kOk) return r;
        const auto u = static_cast<unsigned __int128>(x);
        const arrow::Decimal128 d(static_cast<int64_t>(u >> 64),
                                  static_cast<uint64_t>(u));
        arrow::Status st;
        if constexpr (std::is_same_v<DecimalType, arrow::Decimal256>) {
          st = b->Append(arrow::Decimal256(d));
        } else if constexpr (std::is_same_v<DecimalType, arrow::Decimal128>) {
          st = b->Append(d);
        } else {
          st = b->Append(DecimalType(static_cast<typename DecimalType::ValueType>(x)));
        }
        return st.ok() ? r : CastResult::kInvalid;
      });
}

// Floor division (timestamps before the epoch round down, as Arrow's casts do).
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

arrow::Result<DecoderPtr> Timestamps(const std::shared_ptr<arrow::DataType>& type,
                                     Context* ctx) {
  const auto& ts = static_cast<const arrow::TimestampType&>(*type);
  const bool utc = !ts.timezone().empty();
  ARROW_ASSIGN_OR_RAISE(
      VariantCaster caster,
      Caster(utc ? CastTargetType::kTimestamp : CastTargetType::kTimestampNtz, *ctx));
  const arrow::TimeUnit::type unit = ts.unit();
  const VariantType nanos_type =
      utc ? VariantType::kTimestampNanos : VariantType::kTimestampNtzNanos;
  return Custom<arrow::TimestampBuilder>(
      type, ctx,
      [c = std::move(caster), unit, nanos_type](const VariantView& v,
                                                arrow::TimestampBuilder* b) {
        if (unit == arrow::TimeUnit::NANO && v.type() == nanos_type) {
          return b->Append(v.GetTimeValue()).ok() ? CastResult::kOk
                                                  : CastResult::kInvalid;
        }
        int64_t micros = 0;
        const CastResult r = c.CastTimestamp(v, &micros);
        if (r != CastResult::kOk) return r;
        int64_t out = micros;
        switch (unit) {
          case arrow::TimeUnit::SECOND:
            out = FloorDiv(micros, 1000000);
            break;
          case arrow::TimeUnit::MILLI:
            out = FloorDiv(micros, 1000);
            break;
          case arrow::TimeUnit::NANO:
            if (__builtin_mul_overflow(micros, int64_t{1000}, &out)) {
              return CastResult::kInvalid;
            }
            break;
          default:
            break;
        }
        return b->Append(out).ok() ? r : CastResult::kInvalid;
      });
}

// Spark 4.3's casts to TIME: a time as it is, a string by internal::ParseTime(), a
// timestamp by its wall-clock time (in the session's zone for an instant); other types
// are invalid.
CastResult TimeOfDay(const VariantView& v, const VariantCaster& wall_clock,
                     int64_t* micros) {
  switch (v.type()) {
    case VariantType::kTimeNtzMicros:
      *micros = v.GetTimeValue();
      return CastResult::kOk;
    case VariantType::kString:
      return internal::ParseTime(v.GetString(), micros) ? CastResult::kOk
                                                        : CastResult::kInvalid;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNanos:
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimestampNtzNanos: {
      int64_t local = 0;
      const CastResult r = wall_clock.CastTimestamp(v, &local);
      if (r != CastResult::kOk) return r;
      *micros =
          local - FloorDiv(local, internal::kMicrosPerDay) * internal::kMicrosPerDay;
      return CastResult::kOk;
    }
    default:
      return CastResult::kInvalid;
  }
}

template <typename BuilderType>
arrow::Result<DecoderPtr> Times(const std::shared_ptr<arrow::DataType>& type,
                                Context* ctx) {
  const auto unit = static_cast<const arrow::TimeType&>(*type).unit();
  ARROW_ASSIGN_OR_RAISE(VariantCaster wall_clock,
                        Caster(CastTargetType::kTimestampNtz, *ctx));
  return Custom<BuilderType>(
      type, ctx, [unit, c = std::move(wall_clock)](const VariantView& v, BuilderType* b) {
        int64_t micros = 0;
        const CastResult r = TimeOfDay(v, c, &micros);
        if (r != CastResult::kOk) return r;
        int64_t out = micros;
        if (unit == arrow::TimeUnit::SECOND) out = FloorDiv(micros, 1000000);
        if (unit == arrow::TimeUnit::MILLI) out = FloorDiv(micros, 1000);
        if (unit == arrow::TimeUnit::NANO) out = micros * 1000;  // < 86400e9: no overflow
        using T = typename BuilderType::value_type;
        return b->Append(static_cast<T>(out)).ok() ? CastResult::kOk
                                                   : CastResult::kInvalid;
      });
}

arrow::Status Unsupported(const arrow::DataType& type, const VariantPath& path,
                          std::string_view why = "") {
  return arrow::Status::TypeError("cannot cast Variant to ", type.ToString(), " at ",
                                  path.ToString(), why);
}

arrow::Result<DecoderPtr> MakeDecoder(const std::shared_ptr<arrow::DataType>& type,
                                      const VariantPath& path, Context* ctx) {
  using T = CastTargetType;
  if (arrow::is_decimal(type->id())) {
    const std::string_view problem =
        internal::DecimalTargetProblem(static_cast<const arrow::DecimalType&>(*type));
    if (!problem.empty()) {
      return Unsupported(*type, path, " (" + std::string(problem) + ")");
    }
  }
  if (IsVariantType(*type)) {
    if (static_cast<const arrow::StructType&>(*type).GetFieldByName("typed_value") !=
        nullptr) {
      return Unsupported(*type, path, " (a shredded Variant type)");
    }
    const bool spark = type->field(0)->name() == "value";
    return std::make_unique<VariantDecoder>(
        VariantStorageType(spark ? VariantLayout::kSpark : VariantLayout::kCanonical),
        ctx, spark ? VariantLayout::kSpark : VariantLayout::kCanonical);
  }
  switch (type->id()) {
    case arrow::Type::NA:
      return Custom<arrow::NullBuilder>(
          type, ctx, [](const VariantView&, auto*) { return CastResult::kNull; });
    case arrow::Type::UINT8: {
      ARROW_ASSIGN_OR_RAISE(auto c, Caster(T::kInt64, *ctx));
      return Unsigned<arrow::UInt8Builder, uint8_t>(type, ctx, std::move(c));
    }
    case arrow::Type::UINT16: {
      ARROW_ASSIGN_OR_RAISE(auto c, Caster(T::kInt64, *ctx));
      return Unsigned<arrow::UInt16Builder, uint16_t>(type, ctx, std::move(c));
    }
    case arrow::Type::UINT32: {
      ARROW_ASSIGN_OR_RAISE(auto c, Caster(T::kInt64, *ctx));
      return Unsigned<arrow::UInt32Builder, uint32_t>(type, ctx, std::move(c));
    }
    case arrow::Type::UINT64: {
      ARROW_ASSIGN_OR_RAISE(auto c, Caster(T::kInt64, *ctx));
      return Unsigned<arrow::UInt64Builder, uint64_t>(type, ctx, std::move(c));
    }
    case arrow::Type::HALF_FLOAT: {
      ARROW_ASSIGN_OR_RAISE(auto caster, Caster(T::kFloat, *ctx));
      return Custom<arrow::HalfFloatBuilder>(
          type, ctx,
          [c = std::move(caster)](const VariantView& v, arrow::HalfFloatBuilder* b) {
            float x = 0;
            const CastResult r = c.CastFloat(v, &x);
            if (r != CastResult::kOk) return r;
            return b->Append(arrow::util::Float16(x).bits()).ok() ? r
                                                                  : CastResult::kInvalid;
          });
    }
    case arrow::Type::DECIMAL32:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL256: {
      const auto& d = static_cast<const arrow::DecimalType&>(*type);
      ARROW_ASSIGN_OR_RAISE(auto c,
                            Caster(T::kDecimal, *ctx, static_cast<uint8_t>(d.precision()),
                                   static_cast<uint8_t>(d.scale())));
      if (type->id() == arrow::Type::DECIMAL32) {
        return Decimals<arrow::Decimal32Builder, arrow::Decimal32>(type, ctx,
                                                                   std::move(c));
      }
      if (type->id() == arrow::Type::DECIMAL64) {
        return Decimals<arrow::Decimal64Builder, arrow::Decimal64>(type, ctx,
                                                                   std::move(c));
      }
      return Decimals<arrow::Decimal256Builder, arrow::Decimal256>(type, ctx,
                                                                   std::move(c));
    }
    case arrow::Type::STRING_VIEW: {
      ARROW_ASSIGN_OR_RAISE(auto caster, Caster(T::kString, *ctx));
      return Custom<arrow::StringViewBuilder>(
          type, ctx,
          [c = std::move(caster), s = std::string()](
              const VariantView& v, arrow::StringViewBuilder* b) mutable {
            s.clear();
            const CastResult r = c.CastString(v, &s);
            if (r != CastResult::kOk) return r;
            return b->Append(s).ok() ? r : CastResult::kInvalid;
          });
    }
    case arrow::Type::BINARY_VIEW: {
      ARROW_ASSIGN_OR_RAISE(auto caster, Caster(T::kBinary, *ctx));
      return Custom<arrow::BinaryViewBuilder>(
          type, ctx,
          [c = std::move(caster)](const VariantView& v, arrow::BinaryViewBuilder* b) {
            std::string_view out;
            const CastResult r = c.CastBinary(v, &out);
            if (r != CastResult::kOk) return r;
            return b->Append(out).ok() ? r : CastResult::kInvalid;
          });
    }
    case arrow::Type::FIXED_SIZE_BINARY: {
      const int32_t width =
          static_cast<const arrow::FixedSizeBinaryType&>(*type).byte_width();
      return Custom<arrow::FixedSizeBinaryBuilder>(
          type, ctx, [width](const VariantView& v, arrow::FixedSizeBinaryBuilder* b) {
            std::string_view bytes;
            if (v.type() == VariantType::kUuid) bytes = v.GetUuid();
            if (v.type() == VariantType::kBinary) bytes = v.GetBinary();
            if (bytes.size() != static_cast<size_t>(width) ||
                (v.type() != VariantType::kUuid && v.type() != VariantType::kBinary)) {
              return CastResult::kInvalid;
            }
            return b->Append(bytes).ok() ? CastResult::kOk : CastResult::kInvalid;
          });
    }
    case arrow::Type::DATE64: {
      ARROW_ASSIGN_OR_RAISE(auto caster, Caster(T::kDate, *ctx));
      return Custom<arrow::Date64Builder>(
          type, ctx,
          [c = std::move(caster)](const VariantView& v, arrow::Date64Builder* b) {
            int32_t days = 0;
            const CastResult r = c.CastDate(v, &days);
            if (r != CastResult::kOk) return r;
            return b->Append(int64_t{days} * 86400000).ok() ? r : CastResult::kInvalid;
          });
    }
    case arrow::Type::TIMESTAMP:
      if (static_cast<const arrow::TimestampType&>(*type).unit() !=
          arrow::TimeUnit::MICRO) {
        return Timestamps(type, ctx);
      }
      break;
    case arrow::Type::TIME32:
      return Times<arrow::Time32Builder>(type, ctx);
    case arrow::Type::TIME64:
      return Times<arrow::Time64Builder>(type, ctx);
    case arrow::Type::STRUCT: {
      auto decoder = std::make_unique<StructDecoder>(type, ctx);
      for (const auto& field : type->fields()) {
        ARROW_ASSIGN_OR_RAISE(DecoderPtr child,
                              MakeDecoder(field->type(), path.Child(field->name()), ctx));
        decoder->fields.push_back(std::move(child));
      }
      return decoder;
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST: {
      const auto& list = static_cast<const arrow::BaseListType&>(*type);
      ARROW_ASSIGN_OR_RAISE(DecoderPtr elements,
                            MakeDecoder(list.value_type(), path.Element(0), ctx));
      if (type->id() == arrow::Type::LIST) {
        return std::make_unique<ListDecoder<arrow::ListArray>>(type, ctx,
                                                               std::move(elements));
      }
      if (type->id() == arrow::Type::LARGE_LIST) {
        return std::make_unique<ListDecoder<arrow::LargeListArray>>(type, ctx,
                                                                    std::move(elements));
      }
      return std::make_unique<ListDecoder<arrow::FixedSizeListArray>>(
          type, ctx, std::move(elements));
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(*type);
      ARROW_ASSIGN_OR_RAISE(DecoderPtr items,
                            MakeDecoder(map.item_type(), path.Child("*"), ctx));
      if (map.key_type()->id() == arrow::Type::STRING) {
        return std::make_unique<MapDecoder<arrow::StringBuilder>>(type, ctx,
                                                                  std::move(items));
      }
      if (map.key_type()->id() == arrow::Type::LARGE_STRING) {
        return std::make_unique<MapDecoder<arrow::LargeStringBuilder>>(type, ctx,
                                                                       std::move(items));
      }
      return Unsupported(*type, path, " (map keys must be string or large_string)");
    }
    case arrow::Type::EXTENSION: {
      const auto& ext = static_cast<const arrow::ExtensionType&>(*type);
      ARROW_ASSIGN_OR_RAISE(DecoderPtr storage,
                            MakeDecoder(ext.storage_type(), path, ctx));
      return std::make_unique<ExtensionDecoder>(type, ctx, std::move(storage));
    }
    default:
      break;
  }
  auto target = CastTargetForArrowType(*type);
  if (!target.ok()) return Unsupported(*type, path);
  VariantGetOptions options = ctx->options;
  ARROW_ASSIGN_OR_RAISE(auto appender,
                        CastAppender::Make(type, options, path.ToString(), ctx->pool));
  return std::make_unique<CastDecoder>(type, ctx, std::move(appender));
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> VariantToArrow(
    const arrow::Array& variants, const std::shared_ptr<arrow::DataType>& type,
    const VariantGetOptions& options, arrow::MemoryPool* pool) {
  return internal::CastVariants(variants, type, options, VariantPath(), "try_cast", pool);
}

arrow::Result<std::shared_ptr<arrow::Array>> internal::CastVariants(
    const arrow::Array& variants, const std::shared_ptr<arrow::DataType>& type,
    const VariantGetOptions& options, const VariantPath& at, std::string_view try_name,
    arrow::MemoryPool* pool) {
  if (type == nullptr) return arrow::Status::Invalid("to_arrow needs a type");
  std::shared_ptr<arrow::Array> input =
      internal::StorageOf(arrow::MakeArray(variants.data()));
  ARROW_ASSIGN_OR_RAISE(VariantArrayView view, VariantArrayView::Make(input));
  if (view.typed_value() != nullptr) {
    // Scalars are read from the typed columns as variant_get reads them.
    if (CastTargetForArrowType(*type).ok()) {
      return VariantGet(variants, VariantPath(), type, options, pool);
    }
    UnshredOptions unshred;
    ARROW_ASSIGN_OR_RAISE(input, Unshred(*input, unshred, pool));
    ARROW_ASSIGN_OR_RAISE(view, VariantArrayView::Make(input));
  }
  if (!view.has_value()) {
    return arrow::Status::Invalid("to_arrow: the Variant array has no value child");
  }
  ARROW_ASSIGN_OR_RAISE(JsonWriter json, JsonWriter::Make({options.timezone}));
  Context ctx{options.errors, options, std::move(json), {}, {}, pool};
  ARROW_ASSIGN_OR_RAISE(DecoderPtr decoder, MakeDecoder(type, at, &ctx));
  const int64_t n = view.length();
  internal::RowViews row_views(view, options.validate);
  for (int64_t i = 0; i < n; ++i) {
    if (view.IsNull(i)) {
      ARROW_RETURN_NOT_OK(decoder->AppendNull());
      continue;
    }
    VariantView row;
    ARROW_RETURN_NOT_OK(row_views.Get(i, &row));
    ctx.metadata = view.metadata(i);
    arrow::Status st = decoder->Append(row);
    if (!st.ok()) {
      std::vector<PathSegment> where = at.segments();
      where.insert(where.end(), ctx.error_path.rbegin(), ctx.error_path.rend());
      return st.WithMessage(
          "row ", i, ", path ", VariantPath(std::move(where)).ToString(), ": ",
          st.message(), st.IsInvalid() ? ". Use errors=\"null\" (" : "",
          st.IsInvalid() ? try_name : "", st.IsInvalid() ? ") to get NULL." : "");
    }
  }
  return decoder->Finish();
}

}  // namespace varshred
