// Licensed under the Apache License, Version 2.0.
//
// Unshredding: the Arrow type of the shredded column is compiled once into a tree of
// reader nodes (one per {value, typed_value} pair); scalar leaves are TypedScalarColumns
// (typed_scalar_internal.h), whose encoder is chosen for their Arrow type, so the row
// loop never dispatches on types.
// Values are written straight into one buffer per row; containers get their header
// inserted in front of their values once those are known (ids from the row's own
// metadata, so the metadata column is reused as is).

#include "varshred/arrow/unshred.h"

#include <arrow/array/builder_binary.h>
#include <arrow/buffer_builder.h>
#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/bitmap_ops.h>

#include <algorithm>
#include <limits>
#include <variant>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/shredded_layout_internal.h"
#include "varshred/arrow/shredding_state_internal.h"
#include "varshred/arrow/typed_scalar_internal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get_internal.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/validate.h"

namespace varshred {

namespace {

using internal::FieldEntry;
using internal::PairState;
using internal::TypedScalarColumn;

struct ReadNode;

constexpr uint32_t kUnknownId = std::numeric_limits<uint32_t>::max();

struct ObjectReader {
  std::shared_ptr<arrow::Array> array;
  std::vector<std::string> names;
  std::vector<std::unique_ptr<ReadNode>> children;
  std::vector<uint32_t> by_key;  // child indexes ordered by name bytes
  std::vector<uint32_t> ids;     // metadata id per child, for metadata epoch `epoch`
  uint64_t epoch = 0;
};

struct ArrayReader {
  std::shared_ptr<arrow::Array> array;
  const int32_t* offsets32 = nullptr;
  const int64_t* offsets64 = nullptr;
  std::unique_ptr<ReadNode> element;
};

struct ReadNode {
  std::shared_ptr<arrow::Array> group;  // the pair's struct (null slots = missing)
  BinaryColumn value;                   // empty when the column is absent
  std::variant<std::monostate, TypedScalarColumn, ObjectReader, ArrayReader> typed;
  std::string path;
};

// ----------------------------------------------------------------------
// Plan

// `depth`: objects and arrays above the node, bounded by the nesting limit of values
// (a shredded column cannot usefully be deeper than the values it holds).
arrow::Result<std::unique_ptr<ReadNode>> CompilePair(std::shared_ptr<arrow::Array> group,
                                                     const std::string& path, int depth);

arrow::Status CompileTyped(ReadNode* node, std::shared_ptr<arrow::Array> typed,
                           int depth) {
  const std::string& path = node->path;
  const arrow::Type::type id = typed->type_id();
  if ((id == arrow::Type::STRUCT || id == arrow::Type::LIST ||
       id == arrow::Type::LARGE_LIST) &&
      depth >= kMaxNestingDepth) {
    return arrow::Status::Invalid("shredded column nested deeper than the limit of ",
                                  kMaxNestingDepth, " at ", path);
  }
  switch (id) {
    case arrow::Type::STRUCT: {
      ObjectReader o;
      o.array = typed;
      const auto& st = static_cast<const arrow::StructArray&>(*typed);
      for (int k = 0; k < st.num_fields(); ++k) {
        const std::string& name = st.type()->field(k)->name();
        for (const auto& seen : o.names) {
          if (seen == name) {
            return arrow::Status::TypeError("duplicate shredded field '", name, "' at ",
                                            path);
          }
        }
        o.names.push_back(name);
        ARROW_ASSIGN_OR_RAISE(auto child,
                              CompilePair(st.field(k), path + "." + name, depth + 1));
        o.children.push_back(std::move(child));
      }
      o.by_key.resize(o.names.size());
      for (uint32_t k = 0; k < o.by_key.size(); ++k) o.by_key[k] = k;
      std::sort(o.by_key.begin(), o.by_key.end(),
                [&](uint32_t a, uint32_t b) { return o.names[a] < o.names[b]; });
      o.ids.assign(o.names.size(), kUnknownId);
      node->typed = std::move(o);
      return arrow::Status::OK();
    }
    case arrow::Type::LIST: {
      ArrayReader a;
      a.array = typed;
      const auto& l = static_cast<const arrow::ListArray&>(*typed);
      a.offsets32 = l.raw_value_offsets();
      ARROW_ASSIGN_OR_RAISE(a.element, CompilePair(l.values(), path + "[]", depth + 1));
      node->typed = std::move(a);
      return arrow::Status::OK();
    }
    case arrow::Type::LARGE_LIST: {
      ArrayReader a;
      a.array = typed;
      const auto& l = static_cast<const arrow::LargeListArray&>(*typed);
      a.offsets64 = l.raw_value_offsets();
      ARROW_ASSIGN_OR_RAISE(a.element, CompilePair(l.values(), path + "[]", depth + 1));
      node->typed = std::move(a);
      return arrow::Status::OK();
    }
    default: {
      ARROW_ASSIGN_OR_RAISE(auto p, TypedScalarColumn::Make(typed, path));
      node->typed = std::move(p);
      return arrow::Status::OK();
    }
  }
}

arrow::Result<std::unique_ptr<ReadNode>> CompilePair(std::shared_ptr<arrow::Array> group,
                                                     const std::string& path, int depth) {
  if (group->type_id() != arrow::Type::STRUCT) {
    return arrow::Status::TypeError("shredded group at ", path, " must be a struct, got ",
                                    group->type()->ToString());
  }
  auto node = std::make_unique<ReadNode>();
  node->path = path;
  node->group = group;
  const auto& st = static_cast<const arrow::StructArray&>(*group);
  bool any = false;
  for (int k = 0; k < st.num_fields(); ++k) {
    const std::string& name = st.type()->field(k)->name();
    // GetFieldIndex() is -1 for names that occur more than once.
    if ((name == "value" || name == "typed_value") &&
        st.struct_type()->GetFieldIndex(name) < 0) {
      return arrow::Status::TypeError("duplicate child '", name,
                                      "' in shredded group at ", path);
    }
    if (name == "value") {
      auto col = BinaryColumn::Make(st.field(k));
      if (!col.ok()) {
        return internal::UnsupportedShreddedType(*st.field(k)->type(), path + " (value)");
      }
      node->value = *col;
      any = true;
    } else if (name == "typed_value") {
      ARROW_RETURN_NOT_OK(CompileTyped(node.get(), st.field(k), depth));
      any = true;
    } else {
      return arrow::Status::TypeError("unexpected child '", name,
                                      "' in shredded group at ", path);
    }
  }
  if (!any) {
    return arrow::Status::TypeError("shredded group at ", path,
                                    " has neither value nor typed_value");
  }
  return node;
}

// ----------------------------------------------------------------------
// Row loop

class Rebuilder {
 public:
  Rebuilder(const UnshredOptions& options) : options_(options) {}

