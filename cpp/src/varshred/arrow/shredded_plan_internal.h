// Licensed under the Apache License, Version 2.0.
//
// The reader tree of a shredded Variant column: its Arrow type compiled once into one
// node per {value, typed_value} pair, scalar leaves as TypedScalarColumns whose encoder
// is chosen for their Arrow type. Two walkers read it row by row: Unshred (Variant
// bytes, unshred.cc) and VariantToJson (text, shredded_json.cc). Compiling it applies
// the layout rules every reader of shredded columns shares (CheckShreddedLayout).

#pragma once

#include <arrow/array.h>
#include <arrow/result.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "varshred/arrow/shredding_state_internal.h"
#include "varshred/arrow/typed_scalar_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"

namespace varshred::internal {

struct ReadNode;

constexpr uint32_t kUnknownId = std::numeric_limits<uint32_t>::max();

struct ObjectReader {
  std::shared_ptr<arrow::Array> array;
  NullMask nulls;
  std::vector<std::string> names;
  std::vector<std::unique_ptr<ReadNode>> children;
  std::vector<uint32_t> by_key;  // child indexes ordered by name bytes
  // Unshred: the metadata id per child, for metadata epoch `epoch`, and the last id
  // found for it in any epoch (the first guess in the next dictionary).
  std::vector<uint32_t> ids;
  std::vector<uint32_t> hints;
  uint64_t epoch = 0;
  // VariantToJson: `"name":` per child, escaped once.
  std::vector<std::string> json_keys;

  /// Whether `key` names a shredded field.
  bool IsShreddedName(std::string_view key) const;
};

struct ArrayReader {
  std::shared_ptr<arrow::Array> array;
  NullMask nulls;
  const int32_t* offsets32 = nullptr;
  const int64_t* offsets64 = nullptr;
  std::unique_ptr<ReadNode> element;

  int64_t begin(int64_t i) const { return offsets32 ? offsets32[i] : offsets64[i]; }
  int64_t end(int64_t i) const { return offsets32 ? offsets32[i + 1] : offsets64[i + 1]; }
};

struct ReadNode {
  std::shared_ptr<arrow::Array> group;  // the pair's struct (null slots = missing)
  NullMask group_nulls;
  BinaryColumn value;  // empty when the column is absent
  std::variant<std::monostate, TypedScalarColumn, ObjectReader, ArrayReader> typed;
  std::string path;
  // VariantToJson: how a scalar leaf prints (shredded_json.cc).
  uint8_t scalar_text = 0;

  static constexpr size_t kScalar = 1, kObject = 2, kArray = 3;

  bool TypedIsNull(int64_t i) const {
    switch (typed.index()) {
      case kScalar:
        return std::get<TypedScalarColumn>(typed).IsNull(i);
      case kObject:
        return std::get<ObjectReader>(typed).nulls.IsNull(i);
      case kArray:
        return std::get<ArrayReader>(typed).nulls.IsNull(i);
      default:
        return true;  // value-only pair
    }
  }

  /// What the pair holds at index i (docs/shredding.md#pair-semantics).
  PairState StateAt(int64_t i) const {
    const bool has_value = value && !value.IsNull(i);
    return StateOf(has_value, !TypedIsNull(i), typed.index() == kObject);
  }
};

/// \brief The reader tree of a whole (possibly unshredded) column; its errors are the
/// layout rules of CheckShreddedLayout().
arrow::Result<std::unique_ptr<ReadNode>> CompileShreddedColumn(
    const VariantArrayView& view);

// ----------------------------------------------------------------------
// The reading rules both walkers apply (docs/shredding.md#reconstruction, #conflicts);
// each error names the row and the node's path.

/// \brief Invalid: "row R, PATH: what".
arrow::Status NodeError(int64_t row, const ReadNode& node, std::string_view what);

/// \brief The error for a residual `value` cell at `node` that ValidateValue() refused
/// with `status`, continuing the node's path.
arrow::Status ResidualError(const arrow::Status& status, int64_t row,
                            const ReadNode& node);

/// \brief A value beside a non-object typed value (PairState::kConflict): an error
/// under kRaise; OK under kTypedWins, the typed value being read (parquet-java).
arrow::Status CheckConflict(ConflictPolicy policy, int64_t row, const ReadNode& node);

/// \brief A residual object repeating the shredded field `key`: an error under kRaise;
/// OK under kTypedWins, the residual copy being dropped (parquet-java).
arrow::Status CheckRepeatedField(ConflictPolicy policy, int64_t row, const ReadNode& node,
                                 std::string_view key);

/// \brief A residual beside shredded fields that is not an object: an error for every
/// reader, whatever the policy (corpus cases 87 and 128).
arrow::Status NonObjectResidual(int64_t row, const ReadNode& node);

/// \brief A whole value (typed_value null) at a node whose object fields are shredded,
/// `bytes` validated: an object there holding a shredded field is invalid (the spec;
/// filters and Spark's scans look for that field in its typed column only): an error
/// under kRaise, read whole under kTypedWins. Other values, objects from writers that
/// predate the rule included, are fine.
arrow::Status CheckWholeValue(ConflictPolicy policy, int64_t row, const ReadNode& node,
                              const MetadataView& metadata, std::string_view bytes);

}  // namespace varshred::internal
