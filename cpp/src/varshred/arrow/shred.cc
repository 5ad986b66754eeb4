// Licensed under the Apache License, Version 2.0.
//
// Shredding: the schema is compiled once into a tree of plan nodes, each owning the
// builders of its output columns; the row loop then walks values and plan together.
// Primitive leaves carry a function pointer chosen for their type at compile time, so
// no per-value dispatch on the schema type happens.

#include "varshred/arrow/shred.h"

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/buffer_builder.h>
#include <arrow/builder.h>
#include <arrow/util/decimal.h>

#include <algorithm>
#include <limits>
#include <variant>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/typed_match_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/decimal_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/validate.h"

namespace varshred {

namespace {

using internal::FieldEntry;
using internal::Pow10Table;

struct ShredNode;

struct PrimitivePlan;
// Appends `v` to the typed column when it fits the leaf's type; sets *matched.
using AppendFn = arrow::Status (*)(PrimitivePlan&, const VariantView&, bool* matched);

struct PrimitivePlan {
  std::unique_ptr<arrow::ArrayBuilder> builder;
  AppendFn append = nullptr;
  int precision = 0;
  int scale = 0;
};

struct ObjectPlan {
  explicit ObjectPlan(arrow::MemoryPool* pool) : validity(pool) {}
  std::vector<std::string> names;  // schema order
  std::vector<std::unique_ptr<ShredNode>> children;
  std::vector<uint32_t> by_key;  // child indexes ordered by name bytes
  arrow::TypedBufferBuilder<bool> validity;
  int64_t null_count = 0;
  // Per-row scratch.
  std::vector<int64_t> match;      // child -> field index in the object, or -1
  std::vector<uint32_t> residual;  // field indexes of unshredded fields
  std::string residual_bytes;
  std::vector<FieldEntry> entries;
};

struct ArrayPlan {
  explicit ArrayPlan(arrow::MemoryPool* pool) : offsets(pool), validity(pool) {}
  std::unique_ptr<ShredNode> element;
  arrow::TypedBufferBuilder<int32_t> offsets;
  arrow::TypedBufferBuilder<bool> validity;
  int64_t null_count = 0;
  int64_t count = 0;
};

struct ShredNode {
  explicit ShredNode(arrow::MemoryPool* pool) : value(pool) {}
  arrow::BinaryBuilder value;
  std::variant<std::monostate, PrimitivePlan, ObjectPlan, ArrayPlan> typed;
  std::shared_ptr<arrow::DataType> typed_type;
  std::string path;
  int64_t length = 0;
};

// ---- primitive appenders -------------------------------------------------------------

template <typename T>
bool FitsInt(int128_t v) {
  return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
}

// Exact Numeric matching is shared with the Parquet writer (typed_match_internal.h).
using internal::ExactNumericValue;
using internal::RescaleExact;

template <typename T, VariantType kType, bool kLenient>
arrow::Status AppendInt(PrimitivePlan& p, const VariantView& v, bool* matched) {
  int128_t x;
  if (v.type() == kType) {
    x = v.GetInteger();
  } else if (!kLenient) {
    *matched = false;
    return arrow::Status::OK();
  } else {
    int128_t u;
    int s;
    if (!ExactNumericValue(v, &u, &s) || !RescaleExact(u, s, 0, 38, &x) ||
        !FitsInt<T>(x)) {
      *matched = false;
      return arrow::Status::OK();
    }
  }
  *matched = true;
  using B = arrow::NumericBuilder<typename arrow::CTypeTraits<T>::ArrowType>;
  return static_cast<B*>(p.builder.get())->Append(static_cast<T>(x));
}

template <VariantType kType, bool kLenient>
arrow::Status AppendDecimal(PrimitivePlan& p, const VariantView& v, bool* matched) {
  int128_t u, out;
  int s;
  *matched = false;
  if (!ExactNumericValue(v, &u, &s)) return arrow::Status::OK();
  if (!kLenient) {
    // parquet-java: same width, same scale, enough precision.
    if (v.type() != kType || s != p.scale || DecimalPrecision(u) > p.precision) {
      return arrow::Status::OK();
    }
    out = u;
  } else if (!RescaleExact(u, s, p.scale, p.precision, &out)) {
    return arrow::Status::OK();
  }
  *matched = true;
  if constexpr (kType == VariantType::kDecimal4) {
    return static_cast<arrow::Decimal32Builder*>(p.builder.get())
        ->Append(arrow::Decimal32(static_cast<int32_t>(out)));
  } else if constexpr (kType == VariantType::kDecimal8) {
    return static_cast<arrow::Decimal64Builder*>(p.builder.get())
        ->Append(arrow::Decimal64(static_cast<int64_t>(out)));
  } else {
    const auto hi = static_cast<int64_t>(out >> 64);
    const auto lo = static_cast<uint64_t>(out);
    return static_cast<arrow::Decimal128Builder*>(p.builder.get())
        ->Append(arrow::Decimal128(hi, lo));
  }
}

template <VariantType kType, typename BuilderT, typename Get>
arrow::Status AppendExact(PrimitivePlan& p, const VariantView& v, bool* matched,
                          Get get) {
  if (v.type() != kType) {
    *matched = false;
    return arrow::Status::OK();
  }
  *matched = true;
  return static_cast<BuilderT*>(p.builder.get())->Append(get(v));
}

template <VariantType kType>
arrow::Status AppendSimple(PrimitivePlan& p, const VariantView& v, bool* matched) {
  if constexpr (kType == VariantType::kBoolean) {
    return AppendExact<kType, arrow::BooleanBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetBool(); });
  } else if constexpr (kType == VariantType::kFloat) {
    return AppendExact<kType, arrow::FloatBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetFloat(); });
  } else if constexpr (kType == VariantType::kDouble) {
    return AppendExact<kType, arrow::DoubleBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetDouble(); });
  } else if constexpr (kType == VariantType::kDate) {
    return AppendExact<kType, arrow::Date32Builder>(
        p, v, matched, [](const VariantView& x) { return x.GetDate(); });
  } else if constexpr (kType == VariantType::kTimeNtzMicros) {
    return AppendExact<kType, arrow::Time64Builder>(
        p, v, matched, [](const VariantView& x) { return x.GetTimeValue(); });
  } else if constexpr (kType == VariantType::kString) {
    return AppendExact<kType, arrow::StringBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetString(); });
  } else if constexpr (kType == VariantType::kBinary) {
    return AppendExact<kType, arrow::BinaryBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetBinary(); });
  } else if constexpr (kType == VariantType::kUuid) {
    return AppendExact<kType, arrow::FixedSizeBinaryBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetUuid(); });
  } else {
    // Timestamps: unit and zone must match exactly (both policies).
    return AppendExact<kType, arrow::TimestampBuilder>(
        p, v, matched, [](const VariantView& x) { return x.GetTimeValue(); });
  }
}