  void StartRow(int64_t row, const MetadataView& metadata, uint64_t epoch) {
    row_ = row;
    metadata_ = metadata;
    epoch_ = epoch;
  }

  // Appends the value at index i of `node` to out, or sets *missing.
  arrow::Status Rebuild(ReadNode& node, int64_t i, std::string* out, bool* missing) {
    *missing = false;
    const bool has_value = node.value && !node.value.IsNull(i);
    const auto state =
        internal::StateOf(has_value, !TypedIsNull(node, i), node.typed.index() == 2);
    switch (state) {
      case PairState::kMissing:
        *missing = true;
        return arrow::Status::OK();
      case PairState::kValue: {
        const std::string_view bytes = node.value.Get(i);
        bool keys_sorted = true;
        ARROW_RETURN_NOT_OK(CheckValue(node, bytes, &keys_sorted));
        AppendValue(VariantView::MakeUnchecked(metadata_, bytes), keys_sorted, out);
        return arrow::Status::OK();
      }
      case PairState::kConflict:
        if (options_.on_conflict == ConflictPolicy::kRaise) {
          return Error(node, "conflicting value and typed_value");
        }
        break;  // parquet-java: the typed value wins
      case PairState::kTyped:
      case PairState::kPartialObject:
        break;
    }
    switch (node.typed.index()) {
      case 1: {
        const auto st = std::get<TypedScalarColumn>(node.typed).Append(i, out);
        return st.ok() ? st : Error(node, st.message());
      }
      case 2:
        return RebuildObject(node, std::get<ObjectReader>(node.typed), i,
                             state == PairState::kPartialObject, out);
      default:
        return RebuildArray(std::get<ArrayReader>(node.typed), i, out);
    }
  }

 private:
  static bool TypedIsNull(const ReadNode& node, int64_t i) {
    switch (node.typed.index()) {
      case 1:
        return std::get<TypedScalarColumn>(node.typed).IsNull(i);
      case 2:
        return std::get<ObjectReader>(node.typed).array->IsNull(i);
      case 3:
        return std::get<ArrayReader>(node.typed).array->IsNull(i);
      default:
        return true;  // value-only pair
    }
  }

  arrow::Status Error(const ReadNode& node, std::string_view what) const {
    return arrow::Status::Invalid("row ", row_, ", ", node.path, ": ", what);
  }

