// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/arrow_to_variant.h"

#include <arrow/array.h>
#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>
#include <arrow/util/float16.h>
#include <arrow/util/key_value_metadata.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "varshred/arrow/extension_internal.h"
#include "varshred/builder.h"
#include "varshred/decimal_internal.h"
#include "varshred/path.h"
#include "varshred/validate.h"

namespace varshred {

namespace {

// One encoder per node of the input type, built once per array: the switch on the
// Arrow type happens there, the per-row work is one virtual call per value.
//
// A failing value returns Invalid with the bare reason; every container it sits in
// pushes its step (key or index) onto `error_path` on the way up, so that the kernel
// names the exact path (`$.a[2]`) without building paths for rows that succeed.
class Encoder {
 public:
  explicit Encoder(std::shared_ptr<arrow::Array> array) : array_(std::move(array)) {}
  virtual ~Encoder() = default;

  /// Whether slot `i` is null as Arrow's readers see it.
  virtual bool IsNull(int64_t i) const { return array_->IsNull(i); }
  /// Appends slot `i`: a Variant null for a null slot.
  arrow::Status Append(int64_t i, VariantBuilder* b) {
    if (IsNull(i)) {
      b->AppendNull();
      return arrow::Status::OK();
    }
    return AppendValue(i, b);
  }
  virtual arrow::Status AppendValue(int64_t i, VariantBuilder* b) = 0;
  const arrow::Array& array() const { return *array_; }

  std::vector<PathSegment>* error_path = nullptr;

 protected:
  std::shared_ptr<arrow::Array> array_;
};

using EncoderPtr = std::unique_ptr<Encoder>;

arrow::Result<EncoderPtr> MakeEncoder(const std::shared_ptr<arrow::Array>& array,
                                      const VariantPath& path,
                                      std::vector<PathSegment>* error_path);

template <typename Fn>
class ScalarEncoder final : public Encoder {
 public:
  ScalarEncoder(std::shared_ptr<arrow::Array> array, Fn fn)
      : Encoder(std::move(array)), fn_(std::move(fn)) {}
  arrow::Status AppendValue(int64_t i, VariantBuilder* b) override { return fn_(i, b); }

 private:
  Fn fn_;
};

template <typename Fn>
EncoderPtr Scalar(const std::shared_ptr<arrow::Array>& array, Fn fn) {
  return std::make_unique<ScalarEncoder<Fn>>(array, std::move(fn));
}

// Appends `d`, or fails when it needs more than 38 digits.
arrow::Status AppendDecimalChecked(VariantBuilder* b, int128_t unscaled, int32_t scale) {
  while (scale < 0) {  // Arrow allows negative scales; Variant does not
    if (unscaled > internal::Pow10(38) / 10 || unscaled < -internal::Pow10(38) / 10) {
      return arrow::Status::Invalid("decimal value does not fit 38 digits at scale 0");
    }
    unscaled *= 10;
    ++scale;
  }
  if (scale > 38 || DecimalPrecision(unscaled) > 38) {
    return arrow::Status::Invalid("decimal value does not fit DECIMAL(38, ", scale, ")");
  }
  b->AppendDecimal(Decimal{unscaled, static_cast<uint8_t>(scale)});
  return arrow::Status::OK();
}

int128_t ToInt128(const arrow::Decimal128& d) {
  return static_cast<int128_t>(
      (static_cast<unsigned __int128>(static_cast<uint64_t>(d.high_bits())) << 64) |
      d.low_bits());
}

// Multiplies by `factor` (a power of ten), failing on int64 overflow.
arrow::Status Scale(int64_t v, int64_t factor, int64_t* out) {
  if (__builtin_mul_overflow(v, factor, out)) {
    return arrow::Status::Invalid("timestamp ", v, " overflows int64 microseconds");
  }
  return arrow::Status::OK();
}

class StructEncoder final : public Encoder {
 public:
  using Encoder::Encoder;
  std::vector<std::string> names;
  std::vector<EncoderPtr> fields;

