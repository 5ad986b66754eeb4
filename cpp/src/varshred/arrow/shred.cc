// Licensed under the Apache License, Version 2.0.
//
// Shred(): the shared shredding algorithm (shredder_internal.h) with a sink that
// appends to Arrow builders, one set per {value, typed_value} pair of the schema.

#include "varshred/arrow/shred.h"

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/buffer_builder.h>
#include <arrow/builder.h>
#include <arrow/util/decimal.h>

#include <limits>

#include "varshred/arrow/bit_builder_internal.h"
#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/shredder_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"

namespace varshred {

namespace {

// The Arrow arrays of one pair: struct<value: binary, typed_value: T> with no nulls.
struct ArrowColumns {
  std::unique_ptr<arrow::BinaryBuilder> value;
  std::shared_ptr<arrow::DataType> typed_type;
  std::unique_ptr<arrow::ArrayBuilder> typed;  // primitive typed_value
  // Object and array typed_value: validity (and offsets) of the struct or list.
  arrow::TypedBufferBuilder<bool> validity;
  arrow::TypedBufferBuilder<int32_t> offsets;
  int64_t null_count = 0;
  int64_t elements = 0;
  int64_t length = 0;
};

using Node = internal::ShredNode<ArrowColumns>;
struct NoLevel {};

class ArrowSink {
 public:
  using Columns = ArrowColumns;
  using Level = NoLevel;

  explicit ArrowSink(arrow::MemoryPool* pool) : pool_(pool) {}

  arrow::Status Init(Node& node, const ShreddingSchema& schema) {
    ArrowColumns& c = node.columns;
    c.value = std::make_unique<arrow::BinaryBuilder>(pool_);
    c.validity = arrow::TypedBufferBuilder<bool>(pool_);
    c.offsets = arrow::TypedBufferBuilder<int32_t>(pool_);
    c.typed_type = schema.TypedValueArrowType();
    switch (node.kind) {
      case ShreddingSchema::Kind::kPrimitive: {
        ARROW_ASSIGN_OR_RAISE(c.typed, arrow::MakeBuilder(c.typed_type, pool_));
        break;
      }
      case ShreddingSchema::Kind::kObject:
        for (size_t f = 0; f < node.fields.size(); ++f) {
          ARROW_RETURN_NOT_OK(Init(*node.fields[f], schema.fields()[f].second));
        }
        break;
      case ShreddingSchema::Kind::kArray:
        ARROW_RETURN_NOT_OK(c.offsets.Append(0));
        ARROW_RETURN_NOT_OK(Init(*node.element, schema.element()));
        break;
      case ShreddingSchema::Kind::kValueOnly:
        break;
    }
    return arrow::Status::OK();
  }

  arrow::Status NullRow(Node& root) {
    ARROW_RETURN_NOT_OK(internal::AppendBit(&validity_, false));
    ++null_count_;
    return Missing(root, {});
  }
  arrow::Status BeginRow(Node&, std::string_view) {
    return internal::AppendBit(&validity_, true);
  }
  std::string_view Keep(std::string_view bytes) { return bytes; }  // copied on append

  arrow::Status Value(Node& node, std::string_view bytes, NoLevel) {
    ++node.columns.length;
    ARROW_RETURN_NOT_OK(TypedNull(node));
    return node.columns.value->Append(bytes);
  }

  arrow::Status Missing(Node& node, NoLevel) {
    ++node.columns.length;
    ARROW_RETURN_NOT_OK(node.columns.value->AppendNull());
    return TypedNull(node);
  }

  arrow::Status Typed(Node& node, const internal::TypedValue& t, NoLevel) {
    ++node.columns.length;
    ARROW_RETURN_NOT_OK(node.columns.value->AppendNull());
    return AppendTyped(node, t);
  }

  arrow::Status BeginObject(Node& node, NoLevel) {
    // docs/shredding.md: typed_value is non-null for every object.
    return internal::AppendBit(&node.columns.validity, true);
  }
  arrow::Status EndObject(Node& node, std::string_view residual, NoLevel) {
    ++node.columns.length;
    if (residual.empty()) return node.columns.value->AppendNull();
    return node.columns.value->Append(residual);
  }

