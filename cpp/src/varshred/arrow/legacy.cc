// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/legacy.h"

#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include <string>
#include <vector>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/builder.h"
#include "varshred/validate.h"

namespace varshred {

namespace {

struct LegacyNode {
  std::shared_ptr<arrow::Array> group;
  BinaryColumn untyped;
  std::shared_ptr<arrow::StructArray> object;
  std::vector<std::string> names;
  std::vector<std::unique_ptr<LegacyNode>> fields;
  std::shared_ptr<arrow::Array> array;  // list or large_list
  std::unique_ptr<LegacyNode> element;
  std::shared_ptr<arrow::Array> typed;
  std::string path;
};

// `depth`: objects and arrays above the group, bounded as values are (format.h).
arrow::Result<std::unique_ptr<LegacyNode>> Compile(std::shared_ptr<arrow::Array> group,
                                                   const std::string& path, int depth) {
  if (group->type_id() != arrow::Type::STRUCT) {
    return arrow::Status::TypeError("seed-layout group at ", path, " must be a struct");
  }
  if (depth > kMaxNestingDepth) {
    return arrow::Status::Invalid("seed-layout column nested deeper than the limit of ",
                                  kMaxNestingDepth, " at ", path);
  }
  auto node = std::make_unique<LegacyNode>();
  node->group = group;
  node->path = path;
  const auto& st = static_cast<const arrow::StructArray&>(*group);
  for (int k = 0; k < st.num_fields(); ++k) {
    const std::string& name = st.type()->field(k)->name();
    auto child = st.field(k);
    if (name == "untyped_value") {
      ARROW_ASSIGN_OR_RAISE(node->untyped, BinaryColumn::Make(child));
    } else if (name == "object") {
      if (child->type_id() != arrow::Type::STRUCT) {
        return arrow::Status::TypeError("seed-layout object at ", path,
                                        " is not a struct");
      }
      node->object = std::static_pointer_cast<arrow::StructArray>(child);
      for (int f = 0; f < node->object->num_fields(); ++f) {
        const std::string& fname = node->object->type()->field(f)->name();
        node->names.push_back(fname);
        ARROW_ASSIGN_OR_RAISE(
            auto c, Compile(node->object->field(f), path + "." + fname, depth + 1));
        node->fields.push_back(std::move(c));
      }
    } else if (name == "array") {
      std::shared_ptr<arrow::Array> values;
      if (child->type_id() == arrow::Type::LIST) {
        values = static_cast<const arrow::ListArray&>(*child).values();
      } else if (child->type_id() == arrow::Type::LARGE_LIST) {
        values = static_cast<const arrow::LargeListArray&>(*child).values();
      } else {
        return arrow::Status::TypeError("seed-layout array at ", path, " is not a list");
      }
      node->array = child;
      ARROW_ASSIGN_OR_RAISE(node->element, Compile(values, path + "[]", depth + 1));
    } else if (name == "typed_value") {
      node->typed = internal::StorageOf(child);
    } else if (!name.empty() && name[0] == '_') {
      continue;  // seed draft: `_`-prefixed fields may be ignored
    } else {
      return arrow::Status::TypeError("unexpected field '", name,
                                      "' in seed-layout group at ", path);
    }
  }
  return node;
}

class LegacyReader {
 public:
  explicit LegacyReader(int64_t row) : row_(row) {}