template <bool kLenient>
AppendFn PickAppender(VariantType type) {
  switch (type) {
    case VariantType::kInt8:
      return AppendInt<int8_t, VariantType::kInt8, kLenient>;
    case VariantType::kInt16:
      return AppendInt<int16_t, VariantType::kInt16, kLenient>;
    case VariantType::kInt32:
      return AppendInt<int32_t, VariantType::kInt32, kLenient>;
    case VariantType::kInt64:
      return AppendInt<int64_t, VariantType::kInt64, kLenient>;
    case VariantType::kDecimal4:
      return AppendDecimal<VariantType::kDecimal4, kLenient>;
    case VariantType::kDecimal8:
      return AppendDecimal<VariantType::kDecimal8, kLenient>;
    case VariantType::kDecimal16:
      return AppendDecimal<VariantType::kDecimal16, kLenient>;
    case VariantType::kBoolean:
      return AppendSimple<VariantType::kBoolean>;
    case VariantType::kFloat:
      return AppendSimple<VariantType::kFloat>;
    case VariantType::kDouble:
      return AppendSimple<VariantType::kDouble>;
    case VariantType::kDate:
      return AppendSimple<VariantType::kDate>;
    case VariantType::kTimeNtzMicros:
      return AppendSimple<VariantType::kTimeNtzMicros>;
    case VariantType::kTimestampMicros:
      return AppendSimple<VariantType::kTimestampMicros>;
    case VariantType::kTimestampNtzMicros:
      return AppendSimple<VariantType::kTimestampNtzMicros>;
    case VariantType::kTimestampNanos:
      return AppendSimple<VariantType::kTimestampNanos>;
    case VariantType::kTimestampNtzNanos:
      return AppendSimple<VariantType::kTimestampNtzNanos>;
    case VariantType::kString:
      return AppendSimple<VariantType::kString>;
    case VariantType::kBinary:
      return AppendSimple<VariantType::kBinary>;
    case VariantType::kUuid:
      return AppendSimple<VariantType::kUuid>;
    default:
      return nullptr;
  }
}

