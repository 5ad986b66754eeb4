// Licensed under the Apache License, Version 2.0.
//
// Unshredding: the shredded column's reader tree (shredded_plan_internal.h) walked row
// by row; scalar leaves encode themselves, so the row loop never dispatches on types.
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
#include <utility>
#include <variant>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/shredded_plan_internal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get_internal.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/row_error_internal.h"
#include "varshred/validate.h"
#include "varshred/validate_internal.h"

namespace varshred {

namespace {

using internal::ArrayReader;
using internal::FieldEntry;
using internal::kUnknownId;
using internal::ObjectReader;
using internal::PairState;
using internal::ReadNode;
using internal::TypedScalarColumn;

// ----------------------------------------------------------------------
// Row loop

class Rebuilder {
 public:
  Rebuilder(const UnshredOptions& options) : options_(options) {}

  // `metadata` is the row's dictionary, current in `cache`.
  void StartRow(int64_t row, const MetadataView& metadata,
                internal::MetadataCache* cache) {
    row_ = row;
    metadata_ = metadata;
    cache_ = cache;
    key_ranks_ = cache->key_ranks();
    epoch_ = cache->epoch();
  }

  // Appends the value at index i of `node` to out, or sets *missing.
  arrow::Status Rebuild(ReadNode& node, int64_t i, std::string* out, bool* missing) {
    *missing = false;
    const PairState state = node.StateAt(i);
    switch (state) {
      case PairState::kMissing:
        *missing = true;
        return arrow::Status::OK();
      case PairState::kValue: {
        const std::string_view bytes = node.value.Get(i);
        bool keys_sorted = true;
        ARROW_RETURN_NOT_OK(CheckValue(node, bytes, &keys_sorted));
        ARROW_RETURN_NOT_OK(internal::CheckWholeValue(options_.on_conflict, row_, node,
                                                      metadata_, bytes));
        AppendValue(VariantView::MakeUnchecked(metadata_, bytes), keys_sorted, out);
        return arrow::Status::OK();
      }
      case PairState::kConflict:
        ARROW_RETURN_NOT_OK(internal::CheckConflict(options_.on_conflict, row_, node));
        break;
      case PairState::kTyped:
      case PairState::kPartialObject:
        break;
    }
    switch (node.typed.index()) {
      case ReadNode::kScalar: {
        const auto st = std::get<TypedScalarColumn>(node.typed).Append(i, out);
        // Not `st.ok() ? st : ...`: that copies `st`, a call into libarrow even when OK.
        if (!st.ok()) return internal::NodeError(row_, node, st.message());
        return arrow::Status::OK();
      }
      case ReadNode::kObject:
        return RebuildObject(node, std::get<ObjectReader>(node.typed), i,
                             state == PairState::kPartialObject, out);
      default:
        return RebuildArray(std::get<ArrayReader>(node.typed), i, out);
    }
  }

 private:
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
    ValueFacts facts;
    auto st =
        internal::ValidateValue(metadata_, key_ranks_, bytes, options_.validate, &facts);
    *keys_sorted = facts.keys_sorted;
    if (!st.ok()) return internal::ResidualError(st, row_, node);
    return arrow::Status::OK();
  }

