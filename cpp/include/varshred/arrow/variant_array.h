// Licensed under the Apache License, Version 2.0.
//
// Variant columns as Arrow struct arrays: reading their children by name and building
// them batch by batch.

#pragma once

#include <arrow/array/array_nested.h>
#include <arrow/array/builder_binary.h>
#include <arrow/buffer_builder.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "varshred/format.h"

namespace varshred {

/// \brief Field order and tagging of an unshredded Variant struct array.
enum class VariantLayout : uint8_t {
  /// struct<metadata: binary not null, value: binary not null> (arrow.parquet.variant
  /// storage order), the metadata child tagged with field metadata variant=true.
  kCanonical,
  /// struct<value: binary not null, metadata: binary not null>, the metadata child
  /// tagged variant=true: what Spark's mapInArrow sends and accepts as VariantType
  /// (docs/interop.md#mapinarrow).
  kSpark,
};

/// \brief The Arrow type of an unshredded Variant column in `layout`.
std::shared_ptr<arrow::DataType> VariantStorageType(
    VariantLayout layout = VariantLayout::kCanonical);

/// \brief True when `type` is a Variant struct (children metadata + value and/or
/// typed_value, matched by name).
bool IsVariantType(const arrow::DataType& type);

/// \brief The extension name of Variant columns (Arrow C++'s and pyarrow's).
inline constexpr std::string_view kVariantExtensionName = "arrow.parquet.variant";

/// \brief True for a Variant struct (IsVariantType) and for the arrow.parquet.variant
/// extension over one: what writers store as a Variant column.
bool IsVariantColumnType(const arrow::DataType& type);

/// \brief The null slots of an array, read straight from its validity bitmap: without
/// one, an array is all valid or (the null type) all null. arrow::Array::IsNull looks
/// up the type on every call for arrays without a bitmap, which costs row loops over
/// hundreds of columns a cache miss per column.
class NullMask {
 public:
  NullMask() = default;
  explicit NullMask(const arrow::Array& array)
      : bits_(array.null_bitmap_data()),
        offset_(array.offset()),
        all_null_(bits_ == nullptr && array.length() > 0 &&
                  array.null_count() == array.length()) {}

  bool IsNull(int64_t i) const {
    if (bits_ == nullptr) return all_null_;
    const int64_t bit = offset_ + i;
    return ((bits_[bit >> 3] >> (bit & 7)) & 1) == 0;
  }

 private:
  const uint8_t* bits_ = nullptr;
  int64_t offset_ = 0;
  bool all_null_ = false;
};

/// \brief Reads one binary-like child (binary, large_binary or binary_view, or a
/// dictionary of binary values with int32 indices, as Parquet readers decode
/// dictionary-encoded columns) by row. The dispatch on the child's type happens once,
/// at construction.
class BinaryColumn {
 public:
  BinaryColumn() = default;
  /// \brief Fails unless `array` is binary, large_binary, binary_view, the string
  /// counterparts, or a dictionary of those with integer indices, every index of a
  /// non-null row within the dictionary. Dictionaries are read in place when their
  /// indices are int32, their values binary or string and none of them null; others
  /// are decoded to large_binary first (a valid index of a null entry is a null row).
  static arrow::Result<BinaryColumn> Make(const std::shared_ptr<arrow::Array>& array);

  bool IsNull(int64_t i) const { return nulls_.IsNull(i); }
  std::string_view Get(int64_t i) const {
    switch (kind_) {
      case Kind::kBinary:
        return {reinterpret_cast<const char*>(data_) + offsets32_[i],
                static_cast<size_t>(offsets32_[i + 1] - offsets32_[i])};
      case Kind::kLargeBinary:
        return {reinterpret_cast<const char*>(data_) + offsets64_[i],
                static_cast<size_t>(offsets64_[i + 1] - offsets64_[i])};
      case Kind::kDictionary: {
        // A null row's index may be anything: it reads as empty.
        const auto k = static_cast<uint32_t>(indices_[i]);
        if (k >= dictionary_size_) return {};
        return {reinterpret_cast<const char*>(data_) + offsets32_[k],
                static_cast<size_t>(offsets32_[k + 1] - offsets32_[k])};
      }
      case Kind::kBinaryView:
        break;
    }
    return GetView(i);
  }
  const std::shared_ptr<arrow::Array>& array() const { return array_; }
  explicit operator bool() const { return array_ != nullptr; }
  /// \brief Whether values follow one another in one data buffer (binary and
  /// large_binary, not the views or dictionaries): value i + 1 starts where value i
  /// ends.
  bool contiguous() const {
    return kind_ == Kind::kBinary || kind_ == Kind::kLargeBinary;
  }
  /// \brief The dictionary's values, for a dictionary column (null otherwise): a
  /// check of every distinct value need not read every row.
  const std::shared_ptr<arrow::Array>& dictionary() const { return dictionary_; }

 private:
  enum class Kind : uint8_t { kBinary, kLargeBinary, kBinaryView, kDictionary };
  static arrow::Result<std::shared_ptr<arrow::Array>> Decode(
      const arrow::DictionaryArray& array);
  std::string_view GetView(int64_t i) const;  // binary_view