// ---- plan compilation ----------------------------------------------------------------

arrow::Result<std::unique_ptr<ShredNode>> Compile(const ShreddingSchema& schema,
                                                  const std::string& path,
                                                  const ShredOptions& options,
                                                  arrow::MemoryPool* pool) {
  auto node = std::make_unique<ShredNode>(pool);
  node->path = path;
  node->typed_type = schema.TypedValueArrowType();
  switch (schema.kind()) {
    case ShreddingSchema::Kind::kValueOnly:
      break;
    case ShreddingSchema::Kind::kPrimitive: {
      PrimitivePlan p;
      ARROW_ASSIGN_OR_RAISE(p.builder, arrow::MakeBuilder(node->typed_type, pool));
      p.append = options.numeric == NumericShredding::kLenient
                     ? PickAppender<true>(schema.type())
                     : PickAppender<false>(schema.type());
      if (!p.append) {
        return arrow::Status::Invalid("cannot shred into ",
                                      VariantTypeName(schema.type()), " at ", path);
      }
      p.precision = schema.precision();
      p.scale = schema.scale();
      node->typed = std::move(p);
      break;
    }
    case ShreddingSchema::Kind::kObject: {
      ObjectPlan o(pool);
      for (const auto& [name, child] : schema.fields()) {
        o.names.push_back(name);
        ARROW_ASSIGN_OR_RAISE(auto c, Compile(child, path + "." + name, options, pool));
        o.children.push_back(std::move(c));
      }
      o.by_key.resize(o.names.size());
      for (uint32_t i = 0; i < o.by_key.size(); ++i) o.by_key[i] = i;
      std::sort(o.by_key.begin(), o.by_key.end(),
                [&](uint32_t a, uint32_t b) { return o.names[a] < o.names[b]; });
      o.match.resize(o.names.size());
      node->typed = std::move(o);
      break;
    }
    case ShreddingSchema::Kind::kArray: {
      ArrayPlan a(pool);
      ARROW_ASSIGN_OR_RAISE(a.element,
                            Compile(schema.element(), path + "[]", options, pool));
      ARROW_RETURN_NOT_OK(a.offsets.Append(0));
      node->typed = std::move(a);
      break;
    }
  }
  return node;
}

// ---- row loop
// --------------------------------------------------------------------------

class Shredder {
 public:
  explicit Shredder(int64_t row) : row_(row) {}
  void set_row(int64_t row) { row_ = row; }

  // Missing: value null, typed_value null (recursively filled so children line up).
  arrow::Status AppendMissing(ShredNode& node) {
    ++node.length;
    ARROW_RETURN_NOT_OK(node.value.AppendNull());
    return AppendTypedNull(node);
  }

  arrow::Status AppendTypedNull(ShredNode& node) {
    switch (node.typed.index()) {
      case 1:
        return std::get<PrimitivePlan>(node.typed).builder->AppendNull();
      case 2: {
        auto& o = std::get<ObjectPlan>(node.typed);
        ARROW_RETURN_NOT_OK(o.validity.Append(false));
        ++o.null_count;
        for (auto& c : o.children) ARROW_RETURN_NOT_OK(AppendMissing(*c));
        return arrow::Status::OK();
      }
      case 3: {
        auto& a = std::get<ArrayPlan>(node.typed);
        ARROW_RETURN_NOT_OK(a.validity.Append(false));
        ++a.null_count;
        return a.offsets.Append(static_cast<int32_t>(a.count));
      }
      default:
        return arrow::Status::OK();
    }
  }

