// Licensed under the Apache License, Version 2.0.
//
// The one shredding algorithm (docs/shredding.md#writer-rules), shared by both places
// that shred: Shred() fills Arrow builders, ParquetWriter fills Parquet column chunks.
// The algorithm decides, for every {value, typed_value} pair of the schema and every
// value, which of the pair's states the value takes (shredding_state_internal.h); a
// *sink* stores that decision in its own columns. A sink provides:
//
//   using Columns = ...;  // per pair: where the sink writes it
//   using Level = ...;    // per value: the sink's position (Parquet: repetition level)
//   Status Value(Node&, std::string_view bytes, Level);   // value = bytes, typed null
//   Status Typed(Node&, const TypedValue&, Level);        // typed = the value, value
//   null Status Missing(Node&, Level);                         // both null, recursively
//   Status BeginObject(Node&, Level);                     // typed_value is an object
//   Status EndObject(Node&, std::string_view residual, Level);  // empty: value null
//   Status BeginArray(Node&, uint32_t size, Level);       // typed_value is an array
//   Level Element(Node&, uint32_t index, Level);          // the level of one element
//   Status EndArray(Node&, uint32_t size, Level);
//   std::string_view Keep(std::string_view bytes);  // bytes that must outlive the row
//   Status NullRow(Node& root);                          // a SQL NULL row
//   Status BeginRow(Node& root, std::string_view metadata);  // before a row's events
//
// Events for one pair always come as one of: Value; Typed; Missing; BeginObject, the
// fields' events in schema order, EndObject; BeginArray, the elements' events, EndArray.
// (JSON text walked straight into a sink, json_shredder_internal.h, sends an object's
// fields in document order and BeginRow after the row's events.)

#pragma once

#include <arrow/result.h>
#include <arrow/status.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/typed_match_internal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/validate.h"
#include "varshred/validate_internal.h"
#include "varshred/value.h"

namespace varshred::internal {

/// \brief One {value, typed_value} pair of a compiled shredding schema, with the
/// sink's columns for it.
template <typename Columns>
struct ShredNode {
  ShreddingSchema::Kind kind = ShreddingSchema::Kind::kValueOnly;
  std::string path;  // "$.a.b[]", for errors
  // Primitive typed_value.
  VariantType type = VariantType::kNull;
  int precision = 0;
  int scale = 0;
  // Object typed_value: fields in schema order; `by_name` orders them by name bytes.
  std::vector<std::string> names;
  std::vector<std::unique_ptr<ShredNode>> fields;
  std::vector<uint32_t> by_name;
  // Array typed_value.
  std::unique_ptr<ShredNode> element;

  Columns columns;

  /// \brief The object field named `key`, or -1.
  int32_t FieldNamed(std::string_view key) const {
    auto it = std::lower_bound(
        by_name.begin(), by_name.end(), key,
        [&](uint32_t a, std::string_view k) { return std::string_view(names[a]) < k; });
    return it != by_name.end() && names[*it] == key ? static_cast<int32_t>(*it) : -1;
  }

  // Per-row scratch of the object walk: object field id -> schema field (-1: not
  // shredded), filled lazily and valid while the rows share one metadata dictionary
  // (`ids_epoch`); the object field index matched to each schema field, or -1.
  std::vector<int32_t> id_to_field;
  uint64_t ids_epoch = 0;
  std::vector<int64_t> match;
  // The same cache for the JSON walk (json_shredder_internal.h), whose ids come from
  // its own dictionary builder: valid while its replay_epoch() is `key_ids_epoch`.
  std::vector<int32_t> key_id_to_field;
  uint64_t key_ids_epoch = 0;
};

/// \brief Builds the pair tree of `schema` rooted at `path`; the sink fills `columns`.
template <typename Columns>
std::unique_ptr<ShredNode<Columns>> CompileShredPlan(const ShreddingSchema& schema,
                                                     const std::string& path) {
  auto node = std::make_unique<ShredNode<Columns>>();
  node->kind = schema.kind();
  node->path = path;
  switch (schema.kind()) {
    case ShreddingSchema::Kind::kValueOnly:
      break;
    case ShreddingSchema::Kind::kPrimitive:
      node->type = schema.type();
      node->precision = schema.precision();
      node->scale = schema.scale();
      break;
    case ShreddingSchema::Kind::kObject:
      for (const auto& [name, child] : schema.fields()) {
        node->names.push_back(name);
        node->fields.push_back(CompileShredPlan<Columns>(child, path + "." + name));
      }
      node->by_name.resize(node->names.size());
      for (uint32_t i = 0; i < node->by_name.size(); ++i) node->by_name[i] = i;
      std::sort(node->by_name.begin(), node->by_name.end(),
                [&](uint32_t a, uint32_t b) { return node->names[a] < node->names[b]; });
      node->match.resize(node->names.size());
      break;
    case ShreddingSchema::Kind::kArray:
      node->element = CompileShredPlan<Columns>(schema.element(), path + "[]");
      break;
  }
  return node;
}

/// \brief A value that fits a primitive typed_value, converted for it: numbers carry
/// their value in the column's type (integers and decimal4/8 in `integer`, decimal16
/// in `decimal`), strings and binaries their bytes in `bytes`; every other type is read
/// from `variant`, the matched value (always set by MatchTyped(); it lives while the
/// sink handles the value). Small on purpose: it is made for every value.
struct TypedValue {
  const VariantView* variant = nullptr;
  int64_t integer = 0;
  int128_t decimal = 0;
  std::string_view bytes;
};

/// \brief Whether `v` belongs in a primitive typed_value of `type` (rule 1 and the
/// numeric policy, docs/shredding.md#writer-rules), and its value there.
inline bool MatchTyped(VariantType type, int precision, int scale, bool lenient,
                       const VariantView& v, TypedValue* out) {
  out->variant = &v;  // sinks bind a reference to it whatever the type
  switch (type) {
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      return MatchInteger(v, type, lenient, &out->integer);
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16:
      if (!MatchDecimal(v, type, precision, scale, lenient, &out->decimal)) return false;
      out->integer = static_cast<int64_t>(out->decimal);  // exact for decimal4/8
      return true;
    case VariantType::kString:
      if (v.type() != type) return false;
      out->bytes = v.GetString();
      return true;
    case VariantType::kBinary:
      if (v.type() != type) return false;
      out->bytes = v.GetBinary();
      return true;
    default:
      // Every other type, timestamps included (unit and zone), matches itself only.
      return v.type() == type;
  }
}

/// \brief Walks values through a compiled plan, sending each pair's state to `Sink`.
template <typename Sink>
class Shredder {
 public:
  using Node = ShredNode<typename Sink::Columns>;
  using Level = typename Sink::Level;