  arrow::Status AppendValue(int64_t i, VariantBuilder* b) override {
    ObjectScope object(b);
    for (size_t f = 0; f < fields.size(); ++f) {
      object.AddKey(names[f]);
      arrow::Status st = fields[f]->Append(i, b);
      if (!st.ok()) {
        error_path->push_back(PathSegment::Key(names[f]));
        return st;
      }
    }
    return object.Finish();
  }
};

// list, large_list, list_view, large_list_view, fixed_size_list: element range of a
// slot read through the concrete array type.
template <typename ArrayType>
class ListEncoder final : public Encoder {
 public:
  ListEncoder(std::shared_ptr<arrow::Array> array, EncoderPtr elements)
      : Encoder(std::move(array)),
        list_(static_cast<const ArrayType&>(*array_)),
        elements_(std::move(elements)) {}

  arrow::Status AppendValue(int64_t i, VariantBuilder* b) override {
    const int64_t begin = list_.value_offset(i);
    const int64_t n = list_.value_length(i);
    ArrayScope array(b);
    for (int64_t j = 0; j < n; ++j) {
      arrow::Status st = elements_->Append(begin + j, b);
      if (!st.ok()) {
        error_path->push_back(PathSegment::Index(static_cast<int32_t>(j)));
        return st;
      }
    }
    array.Finish();
    return arrow::Status::OK();
  }

 private:
  const ArrayType& list_;
  EncoderPtr elements_;
};

class MapEncoder final : public Encoder {
 public:
  MapEncoder(std::shared_ptr<arrow::Array> array, EncoderPtr items)
      : Encoder(std::move(array)),
        map_(static_cast<const arrow::MapArray&>(*array_)),
        keys_(*map_.keys()),
        items_(std::move(items)) {}

  arrow::Status AppendValue(int64_t i, VariantBuilder* b) override {
    const int64_t begin = map_.value_offset(i);
    const int64_t n = map_.value_length(i);
    ObjectScope object(b);
    for (int64_t j = begin; j < begin + n; ++j) {
      if (keys_.IsNull(j)) return arrow::Status::Invalid("map key is null");
      const std::string_view key = KeyAt(j);
      object.AddKey(key);
      arrow::Status st = items_->Append(j, b);
      if (!st.ok()) {
        error_path->push_back(PathSegment::Key(std::string(key)));
        return st;
      }
    }
    // A repeated key is an error (Spark maps never repeat keys; which one wins would
    // be arbitrary).
    return object.Finish();
  }

 private:
  std::string_view KeyAt(int64_t j) const {
    switch (keys_.type_id()) {
      case arrow::Type::LARGE_STRING:
        return static_cast<const arrow::LargeStringArray&>(keys_).GetView(j);
      case arrow::Type::STRING_VIEW:
        return static_cast<const arrow::StringViewArray&>(keys_).GetView(j);
      default:
        return static_cast<const arrow::StringArray&>(keys_).GetView(j);
    }
  }

  const arrow::MapArray& map_;
  const arrow::Array& keys_;
  EncoderPtr items_;
};

class DictionaryEncoder final : public Encoder {
 public:
  DictionaryEncoder(std::shared_ptr<arrow::Array> array, EncoderPtr values)
      : Encoder(std::move(array)),
        dict_(static_cast<const arrow::DictionaryArray&>(*array_)),
        values_(std::move(values)) {}

  // A valid index of a null entry is a null slot too, as pyarrow reads it.
  bool IsNull(int64_t i) const override {
    if (array_->IsNull(i)) return true;
    const int64_t index = dict_.GetValueIndex(i);
    return index >= 0 && index < values_->array().length() && values_->IsNull(index);
  }

  arrow::Status AppendValue(int64_t i, VariantBuilder* b) override {
    const int64_t index = dict_.GetValueIndex(i);
    if (index < 0 || index >= values_->array().length()) {
      return arrow::Status::Invalid("dictionary index ", index, " out of range");
    }
    return values_->Append(index, b);
  }

 private:
  const arrow::DictionaryArray& dict_;
  EncoderPtr values_;
};

// A Variant column inside the input: its rows are validated and copied in.
class VariantEncoder final : public Encoder {
 public:
  VariantEncoder(std::shared_ptr<arrow::Array> array, VariantArrayView view)
      : Encoder(std::move(array)), view_(std::move(view)) {}