  arrow::Status Shred(ShredNode& node, const VariantView& v) {
    ++node.length;
    switch (node.typed.index()) {
      case 1: {
        auto& p = std::get<PrimitivePlan>(node.typed);
        bool matched = false;
        ARROW_RETURN_NOT_OK(p.append(p, v, &matched));
        if (matched) return node.value.AppendNull();
        ARROW_RETURN_NOT_OK(p.builder->AppendNull());
        return node.value.Append(v.value_bytes());
      }
      case 2:
        if (v.type() != VariantType::kObject) break;
        return ShredObject(node, std::get<ObjectPlan>(node.typed), v);
      case 3: {
        if (v.type() != VariantType::kArray) break;
        auto& a = std::get<ArrayPlan>(node.typed);
        const ArrayView arr = v.GetArray();
        const uint32_t n = arr.size();
        // docs/shredding.md: an array goes entirely to typed_value; a null element
        // is element value = 00 (the element plan sends Variant null to value).
        for (uint32_t i = 0; i < n; ++i)
          ARROW_RETURN_NOT_OK(Shred(*a.element, arr.element(i)));
        a.count += n;
        if (a.count > std::numeric_limits<int32_t>::max()) {
          return arrow::Status::CapacityError("more than 2^31 array elements at ",
                                              node.path);
        }
        ARROW_RETURN_NOT_OK(a.validity.Append(true));
        ARROW_RETURN_NOT_OK(a.offsets.Append(static_cast<int32_t>(a.count)));
        return node.value.AppendNull();
      }
      default:
        return node.value.Append(v.value_bytes());
    }
    // Not of the typed kind: the whole value goes to `value`.
    ARROW_RETURN_NOT_OK(AppendTypedNull(node));
    return node.value.Append(v.value_bytes());
  }

 private:
  arrow::Status ShredObject(ShredNode& node, ObjectPlan& o, const VariantView& v) {
    const ObjectView obj = v.GetObject();
    const uint32_t n = obj.num_fields();
    const size_t m = o.names.size();
    std::fill(o.match.begin(), o.match.end(), -1);
    o.residual.clear();
    // Merge-join of the object's keys with the schema names sorted the same way: the
    // caller put every row in key order (AppendSortedKeys), whatever wrote it.
    size_t j = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const std::string_view key = obj.key(i);
      while (j < m && std::string_view(o.names[o.by_key[j]]) < key) ++j;
      if (j < m && o.names[o.by_key[j]] == key) {
        o.match[o.by_key[j]] = i;
      } else {
        o.residual.push_back(i);
      }
    }
    // docs/shredding.md: typed_value is non-null for every object.
    ARROW_RETURN_NOT_OK(o.validity.Append(true));
    for (size_t k = 0; k < m; ++k) {
      if (o.match[k] >= 0) {
        ARROW_RETURN_NOT_OK(
            Shred(*o.children[k], obj.value(static_cast<uint32_t>(o.match[k]))));
      } else {
        ARROW_RETURN_NOT_OK(AppendMissing(*o.children[k]));
      }
    }
    if (o.residual.empty()) return node.value.AppendNull();
    // Residual object: the remaining fields with their ids in the row's metadata.
    o.residual_bytes.clear();
    o.entries.clear();
    for (uint32_t i : o.residual) {
      o.entries.push_back(
          {obj.key(i), obj.field_id(i), static_cast<uint32_t>(o.residual_bytes.size())});
      const std::string_view bytes = obj.value(i).value_bytes();
      o.residual_bytes.append(bytes.data(), bytes.size());
    }
    internal::InsertObjectHeader(&o.residual_bytes, 0, o.entries.data(),
                                 o.entries.size());
    return node.value.Append(o.residual_bytes);
  }

  int64_t row_;
};

// ---- finishing
// -------------------------------------------------------------------------

arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishTyped(ShredNode& node);