  Shredder(Sink* sink, bool lenient) : sink_(sink), lenient_(lenient) {}

  /// \brief Shreds the rows of an unshredded Variant column (`view`) into the pair tree
  /// `root`. `validate` null: the bytes were built by this process and are trusted.
  /// `row_offset` numbers rows in errors. The sink is told about each row first
  /// (`BeginRow(metadata)`, or `NullRow()` for SQL NULL).
  arrow::Status ShredRows(const VariantArrayView& view, Node& root,
                          const ValidateOptions* validate, int64_t row_offset) {
    StartColumn();
    for (int64_t i = 0; i < view.length(); ++i) {
      auto st = ShredRow(view, i, root, validate);
      if (!st.ok()) return st.WithMessage("row ", row_offset + i, ": ", st.message());
    }
    return arrow::Status::OK();
  }

  /// \brief Forgets what the previous column's rows cached (views of their bytes).
  void StartColumn() {
    metadata_cache_ = MetadataCache();
    last_metadata_ = {};
    new_column_ = true;
  }

  /// \brief Shreds one row built by this process (trusted) into `root`, as a row of
  /// ShredRows() would be; its bytes must live as long as the column's rows.
  arrow::Status ShredTrustedRow(Node& root, std::string_view metadata_bytes,
                                std::string_view value) {
    return ShredCheckedRow(root, metadata_bytes,
                           MetadataView::MakeUnchecked(metadata_bytes), value);
  }

  bool lenient() const { return lenient_; }

  /// \brief ValueFacts::primitive_types of every row validated so far, merged.
  uint32_t primitive_types_seen() const { return primitive_types_seen_; }

  /// \brief Sends the state of `v` in pair `node` to the sink (the row's keys in spec
  /// order, as ShredRows guarantees).
  arrow::Status Shred(Node& node, const VariantView& v, Level level) {
    switch (node.kind) {
      case ShreddingSchema::Kind::kValueOnly:
        return sink_->Value(node, v.value_bytes(), level);
      case ShreddingSchema::Kind::kPrimitive: {
        TypedValue typed;
        if (MatchTyped(node.type, node.precision, node.scale, lenient_, v, &typed)) {
          return sink_->Typed(node, typed, level);
        }
        break;
      }
      case ShreddingSchema::Kind::kObject:
        if (v.type() == VariantType::kObject) return ShredObject(node, v, level);
        break;
      case ShreddingSchema::Kind::kArray:
        if (v.type() == VariantType::kArray) return ShredArray(node, v, level);
        break;
    }
    // Not of the typed kind: the whole value goes to `value`.
    return sink_->Value(node, v.value_bytes(), level);
  }

