// Licensed under the Apache License, Version 2.0.
//
// variant_get over a shredded column: the path is followed through the shredding
// layout (typed_value field groups for keys, typed list elements for indexes) and
// only falls back to Variant bytes where a row leaves that layout (docs/shredding.md,
// reader rules; docs/shredding.md#reconstruction). The path is compiled once per array
// into a chain of levels, one per {value, typed_value} pair it can descend; each row is
// then resolved to one of: SQL NULL, Variant null, a typed leaf value, residual Variant
// bytes at some level, or a typed object/array leaf to rebuild (done by Unshred, once,
// for all rows that need it).
//
// When no value column along the path holds anything and the leaf's typed type is
// the target type, the result is the leaf column itself with the validity of every
// level ANDed in: no row loop at all. Otherwise typed leaf values whose cast is plain
// arithmetic (same type, integer -> integer/float/double/string) are appended in bulk,
// over runs of rows (no [i] step) or gathered through the list offsets ([i] steps);
// rows off the typed layout, and values whose cast fails, go through the Variant cast.

#include <arrow/array/array_binary.h>
#include <arrow/array/array_decimal.h>
#include <arrow/array/array_nested.h>
#include <arrow/array/array_primitive.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/array/util.h>
#include <arrow/buffer_builder.h>
#include <arrow/type.h>
#include <arrow/type_traits.h>
#include <arrow/util/bit_run_reader.h>
#include <arrow/util/bitmap_ops.h>

#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "varshred/arrow/shredded_layout_internal.h"
#include "varshred/arrow/shredding_state_internal.h"
#include "varshred/arrow/typed_scalar_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get_internal.h"
#include "varshred/format.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/row_error_internal.h"
#include "varshred/validate.h"
#include "varshred/validate_internal.h"

namespace varshred::internal {

namespace {

// ----------------------------------------------------------------------
// Typed scalars appended to the target type in bulk
//
// A typed leaf is read without building a Variant per value when its cast to the target
// is plain arithmetic: the identity (Spark casts a value to its own type unchanged), an
// integer to another integer type (out of range: the cast fails), an integer to float
// or double (rounded to nearest, as VariantCaster converts an int64), an integer to a
// string (its decimal digits, as Spark prints a long). Everything else (decimals,
// dates, ...) keeps the Variant cast, whose rules are subtler.
//
// A failed cast is not decided here: the appender stops at that slot and the caller
// appends the row through the Variant cast, which gives the null or the error with its
// exact message. So the bulk path can only ever give what the per-row path gives.

// The leaf slots to append: slots[k] when `slots` is set (kNullSlot: a SQL NULL), else
// begin + k.
struct SlotRange {
  const int64_t* slots = nullptr;
  int64_t begin = 0;
  int64_t count = 0;

  int64_t operator[](int64_t k) const { return slots ? slots[k] : begin + k; }
  void Advance(int64_t k) {
    if (slots)
      slots += k;
    else
      begin += k;
    count -= k;
  }
};

constexpr int64_t kNullSlot = -1;  // the row is a SQL NULL
constexpr int64_t kSlowSlot = -2;  // the row needs Resolve (residual bytes, Variant null)
// Runs of rows shorter than this are appended value by value rather than as an array
// slice: a slice's validity copy costs about 1 600 instructions to set up, a value
// appended alone about 45 (runs between residual rows are often short).
constexpr int64_t kSliceRows = 64;

// Appends the leaf slots of `range` (a null slot as null) and returns how many it
// appended: fewer than range.count when the cast of the next one fails.
using AppendSlotsFn = arrow::Result<int64_t> (*)(const arrow::Array& leaf,
                                                 SlotRange range,
                                                 arrow::ArrayBuilder* out);

// Conversions, one per kind of cast: `bool operator()(In, Out*)`, false when the cast
// fails.
struct Same {
  template <typename T>
  bool operator()(T v, T* out) const {
    *out = v;
    return true;
  }
};

template <typename To>
struct CheckedInteger {
  template <typename From>
  bool operator()(From v, To* out) const {
    if (!std::in_range<To>(v)) return false;  // Spark: overflow is a failed cast
    *out = static_cast<To>(v);
    return true;
  }
};

template <typename To>
struct IntegerToFloating {
  template <typename From>
  bool operator()(From v, To* out) const {
    *out = static_cast<To>(static_cast<int64_t>(v));  // as VariantCaster::CastDouble
    return true;
  }
};

struct IntegerText {
  char buf[24];
  std::string_view view;
};
struct IntegerToString {
  template <typename From>
  bool operator()(From v, IntegerText* out) const {
    // Long.toString: the same digits as std::to_string, which VariantCaster uses.
    auto end = std::to_chars(out->buf, out->buf + sizeof(out->buf), v).ptr;
    out->view = std::string_view(out->buf, static_cast<size_t>(end - out->buf));
    return true;
  }
};
template <typename T>
const T& Appendable(const T& v) {
  return v;
}
std::string_view Appendable(const IntegerText& t) { return t.view; }

// A validity bitmap read without Array::IsNull's per-call checks.
class ValidBits {
 public:
  ValidBits() = default;  // every slot valid
  explicit ValidBits(const arrow::Array& a) {
    if (a.null_count() == 0) return;
    all_null_ = a.null_count() == a.length();
    bits_ = a.null_bitmap_data();
    offset_ = a.offset();
  }
  bool operator[](int64_t i) const {
    if (bits_ != nullptr) return arrow::bit_util::GetBit(bits_, offset_ + i);
    return !all_null_;  // a null-type array has no bitmap
  }