  arrow::Status AppendValue(int64_t i, VariantBuilder* b) override {
    if (view_.value_is_null(i)) {
      b->AppendNull();
      return arrow::Status::OK();
    }
    ARROW_ASSIGN_OR_RAISE(MetadataView metadata, MetadataView::Make(view_.metadata(i)));
    ARROW_ASSIGN_OR_RAISE(
        VariantView v,
        VariantView::Make(metadata, view_.value(i), ValidateOptions::ForReading()));
    return b->AppendVariant(v);
  }

 private:
  VariantArrayView view_;
};

bool IsSparkVariantStruct(const arrow::DataType& type) {
  if (!IsVariantType(type)) return false;
  const auto field =
      static_cast<const arrow::StructType&>(type).GetFieldByName("metadata");
  if (field == nullptr || field->metadata() == nullptr) return false;
  auto tag = field->metadata()->Get("variant");
  return tag.ok() && *tag == "true";
}

arrow::Status Unsupported(const arrow::DataType& type, const VariantPath& path,
                          std::string_view why = "") {
  return arrow::Status::TypeError("from_arrow: column ", path.ToString(), " of type ",
                                  type.ToString(), " has no Variant equivalent", why);
}

// A field of an arrow.parquet.variant extension type Arrow C++ does not know (a pyarrow
// type not registered there arrives as its storage, the name kept in the field's
// metadata).
bool IsNamedVariantField(const arrow::Field& field) {
  if (field.metadata() == nullptr || !IsVariantType(*field.type())) return false;
  auto name = field.metadata()->Get("ARROW:extension:name");
  return name.ok() && *name == kVariantExtensionName;
}

// A Variant column nested in the data: its values are copied in.
arrow::Result<EncoderPtr> VariantField(const std::shared_ptr<arrow::Array>& storage,
                                       const VariantPath& path) {
  ARROW_ASSIGN_OR_RAISE(VariantArrayView view, VariantArrayView::Make(storage));
  if (view.typed_value() != nullptr) {
    return Unsupported(*storage->type(), path, " (shredded: unshred it first)");
  }
  return std::make_unique<VariantEncoder>(storage, std::move(view));
}

template <typename ArrayType, typename Fn>
EncoderPtr Typed(const std::shared_ptr<arrow::Array>& array, Fn fn) {
  const auto* a = static_cast<const ArrayType*>(array.get());
  return Scalar(array, [a, fn](int64_t i, VariantBuilder* b) { return fn(*a, i, b); });
}

template <typename ArrayType>
EncoderPtr Ints(const std::shared_ptr<arrow::Array>& array) {
  return Typed<ArrayType>(array, [](const ArrayType& a, int64_t i, VariantBuilder* b) {
    b->AppendInt(static_cast<int64_t>(a.Value(i)));
    return arrow::Status::OK();
  });
}

template <typename ArrayType>
EncoderPtr Strings(const std::shared_ptr<arrow::Array>& array, bool binary) {
  if (binary) {
    return Typed<ArrayType>(array, [](const ArrayType& a, int64_t i, VariantBuilder* b) {
      b->AppendBinary(a.GetView(i));
      return arrow::Status::OK();
    });
  }
  return Typed<ArrayType>(array, [](const ArrayType& a, int64_t i, VariantBuilder* b) {
    b->AppendString(a.GetView(i));
    return arrow::Status::OK();
  });
}

template <typename ArrayType>
arrow::Result<EncoderPtr> List(const std::shared_ptr<arrow::Array>& array,
                               const VariantPath& path,
                               std::vector<PathSegment>* error_path) {
  const auto& list = static_cast<const ArrayType&>(*array);
  ARROW_ASSIGN_OR_RAISE(EncoderPtr elements,
                        MakeEncoder(list.values(), path.Element(0), error_path));
  return std::make_unique<ListEncoder<ArrayType>>(array, std::move(elements));
}

arrow::Result<EncoderPtr> MakeEncoderImpl(const std::shared_ptr<arrow::Array>& array,
                                          const VariantPath& path,
                                          std::vector<PathSegment>* error_path) {
  const arrow::DataType& type = *array->type();
  using B = VariantBuilder;
  using S = arrow::Status;
  switch (type.id()) {
    case arrow::Type::NA:
      return Scalar(array, [](int64_t, B* b) {
        b->AppendNull();
        return S::OK();
      });
    case arrow::Type::BOOL:
      return Typed<arrow::BooleanArray>(array, [](const auto& a, int64_t i, B* b) {
        b->AppendBool(a.Value(i));
        return S::OK();
      });
    case arrow::Type::INT8:
      return Ints<arrow::Int8Array>(array);
    case arrow::Type::INT16:
      return Ints<arrow::Int16Array>(array);
    case arrow::Type::INT32:
      return Ints<arrow::Int32Array>(array);
    case arrow::Type::INT64:
      return Ints<arrow::Int64Array>(array);
    case arrow::Type::UINT8:
      return Ints<arrow::UInt8Array>(array);
    case arrow::Type::UINT16:
      return Ints<arrow::UInt16Array>(array);
    case arrow::Type::UINT32:
      return Ints<arrow::UInt32Array>(array);
    case arrow::Type::UINT64:
      return Typed<arrow::UInt64Array>(array, [](const auto& a, int64_t i, B* b) {
        const uint64_t v = a.Value(i);
        if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          b->AppendInt(static_cast<int64_t>(v));
        } else {
          b->AppendDecimal(Decimal{static_cast<int128_t>(v), 0});
        }
        return S::OK();
      });
    case arrow::Type::HALF_FLOAT:
      return Typed<arrow::HalfFloatArray>(array, [](const auto& a, int64_t i, B* b) {
        b->AppendFloat(arrow::util::Float16::FromBits(a.Value(i)).ToFloat());
        return S::OK();
      });
    case arrow::Type::FLOAT:
      return Typed<arrow::FloatArray>(array, [](const auto& a, int64_t i, B* b) {
        b->AppendFloat(a.Value(i));
        return S::OK();
      });
    case arrow::Type::DOUBLE:
      return Typed<arrow::DoubleArray>(array, [](const auto& a, int64_t i, B* b) {
        b->AppendDouble(a.Value(i));
        return S::OK();
      });
    case arrow::Type::DECIMAL32: {
      const int32_t scale = static_cast<const arrow::DecimalType&>(type).scale();
      return Typed<arrow::Decimal32Array>(array, [scale](const auto& a, int64_t i, B* b) {
        const arrow::Decimal32 d(a.GetValue(i));
        return AppendDecimalChecked(b, d.value(), scale);
      });
    }
    case arrow::Type::DECIMAL64: {
      const int32_t scale = static_cast<const arrow::DecimalType&>(type).scale();
      return Typed<arrow::Decimal64Array>(array, [scale](const auto& a, int64_t i, B* b) {
        const arrow::Decimal64 d(a.GetValue(i));
        return AppendDecimalChecked(b, d.value(), scale);
      });
    }
    case arrow::Type::DECIMAL128: {
      const int32_t scale = static_cast<const arrow::DecimalType&>(type).scale();
      return Typed<arrow::Decimal128Array>(array, [scale](const auto& a, int64_t i,
                                                          B* b) {
        return AppendDecimalChecked(b, ToInt128(arrow::Decimal128(a.GetValue(i))), scale);
      });
    }
    case arrow::Type::DECIMAL256: {
      const int32_t scale = static_cast<const arrow::DecimalType&>(type).scale();
      return Typed<arrow::Decimal256Array>(
          array, [scale](const auto& a, int64_t i, B* b) {
            const arrow::Decimal256 d(a.GetValue(i));
            // Fits 128 bits when the two high words only extend the sign of the low two.
            const auto& w = d.little_endian_array();
            const uint64_t sign = static_cast<int64_t>(w[1]) < 0 ? ~uint64_t{0} : 0;
            if (w[2] != sign || w[3] != sign) {
              return S::Invalid("decimal value ", d.ToString(scale),
                                " does not fit 38 digits");
            }
            const arrow::Decimal128 low(static_cast<int64_t>(w[1]), w[0]);
            return AppendDecimalChecked(b, ToInt128(low), scale);
          });
    }
    case arrow::Type::STRING:
      return Strings<arrow::StringArray>(array, false);
    case arrow::Type::LARGE_STRING:
      return Strings<arrow::LargeStringArray>(array, false);
    case arrow::Type::STRING_VIEW:
      return Strings<arrow::StringViewArray>(array, false);
    case arrow::Type::BINARY:
      return Strings<arrow::BinaryArray>(array, true);
    case arrow::Type::LARGE_BINARY:
      return Strings<arrow::LargeBinaryArray>(array, true);
    case arrow::Type::BINARY_VIEW:
      return Strings<arrow::BinaryViewArray>(array, true);
    case arrow::Type::FIXED_SIZE_BINARY:
      return Strings<arrow::FixedSizeBinaryArray>(array, true);
    case arrow::Type::DATE32:
      return Typed<arrow::Date32Array>(array, [](const auto& a, int64_t i, B* b) {
        b->AppendDate(a.Value(i));
        return S::OK();
      });
    case arrow::Type::DATE64:
      return Typed<arrow::Date64Array>(array, [](const auto& a, int64_t i, B* b) {
        const int64_t ms = a.Value(i);
        int64_t days = ms / 86400000;
        if (ms % 86400000 < 0) --days;  // floor
        if (days < std::numeric_limits<int32_t>::min() ||
            days > std::numeric_limits<int32_t>::max()) {
          return S::Invalid("date64 ", ms, " is out of the date range");
        }
        b->AppendDate(static_cast<int32_t>(days));
        return S::OK();
      });
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(type);
      const bool utc = !ts.timezone().empty();
      if (ts.unit() == arrow::TimeUnit::NANO) {
        return Typed<arrow::TimestampArray>(array, [utc](const auto& a, int64_t i, B* b) {
          if (utc) {
            b->AppendTimestampNanos(a.Value(i));
          } else {
            b->AppendTimestampNtzNanos(a.Value(i));
          }
          return S::OK();
        });
      }
      const int64_t factor = ts.unit() == arrow::TimeUnit::SECOND  ? 1000000
                             : ts.unit() == arrow::TimeUnit::MILLI ? 1000
                                                                   : 1;
      return Typed<arrow::TimestampArray>(
          array, [utc, factor](const auto& a, int64_t i, B* b) {
            int64_t micros = 0;
            ARROW_RETURN_NOT_OK(Scale(a.Value(i), factor, &micros));
            if (utc) {
              b->AppendTimestampMicros(micros);
            } else {
              b->AppendTimestampNtzMicros(micros);
            }
            return S::OK();
          });
    }
    case arrow::Type::TIME32: {
      const int64_t factor =
          static_cast<const arrow::Time32Type&>(type).unit() == arrow::TimeUnit::SECOND
              ? 1000000
              : 1000;
      return Typed<arrow::Time32Array>(array, [factor](const auto& a, int64_t i, B* b) {
        b->AppendTimeMicros(a.Value(i) * factor);
        return S::OK();
      });
    }
    case arrow::Type::TIME64: {
      const bool nanos =
          static_cast<const arrow::Time64Type&>(type).unit() == arrow::TimeUnit::NANO;
      return Typed<arrow::Time64Array>(array, [nanos](const auto& a, int64_t i, B* b) {
        const int64_t v = a.Value(i);
        if (nanos && v % 1000 != 0) {
          // Variant's time has microseconds: dropping digits would corrupt the value.
          return S::Invalid("time64[ns] ", v, " is not a whole number of microseconds");
        }
        b->AppendTimeMicros(nanos ? v / 1000 : v);
        return S::OK();
      });
    }
    case arrow::Type::STRUCT: {
      if (IsSparkVariantStruct(type)) return VariantField(array, path);
      const auto& s = static_cast<const arrow::StructArray&>(*array);
      auto encoder = std::make_unique<StructEncoder>(array);
      for (int f = 0; f < type.num_fields(); ++f) {
        const std::string& name = type.field(f)->name();
        EncoderPtr field;
        if (IsNamedVariantField(*type.field(f))) {
          ARROW_ASSIGN_OR_RAISE(field, VariantField(s.field(f), path.Child(name)));
        } else {
          ARROW_ASSIGN_OR_RAISE(field,
                                MakeEncoder(s.field(f), path.Child(name), error_path));
        }
        encoder->names.push_back(name);
        encoder->fields.push_back(std::move(field));
      }
      return encoder;
    }
    case arrow::Type::LIST:
      return List<arrow::ListArray>(array, path, error_path);
    case arrow::Type::LARGE_LIST:
      return List<arrow::LargeListArray>(array, path, error_path);
    case arrow::Type::FIXED_SIZE_LIST:
      return List<arrow::FixedSizeListArray>(array, path, error_path);
    case arrow::Type::LIST_VIEW:
      return List<arrow::ListViewArray>(array, path, error_path);
    case arrow::Type::LARGE_LIST_VIEW:
      return List<arrow::LargeListViewArray>(array, path, error_path);
    case arrow::Type::MAP: {
      const auto& m = static_cast<const arrow::MapArray&>(*array);
      const arrow::Type::type key = m.keys()->type_id();
      if (key != arrow::Type::STRING && key != arrow::Type::LARGE_STRING &&
          key != arrow::Type::STRING_VIEW) {
        return Unsupported(type, path, " (map keys must be strings)");
      }
      ARROW_ASSIGN_OR_RAISE(EncoderPtr items,
                            MakeEncoder(m.items(), path.Child("*"), error_path));
      return std::make_unique<MapEncoder>(array, std::move(items));
    }
    case arrow::Type::DICTIONARY: {
      const auto& d = static_cast<const arrow::DictionaryArray&>(*array);
      ARROW_ASSIGN_OR_RAISE(EncoderPtr values,
                            MakeEncoder(d.dictionary(), path, error_path));
      return std::make_unique<DictionaryEncoder>(array, std::move(values));
    }
    case arrow::Type::EXTENSION: {
      const auto& ext = static_cast<const arrow::ExtensionType&>(type);
      const std::shared_ptr<arrow::Array> storage = internal::StorageOf(array);
      if (ext.extension_name() == "arrow.uuid") {
        return Typed<arrow::FixedSizeBinaryArray>(storage,
                                                  [](const auto& a, int64_t i, B* b) {
                                                    b->AppendUuid(a.GetView(i));
                                                    return S::OK();
                                                  });
      }
      if (ext.extension_name() == kVariantExtensionName)
        return VariantField(storage, path);
      // Other extensions (arrow.json, arrow.bool8, ...) convert as their storage.
      return MakeEncoder(storage, path, error_path);
    }
    default:
      break;
  }
  return Unsupported(type, path);
}