 private:
  arrow::Status ShredRow(const VariantArrayView& view, int64_t i, Node& root,
                         const ValidateOptions* validate) {
    if (view.IsNull(i)) return sink_->NullRow(root);
    if (view.metadata_column().IsNull(i)) {  // as every other reader says it
      return arrow::Status::Invalid("metadata is null in a non-null row");
    }
    const std::string_view metadata_bytes = view.metadata(i);
    // An absent or null value cell in a non-null row reads as Variant null.
    std::string_view value = view.value_or_variant_null(i);
    MetadataView metadata;
    if (validate != nullptr) {
      ARROW_ASSIGN_OR_RAISE(metadata, metadata_cache_.Get(metadata_bytes));
      ValueFacts facts;
      ARROW_RETURN_NOT_OK(internal::ValidateValue(metadata, metadata_cache_.key_ranks(),
                                                  value, *validate, &facts));
      primitive_types_seen_ |= facts.primitive_types;
      if (!facts.keys_sorted) {
        // Output is in spec order: rewrite rows whose ids another engine left unsorted.
        sorted_.clear();
        AppendSortedKeys(VariantView::MakeUnchecked(metadata, value), &sorted_);
        value = sink_->Keep(sorted_);
      }
    } else {
      metadata = MetadataView::MakeUnchecked(metadata_bytes);
    }
    return ShredCheckedRow(root, metadata_bytes, metadata, value);
  }

  arrow::Status ShredCheckedRow(Node& root, std::string_view metadata_bytes,
                                const MetadataView& metadata, std::string_view value) {
    // Field ids mean the same keys while the dictionary bytes stay the same.
    if (new_column_ || metadata_bytes != last_metadata_) {
      ++epoch_;
      last_metadata_ = metadata_bytes;
      new_column_ = false;
    }
    ARROW_RETURN_NOT_OK(sink_->BeginRow(root, metadata_bytes));
    return Shred(root, VariantView::MakeUnchecked(metadata, value), Level{});
  }

  // docs/shredding.md rule 2: an object always gets a typed_value; shredded fields go
  // to their groups, the rest to a residual object in value (never a shredded key).
  arrow::Status ShredObject(Node& node, const VariantView& v, Level level) {
    const ObjectView obj = v.GetObject();
    const uint32_t n = obj.num_fields();
    if (node.ids_epoch != epoch_) {
      node.id_to_field.clear();
      node.ids_epoch = epoch_;
    }
    std::fill(node.match.begin(), node.match.end(), -1);
    uint32_t matched = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t f = FieldOf(node, obj, i);
      if (f >= 0) {
        node.match[f] = i;
        ++matched;
      }
    }
    ARROW_RETURN_NOT_OK(sink_->BeginObject(node, level));
    for (size_t f = 0; f < node.fields.size(); ++f) {
      if (node.match[f] >= 0) {
        ARROW_RETURN_NOT_OK(Shred(
            *node.fields[f], obj.value(static_cast<uint32_t>(node.match[f])), level));
      } else {
        ARROW_RETURN_NOT_OK(sink_->Missing(*node.fields[f], level));
      }
    }
    if (matched == n) return sink_->EndObject(node, {}, level);
    // Residual: the unshredded fields against the row's metadata, in key order since
    // the row is.
    residual_.clear();
    entries_.clear();
    for (uint32_t i = 0; i < n; ++i) {
      if (FieldOf(node, obj, i) >= 0) continue;
      const std::string_view bytes = obj.value(i).value_bytes();
      entries_.push_back(
          {obj.key(i), obj.field_id(i), static_cast<uint32_t>(residual_.size())});
      residual_.append(bytes);
    }
    InsertObjectHeader(&residual_, 0, entries_.data(), entries_.size());
    return sink_->EndObject(node, residual_, level);
  }

  // docs/shredding.md: an array goes entirely to typed_value, element by element.
  arrow::Status ShredArray(Node& node, const VariantView& v, Level level) {
    const ArrayView arr = v.GetArray();
    const uint32_t n = arr.size();
    ARROW_RETURN_NOT_OK(sink_->BeginArray(node, n, level));
    for (uint32_t i = 0; i < n; ++i) {
      ARROW_RETURN_NOT_OK(
          Shred(*node.element, arr.element(i), sink_->Element(node, i, level)));
    }
    return sink_->EndArray(node, n, level);
  }

  static constexpr int32_t kUnresolved = -2;

  // The schema field of the object's field `i`, or -1 (its key is looked up once per
  // dictionary).
  int32_t FieldOf(Node& node, const ObjectView& obj, uint32_t i) {
    const uint32_t id = obj.field_id(i);
    if (id >= node.id_to_field.size()) node.id_to_field.resize(id + 1, kUnresolved);
    int32_t& f = node.id_to_field[id];
    if (f == kUnresolved) f = node.FieldNamed(obj.key(i));
    return f;
  }

  Sink* sink_;
  bool lenient_;
  MetadataCache metadata_cache_;
  std::string_view last_metadata_;
  bool new_column_ = true;
  uint64_t epoch_ = 0;  // bumped whenever the rows' metadata dictionary changes
  uint32_t primitive_types_seen_ = 0;  // ValueFacts::primitive_types of validated rows
  std::string sorted_;
  std::string residual_;
  std::vector<FieldEntry> entries_;
};

}  // namespace varshred::internal