// struct<value, typed_value> with no nulls (a required group).
arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishPair(ShredNode& node) {
  std::shared_ptr<arrow::Array> value;
  ARROW_RETURN_NOT_OK(node.value.Finish(&value));
  arrow::FieldVector fields = {arrow::field("value", arrow::binary())};
  std::vector<std::shared_ptr<arrow::ArrayData>> children = {value->data()};
  if (node.typed.index() != 0) {
    ARROW_ASSIGN_OR_RAISE(auto typed, FinishTyped(node));
    fields.push_back(arrow::field("typed_value", node.typed_type));
    children.push_back(std::move(typed));
  }
  return arrow::ArrayData::Make(arrow::struct_(std::move(fields)), node.length, {nullptr},
                                std::move(children), 0);
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishTyped(ShredNode& node) {
  switch (node.typed.index()) {
    case 1: {
      std::shared_ptr<arrow::Array> out;
      ARROW_RETURN_NOT_OK(std::get<PrimitivePlan>(node.typed).builder->Finish(&out));
      return out->data();
    }
    case 2: {
      auto& o = std::get<ObjectPlan>(node.typed);
      std::vector<std::shared_ptr<arrow::ArrayData>> children;
      for (auto& c : o.children) {
        ARROW_ASSIGN_OR_RAISE(auto d, FinishPair(*c));
        children.push_back(std::move(d));
      }
      std::shared_ptr<arrow::Buffer> validity;
      ARROW_RETURN_NOT_OK(o.validity.Finish(&validity));
      return arrow::ArrayData::Make(node.typed_type, node.length,
                                    {o.null_count ? validity : nullptr},
                                    std::move(children), o.null_count);
    }
    case 3: {
      auto& a = std::get<ArrayPlan>(node.typed);
      ARROW_ASSIGN_OR_RAISE(auto element, FinishPair(*a.element));
      std::shared_ptr<arrow::Buffer> validity, offsets;
      ARROW_RETURN_NOT_OK(a.validity.Finish(&validity));
      ARROW_RETURN_NOT_OK(a.offsets.Finish(&offsets));
      return arrow::ArrayData::Make(node.typed_type, node.length,
                                    {a.null_count ? validity : nullptr, offsets},
                                    {std::move(element)}, a.null_count);
    }
    default:
      return arrow::Status::Invalid("value-only node has no typed_value");
  }
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> Shred(const arrow::Array& variants,
                                                   const ShreddingSchema& schema,
                                                   const ShredOptions& options,
                                                   arrow::MemoryPool* pool) {
  std::shared_ptr<arrow::Array> input =
      internal::StorageOf(arrow::MakeArray(variants.data()));
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(input));
  if (view.typed_value()) {
    // Already shredded: reconstruct first, then shred to the new schema.
    ARROW_ASSIGN_OR_RAISE(input, Unshred(*input, {}, pool));
    ARROW_ASSIGN_OR_RAISE(view, VariantArrayView::Make(input));
  }
  ARROW_ASSIGN_OR_RAISE(auto root, Compile(schema, "$", options, pool));
  const int64_t n = view.length();
  ARROW_RETURN_NOT_OK(root->value.Reserve(n));

  arrow::TypedBufferBuilder<bool> validity(pool);
  ARROW_RETURN_NOT_OK(validity.Reserve(n));
  int64_t null_count = 0;
  Shredder shredder(0);
  internal::MetadataCache metadata_cache;
  std::string sorted;  // the row in spec order, when its object ids were not
  for (int64_t row = 0; row < n; ++row) {
    if (view.IsNull(row)) {
      validity.UnsafeAppend(false);
      ++null_count;
      ARROW_RETURN_NOT_OK(shredder.AppendMissing(*root));
      continue;
    }
    validity.UnsafeAppend(true);
    shredder.set_row(row);
    auto m = metadata_cache.Get(view.metadata(row));
    if (!m.ok()) return arrow::Status::Invalid("row ", row, ": ", m.status().message());
    const MetadataView metadata = *m;
    // An absent or null value cell in a non-null row reads as Variant null.
    const std::string_view value = view.value_is_null(row) ? kNullValue : view.value(row);
    bool keys_sorted = true;
    auto st = ValidateValue(metadata, value, options.validate, &keys_sorted);
    if (!st.ok()) return arrow::Status::Invalid("row ", row, ": ", st.message());
    VariantView v = VariantView::MakeUnchecked(metadata, value);
    if (!keys_sorted) {
      sorted.clear();
      internal::AppendSortedKeys(v, &sorted);
      v = VariantView::MakeUnchecked(metadata, sorted);
    }
    ARROW_RETURN_NOT_OK(shredder.Shred(*root, v));
  }

  std::shared_ptr<arrow::Array> value_out;
  ARROW_RETURN_NOT_OK(root->value.Finish(&value_out));
  std::shared_ptr<arrow::Array> metadata_in = view.metadata_column().array();
  arrow::FieldVector fields = {arrow::field("metadata", metadata_in->type(), false),
                               arrow::field("value", arrow::binary())};
  std::vector<std::shared_ptr<arrow::ArrayData>> children = {metadata_in->data(),
                                                             value_out->data()};
  if (schema.has_typed_value()) {
    ARROW_ASSIGN_OR_RAISE(auto typed, FinishTyped(*root));
    fields.push_back(arrow::field("typed_value", root->typed_type));
    children.push_back(std::move(typed));
  }
  std::shared_ptr<arrow::Buffer> bitmap;
  ARROW_RETURN_NOT_OK(validity.Finish(&bitmap));
  auto data = arrow::ArrayData::Make(arrow::struct_(std::move(fields)), n,
                                     {null_count ? bitmap : nullptr}, std::move(children),
                                     null_count);
  return arrow::MakeArray(std::move(data));
}

}  // namespace varshred