  // Values from other writers may hold unsorted object ids: the result is in spec order.
  static void AppendValue(const VariantView& v, bool keys_sorted, std::string* out) {
    if (keys_sorted) {
      out->append(v.value_bytes());
    } else {
      internal::AppendSortedKeys(v, out);
    }
  }

  arrow::Status CheckValue(const ReadNode& node, std::string_view bytes,
                           bool* keys_sorted) {
    auto st = ValidateValue(metadata_, bytes, options_.validate, keys_sorted);
    if (st.ok()) return st;
    // The validator names paths from the value's own root ("$.a[2]: ..."): continue
    // the node's path rather than repeat a root ("$.x: $.a[2]: ...").
    std::string_view msg = st.message();
    if (msg.starts_with('$')) {
      msg.remove_prefix(1);
      return arrow::Status::Invalid("row ", row_, ", ", node.path, msg);
    }
    return Error(node, msg);
  }

  arrow::Status RebuildArray(ArrayReader& a, int64_t i, std::string* out) {
    const int64_t begin = a.offsets32 ? a.offsets32[i] : a.offsets64[i];
    const int64_t end = a.offsets32 ? a.offsets32[i + 1] : a.offsets64[i + 1];
    const size_t start = out->size();
    const size_t base = offsets_.size();
    for (int64_t j = begin; j < end; ++j) {
      offsets_.push_back(static_cast<uint32_t>(out->size() - start));
      bool missing;
      // A null element group (nullable in some writers) is missing too.
      if (a.element->group->IsNull(j)) {
        missing = true;
      } else {
        ARROW_RETURN_NOT_OK(Rebuild(*a.element, j, out, &missing));
      }
      // docs/shredding.md: a missing array element reads as Variant null.
      if (missing) out->push_back(0);
    }
    if (out->size() - start > std::numeric_limits<uint32_t>::max()) {
      return arrow::Status::CapacityError("row ", row_, ": array over 4 GiB");
    }
    internal::InsertArrayHeader(out, start, offsets_.data() + base,
                                offsets_.size() - base);
    offsets_.resize(base);
    return arrow::Status::OK();
  }

  arrow::Status RebuildObject(ReadNode& node, ObjectReader& o, int64_t i, bool has_value,
                              std::string* out) {
    if (o.epoch != epoch_) {
      std::fill(o.ids.begin(), o.ids.end(), kUnknownId);
      o.epoch = epoch_;
    }
    const size_t start = out->size();
    const size_t base = entries_.size();
    for (uint32_t k : o.by_key) {
      ReadNode& child = *o.children[k];
      const size_t offset = out->size() - start;
      bool missing = true;
      // A nullable field group that is null (corpus case 84) is a missing field.
      if (!child.group->IsNull(i)) ARROW_RETURN_NOT_OK(Rebuild(child, i, out, &missing));
      if (missing) continue;
      if (o.ids[k] == kUnknownId) {
        // docs/shredding.md: every field name is in the row's metadata.
        auto id = metadata_.Find(o.names[k]);
        if (!id) {
          return Error(child, "shredded field name is not in the row's metadata");
        }
        o.ids[k] = *id;
      }
      entries_.push_back({o.names[k], o.ids[k], static_cast<uint32_t>(offset)});
    }
    if (has_value) {
      const std::string_view bytes = node.value.Get(i);
      bool keys_sorted = true;
      ARROW_RETURN_NOT_OK(CheckValue(node, bytes, &keys_sorted));
      const auto type = TypeFromHeader(static_cast<uint8_t>(bytes[0]));
      if (type != VariantType::kObject) {
        // Corpus 87/128: an error for every reader, whatever the policy.
        return Error(node, "non-object value with shredded fields");
      }
      const ObjectView residual(metadata_, bytes);
      for (uint32_t f = 0; f < residual.num_fields(); ++f) {
        const std::string_view key = residual.key(f);
        if (IsShreddedName(o, key)) {
          if (options_.on_conflict == ConflictPolicy::kRaise) {
            return Error(
                node, "residual value repeats shredded field '" + std::string(key) + "'");
          }
          continue;  // parquet-java: the typed side wins, the residual copy is dropped
        }
        entries_.push_back(
            {key, residual.field_id(f), static_cast<uint32_t>(out->size() - start)});
        AppendValue(residual.value(f), keys_sorted, out);
      }
      // Typed fields come in name order; residual ids may be unsorted (other writers).
      internal::SortFieldsByKey(&entries_, base, entries_.size());
    }
    if (out->size() - start > std::numeric_limits<uint32_t>::max()) {
      return arrow::Status::CapacityError("row ", row_, ": object over 4 GiB");
    }
    internal::InsertObjectHeader(out, start, entries_.data() + base,
                                 entries_.size() - base);
    entries_.resize(base);
    return arrow::Status::OK();
  }