  arrow::Status RebuildArray(ArrayReader& a, int64_t i, std::string* out) {
    const int64_t begin = a.begin(i), end = a.end(i);
    const size_t start = out->size();
    const size_t base = offsets_.size();
    for (int64_t j = begin; j < end; ++j) {
      offsets_.push_back(static_cast<uint32_t>(out->size() - start));
      bool missing;
      // A null element group (nullable in some writers) is missing too.
      if (a.element->group_nulls.IsNull(j)) {
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
      for (size_t k = 0; k < o.ids.size(); ++k) {
        if (o.ids[k] != kUnknownId) o.hints[k] = std::exchange(o.ids[k], kUnknownId);
      }
      o.epoch = epoch_;
    }
    const size_t start = out->size();
    const size_t base = entries_.size();
    for (uint32_t k : o.by_key) {
      ReadNode& child = *o.children[k];
      const size_t offset = out->size() - start;
      bool missing = true;
      // A nullable field group that is null (corpus case 84) is a missing field.
      if (!child.group_nulls.IsNull(i))
        ARROW_RETURN_NOT_OK(Rebuild(child, i, out, &missing));
      if (missing) continue;
      if (o.ids[k] == kUnknownId) {
        // docs/shredding.md: every field name is in the row's metadata.
        auto id = cache_->Find(o.names[k], o.hints[k]);
        if (!id) {
          return internal::NodeError(row_, child,
                                     "shredded field name is not in the row's metadata");
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
        return internal::NonObjectResidual(row_, node);
      }
      const ObjectView residual(metadata_, bytes);
      for (uint32_t f = 0; f < residual.num_fields(); ++f) {
        const std::string_view key = residual.key(f);
        if (o.IsShreddedName(key)) {
          ARROW_RETURN_NOT_OK(
              internal::CheckRepeatedField(options_.on_conflict, row_, node, key));
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

  const UnshredOptions& options_;
  MetadataView metadata_;
  internal::MetadataCache* cache_ = nullptr;
  int64_t row_ = 0;
  const uint32_t* key_ranks_ = nullptr;
  uint64_t epoch_ = 0;
  std::vector<FieldEntry> entries_;
  std::vector<uint32_t> offsets_;
};

// Whether `view` is an unshredded column of binary values that the row loop would
// copy unchanged: every value valid and in spec order (objects' ids by key), as
// Spark, DuckDB and varshred write them, and none missing. Any other column, or an
// invalid value, goes through the row loop, which rebuilds or names the error. With
// options.check_unshredded_values false, the values are taken as they are.
bool ValidAsItIs(const VariantArrayView& view, const UnshredOptions& options) {
  if (view.typed_value() != nullptr || !view.has_value() ||
      view.value_column().array()->type_id() != arrow::Type::BINARY ||
      view.value_column().array()->null_count() != 0) {
    return false;
  }
  internal::MetadataCache metadata_cache;
  for (int64_t row = 0; row < view.length(); ++row) {
    if (view.IsNull(row)) continue;
    if (view.metadata_column().IsNull(row)) return false;
    if (!options.check_unshredded_values) continue;
    auto metadata = metadata_cache.Get(view.metadata(row));
    if (!metadata.ok()) return false;
    ValueFacts facts;
    if (!internal::ValidateValue(*metadata, metadata_cache.key_ranks(), view.value(row),
                                 options.validate, &facts)
             .ok() ||
        !facts.keys_sorted) {
      return false;
    }
  }
  return true;
}

// struct<metadata, value> of `view`'s rows in `layout`: its metadata column as is,
// `values` as the values.
arrow::Result<std::shared_ptr<arrow::Array>> Unshredded(
    const VariantArrayView& view, const std::shared_ptr<arrow::Array>& values,
    VariantLayout layout, arrow::MemoryPool* pool) {
  const auto& st = static_cast<const arrow::StructArray&>(*view.storage());
  const int64_t n = view.length();
  const auto& metadata_in = view.metadata_column().array();
  auto type = arrow::struct_({arrow::field("metadata", metadata_in->type(), false),
                              arrow::field("value", arrow::binary(), false)});
  auto data = arrow::ArrayData::Make(type, n, {nullptr},
                                     {metadata_in->data(), values->data()}, 0);
  if (st.null_count() > 0) {
    // Re-base the validity of a possibly sliced input struct at offset 0.
    ARROW_ASSIGN_OR_RAISE(auto bitmap, arrow::AllocateEmptyBitmap(n, pool));
    arrow::internal::CopyBitmap(st.null_bitmap_data(), st.offset(), n,
                                bitmap->mutable_data(), 0);
    data->buffers[0] = std::move(bitmap);
    data->null_count = st.null_count();
  }
  return ToLayout(arrow::MakeArray(std::move(data)), layout, pool);
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> Unshred(const arrow::Array& shredded,
                                                     const UnshredOptions& options,
                                                     arrow::MemoryPool* pool) {
  std::shared_ptr<arrow::Array> input =
      internal::StorageOf(arrow::MakeArray(shredded.data()));
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(input));
  if (ValidAsItIs(view, options)) {
    return Unshredded(view, view.value_column().array(), options.layout, pool);
  }
  const auto& st = static_cast<const arrow::StructArray&>(*view.storage());
  ARROW_ASSIGN_OR_RAISE(auto root, internal::CompileShreddedColumn(view));

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
      return internal::NullMetadataError(row);
    }
    auto metadata = metadata_cache.Get(view.metadata(row));
    if (!metadata.ok()) {
      return arrow::Status::Invalid("row ", row, ": ", metadata.status().message());
    }
    rebuilder.StartRow(row, *metadata, &metadata_cache);
    scratch.clear();
    bool missing;
    ARROW_RETURN_NOT_OK(rebuilder.Rebuild(*root, row, &scratch, &missing));
    // docs/shredding.md: a missing top-level value reads as Variant null.
    if (missing) scratch.push_back(0);
    ARROW_RETURN_NOT_OK(values.Append(scratch));
  }
  std::shared_ptr<arrow::Array> value_out;
  ARROW_RETURN_NOT_OK(values.Finish(&value_out));
  return Unshredded(view, value_out, options.layout, pool);
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