 private:
  const uint8_t* bits_ = nullptr;
  int64_t offset_ = 0;
  bool all_null_ = false;
};

// An upper bound of the string bytes that appending `range` adds, so that the loop
// can append without a capacity check per value.
template <typename Out, typename ArrayType>
int64_t MaxDataBytes(const ArrayType& in, SlotRange range) {
  if constexpr (std::is_same_v<Out, IntegerText>) {
    return range.count * static_cast<int64_t>(sizeof(IntegerText::buf));
  } else {
    int64_t bytes = 0;
    for (int64_t k = 0; k < range.count; ++k) {
      const int64_t slot = range[k];
      if (slot != kNullSlot) bytes += in.value_length(slot);
    }
    return bytes;
  }
}

template <typename FromType, typename ToType, typename Convert, typename Out>
arrow::Result<int64_t> AppendSlots(const arrow::Array& leaf, SlotRange range,
                                   arrow::ArrayBuilder* out) {
  using ArrayType = typename arrow::TypeTraits<FromType>::ArrayType;
  const auto& in = static_cast<const ArrayType&>(leaf);
  auto* builder = static_cast<typename arrow::TypeTraits<ToType>::BuilderType*>(out);
  ARROW_RETURN_NOT_OK(builder->Reserve(range.count));
  constexpr bool kStrings = arrow::is_base_binary_type<ToType>::value;
  if constexpr (kStrings) {
    // Also checks the offsets cannot overflow: UnsafeAppend below does not.
    ARROW_RETURN_NOT_OK(builder->ReserveData(MaxDataBytes<Out>(in, range)));
  }
  const ValidBits valid(in);
  Convert convert;
  Out value;
  for (int64_t k = 0; k < range.count; ++k) {
    const int64_t slot = range[k];
    if (slot == kNullSlot || !valid[slot]) {
      builder->UnsafeAppendNull();
      continue;
    }
    if (!convert(in.GetView(slot), &value)) return k;
    if constexpr (kStrings || !arrow::is_decimal_type<ToType>::value) {
      builder->UnsafeAppend(Appendable(value));
    } else {
      ARROW_RETURN_NOT_OK(builder->Append(Appendable(value)));
    }
  }
  return range.count;
}

template <typename T>
AppendSlotsFn CopySlots() {
  using ArrayType = typename arrow::TypeTraits<T>::ArrayType;
  using Value = decltype(std::declval<ArrayType>().GetView(0));
  return AppendSlots<T, T, Same, Value>;
}

template <typename From>
AppendSlotsFn ConvertIntegerSlots(const arrow::DataType& target) {
  switch (target.id()) {
    case arrow::Type::INT8:
      return AppendSlots<From, arrow::Int8Type, CheckedInteger<int8_t>, int8_t>;
    case arrow::Type::INT16:
      return AppendSlots<From, arrow::Int16Type, CheckedInteger<int16_t>, int16_t>;
    case arrow::Type::INT32:
      return AppendSlots<From, arrow::Int32Type, CheckedInteger<int32_t>, int32_t>;
    case arrow::Type::INT64:
      return AppendSlots<From, arrow::Int64Type, CheckedInteger<int64_t>, int64_t>;
    case arrow::Type::FLOAT:
      return AppendSlots<From, arrow::FloatType, IntegerToFloating<float>, float>;
    case arrow::Type::DOUBLE:
      return AppendSlots<From, arrow::DoubleType, IntegerToFloating<double>, double>;
    case arrow::Type::STRING:
      return AppendSlots<From, arrow::StringType, IntegerToString, IntegerText>;
    case arrow::Type::LARGE_STRING:
      return AppendSlots<From, arrow::LargeStringType, IntegerToString, IntegerText>;
    default:
      return nullptr;
  }
}

// The bulk appender from a typed leaf of type `typed` to `target`, or null when the
// cast needs the Variant rules.
AppendSlotsFn MakeSlotAppender(const arrow::DataType& typed,
                               const arrow::DataType& target) {
  if (typed.Equals(target)) {
    switch (target.id()) {
      case arrow::Type::BOOL:
        return CopySlots<arrow::BooleanType>();
      case arrow::Type::INT8:
        return CopySlots<arrow::Int8Type>();
      case arrow::Type::INT16:
        return CopySlots<arrow::Int16Type>();
      case arrow::Type::INT32:
        return CopySlots<arrow::Int32Type>();
      case arrow::Type::INT64:
        return CopySlots<arrow::Int64Type>();
      case arrow::Type::FLOAT:
        return CopySlots<arrow::FloatType>();
      case arrow::Type::DOUBLE:
        return CopySlots<arrow::DoubleType>();
      case arrow::Type::DATE32:
        return CopySlots<arrow::Date32Type>();
      case arrow::Type::TIMESTAMP:
        return CopySlots<arrow::TimestampType>();
      case arrow::Type::DECIMAL128:
        return CopySlots<arrow::Decimal128Type>();
      case arrow::Type::STRING:
        return CopySlots<arrow::StringType>();
      case arrow::Type::LARGE_STRING:
        return CopySlots<arrow::LargeStringType>();
      case arrow::Type::BINARY:
        return CopySlots<arrow::BinaryType>();
      case arrow::Type::LARGE_BINARY:
        return CopySlots<arrow::LargeBinaryType>();
      default:
        return nullptr;
    }
  }
  switch (typed.id()) {
    case arrow::Type::INT8:
      return ConvertIntegerSlots<arrow::Int8Type>(target);
    case arrow::Type::INT16:
      return ConvertIntegerSlots<arrow::Int16Type>(target);
    case arrow::Type::INT32:
      return ConvertIntegerSlots<arrow::Int32Type>(target);
    case arrow::Type::INT64:
      return ConvertIntegerSlots<arrow::Int64Type>(target);
    default:
      return nullptr;
  }
}

// ----------------------------------------------------------------------
// The path compiled against the layout

enum class Kind : uint8_t { kNone, kObject, kList, kScalar };

// One {value, typed_value} pair on the path. Level l consumes path segment l.
struct Level {
  std::shared_ptr<arrow::Array> group;  // the pair's struct
  BinaryColumn value;                   // empty when absent
  std::shared_ptr<arrow::Array> typed;  // null when absent
  Kind kind = Kind::kNone;
  bool element = false;  // an array element: missing reads as Variant null
  bool descend = false;  // segment l follows the typed layout to level l + 1
  const int32_t* offsets32 = nullptr;
  const int64_t* offsets64 = nullptr;
  std::string path;  // the path down to this pair, for errors
  VariantPath rest;  // segments l.. for lookups in this level's residual bytes
};

// `group` is a {value, typed_value} struct (or the column's own struct, whose metadata
// child is skipped) whose shape internal::CheckShreddedLayout() has checked.
void MakeLevel(const std::shared_ptr<arrow::Array>& group, std::string path, bool element,
               Level* out) {
  out->group = group;
  out->element = element;
  out->path = std::move(path);
  const auto& st = static_cast<const arrow::StructArray&>(*group);
  for (int k = 0; k < st.num_fields(); ++k) {
    const std::string& name = st.type()->field(k)->name();
    if (name == "value") {
      out->value = *BinaryColumn::Make(st.field(k));
    } else if (name == "typed_value") {
      out->typed = st.field(k);
    }
  }
}

// What a row's path leads to.
enum class Found : uint8_t {
  kMissing,      // SQL NULL
  kVariantNull,  // a missing top-level value or array element: Variant null 00
  kTyped,        // a scalar in the leaf's typed_value at `pos`
  kRebuild,      // an object or array in the leaf's typed_value at `pos`
  kResidual,     // Variant bytes in levels[level].value at `pos`, path rest to follow
  kConflict,     // value and typed_value both set for a non-object kind
};

struct Resolved {
  Found found = Found::kMissing;
  uint32_t level = 0;
  int64_t pos = 0;
};

class ShreddedGetter {
 public:
  ShreddedGetter(const VariantArrayView& view, const VariantPath& path,
                 const VariantGetOptions& options, arrow::MemoryPool* pool)
      : view_(view), path_(path), options_(options), pool_(pool) {
    // Residual objects from other writers may have unsorted ids, as Unshred accepts.
    validate_options_ = UnshredOptions{}.validate;
  }