  std::shared_ptr<arrow::Array> array_;
  NullMask nulls_;
  const uint8_t* data_ = nullptr;
  const int32_t* offsets32_ = nullptr;
  const int64_t* offsets64_ = nullptr;
  const int32_t* indices_ = nullptr;  // dictionaries: offset applied
  uint32_t dictionary_size_ = 0;
  std::shared_ptr<arrow::Array> dictionary_;
  Kind kind_ = Kind::kBinary;
};

/// \brief A read-only view of a Variant struct array, shredded or not.
///
/// Children are matched by name (`metadata`, `value`, `typed_value`), in any order,
/// so the canonical layout, Spark's layout and shredded layouts are all accepted. A
/// struct slot that is null is a SQL NULL. Valid while the array is alive.
class VariantArrayView {
 public:
  /// \brief Fails with a clear message when `array` is not a struct with a binary
  /// `metadata` child and at least one of `value` / `typed_value`, or has other
  /// children.
  static arrow::Result<VariantArrayView> Make(const std::shared_ptr<arrow::Array>& array);

  int64_t length() const { return struct_->length(); }
  bool IsNull(int64_t i) const { return struct_->IsNull(i); }
  std::string_view metadata(int64_t i) const { return metadata_.Get(i); }
  /// True when the `value` child is absent or null at row i.
  bool value_is_null(int64_t i) const { return !value_ || value_.IsNull(i); }
  std::string_view value(int64_t i) const { return value_.Get(i); }
  /// The value of non-null row i of an unshredded array, a null `value` read as a
  /// Variant null (docs/interop.md#arrow-layouts): every reader's one rule for it.
  std::string_view value_or_variant_null(int64_t i) const {
    return value_is_null(i) ? kNullValue : value_.Get(i);
  }

  bool has_value() const { return static_cast<bool>(value_); }
  /// The `typed_value` child, or null for unshredded arrays.
  const std::shared_ptr<arrow::Array>& typed_value() const { return typed_value_; }
  const std::shared_ptr<arrow::StructArray>& storage() const { return struct_; }
  const BinaryColumn& metadata_column() const { return metadata_; }
  const BinaryColumn& value_column() const { return value_; }

 private:
  std::shared_ptr<arrow::StructArray> struct_;
  BinaryColumn metadata_;
  BinaryColumn value_;
  std::shared_ptr<arrow::Array> typed_value_;
};

/// \brief Builds an unshredded Variant struct array row by row.
class VariantArrayBuilder {
 public:
  explicit VariantArrayBuilder(arrow::MemoryPool* pool = arrow::default_memory_pool());

  /// \brief Appends one Variant. The bytes are copied, not checked: pass bytes a
  /// builder made or Validate() (validate.h) accepted.
  arrow::Status Append(std::string_view metadata, std::string_view value);
  /// \brief Appends a SQL NULL (a null struct slot; its children hold empty bytes, so
  /// no child is ever null).
  arrow::Status AppendNull();
  /// \brief Reserves room for `rows` more rows and `bytes` more value bytes. After
  /// its first rows, the builder grows its bytes once to what they predict for all
  /// the rows reserved.
  arrow::Status Reserve(int64_t rows, int64_t bytes);
  int64_t length() const { return length_; }

  /// \brief Returns the array in `layout` and resets the builder.
  arrow::Result<std::shared_ptr<arrow::Array>> Finish(
      VariantLayout layout = VariantLayout::kCanonical);

 private:
  // Grows metadata and value bytes to what the rows so far predict for the rows
  // reserved, which spares large arrays their doubling copies.
  arrow::Status ReserveForReservedRows();

  // A binary child: offsets and bytes, without a validity bitmap (no child is ever
  // null), which arrow::BinaryBuilder would extend by a bit per row.
  class BinaryChild {
   public:
    explicit BinaryChild(arrow::MemoryPool* pool) : offsets_(pool), bytes_(pool) {}
    arrow::Status Append(std::string_view bytes) {
      if (offsets_.length() >= offsets_.capacity()) [[unlikely]] {
        ARROW_RETURN_NOT_OK(GrowOffsets(1));
      }
      const int64_t end = bytes_.length() + static_cast<int64_t>(bytes.size());
      if (end > kMaxBytes) [[unlikely]]
        return TooLarge();
      if (!bytes.empty()) {  // an empty view's data() may be null, which memcpy refuses
        ARROW_RETURN_NOT_OK(
            bytes_.Append(bytes.data(), static_cast<int64_t>(bytes.size())));
      }
      offsets_.UnsafeAppend(static_cast<int32_t>(end));
      return arrow::Status::OK();
    }
    arrow::Status Reserve(int64_t rows) { return GrowOffsets(rows); }
    arrow::Status ReserveBytes(int64_t bytes) { return bytes_.Reserve(bytes); }
    int64_t bytes_length() const { return bytes_.length(); }
    /// \brief Returns the rows appended as a binary array and resets.
    arrow::Result<std::shared_ptr<arrow::Array>> Finish();

   private:
    // Binary offsets are int32.
    static constexpr int64_t kMaxBytes = std::numeric_limits<int32_t>::max();
    // Room for `rows` more offsets, and the leading 0 that the first row needs.
    arrow::Status GrowOffsets(int64_t rows);
    arrow::Status TooLarge() const;

    arrow::TypedBufferBuilder<int32_t> offsets_;
    arrow::BufferBuilder bytes_;
  };

  BinaryChild metadata_;
  BinaryChild value_;
  // Built once the first null arrives: until then every row is valid.
  arrow::TypedBufferBuilder<bool> validity_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  int64_t reserved_rows_ = 0;  // the length Reserve() prepared for
  int64_t probe_at_ = std::numeric_limits<int64_t>::max();
};

/// \brief Returns `array` as an unshredded Variant array in `layout`, sharing its
/// child buffers (zero-copy); children are re-ordered, re-tagged and (for
/// large_binary / binary_view children) cast to binary as needed.
arrow::Result<std::shared_ptr<arrow::Array>> ToLayout(
    const std::shared_ptr<arrow::Array>& array, VariantLayout layout,
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