arrow::Result<EncoderPtr> MakeEncoder(const std::shared_ptr<arrow::Array>& array,
                                      const VariantPath& path,
                                      std::vector<PathSegment>* error_path) {
  ARROW_ASSIGN_OR_RAISE(EncoderPtr encoder, MakeEncoderImpl(array, path, error_path));
  encoder->error_path = error_path;
  return encoder;
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> ArrowToVariant(
    const arrow::Array& array, const ArrowToVariantOptions& options,
    arrow::MemoryPool* pool) {
  std::vector<PathSegment> error_path;
  ARROW_ASSIGN_OR_RAISE(EncoderPtr encoder, MakeEncoder(arrow::MakeArray(array.data()),
                                                        VariantPath(), &error_path));
  VariantBuilder builder;
  VariantArrayBuilder out(pool);
  ARROW_RETURN_NOT_OK(out.Reserve(array.length(), 0));
  const bool top_null_type = array.type_id() == arrow::Type::NA;
  for (int64_t i = 0; i < array.length(); ++i) {
    if (top_null_type || encoder->IsNull(i)) {
      ARROW_RETURN_NOT_OK(out.AppendNull());
      continue;
    }
    std::string_view metadata, value;
    arrow::Status st = encoder->AppendValue(i, &builder);
    if (st.ok()) st = builder.FinishViews(&metadata, &value);
    if (!st.ok()) {
      const VariantPath where(
          std::vector<PathSegment>(error_path.rbegin(), error_path.rend()));
      return st.WithMessage("row ", i, ": ", where.ToString(), ": ", st.message());
    }
    ARROW_RETURN_NOT_OK(out.Append(metadata, value));
    builder.Reset();
  }
  return out.Finish(options.layout);
}

}  // namespace varshred