  arrow::Status BeginArray(Node&, uint32_t, NoLevel) { return arrow::Status::OK(); }
  NoLevel Element(Node&, uint32_t, NoLevel) { return {}; }
  arrow::Status EndArray(Node& node, uint32_t size, NoLevel) {
    ArrowColumns& c = node.columns;
    ++c.length;
    c.elements += size;
    if (c.elements > std::numeric_limits<int32_t>::max()) {
      return arrow::Status::CapacityError("more than 2^31 array elements at ", node.path);
    }
    ARROW_RETURN_NOT_OK(internal::AppendBit(&c.validity, true));
    ARROW_RETURN_NOT_OK(c.offsets.Append(static_cast<int32_t>(c.elements)));
    return c.value->AppendNull();
  }

  // The top-level struct's validity (SQL NULL rows).
  arrow::TypedBufferBuilder<bool>& validity() { return validity_; }
  int64_t null_count() const { return null_count_; }

 private:
  // typed_value null, its children lined up (a null struct still has child slots).
  arrow::Status TypedNull(Node& node) {
    ArrowColumns& c = node.columns;
    switch (node.kind) {
      case ShreddingSchema::Kind::kPrimitive:
        return c.typed->AppendNull();
      case ShreddingSchema::Kind::kObject:
        ARROW_RETURN_NOT_OK(internal::AppendBit(&c.validity, false));
        ++c.null_count;
        for (auto& f : node.fields) ARROW_RETURN_NOT_OK(Missing(*f, {}));
        return arrow::Status::OK();
      case ShreddingSchema::Kind::kArray:
        ARROW_RETURN_NOT_OK(internal::AppendBit(&c.validity, false));
        ++c.null_count;
        return c.offsets.Append(static_cast<int32_t>(c.elements));
      case ShreddingSchema::Kind::kValueOnly:
        return arrow::Status::OK();
    }
    return arrow::Status::OK();
  }

  template <typename BuilderT, typename T>
  static arrow::Status Append(Node& node, T value) {
    return static_cast<BuilderT*>(node.columns.typed.get())->Append(value);
  }

  static arrow::Status AppendTyped(Node& node, const internal::TypedValue& t) {
    const VariantView& v = *t.variant;
    switch (node.type) {
      case VariantType::kInt8:
        return Append<arrow::Int8Builder>(node, static_cast<int8_t>(t.integer));
      case VariantType::kInt16:
        return Append<arrow::Int16Builder>(node, static_cast<int16_t>(t.integer));
      case VariantType::kInt32:
        return Append<arrow::Int32Builder>(node, static_cast<int32_t>(t.integer));
      case VariantType::kInt64:
        return Append<arrow::Int64Builder>(node, t.integer);
      case VariantType::kDecimal4:
        return Append<arrow::Decimal32Builder>(
            node, arrow::Decimal32(static_cast<int32_t>(t.integer)));
      case VariantType::kDecimal8:
        return Append<arrow::Decimal64Builder>(node, arrow::Decimal64(t.integer));
      case VariantType::kDecimal16:
        return Append<arrow::Decimal128Builder>(
            node, arrow::Decimal128(static_cast<int64_t>(t.decimal >> 64),
                                    static_cast<uint64_t>(t.decimal)));
      case VariantType::kBoolean:
        return Append<arrow::BooleanBuilder>(node, v.GetBool());
      case VariantType::kFloat:
        return Append<arrow::FloatBuilder>(node, v.GetFloat());
      case VariantType::kDouble:
        return Append<arrow::DoubleBuilder>(node, v.GetDouble());
      case VariantType::kDate:
        return Append<arrow::Date32Builder>(node, v.GetDate());
      case VariantType::kTimeNtzMicros:
        return Append<arrow::Time64Builder>(node, v.GetTimeValue());
      case VariantType::kTimestampMicros:
      case VariantType::kTimestampNtzMicros:
      case VariantType::kTimestampNanos:
      case VariantType::kTimestampNtzNanos:
        return Append<arrow::TimestampBuilder>(node, v.GetTimeValue());
      case VariantType::kString:
        return Append<arrow::StringBuilder>(node, t.bytes);
      case VariantType::kBinary:
        return Append<arrow::BinaryBuilder>(node, t.bytes);
      case VariantType::kUuid:
        return Append<arrow::FixedSizeBinaryBuilder>(node, v.GetUuid());
      default:
        return arrow::Status::Invalid("cannot shred into ", VariantTypeName(node.type),
                                      " at ", node.path);
    }
  }

