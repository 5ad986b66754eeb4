// Licensed under the Apache License, Version 2.0.

#include <arrow/type.h>

#include <algorithm>
#include <cstring>

#include "varshred/arrow/shredded_json_internal.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/json_write_internal.h"
#include "varshred/validate_internal.h"
#include "varshred/value.h"

namespace varshred::internal {

namespace {

// How a scalar leaf prints: the common types straight from the column, the others
// through their Variant encoding and JsonWriter (one implementation of their text).
enum ScalarText : uint8_t {
  kViaVariant,
  kString,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat,
  kDouble
};

ScalarText TextOf(const TypedScalarColumn& column) {
  const arrow::DataType* type = column.array()->type().get();
  if (type->id() == arrow::Type::DICTIONARY) {
    type = static_cast<const arrow::DictionaryType&>(*type).value_type().get();
  }
  switch (type->id()) {
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW:
      return kString;
    case arrow::Type::INT8:
      return kInt8;
    case arrow::Type::INT16:
      return kInt16;
    case arrow::Type::INT32:
      return kInt32;
    case arrow::Type::INT64:
      return kInt64;
    case arrow::Type::FLOAT:
      return kFloat;
    case arrow::Type::DOUBLE:
      return kDouble;
    default:
      return kViaVariant;
  }
}

template <typename T>
T ValueAt(const TypedScalarColumn& column, int64_t i) {
  T v;
  std::memcpy(&v, column.values() + i * sizeof(T), sizeof(T));
  return v;
}

// Escapes every object's field names once (`"name":`) and picks each leaf's printer.
void Prepare(ReadNode& node) {
  if (auto* c = std::get_if<TypedScalarColumn>(&node.typed)) {
    node.scalar_text = TextOf(*c);
  } else if (auto* o = std::get_if<ObjectReader>(&node.typed)) {
    o->json_keys.clear();
    for (size_t k = 0; k < o->names.size(); ++k) {
      std::string key;
      AppendJsonString(o->names[k], &key);
      key.push_back(':');
      o->json_keys.push_back(std::move(key));
      Prepare(*o->children[k]);
    }
  } else if (auto* a = std::get_if<ArrayReader>(&node.typed)) {
    Prepare(*a->element);
  }
}

}  // namespace

ShreddedJsonPrinter::ShreddedJsonPrinter(std::unique_ptr<ReadNode> root,
                                         const JsonWriter* writer,
                                         ConflictPolicy on_conflict)
    : root_(std::move(root)), writer_(writer), on_conflict_(on_conflict) {}

arrow::Result<std::unique_ptr<ShreddedJsonPrinter>> ShreddedJsonPrinter::Make(
    const VariantArrayView& view, const JsonWriter* writer, ConflictPolicy on_conflict) {
  ARROW_ASSIGN_OR_RAISE(auto root, CompileShreddedColumn(view));
  Prepare(*root);
  return std::unique_ptr<ShreddedJsonPrinter>(
      new ShreddedJsonPrinter(std::move(root), writer, on_conflict));
}

arrow::Status ShreddedJsonPrinter::Print(int64_t row, const MetadataView& metadata,
                                         const uint32_t* key_ranks, bool plain_keys,
                                         TextSink* out) {
  row_ = row;
  metadata_ = metadata;
  key_ranks_ = key_ranks;
  plain_keys_ = plain_keys;
  bool missing;
  ARROW_RETURN_NOT_OK(PrintPair(*root_, row, out, &missing));
  // docs/shredding.md: a missing top-level value reads as Variant null.
  if (missing) out->Put("null");
  return arrow::Status::OK();
}

arrow::Status ShreddedJsonPrinter::PrintPair(ReadNode& node, int64_t i, TextSink* out,
                                             bool* missing) {
  *missing = false;
  const PairState state = node.StateAt(i);
  switch (state) {
    case PairState::kMissing:
      *missing = true;
      return arrow::Status::OK();
    case PairState::kValue: {
      // Checked and printed in one walk; printed again in key order if unsorted.
      const std::string_view bytes = node.value.Get(i);
      const size_t start = out->Position();
      ValueFacts facts;
      const auto st = WriteJsonChecked(*writer_, metadata_, key_ranks_, plain_keys_,
                                       bytes, validate_, &facts, out);
      if (!st.ok()) return ResidualError(st, row_, node);
      ARROW_RETURN_NOT_OK(CheckWholeValue(on_conflict_, row_, node, metadata_, bytes));
      if (!facts.keys_sorted) {
        out->Truncate(start);
        PrintValue(VariantView::MakeUnchecked(metadata_, bytes), false, out);
      }
      return arrow::Status::OK();
    }
    case PairState::kConflict:
      ARROW_RETURN_NOT_OK(CheckConflict(on_conflict_, row_, node));
      break;
    case PairState::kTyped:
    case PairState::kPartialObject:
      break;
  }
  switch (node.typed.index()) {
    case ReadNode::kScalar: {
      const auto& column = std::get<TypedScalarColumn>(node.typed);
      switch (node.scalar_text) {
        case kString:
          AppendJsonString(column.GetString(i), out);
          return arrow::Status::OK();
        case kInt8:
          AppendInt(ValueAt<int8_t>(column, i), out);
          return arrow::Status::OK();
        case kInt16:
          AppendInt(ValueAt<int16_t>(column, i), out);
          return arrow::Status::OK();
        case kInt32:
          AppendInt(ValueAt<int32_t>(column, i), out);
          return arrow::Status::OK();
        case kInt64:
          AppendInt(ValueAt<int64_t>(column, i), out);
          return arrow::Status::OK();
        case kFloat:
          AppendFloating(ValueAt<float>(column, i), out);
          return arrow::Status::OK();
        case kDouble:
          AppendFloating(ValueAt<double>(column, i), out);
          return arrow::Status::OK();
        default:
          break;
      }
      scalar_.clear();
      const auto st = column.Append(i, &scalar_);
      if (!st.ok()) return NodeError(row_, node, st.message());
      WriteJson(*writer_, VariantView::MakeUnchecked(metadata_, scalar_), out);
      return arrow::Status::OK();
    }
    case ReadNode::kObject:
      return PrintObject(node, std::get<ObjectReader>(node.typed), i,
                         state == PairState::kPartialObject, out);
    default:
      return PrintArray(std::get<ArrayReader>(node.typed), i, out);
  }
}

arrow::Status ShreddedJsonPrinter::PrintArray(ArrayReader& a, int64_t i, TextSink* out) {
  out->Put('[');
  for (int64_t j = a.begin(i), end = a.end(i); j < end; ++j) {
    if (j != a.begin(i)) out->Put(',');
    bool missing = true;
    // A null element group (nullable in some writers) is missing too.
    if (!a.element->group_nulls.IsNull(j)) {
      ARROW_RETURN_NOT_OK(PrintPair(*a.element, j, out, &missing));
    }
    // docs/shredding.md: a missing array element reads as Variant null.
    if (missing) out->Put("null");
  }
  out->Put(']');
  return arrow::Status::OK();
}

// The typed fields (in name order) and the residual's (in key order) merged, so that
// the object prints in key order as its rebuilt Variant would.
arrow::Status ShreddedJsonPrinter::PrintObject(ReadNode& node, ObjectReader& o, int64_t i,
                                               bool partial, TextSink* out) {
  ObjectView residual;
  bool keys_sorted = true;
  const size_t base = residuals_.size();
  if (partial) {
    const std::string_view bytes = node.value.Get(i);
    ARROW_RETURN_NOT_OK(CheckResidual(node, bytes, &keys_sorted));
    if (TypeFromHeader(static_cast<uint8_t>(bytes[0])) != VariantType::kObject) {
      return NonObjectResidual(row_, node);
    }
    residual = ObjectView(metadata_, bytes);
    for (uint32_t f = 0; f < residual.num_fields(); ++f) residuals_.push_back(f);
    if (!keys_sorted) {
      // Values from other writers may hold unsorted ids.
      std::sort(residuals_.begin() + base, residuals_.end(), [&](uint32_t a, uint32_t b) {
        return residual.key(a) < residual.key(b);
      });
    }
  }
  const size_t end = residuals_.size();
  out->Put('{');
  bool first = true;
  size_t t = 0, r = base;
  while (t < o.by_key.size() || r < end) {
    const std::string_view key =
        r < end ? residual.key(residuals_[r]) : std::string_view();
    if (t < o.by_key.size() &&
        (r == end || std::string_view(o.names[o.by_key[t]]) <= key)) {
      const uint32_t k = o.by_key[t++];
      if (r < end && o.names[k] == key) {
        ARROW_RETURN_NOT_OK(CheckRepeatedField(on_conflict_, row_, node, key));
        ++r;  // parquet-java: the typed side wins, the residual copy is dropped
      }
      ReadNode& child = *o.children[k];
      // A nullable field group that is null (corpus case 84) is a missing field.
      if (child.group_nulls.IsNull(i)) continue;
      const size_t mark = out->Position();
      if (!first) out->Put(',');
      out->Put(o.json_keys[k]);
      bool missing;
      ARROW_RETURN_NOT_OK(PrintPair(child, i, out, &missing));
      if (missing) {
        out->Truncate(mark);
      } else {
        first = false;
      }
    } else {
      if (!first) out->Put(',');
      first = false;
      AppendJsonString(key, out);
      out->Put(':');
      PrintValue(residual.value(residuals_[r++]), keys_sorted, out);
    }
  }
  out->Put('}');
  residuals_.resize(base);
  return arrow::Status::OK();
}

void ShreddedJsonPrinter::PrintValue(const VariantView& v, bool keys_sorted,
                                     TextSink* out) {
  if (keys_sorted) {
    WriteJson(*writer_, v, out);
    return;
  }
  sorted_.clear();
  AppendSortedKeys(v, &sorted_);
  WriteJson(*writer_, VariantView::MakeUnchecked(metadata_, sorted_), out);
}

arrow::Status ShreddedJsonPrinter::CheckResidual(const ReadNode& node,
                                                 std::string_view bytes,
                                                 bool* keys_sorted) const {
  ValueFacts facts;
  auto st = ValidateValue(metadata_, key_ranks_, bytes, validate_, &facts);
  *keys_sorted = facts.keys_sorted;
  // Not `st.ok() ? st : ...`: that copies `st`, a call into libarrow even when OK.
  if (!st.ok()) return ResidualError(st, row_, node);
  return arrow::Status::OK();
}

}  // namespace varshred::internal
