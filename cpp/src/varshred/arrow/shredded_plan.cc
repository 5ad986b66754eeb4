// Licensed under the Apache License, Version 2.0.

#include <arrow/type.h>

#include <algorithm>

#include "varshred/arrow/shredded_layout_internal.h"
#include "varshred/arrow/shredded_plan_internal.h"
#include "varshred/format.h"

namespace varshred::internal {

namespace {

// `depth`: objects and arrays above the node, bounded by the nesting limit of values
// (a shredded column cannot usefully be deeper than the values it holds). Without
// `read_values`, only the shape is checked: the scalar leaves' types, not their values,
// and the tree has no leaf readers.
arrow::Result<std::unique_ptr<ReadNode>> CompilePair(std::shared_ptr<arrow::Array> group,
                                                     const std::string& path, int depth,
                                                     bool read_values);

arrow::Status CompileTyped(ReadNode* node, std::shared_ptr<arrow::Array> typed, int depth,
                           bool read_values) {
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
      o.nulls = NullMask(*typed);
      const auto& st = static_cast<const arrow::StructArray&>(*typed);
      for (int k = 0; k < st.num_fields(); ++k)
        o.names.push_back(st.type()->field(k)->name());
      o.by_key.resize(o.names.size());
      for (uint32_t k = 0; k < o.by_key.size(); ++k) o.by_key[k] = k;
      // Stable: of two equal names, the later field is the one reported.
      std::stable_sort(o.by_key.begin(), o.by_key.end(),
                       [&](uint32_t a, uint32_t b) { return o.names[a] < o.names[b]; });
      // Sorted, duplicates are neighbours: wide objects (thousands of fields) are
      // checked in n log n, not by comparing every pair.
      for (size_t k = 1; k < o.by_key.size(); ++k) {
        const std::string& name = o.names[o.by_key[k]];
        if (name == o.names[o.by_key[k - 1]]) {
          return arrow::Status::TypeError("duplicate shredded field '", name, "' at ",
                                          path);
        }
      }
      for (int k = 0; k < st.num_fields(); ++k) {
        ARROW_ASSIGN_OR_RAISE(
            auto child,
            CompilePair(st.field(k), path + "." + o.names[k], depth + 1, read_values));
        o.children.push_back(std::move(child));
      }
      o.ids.assign(o.names.size(), kUnknownId);
      o.hints.assign(o.names.size(), kUnknownId);
      node->typed = std::move(o);
      return arrow::Status::OK();
    }
    case arrow::Type::LIST: {
      ArrayReader a;
      a.array = typed;
      a.nulls = NullMask(*typed);
      const auto& l = static_cast<const arrow::ListArray&>(*typed);
      a.offsets32 = l.raw_value_offsets();
      ARROW_ASSIGN_OR_RAISE(a.element,
                            CompilePair(l.values(), path + "[]", depth + 1, read_values));
      node->typed = std::move(a);
      return arrow::Status::OK();
    }
    case arrow::Type::LARGE_LIST: {
      ArrayReader a;
      a.array = typed;
      a.nulls = NullMask(*typed);
      const auto& l = static_cast<const arrow::LargeListArray&>(*typed);
      a.offsets64 = l.raw_value_offsets();
      ARROW_ASSIGN_OR_RAISE(a.element,
                            CompilePair(l.values(), path + "[]", depth + 1, read_values));
      node->typed = std::move(a);
      return arrow::Status::OK();
    }
    default: {
      if (!read_values) return TypedScalarColumn::CheckType(typed, path);
      ARROW_ASSIGN_OR_RAISE(auto p, TypedScalarColumn::Make(typed, path));
      node->typed = std::move(p);
      return arrow::Status::OK();
    }
  }
}

arrow::Result<std::unique_ptr<ReadNode>> CompilePair(std::shared_ptr<arrow::Array> group,
                                                     const std::string& path, int depth,
                                                     bool read_values) {
  if (group->type_id() != arrow::Type::STRUCT) {
    return arrow::Status::TypeError("shredded group at ", path, " must be a struct, got ",
                                    group->type()->ToString());
  }
  auto node = std::make_unique<ReadNode>();
  node->path = path;
  node->group = group;
  node->group_nulls = NullMask(*group);
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
      ARROW_RETURN_NOT_OK(CompileTyped(node.get(), st.field(k), depth, read_values));
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

}  // namespace

bool ObjectReader::IsShreddedName(std::string_view key) const {
  size_t lo = 0, hi = by_key.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    const std::string& name = names[by_key[mid]];
    if (name == key) return true;
    if (std::string_view(name) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

namespace {

arrow::Result<std::unique_ptr<ReadNode>> CompileColumn(const VariantArrayView& view,
                                                       bool read_values) {
  auto root = std::make_unique<ReadNode>();
  root->path.push_back('$');  // (operator= trips a -Wrestrict false positive)
  root->group = view.storage();
  root->group_nulls = NullMask(*root->group);
  root->value = view.value_column();
  if (view.typed_value())
    ARROW_RETURN_NOT_OK(CompileTyped(root.get(), view.typed_value(), 0, read_values));
  return root;
}

}  // namespace

arrow::Result<std::unique_ptr<ReadNode>> CompileShreddedColumn(
    const VariantArrayView& view) {
  return CompileColumn(view, /*read_values=*/true);
}

arrow::Status CheckShreddedLayout(const VariantArrayView& view) {
  return CompileColumn(view, /*read_values=*/false).status();
}

arrow::Status ResidualError(const arrow::Status& status, int64_t row,
                            const ReadNode& node) {
  // The validator names paths from the value's own root ("$.a[2]: ..."): continue
  // the node's path rather than repeat a root ("$.x: $.a[2]: ...").
  std::string_view msg = status.message();
  if (msg.starts_with('$')) {
    msg.remove_prefix(1);
    return arrow::Status::Invalid("row ", row, ", ", node.path, msg);
  }
  return NodeError(row, node, msg);
}

arrow::Status NodeError(int64_t row, const ReadNode& node, std::string_view what) {
  return arrow::Status::Invalid("row ", row, ", ", node.path, ": ", what);
}

arrow::Status CheckConflict(ConflictPolicy policy, int64_t row, const ReadNode& node) {
  if (policy == ConflictPolicy::kTypedWins) return arrow::Status::OK();
  return NodeError(row, node, "conflicting value and typed_value");
}

arrow::Status CheckRepeatedField(ConflictPolicy policy, int64_t row, const ReadNode& node,
                                 std::string_view key) {
  if (policy == ConflictPolicy::kTypedWins) return arrow::Status::OK();
  return NodeError(row, node,
                   "residual value repeats shredded field '" + std::string(key) + "'");
}

arrow::Status NonObjectResidual(int64_t row, const ReadNode& node) {
  return NodeError(row, node, kNonObjectResidual);
}

arrow::Status CheckWholeValue(ConflictPolicy policy, int64_t row, const ReadNode& node,
                              const MetadataView& metadata, std::string_view bytes) {
  if (policy == ConflictPolicy::kTypedWins || node.typed.index() != ReadNode::kObject ||
      bytes.empty() ||
      TypeFromHeader(static_cast<uint8_t>(bytes[0])) != VariantType::kObject) {
    return arrow::Status::OK();
  }
  const auto& reader = std::get<ObjectReader>(node.typed);
  const ObjectView object(metadata, bytes);
  for (uint32_t f = 0; f < object.num_fields(); ++f) {
    if (reader.IsShreddedName(object.key(f))) {
      return NodeError(row, node, HoldsShreddedField(object.key(f)));
    }
  }
  return arrow::Status::OK();
}

}  // namespace varshred::internal