  arrow::MemoryPool* pool_;
  arrow::TypedBufferBuilder<bool> validity_{pool_};
  int64_t null_count_ = 0;
};

// ----------------------------------------------------------------------
// Finishing

arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishTyped(Node& node);

// struct<value, typed_value> with no nulls (a required group).
arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishPair(Node& node) {
  std::shared_ptr<arrow::Array> value;
  ARROW_RETURN_NOT_OK(node.columns.value->Finish(&value));
  arrow::FieldVector fields = {arrow::field("value", arrow::binary())};
  std::vector<std::shared_ptr<arrow::ArrayData>> children = {value->data()};
  if (node.kind != ShreddingSchema::Kind::kValueOnly) {
    ARROW_ASSIGN_OR_RAISE(auto typed, FinishTyped(node));
    fields.push_back(arrow::field("typed_value", node.columns.typed_type));
    children.push_back(std::move(typed));
  }
  return arrow::ArrayData::Make(arrow::struct_(std::move(fields)), node.columns.length,
                                {nullptr}, std::move(children), 0);
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishTyped(Node& node) {
  ArrowColumns& c = node.columns;
  switch (node.kind) {
    case ShreddingSchema::Kind::kPrimitive: {
      std::shared_ptr<arrow::Array> out;
      ARROW_RETURN_NOT_OK(c.typed->Finish(&out));
      return out->data();
    }
    case ShreddingSchema::Kind::kObject: {
      std::vector<std::shared_ptr<arrow::ArrayData>> children;
      for (auto& f : node.fields) {
        ARROW_ASSIGN_OR_RAISE(auto d, FinishPair(*f));
        children.push_back(std::move(d));
      }
      std::shared_ptr<arrow::Buffer> validity;
      ARROW_RETURN_NOT_OK(c.validity.Finish(&validity));
      return arrow::ArrayData::Make(c.typed_type, c.length,
                                    {c.null_count ? validity : nullptr},
                                    std::move(children), c.null_count);
    }
    case ShreddingSchema::Kind::kArray: {
      ARROW_ASSIGN_OR_RAISE(auto element, FinishPair(*node.element));
      std::shared_ptr<arrow::Buffer> validity, offsets;
      ARROW_RETURN_NOT_OK(c.validity.Finish(&validity));
      ARROW_RETURN_NOT_OK(c.offsets.Finish(&offsets));
      return arrow::ArrayData::Make(c.typed_type, c.length,
                                    {c.null_count ? validity : nullptr, offsets},
                                    {std::move(element)}, c.null_count);
    }
    case ShreddingSchema::Kind::kValueOnly:
      break;
  }
  return arrow::Status::Invalid("value-only node has no typed_value");
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
  auto root = internal::CompileShredPlan<ArrowColumns>(schema, "$");
  ArrowSink sink(pool);
  ARROW_RETURN_NOT_OK(sink.Init(*root, schema));
  const int64_t n = view.length();
  ARROW_RETURN_NOT_OK(root->columns.value->Reserve(n));
  ARROW_RETURN_NOT_OK(sink.validity().Reserve(n));
  internal::Shredder<ArrowSink> shredder(&sink,
                                         options.numeric == NumericShredding::kLenient);
  ARROW_RETURN_NOT_OK(shredder.ShredRows(view, *root, &options.validate, 0));

  std::shared_ptr<arrow::Array> value_out;
  ARROW_RETURN_NOT_OK(root->columns.value->Finish(&value_out));
  std::shared_ptr<arrow::Array> metadata_in = view.metadata_column().array();
  arrow::FieldVector fields = {arrow::field("metadata", metadata_in->type(), false),
                               arrow::field("value", arrow::binary())};
  std::vector<std::shared_ptr<arrow::ArrayData>> children = {metadata_in->data(),
                                                             value_out->data()};
  if (schema.has_typed_value()) {
    ARROW_ASSIGN_OR_RAISE(auto typed, FinishTyped(*root));
    fields.push_back(arrow::field("typed_value", root->columns.typed_type));
    children.push_back(std::move(typed));
  }
  std::shared_ptr<arrow::Buffer> bitmap;
  ARROW_RETURN_NOT_OK(sink.validity().Finish(&bitmap));
  const int64_t null_count = sink.null_count();
  auto data = arrow::ArrayData::Make(arrow::struct_(std::move(fields)), n,
                                     {null_count ? bitmap : nullptr}, std::move(children),
                                     null_count);
  return arrow::MakeArray(std::move(data));
}

}  // namespace varshred