  // Appends the value of `node` at i to the builder; *present = false when missing.
  arrow::Status Build(const LegacyNode& node, int64_t i, VariantBuilder* b,
                      bool* present) {
    *present = false;
    if (node.group->IsNull(i)) return arrow::Status::OK();
    const bool has_untyped = node.untyped && !node.untyped.IsNull(i);
    VariantView untyped;
    if (has_untyped) {
      ARROW_ASSIGN_OR_RAISE(untyped, Split(node, node.untyped.Get(i)));
    }
    const bool has_object = node.object && !node.object->IsNull(i);
    const bool has_array = node.array && !node.array->IsNull(i);
    const bool has_typed = node.typed && !node.typed->IsNull(i);
    if (has_object + has_array + has_typed > 1) {
      return Error(node, "more than one of object, array and typed_value");
    }
    *present = true;
    if (has_object) {
      if (has_untyped && untyped.type() != VariantType::kObject) {
        return Error(node, "non-object untyped_value next to an object");
      }
      b->StartObject();
      for (size_t f = 0; f < node.fields.size(); ++f) {
        // Probe presence on a checkpoint: the key must not stay for a missing field.
        const auto cp = b->MakeCheckpoint();
        b->AddKey(node.names[f]);
        bool child_present;
        ARROW_RETURN_NOT_OK(Build(*node.fields[f], i, b, &child_present));
        if (!child_present) b->Rollback(cp);
      }
      if (has_untyped) {
        const ObjectView residual = untyped.GetObject();
        for (uint32_t k = 0; k < residual.num_fields(); ++k) {
          const std::string_view key = residual.key(k);
          bool shredded_present = false;
          for (size_t f = 0; f < node.names.size(); ++f) {
            if (node.names[f] == key) {
              shredded_present =
                  !node.fields[f]->group->IsNull(i) && HasAny(*node.fields[f], i);
            }
          }
          // ConstructObject: a shredded field that is null falls back to the residual.
          if (shredded_present) continue;
          b->AddKey(key);
          ARROW_RETURN_NOT_OK(b->AppendVariant(residual.value(k)));
        }
      }
      // Duplicates cannot occur: shredded names present were skipped above.
      return b->EndObject();
    }
    if (has_array) {
      if (has_untyped) return Error(node, "untyped_value next to an array");
      int64_t begin, end;
      if (node.array->type_id() == arrow::Type::LIST) {
        const auto& l = static_cast<const arrow::ListArray&>(*node.array);
        begin = l.value_offset(i);
        end = l.value_offset(i + 1);
      } else {
        const auto& l = static_cast<const arrow::LargeListArray&>(*node.array);
        begin = l.value_offset(i);
        end = l.value_offset(i + 1);
      }
      b->StartArray();
      for (int64_t j = begin; j < end; ++j) {
        bool element_present;
        ARROW_RETURN_NOT_OK(Build(*node.element, j, b, &element_present));
        // A null (or all-null) seed element becomes Variant null, as the final spec.
        if (!element_present) b->AppendNull();
      }
      b->EndArray();
      return arrow::Status::OK();
    }
    if (has_typed) {
      // The draft's leaf pseudocode tolerates a Variant null beside a typed value.
      if (has_untyped && untyped.type() != VariantType::kNull) {
        return Error(node, "conflicting untyped_value and typed_value");
      }
      return AppendTyped(node, i, b);
    }
    if (has_untyped) return b->AppendVariant(untyped);
    *present = false;
    return arrow::Status::OK();
  }

 private:
  static bool HasAny(const LegacyNode& node, int64_t i) {
    return (node.untyped && !node.untyped.IsNull(i)) ||
           (node.object && !node.object->IsNull(i)) ||
           (node.array && !node.array->IsNull(i)) ||
           (node.typed && !node.typed->IsNull(i));
  }

  arrow::Status Error(const LegacyNode& node, std::string_view what) const {
    return arrow::Status::Invalid("row ", row_, ", ", node.path, ": ", what);
  }

  // Seed draft: untyped_value holds metadata‖value; the metadata length tells them apart.
  arrow::Result<VariantView> Split(const LegacyNode& node, std::string_view bytes) {
    auto size = MetadataView::MeasureSize(bytes);
    if (!size.ok()) return Error(node, size.status().message());
    auto meta = MetadataView::Make(bytes.substr(0, *size));
    if (!meta.ok()) return Error(node, meta.status().message());
    auto v = VariantView::Make(*meta, bytes.substr(*size), ValidateOptions::ForReading());
    if (!v.ok()) return Error(node, v.status().message());
    return *v;
  }