  static bool IsShreddedName(const ObjectReader& o, std::string_view key) {
    size_t lo = 0, hi = o.by_key.size();
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      const std::string& name = o.names[o.by_key[mid]];
      if (name == key) return true;
      if (std::string_view(name) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    return false;
  }

  const UnshredOptions& options_;
  MetadataView metadata_;
  int64_t row_ = 0;
  uint64_t epoch_ = 0;
  std::vector<FieldEntry> entries_;
  std::vector<uint32_t> offsets_;
};

// The reader tree of a whole column; its errors are the layout rules every reader of
// shredded columns applies (internal::CheckShreddedLayout).
arrow::Result<std::unique_ptr<ReadNode>> CompileColumn(const VariantArrayView& view) {
  auto root = std::make_unique<ReadNode>();
  root->path = "$";
  root->group = view.storage();
  root->value = view.value_column();
  if (view.typed_value())
    ARROW_RETURN_NOT_OK(CompileTyped(root.get(), view.typed_value(), 0));
  return root;
}

}  // namespace

arrow::Status internal::CheckShreddedLayout(const VariantArrayView& view) {
  return CompileColumn(view).status();
}

arrow::Result<std::shared_ptr<arrow::Array>> Unshred(const arrow::Array& shredded,
                                                     const UnshredOptions& options,
                                                     arrow::MemoryPool* pool) {
  std::shared_ptr<arrow::Array> input =
      internal::StorageOf(arrow::MakeArray(shredded.data()));
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(input));
  const auto& st = static_cast<const arrow::StructArray&>(*view.storage());
  ARROW_ASSIGN_OR_RAISE(auto root, CompileColumn(view));

  const int64_t n = view.length();
  arrow::BinaryBuilder values(pool);
  ARROW_RETURN_NOT_OK(values.Reserve(n));
  Rebuilder rebuilder(options);
  std::string scratch;
  internal::MetadataCache metadata_cache;
  for (int64_t row = 0; row < n; ++row) {
    if (st.IsNull(row)) {
      // SQL NULL: the struct slot is null; children hold empty bytes.
      ARROW_RETURN_NOT_OK(values.Append(std::string_view()));
      continue;
    }
    if (view.metadata_column().IsNull(row)) {
      return arrow::Status::Invalid("row ", row, ": metadata is null in a non-null row");
    }
    auto metadata = metadata_cache.Get(view.metadata(row));
    if (!metadata.ok()) {
      return arrow::Status::Invalid("row ", row, ": ", metadata.status().message());
    }
    rebuilder.StartRow(row, *metadata, metadata_cache.epoch());
    scratch.clear();
    bool missing;
    ARROW_RETURN_NOT_OK(rebuilder.Rebuild(*root, row, &scratch, &missing));
    // docs/shredding.md: a missing top-level value reads as Variant null.
    if (missing) scratch.push_back(0);
    ARROW_RETURN_NOT_OK(values.Append(scratch));
  }
  std::shared_ptr<arrow::Array> value_out;
  ARROW_RETURN_NOT_OK(values.Finish(&value_out));
  const auto& metadata_in = view.metadata_column().array();
  auto type = arrow::struct_({arrow::field("metadata", metadata_in->type(), false),
                              arrow::field("value", arrow::binary(), false)});
  auto data = arrow::ArrayData::Make(type, n, {nullptr},
                                     {metadata_in->data(), value_out->data()}, 0);
  if (st.null_count() > 0) {
    // Re-base the validity of a possibly sliced input struct at offset 0.
    ARROW_ASSIGN_OR_RAISE(auto bitmap, arrow::AllocateEmptyBitmap(n, pool));
    arrow::internal::CopyBitmap(st.null_bitmap_data(), st.offset(), n,
                                bitmap->mutable_data(), 0);
    data->buffers[0] = std::move(bitmap);
    data->null_count = st.null_count();
  }
  return ToLayout(arrow::MakeArray(std::move(data)), options.layout, pool);
}

namespace internal {

arrow::Result<std::shared_ptr<arrow::Array>> UnshreddedStorage(
    const arrow::Array& variants, arrow::MemoryPool* pool) {
  auto array = StorageOf(arrow::MakeArray(variants.data()));
  ARROW_ASSIGN_OR_RAISE(VariantArrayView view, VariantArrayView::Make(array));
  if (view.typed_value() == nullptr) return array;
  return Unshred(*array, UnshredOptions{}, pool);
}

}  // namespace internal

}  // namespace varshred