  arrow::Status Compile() {
    levels_.reserve(path_.size() + 1);
    // The same shape rules as Unshred(), for the whole column: a path must not read a
    // column whose shape reconstruction would reject. Values are checked only where
    // they are read (README: not the row's other fields).
    ARROW_RETURN_NOT_OK(internal::CheckShreddedLayout(view_));
    levels_.emplace_back();
    MakeLevel(view_.storage(), "$", false, &levels_.back());
    for (size_t s = 0;; ++s) {
      Level& lv = levels_.back();
      lv.rest = VariantPath(
          std::vector<PathSegment>(path_.segments().begin() + s, path_.segments().end()));
      std::shared_ptr<arrow::Array> next;
      if (lv.typed) {
        switch (lv.typed->type_id()) {
          case arrow::Type::STRUCT:
            lv.kind = Kind::kObject;
            break;
          case arrow::Type::LIST:
          case arrow::Type::LARGE_LIST:
            lv.kind = Kind::kList;
            break;
          default:
            lv.kind = Kind::kScalar;
            break;
        }
      }
      if (s == path_.size()) break;
      const PathSegment& seg = path_[s];
      if (lv.kind == Kind::kObject && seg.is_key()) {
        const auto& st = static_cast<const arrow::StructArray&>(*lv.typed);
        const int found = st.struct_type()->GetFieldIndex(seg.key);  // unique: checked
        if (found >= 0) next = st.field(found);
      } else if (lv.kind == Kind::kList && seg.is_index()) {
        if (lv.typed->type_id() == arrow::Type::LIST) {
          const auto& l = static_cast<const arrow::ListArray&>(*lv.typed);
          lv.offsets32 = l.raw_value_offsets();
          next = l.values();
        } else {
          const auto& l = static_cast<const arrow::LargeListArray&>(*lv.typed);
          lv.offsets64 = l.raw_value_offsets();
          next = l.values();
        }
      }
      if (!next) break;
      lv.descend = true;
      std::string child_path =
          VariantPath(std::vector<PathSegment>(path_.segments().begin(),
                                               path_.segments().begin() + s + 1))
              .ToString();
      Level child;
      MakeLevel(next, std::move(child_path), seg.is_index(), &child);
      levels_.push_back(std::move(child));
    }
    leaf_reached_ = levels_.size() == path_.size() + 1;
    if (leaf_reached_ && leaf().kind == Kind::kScalar) {
      ARROW_ASSIGN_OR_RAISE(leaf_scalar_,
                            TypedScalarColumn::Make(leaf().typed, leaf().path));
    }
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Get(
      const std::shared_ptr<arrow::DataType>& type) {
    if (type != nullptr) {
      ARROW_ASSIGN_OR_RAISE(auto fast, TryZeroCopy(type));
      if (fast) return fast;
    }
    if (leaf_reached_ && (leaf().kind == Kind::kObject || leaf().kind == Kind::kList)) {
      ARROW_RETURN_NOT_OK(RebuildLeaves());
    }
    if (type == nullptr) return GetVariant();
    return GetCast(type);
  }

 private:
  const Level& leaf() const { return levels_.back(); }

  // Follows the path through the layout for one row (docs/shredding.md#pair-semantics for
  // each pair).
  Resolved Resolve(int64_t row) const {
    if (view_.IsNull(row)) return {};
    const size_t n = path_.size();
    int64_t pos = row;
    for (uint32_t l = 0;; ++l) {
      const Level& lv = levels_[l];
      if (l > 0 && lv.group->IsNull(pos)) {
        // A null field group (nullable in some writers) is a missing field; a null
        // element group a missing element, read as Variant null.
        return {lv.element && l == n ? Found::kVariantNull : Found::kMissing, l, pos};
      }
      const bool has_value = lv.value && !lv.value.IsNull(pos);
      const auto state = internal::StateOf(has_value, lv.typed && !lv.typed->IsNull(pos),
                                           lv.kind == Kind::kObject);
      if (state == internal::PairState::kConflict) return {Found::kConflict, l, pos};
      if (state == internal::PairState::kTyped ||
          state == internal::PairState::kPartialObject) {
        if (l == n) {
          return {lv.kind == Kind::kScalar ? Found::kTyped : Found::kRebuild, l, pos};
        }
        if (lv.descend) {
          if (lv.kind == Kind::kList) {
            const int64_t begin = lv.offsets32 ? lv.offsets32[pos] : lv.offsets64[pos];
            const int64_t end =
                lv.offsets32 ? lv.offsets32[pos + 1] : lv.offsets64[pos + 1];
            if (path_[l].index >= end - begin) return {Found::kMissing, l, pos};
            pos = begin + path_[l].index;
          }
          continue;
        }
        // A key the typed object does not shred lives in the residual object, if any.
        if (path_[l].is_key() && state == internal::PairState::kPartialObject) {
          return {Found::kResidual, l, pos};
        }
        return {Found::kMissing, l, pos};
      }
      if (state == internal::PairState::kValue) return {Found::kResidual, l, pos};
      // docs/shredding.md: null/null is a missing field, but a missing top-level
      // value or array element reads as Variant null (which has no keys or elements).
      return {l == n && (l == 0 || lv.element) ? Found::kVariantNull : Found::kMissing, l,
              pos};
    }
  }

  arrow::Status Conflict(int64_t row, const Resolved& r) const {
    return arrow::Status::Invalid("row ", row, ", ", levels_[r.level].path,
                                  ": conflicting value and typed_value");
  }

  // The Variant value of the typed scalar leaf that row `row` resolved to.
  arrow::Status TypedAt(int64_t row, const Resolved& r, std::string* out) const {
    const auto st = leaf_scalar_.Append(r.pos, out);
    if (st.ok()) return arrow::Status::OK();  // returning `st` would copy it: a call
    return arrow::Status::Invalid("row ", row, ", ", levels_[r.level].path, ": ",
                                  st.message());
  }

  arrow::Status RowMetadata(int64_t row, MetadataView* out) {
    if (view_.metadata_column().IsNull(row)) {
      return internal::NullMetadataError(row);
    }
    const std::string_view bytes = view_.metadata(row);
    if (!options_.validate) {
      *out = MetadataView::MakeUnchecked(bytes);
      return arrow::Status::OK();
    }
    auto md = metadata_cache_.Get(bytes);
    if (!md.ok()) {
      return md.status().WithMessage("row ", row, ": ", md.status().message());
    }
    *out = *md;
    return arrow::Status::OK();
  }

  // The value the residual bytes of `r` hold at the rest of the path, if any.
  arrow::Status LookupResidual(int64_t row, const Resolved& r,
                               std::optional<VariantView>* out) {
    const Level& lv = levels_[r.level];
    MetadataView md;
    ARROW_RETURN_NOT_OK(RowMetadata(row, &md));
    const std::string_view bytes = lv.value.Get(r.pos);
    std::optional<VariantView> found;  // by the checking walk, which follows lv.rest
    if (options_.validate) {
      auto st = internal::ValidatePath(md, metadata_cache_.key_ranks(), bytes, lv.rest,
                                       validate_options_, &found);
      if (!st.ok()) {
        // The validator names paths from the value's root ("$.a[2]: ..."): continue
        // this level's path instead of repeating a root.
        std::string_view msg = st.message();
        if (msg.starts_with('$')) {
          msg.remove_prefix(1);
          return arrow::Status::Invalid("row ", row, ", ", lv.path, msg);
        }
        return arrow::Status::Invalid("row ", row, ", ", lv.path, ": ", msg);
      }
    } else if (bytes.empty()) {
      return arrow::Status::Invalid("row ", row, ", ", lv.path, ": empty value");
    }
    const VariantView v = VariantView::MakeUnchecked(md, bytes);
    if (lv.kind == Kind::kObject && !lv.typed->IsNull(r.pos) &&
        v.type() != VariantType::kObject) {
      // Corpus 87/128: an error for every reader.
      return arrow::Status::Invalid("row ", row, ", ", lv.path, ": ", kNonObjectResidual);
    }
    *out = options_.validate ? found : Lookup(v, lv.rest);
    if (*out && lv.descend && lv.kind == Kind::kObject && lv.typed->IsNull(r.pos)) {
      // A whole object holding the shredded field the path continues into: invalid
      // (internal::CheckWholeValue, as a conflict here: an error).
      return arrow::Status::Invalid("row ", row, ", ", lv.path, ": ",
                                    HoldsShreddedField(path_[r.level].key));
    }
    return arrow::Status::OK();
  }

  // The rebuilt Variant of a typed object/array leaf (rebuilt by RebuildLeaves).
  arrow::Status RebuiltAt(int64_t row, const Resolved& r, VariantView* out) {
    MetadataView md;
    ARROW_RETURN_NOT_OK(RowMetadata(row, &md));
    *out = VariantView::MakeUnchecked(md, rebuilt_.value(r.pos));
    return arrow::Status::OK();
  }

  // Rebuilds, with Unshred, the leaf positions some row reaches with a non-null typed
  // object or array: a struct<metadata, value, typed_value> over the leaf group whose
  // slots are null except at those positions, each with its row's metadata.
  arrow::Status RebuildLeaves() {
    const Level& lf = leaf();
    const int64_t n = view_.length();
    const int64_t length = lf.group->length();
    bool through_list = false;
    for (const Level& lv : levels_) through_list |= lv.element;
    ARROW_ASSIGN_OR_RAISE(auto selected, arrow::AllocateEmptyBitmap(length, pool_));
    uint8_t* bits = selected->mutable_data();
    arrow::BinaryBuilder element_metadata(pool_);
    std::vector<int64_t> row_of;  // element position -> row
    if (through_list) row_of.assign(static_cast<size_t>(length), -1);
    int64_t count = 0;
    bool others = false;  // rows resolved to anything but a rebuild or SQL NULL
    for (int64_t row = 0; row < n; ++row) {
      const Resolved r = Resolve(row);
      if (r.found != Found::kRebuild) {
        others |= r.found != Found::kMissing;
        continue;
      }
      arrow::bit_util::SetBit(bits, r.pos);
      if (through_list) row_of[static_cast<size_t>(r.pos)] = row;
      ++count;
    }
    std::shared_ptr<arrow::Array> metadata = view_.metadata_column().array();
    if (through_list) {
      // Elements of a row share its dictionary: give each selected element a copy.
      ARROW_RETURN_NOT_OK(element_metadata.Reserve(length));
      for (int64_t j = 0; j < length; ++j) {
        const int64_t row = row_of[static_cast<size_t>(j)];
        if (row < 0) {
          ARROW_RETURN_NOT_OK(element_metadata.AppendEmptyValue());
        } else if (view_.metadata_column().IsNull(row)) {
          return internal::NullMetadataError(row);
        } else {
          ARROW_RETURN_NOT_OK(element_metadata.Append(view_.metadata(row)));
        }
      }
      ARROW_RETURN_NOT_OK(element_metadata.Finish(&metadata));
    }
    const auto& st = static_cast<const arrow::StructArray&>(*lf.group);
    arrow::FieldVector fields = {arrow::field("metadata", metadata->type())};
    std::vector<std::shared_ptr<arrow::ArrayData>> children = {metadata->data()};
    for (int k = 0; k < st.num_fields(); ++k) {
      const auto& f = st.type()->field(k);
      if (f->name() != "value" && f->name() != "typed_value") continue;
      fields.push_back(f);
      children.push_back(st.field(k)->data());
    }
    auto data = arrow::ArrayData::Make(arrow::struct_(fields), length, {selected},
                                       std::move(children), length - count);
    auto rebuilt = Unshred(*arrow::MakeArray(std::move(data)), UnshredOptions{}, pool_);
    if (!rebuilt.ok()) {
      return rebuilt.status().WithMessage("variant_get ", path_.ToString(), " at ",
                                          lf.path, ": ", rebuilt.status().message());
    }
    rebuilt_array_ = *rebuilt;
    ARROW_ASSIGN_OR_RAISE(rebuilt_, VariantArrayView::Make(rebuilt_array_));
    if (!through_list && !others) {
      // Every row is a rebuilt value or SQL NULL: Unshred's rows are the answer.
      rebuilt_validity_ = std::move(selected);
      rebuilt_null_count_ = n - count;
      rebuilt_is_result_ = true;
    }
    return arrow::Status::OK();
  }

  // The AND of the validity of `masks` (arrays of the rows' length n), written at
  // `out_offset`; null when every slot is valid.
  arrow::Result<std::shared_ptr<arrow::Buffer>> AndValidity(
      const std::vector<const arrow::Array*>& masks, int64_t n, int64_t out_offset) {
    std::shared_ptr<arrow::Buffer> validity;
    for (const arrow::Array* a : masks) {
      if (a->null_count() == 0) continue;
      const uint8_t* bits = a->null_bitmap_data();
      if (validity == nullptr) {
        ARROW_ASSIGN_OR_RAISE(validity,
                              arrow::AllocateEmptyBitmap(out_offset + n, pool_));
        arrow::internal::CopyBitmap(bits, a->offset(), n, validity->mutable_data(),
                                    out_offset);
      } else {
        ARROW_ASSIGN_OR_RAISE(
            validity, arrow::internal::BitmapAnd(pool_, validity->data(), out_offset,
                                                 bits, a->offset(), n, out_offset));
      }
    }
    return validity;
  }

  bool LeafIsScalar() const { return leaf_reached_ && leaf().kind == Kind::kScalar; }

  // Whether the path has an [i] step: rows then map to leaf slots through list offsets.
  bool ThroughList() const {
    for (const Level& lv : levels_) {
      if (lv.element) return true;
    }
    return false;
  }

  // Whether rows map to leaf slots one to one (no [i] step) and the leaf is a typed
  // scalar of the target type: the cases where the leaf column is the answer.
  bool LeafIsRowAligned(const arrow::DataType& type) const {
    return LeafIsScalar() && !ThroughList() && leaf_scalar_.array()->type()->Equals(type);
  }

  // The parent structs along the path: everything but the leaf's typed_value.
  std::vector<const arrow::Array*> ParentMasks() const {
    std::vector<const arrow::Array*> masks = {view_.storage().get()};
    for (const Level& lv : levels_) {
      if (&lv != &levels_.front()) masks.push_back(lv.group.get());
      if (&lv != &levels_.back()) masks.push_back(lv.typed.get());
    }
    return masks;
  }

  // The leaf column itself, with every level's validity ANDed in, when no row can need
  // anything else: no value column along the path holds a value and the leaf's typed
  // type is the target type. Null otherwise.
  arrow::Result<std::shared_ptr<arrow::Array>> TryZeroCopy(
      const std::shared_ptr<arrow::DataType>& type) {
    // Out-of-range typed values go through Append, which names their row.
    if (!LeafIsRowAligned(*type) || !leaf_scalar_.all_in_range()) return nullptr;
    for (const Level& lv : levels_) {
      if (lv.value && lv.value.array()->null_count() != lv.value.array()->length()) {
        return nullptr;
      }
    }
    std::vector<const arrow::Array*> masks = ParentMasks();
    masks.push_back(leaf().typed.get());
    const auto& data = *leaf().typed->data();
    const int64_t n = data.length;
    // An empty slice may arrive (through the C data interface) with an offset past its
    // buffers' ends, which pyarrow's concatenation refuses to slice: start afresh.
    if (n == 0) return arrow::MakeEmptyArray(type, pool_);
    // At the leaf's offset, so that its other buffers are reused as they are.
    ARROW_ASSIGN_OR_RAISE(auto validity, AndValidity(masks, n, data.offset));
    int64_t null_count = 0;
    if (validity != nullptr) {
      null_count = n - arrow::internal::CountSetBits(validity->data(), data.offset, n);
    }
    std::vector<std::shared_ptr<arrow::Buffer>> buffers = data.buffers;
    buffers[0] = null_count > 0 ? std::move(validity) : nullptr;
    return arrow::MakeArray(
        arrow::ArrayData::Make(type, n, std::move(buffers), null_count, data.offset));
  }

  // Rows that are exactly the leaf's slot (bit set): every parent valid and no value
  // column along the path set. Null when there is no such row to gain from.
  arrow::Result<std::shared_ptr<arrow::Buffer>> LeafRows(int64_t n) {
    std::shared_ptr<arrow::Buffer> needs_value;  // rows some value column is set in
    for (const Level& lv : levels_) {
      if (!lv.value) continue;
      const arrow::Array& a = *lv.value.array();
      if (a.null_count() == a.length()) continue;
      if (a.null_count() == 0) return nullptr;  // every row needs its Variant bytes
      if (needs_value == nullptr) {
        ARROW_ASSIGN_OR_RAISE(needs_value, arrow::AllocateEmptyBitmap(n, pool_));
        arrow::internal::CopyBitmap(a.null_bitmap_data(), a.offset(), n,
                                    needs_value->mutable_data(), 0);
      } else {
        ARROW_ASSIGN_OR_RAISE(needs_value, arrow::internal::BitmapOr(
                                               pool_, needs_value->data(), 0,
                                               a.null_bitmap_data(), a.offset(), n, 0));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto parents, AndValidity(ParentMasks(), n, 0));
    if (needs_value == nullptr) {
      if (parents != nullptr) return parents;
      ARROW_ASSIGN_OR_RAISE(auto all, arrow::AllocateEmptyBitmap(n, pool_));
      arrow::bit_util::SetBitsTo(all->mutable_data(), 0, n, true);
      return all;
    }
    if (parents == nullptr) {
      return arrow::internal::InvertBitmap(pool_, needs_value->data(), 0, n);
    }
    return arrow::internal::BitmapAndNot(pool_, parents->data(), 0, needs_value->data(),
                                         0, n, 0);
  }

  // Appends row `row`'s result, resolved one row at a time.
  arrow::Status AppendRow(int64_t row, CastAppender* appender) {
    const Resolved r = Resolve(row);
    switch (r.found) {
      case Found::kMissing:
        return appender->AppendNull();
      case Found::kVariantNull:
        return appender->Append(VariantView::MakeUnchecked(no_keys_, kNullValue));
      case Found::kTyped: {
        if (append_slots_ != nullptr) {
          ARROW_ASSIGN_OR_RAISE(
              const int64_t done,
              append_slots_(*leaf_scalar_.array(), SlotRange{nullptr, r.pos, 1},
                            appender->builder()));
          if (done == 1) return arrow::Status::OK();
        }
        // A scalar has no keys: no dictionary needed to cast or print it.
        scratch_.clear();
        ARROW_RETURN_NOT_OK(TypedAt(row, r, &scratch_));
        return appender->Append(VariantView::MakeUnchecked(no_keys_, scratch_));
      }
      case Found::kRebuild: {
        VariantView v;
        ARROW_RETURN_NOT_OK(RebuiltAt(row, r, &v));
        return appender->Append(v);
      }
      case Found::kResidual: {
        std::optional<VariantView> v;
        ARROW_RETURN_NOT_OK(LookupResidual(row, r, &v));
        return v ? appender->Append(*v) : appender->AppendNull();
      }
      case Found::kConflict:
        break;
    }
    return Conflict(row, r);
  }

  // Appends the rows [row, row + range.count), whose leaf slots are `range`, with the
  // bulk appender; a row whose cast it leaves to the Variant rules goes through
  // AppendRow, which resolves it to the same slot and casts it as a Variant.
  arrow::Status AppendSlotRows(int64_t row, SlotRange range, CastAppender* appender) {
    while (range.count > 0) {
      ARROW_ASSIGN_OR_RAISE(
          const int64_t done,
          append_slots_(*leaf_scalar_.array(), range, appender->builder()));
      range.Advance(done);
      row += done;
      if (range.count == 0) break;
      ARROW_RETURN_NOT_OK(AppendRow(row, appender));
      range.Advance(1);
      ++row;
    }
    return arrow::Status::OK();
  }

  // The leaf slot of every row for a path through list elements
  // (docs/shredding.md#pair-semantics at each level, as Resolve, but level by level over
  // all rows with plain bit reads): kNullSlot for a SQL NULL, kSlowSlot for rows Resolve
  // must see (a value column set at some level, a Variant null).
  std::vector<int64_t> LeafSlots(int64_t n) const {
    std::vector<int64_t> slots(static_cast<size_t>(n));
    const ValidBits rows(*view_.storage());
    for (int64_t row = 0; row < n; ++row) slots[row] = rows[row] ? row : kNullSlot;
    const size_t last = path_.size();
    for (size_t l = 0; l <= last; ++l) {
      const Level& lv = levels_[l];
      const ValidBits group = l > 0 ? ValidBits(*lv.group) : ValidBits();
      // A value column without values (the common case) needs no look per row.
      const bool has_value =
          lv.value && lv.value.array()->null_count() != lv.value.array()->length();
      const ValidBits value = has_value ? ValidBits(*lv.value.array()) : ValidBits();
      const ValidBits typed(*lv.typed);
      // Resolve's Variant null cases: a missing element, or a missing top-level value.
      const int64_t null_group_slot = lv.element && l == last ? kSlowSlot : kNullSlot;
      const int64_t null_typed_slot =
          l == last && (l == 0 || lv.element) ? kSlowSlot : kNullSlot;
      const int64_t index = l < last ? path_[l].index : 0;
      for (int64_t& slot : slots) {
        if (slot < 0) continue;
        const int64_t pos = slot;
        if (!group[pos]) {
          slot = null_group_slot;
        } else if (has_value && value[pos]) {
          slot = kSlowSlot;  // residual bytes, or a conflict
        } else if (!typed[pos]) {
          slot = null_typed_slot;
        } else if (l < last && lv.kind == Kind::kList) {
          const int64_t begin = lv.offsets32 ? lv.offsets32[pos] : lv.offsets64[pos];
          const int64_t end =
              lv.offsets32 ? lv.offsets32[pos + 1] : lv.offsets64[pos + 1];
          slot = index < end - begin ? begin + index : kNullSlot;
        }
      }
    }
    return slots;
  }

  arrow::Result<std::shared_ptr<arrow::Array>> GetCast(
      const std::shared_ptr<arrow::DataType>& type) {
    ARROW_ASSIGN_OR_RAISE(std::unique_ptr<CastAppender> appender,
                          CastAppender::Make(type, options_, path_.ToString(), pool_));
    append_slots_ = LeafIsScalar() && leaf_scalar_.all_in_range()
                        ? MakeSlotAppender(*leaf_scalar_.array()->type(), *type)
                        : nullptr;
    const int64_t n = view_.length();
    ARROW_RETURN_NOT_OK(appender->Reserve(n));
    if (append_slots_ == nullptr) return GetRowByRow(appender.get());
    if (ThroughList()) return GetGathered(appender.get());
    return GetRowAligned(appender.get());
  }

  arrow::Result<std::shared_ptr<arrow::Array>> GetRowByRow(CastAppender* appender) {
    for (int64_t row = 0; row < view_.length(); ++row) {
      ARROW_RETURN_NOT_OK(AppendRow(row, appender));
    }
    return appender->Finish();
  }

  // Rows map to leaf slots one to one: runs of rows that are their leaf slot are
  // appended in bulk (copied as an array slice when the types are the same); the rows
  // between them (residual bytes, null parents) one by one.
  arrow::Result<std::shared_ptr<arrow::Array>> GetRowAligned(CastAppender* appender) {
    const int64_t n = view_.length();
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> leaf_rows, LeafRows(n));
    if (leaf_rows == nullptr) return GetRowByRow(appender);
    const bool same_type = leaf_scalar_.array()->type()->Equals(appender->type());
    const arrow::ArraySpan leaf_span(*leaf_scalar_.array()->data());
    arrow::internal::BitRunReader runs(leaf_rows->data(), 0, n);
    for (int64_t row = 0; row < n;) {
      const arrow::internal::BitRun run = runs.NextRun();
      if (!run.set) {
        for (int64_t r = row; r < row + run.length; ++r) {
          ARROW_RETURN_NOT_OK(AppendRow(r, appender));
        }
      } else if (same_type && run.length >= kSliceRows) {
        ARROW_RETURN_NOT_OK(
            appender->builder()->AppendArraySlice(leaf_span, row, run.length));
      } else {
        ARROW_RETURN_NOT_OK(
            AppendSlotRows(row, SlotRange{nullptr, row, run.length}, appender));
      }
      row += run.length;
    }
    return appender->Finish();
  }

  // A path through list elements: each row's leaf slot is found with LeafSlots, and
  // runs of rows with a slot (or SQL NULL) are appended in bulk.
  arrow::Result<std::shared_ptr<arrow::Array>> GetGathered(CastAppender* appender) {
    const int64_t n = view_.length();
    const std::vector<int64_t> slots = LeafSlots(n);
    for (int64_t row = 0; row < n;) {
      if (slots[row] == kSlowSlot) {
        ARROW_RETURN_NOT_OK(AppendRow(row++, appender));
        continue;
      }
      int64_t end = row + 1;
      while (end < n && slots[end] != kSlowSlot) ++end;
      ARROW_RETURN_NOT_OK(
          AppendSlotRows(row, SlotRange{slots.data() + row, 0, end - row}, appender));
      row = end;
    }
    return appender->Finish();
  }

  // Variant output: the sub-values, as VariantGet on the unshredded column gives them.
  arrow::Result<std::shared_ptr<arrow::Array>> GetVariant() {
    const int64_t n = view_.length();
    if (rebuilt_is_result_) {
      ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Array> metadata,
                            OutputMetadata(view_.metadata_column(), n, pool_));
      const auto& rebuilt = static_cast<const arrow::StructArray&>(*rebuilt_array_);
      return std::make_shared<arrow::StructArray>(
          VariantStorageType(VariantLayout::kCanonical), n,
          std::vector<std::shared_ptr<arrow::Array>>{metadata,
                                                     rebuilt.GetFieldByName("value")},
          rebuilt_null_count_ > 0 ? rebuilt_validity_ : nullptr, rebuilt_null_count_);
    }
    arrow::BinaryBuilder values(pool_);
    ARROW_RETURN_NOT_OK(values.Reserve(n));
    arrow::TypedBufferBuilder<bool> validity(pool_);
    ARROW_RETURN_NOT_OK(validity.Reserve(n));
    int64_t null_count = 0;
    std::string scratch;
    for (int64_t row = 0; row < n; ++row) {
      const Resolved r = Resolve(row);
      std::string_view bytes;
      bool found = true;
      switch (r.found) {
        case Found::kMissing:
          found = false;
          break;
        case Found::kVariantNull:
          bytes = kNullValue;
          break;
        case Found::kTyped:
          scratch.clear();
          ARROW_RETURN_NOT_OK(TypedAt(row, r, &scratch));
          bytes = scratch;
          break;
        case Found::kRebuild: {
          VariantView v;
          ARROW_RETURN_NOT_OK(RebuiltAt(row, r, &v));
          bytes = v.value_bytes();
          break;
        }
        case Found::kResidual: {
          std::optional<VariantView> v;
          ARROW_RETURN_NOT_OK(LookupResidual(row, r, &v));
          if (v)
            bytes = v->value_bytes();
          else
            found = false;
          break;
        }
        case Found::kConflict:
          return Conflict(row, r);
      }
      if (found) {
        // A Variant result refers to its row's dictionary (typed results need none).
        if (view_.metadata_column().IsNull(row)) return internal::NullMetadataError(row);
        ARROW_RETURN_NOT_OK(values.Append(bytes));
      } else {
        ARROW_RETURN_NOT_OK(values.AppendEmptyValue());
        ++null_count;
      }
      validity.UnsafeAppend(found);
    }
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Array> value_array, values.Finish());
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Array> metadata,
                          OutputMetadata(view_.metadata_column(), n, pool_));
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> bitmap, validity.Finish());
    return std::make_shared<arrow::StructArray>(
        VariantStorageType(VariantLayout::kCanonical), n,
        std::vector<std::shared_ptr<arrow::Array>>{metadata, value_array},
        null_count > 0 ? bitmap : nullptr, null_count);
  }

  const VariantArrayView& view_;
  const VariantPath& path_;
  const VariantGetOptions& options_;
  arrow::MemoryPool* pool_;
  ValidateOptions validate_options_;
  std::vector<Level> levels_;
  bool leaf_reached_ = false;
  TypedScalarColumn leaf_scalar_;
  MetadataCache metadata_cache_;
  const MetadataView no_keys_ = MetadataView::MakeUnchecked(kEmptyMetadata);
  std::string scratch_;
  AppendSlotsFn append_slots_ = nullptr;  // leaf -> target in bulk, when the cast allows
  std::shared_ptr<arrow::Array> rebuilt_array_;
  VariantArrayView rebuilt_;
  bool rebuilt_is_result_ = false;
  std::shared_ptr<arrow::Buffer> rebuilt_validity_;
  int64_t rebuilt_null_count_ = 0;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> VariantGetShredded(
    const VariantArrayView& view, const VariantPath& path,
    const std::shared_ptr<arrow::DataType>& type, const VariantGetOptions& options,
    arrow::MemoryPool* pool) {
  ShreddedGetter getter(view, path, options, pool);
  ARROW_RETURN_NOT_OK(getter.Compile());
  return getter.Get(type);
}

}  // namespace varshred::internal