  // Legacy data is converted once; a per-value switch on the Arrow type is acceptable.
  arrow::Status AppendTyped(const LegacyNode& node, int64_t i, VariantBuilder* b) {
    const arrow::Array& a = *node.typed;
    switch (a.type_id()) {
      case arrow::Type::BOOL:
        b->AppendBool(static_cast<const arrow::BooleanArray&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::INT8:
        b->AppendInt8(static_cast<const arrow::Int8Array&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::INT16:
        b->AppendInt16(static_cast<const arrow::Int16Array&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::INT32:
        b->AppendInt32(static_cast<const arrow::Int32Array&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::INT64:
        b->AppendInt64(static_cast<const arrow::Int64Array&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::FLOAT:
        b->AppendFloat(static_cast<const arrow::FloatArray&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::DOUBLE:
        b->AppendDouble(static_cast<const arrow::DoubleArray&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::DATE32:
        b->AppendDate(static_cast<const arrow::Date32Array&>(a).Value(i));
        return arrow::Status::OK();
      case arrow::Type::STRING:
      case arrow::Type::LARGE_STRING:
      case arrow::Type::STRING_VIEW:
      case arrow::Type::BINARY:
      case arrow::Type::LARGE_BINARY:
      case arrow::Type::BINARY_VIEW: {
        ARROW_ASSIGN_OR_RAISE(auto col, BinaryColumn::Make(node.typed));
        const bool is_string = a.type_id() == arrow::Type::STRING ||
                               a.type_id() == arrow::Type::LARGE_STRING ||
                               a.type_id() == arrow::Type::STRING_VIEW;
        if (is_string)
          b->AppendString(col.Get(i));
        else
          b->AppendBinary(col.Get(i));
        return arrow::Status::OK();
      }
      case arrow::Type::TIMESTAMP: {
        const auto& t = static_cast<const arrow::TimestampType&>(*a.type());
        const int64_t v = static_cast<const arrow::TimestampArray&>(a).Value(i);
        const bool utc = !t.timezone().empty();
        if (t.unit() == arrow::TimeUnit::MICRO) {
          utc ? b->AppendTimestampMicros(v) : b->AppendTimestampNtzMicros(v);
          return arrow::Status::OK();
        }
        if (t.unit() == arrow::TimeUnit::NANO) {
          utc ? b->AppendTimestampNanos(v) : b->AppendTimestampNtzNanos(v);
          return arrow::Status::OK();
        }
        break;
      }
      case arrow::Type::DECIMAL128: {
        const auto& t = static_cast<const arrow::Decimal128Type&>(*a.type());
        const arrow::Decimal128 d(
            static_cast<const arrow::Decimal128Array&>(a).GetValue(i));
        const int128_t u = (static_cast<int128_t>(d.high_bits()) << 64) |
                           static_cast<int128_t>(d.low_bits());
        if (t.precision() > kMaxDecimal16Precision) break;
        b->AppendDecimal(Decimal{u, static_cast<uint8_t>(t.scale())});
        return arrow::Status::OK();
      }
      default:
        break;
    }
    return arrow::Status::TypeError("unsupported seed-layout typed_value ",
                                    a.type()->ToString(), " at ", node.path);
  }

  int64_t row_;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> FromLegacyShredded(
    const arrow::Array& legacy, arrow::MemoryPool* pool) {
  auto input = internal::StorageOf(arrow::MakeArray(legacy.data()));
  ARROW_ASSIGN_OR_RAISE(auto root, Compile(input, "$", 0));
  VariantArrayBuilder out(pool);
  VariantBuilder builder;
  std::string metadata, value;
  for (int64_t row = 0; row < input->length(); ++row) {
    if (input->IsNull(row)) {
      ARROW_RETURN_NOT_OK(out.AppendNull());
      continue;
    }
    LegacyReader reader(row);
    bool present;
    auto st = reader.Build(*root, row, &builder, &present);
    if (!st.ok()) {
      builder.Reset();
      return st;
    }
    if (!present) builder.AppendNull();  // final spec: missing at top level is 00
    metadata.clear();
    value.clear();
    ARROW_RETURN_NOT_OK(builder.Finish(&metadata, &value));
    ARROW_RETURN_NOT_OK(out.Append(metadata, value));
  }
  return out.Finish();
}

}  // namespace varshred
