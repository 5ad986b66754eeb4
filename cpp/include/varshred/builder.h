// Licensed under the Apache License, Version 2.0.
//
// Building Variant values (docs/format.md), one top-level value at a time.

#pragma once

#include <arrow/status.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/format.h"
#include "varshred/metadata.h"
#include "varshred/value.h"

namespace varshred {

/// \brief What to do when one object receives the same key twice.
enum class DuplicateKeyPolicy : uint8_t {
  kRaise,     ///< fail EndObject() (Spark's default, VARIANT_DUPLICATE_KEY)
  kLastWins,  ///< keep the value added last
};

/// \brief Builds one Variant (metadata + value) at a time and owns its buffers.
///
/// Values are appended in document order. Inside an object, every value is preceded
/// by AddKey(); StartObject()/EndObject() and StartArray()/EndArray() nest freely. A
/// container is encoded when it ends: its field ids and offsets are ordered by key
/// bytes (values stay where they were written, as Spark does), and every width is the
/// smallest that fits. Finish() emits the top-level value and resets the builder
/// for the next one.
///
/// A failed call leaves the builder in an unspecified state: call Reset().
class VariantBuilder {
 public:
  explicit VariantBuilder(DuplicateKeyPolicy duplicates = DuplicateKeyPolicy::kRaise)
      : duplicates_(duplicates) {}

  /// \brief Changes the duplicate-key policy for objects ended from now on.
  void set_duplicate_key_policy(DuplicateKeyPolicy p) { duplicates_ = p; }
  DuplicateKeyPolicy duplicate_key_policy() const { return duplicates_; }

  // -- scalars ----------------------------------------------------------------
  void AppendNull() { PutHeader(PrimitiveType::kNull); }
  void AppendBool(bool v) { PutHeader(v ? PrimitiveType::kTrue : PrimitiveType::kFalse); }
  void AppendInt8(int8_t v) { PutFixed(PrimitiveType::kInt8, v); }
  void AppendInt16(int16_t v) { PutFixed(PrimitiveType::kInt16, v); }
  void AppendInt32(int32_t v) { PutFixed(PrimitiveType::kInt32, v); }
  void AppendInt64(int64_t v) { PutFixed(PrimitiveType::kInt64, v); }
  /// \brief An integer in the smallest of int8/16/32/64 that holds it (as Spark).
  void AppendInt(int64_t v) {
    // Inline: parsers call it once per integer.
    if (v == static_cast<int8_t>(v)) return AppendInt8(static_cast<int8_t>(v));
    if (v == static_cast<int16_t>(v)) return AppendInt16(static_cast<int16_t>(v));
    if (v == static_cast<int32_t>(v)) return AppendInt32(static_cast<int32_t>(v));
    AppendInt64(v);
  }
  void AppendFloat(float v) { PutFixed(PrimitiveType::kFloat, v); }
  void AppendDouble(double v) { PutFixed(PrimitiveType::kDouble, v); }
  /// \brief decimal4/8/16 with an explicit width. \pre scale <= 38 and the unscaled
  /// value fits the width.
  void AppendDecimal4(int32_t unscaled, uint8_t scale) {
    PutDecimal(PrimitiveType::kDecimal4, unscaled, scale);
  }
  void AppendDecimal8(int64_t unscaled, uint8_t scale) {
    PutDecimal(PrimitiveType::kDecimal8, unscaled, scale);
  }
  void AppendDecimal16(int128_t unscaled, uint8_t scale) {
    PutDecimal(PrimitiveType::kDecimal16, unscaled, scale);
  }
  /// \brief A decimal in the narrowest width whose precision covers both the digits
  /// of the unscaled value and the scale (Spark's rule). \pre precision <= 38.
  void AppendDecimal(Decimal d);
  void AppendDate(int32_t days) { PutFixed(PrimitiveType::kDate, days); }
  void AppendTimestampMicros(int64_t v) { PutFixed(PrimitiveType::kTimestampMicros, v); }
  void AppendTimestampNtzMicros(int64_t v) {
    PutFixed(PrimitiveType::kTimestampNtzMicros, v);
  }
  void AppendTimestampNanos(int64_t v) { PutFixed(PrimitiveType::kTimestampNanos, v); }
  void AppendTimestampNtzNanos(int64_t v) {
    PutFixed(PrimitiveType::kTimestampNtzNanos, v);
  }
  void AppendTimeMicros(int64_t v) { PutFixed(PrimitiveType::kTimeNtzMicros, v); }
  /// \brief A string: short form under 64 bytes, long form otherwise. The bytes are
  /// not checked for UTF-8 here (sources validate).
  void AppendString(std::string_view v) {
    // Inline: parsers call it once per string value.
    if (v.size() > kMaxShortStringSize)
      return PutLengthPrefixed(PrimitiveType::kString, v);
    BeforeValue();
    char* p = buffer_.Extend(1 + v.size());
    p[0] = static_cast<char>(ShortStringHeader(static_cast<uint32_t>(v.size())));
    Bytes::Move(p + 1, v.data(), v.size());
  }
  void AppendBinary(std::string_view v);
  /// \brief \pre 16 bytes in big-endian (RFC 4122) order.
  void AppendUuid(std::string_view bytes16);

  /// \brief Copies `v` (whose keys refer to its own metadata) into this builder,
  /// re-encoding keys against this builder's dictionary. Objects come out in key-byte
  /// order even if `v` was not.
  arrow::Status AppendVariant(const VariantView& v);

  // -- containers -------------------------------------------------------------
  /// \brief Opens an object. Only the innermost open container receives values.
  void StartObject() { OpenContainer(true); }
  /// \brief Names the next value of the innermost open object.
  void AddKey(std::string_view key) {
    // Inline: parsers call it once per field.
    pending_key_id_ = metadata_.Add(key);
    has_pending_key_ = true;
  }
  /// \brief Encodes the innermost object. Fails on a duplicate key under kRaise, when
  /// a value of the object had no AddKey(), or when the innermost container is not an
  /// object.
  arrow::Status EndObject();
  void StartArray() { OpenContainer(false); }
  void EndArray();

  // -- results ----------------------------------------------------------------
  /// \brief Appends the finished metadata and value to `metadata` / `value` and resets
  /// the builder. \pre exactly one top-level value and no open container. Fails
  /// (Invalid) when the value is nested deeper than kMaxNestingDepth or larger than
  /// kMaxValueSize: readers would refuse it.
  arrow::Status Finish(std::string* metadata, std::string* value);
  /// \brief As Finish(), without copying: points `metadata` / `value` at the finished
  /// bytes held by the builder, valid until its next non-const call. The builder is
  /// not reset: call Reset() before building the next value.
  arrow::Status FinishViews(std::string_view* metadata, std::string_view* value);
  /// \brief The value bytes written so far (for a finished top-level value: all of it).
  std::string_view value_bytes() const { return buffer_.view(); }
  /// \brief A lower bound of the finished value's size: the bytes written, and at
  /// least a byte per offset and two per field of the open containers, whose headers
  /// are written when they end. Lets a caller stop well before Finish() would refuse
  /// a value past kMaxValueSize.
  size_t MinimumSize() const {
    return buffer_.size() + offsets_.size() + 2 * fields_.size();
  }
  MetadataBuilder& metadata_builder() { return metadata_; }
  /// \brief Drops everything, keeping allocated capacity.
  void Reset();
  /// \brief Drops the value built so far (no container may be open) and keeps the
  /// dictionary: the next value is built against the same keys. Lets one dictionary
  /// serve several values, as the residual values of one shredded row share theirs.
  void ClearValue();

  /// Number of open containers.
  int depth() const { return static_cast<int>(frames_.size()); }

  /// \brief Position marker for Rollback(): value size, dictionary size, open frames.
  struct Checkpoint {
    size_t value_size;
    uint32_t dictionary_size;
    size_t frames;
    size_t fields;
    size_t offsets;
    size_t top_level_values;
    // The key named by AddKey() but not yet used, restored so that a rolled-back value
    // can be replaced by another under the same key.
    bool has_pending_key = false;
    uint32_t pending_key_id = 0;
  };
  Checkpoint MakeCheckpoint() const {
    return {buffer_.size(),  metadata_.size(),  frames_.size(),   fields_.size(),
            offsets_.size(), top_level_values_, has_pending_key_, pending_key_id_};
  }
  /// \brief Forgets everything appended since `cp` (values, keys, containers).
  void Rollback(const Checkpoint& cp);

 private:
  // A growable array of trivially copyable entries whose appends are a compare and a
  // store, growing out of line (std::vector inlines its reallocation into every append;
  // std::string also writes a terminator and calls out of line to copy a few bytes).
  template <typename T, size_t kMinCapacity>
  class GrowableArray {
   public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    T& back() { return data_[size_ - 1]; }
    void clear() { size_ = 0; }
    void pop_back() { --size_; }
    /// Appends `n` entries left for the caller to write; returns where they start.
    T* Extend(size_t n) {
      if (n > capacity_ - size_) [[unlikely]]
        Grow(size_ + n);
      T* p = data_.get() + size_;
      size_ += n;
      return p;
    }
    void push_back(const T& v) { *Extend(1) = v; }
    /// Keeps the first `n` entries, or grows to `n` with entries left for the caller.
    void resize(size_t n) {
      if (n > capacity_) Grow(n);
      size_ = n;
    }

   private:
    [[gnu::noinline]] void Grow(size_t min_capacity) {
      const size_t capacity = std::max({min_capacity, 2 * capacity_, kMinCapacity});
      auto data = std::make_unique_for_overwrite<T[]>(capacity);
      if (size_ > 0) std::memcpy(data.get(), data_.get(), size_ * sizeof(T));
      data_ = std::move(data);
      capacity_ = capacity;
    }

    std::unique_ptr<T[]> data_;
    size_t size_ = 0;
    size_t capacity_ = 0;
  };

  // The value's bytes.
  class Bytes : public GrowableArray<char, 256> {
   public:
    std::string_view view() const { return {data(), size()}; }
    void append(std::string_view s) {
      if (!s.empty()) std::memcpy(Extend(s.size()), s.data(), s.size());
    }
    /// The bytes of `v` as they lie in memory (the little-endian encoding).
    template <typename T>
    void AppendLE(T v) {
      std::memcpy(Extend(sizeof(T)), &v, sizeof(T));
    }
    /// memmove, inline up to 16 bytes, where a call into libc costs more than the
    /// move. Every load comes before the first store, so the ranges may overlap.
    static void Move(char* dst, const char* src, size_t n) {
      auto move_two = [&](auto word) {  // two words covering the n bytes
        decltype(word) head, tail;
        std::memcpy(&head, src, sizeof(word));
        std::memcpy(&tail, src + n - sizeof(word), sizeof(word));
        std::memcpy(dst, &head, sizeof(word));
        std::memcpy(dst + n - sizeof(word), &tail, sizeof(word));
      };
      if (n >= 8) {
        if (n > 16) return (void)std::memmove(dst, src, n);
        return move_two(uint64_t{});
      }
      if (n >= 4) return move_two(uint32_t{});
      if (n >= 2) return move_two(uint16_t{});
      if (n == 1) *dst = *src;
    }
  };

  // The open containers and their entries, a few deep at most.
  template <typename T>
  using Stack = GrowableArray<T, 16>;

  struct Field {
    uint32_t id;      // the key's, in metadata_
    uint32_t offset;  // from the start of the object's values
  };
  struct Frame {
    size_t header_at;    // where the container's header goes in buffer_
    size_t start;        // where the container's values begin in buffer_
    size_t first_entry;  // index into fields_ (object) or offsets_ (array)
    uint32_t ordinal;    // containers started before this one in the value
    bool is_object;
    bool missing_key = false;  // a value was appended without AddKey()
  };

  // Inline: it runs once per value.
  void BeforeValue() {
    if (frames_.empty()) {
      ++top_level_values_;
      return;
    }
    Frame& f = frames_.back();
    const auto offset = static_cast<uint32_t>(buffer_.size() - f.start);
    if (f.is_object) {
      // Each key names exactly one value; a value without one is a caller error that
      // EndObject() reports instead of silently reusing the previous key.
      if (!has_pending_key_) f.missing_key = true;
      has_pending_key_ = false;
      fields_.push_back({pending_key_id_, offset});
    } else {
      offsets_.push_back(offset);
    }
  }
  void PutHeader(PrimitiveType t) {
    BeforeValue();
    buffer_.push_back(static_cast<char>(PrimitiveHeader(t)));
  }
  template <typename T>
  void PutFixed(PrimitiveType t, T v) {
    BeforeValue();
    char* p = buffer_.Extend(1 + sizeof(T));
    p[0] = static_cast<char>(PrimitiveHeader(t));
    std::memcpy(p + 1, &v, sizeof(T));  // little-endian, as in memory
  }
  template <typename T>
  void PutDecimal(PrimitiveType t, T unscaled, uint8_t scale) {
    BeforeValue();
    char* p = buffer_.Extend(2 + sizeof(T));
    p[0] = static_cast<char>(PrimitiveHeader(t));
    p[1] = static_cast<char>(scale);
    std::memcpy(p + 2, &unscaled, sizeof(T));  // little-endian, as in memory
  }
  void PutLengthPrefixed(PrimitiveType t, std::string_view v);
  // Inline: it runs once per container.
  void OpenContainer(bool is_object) {
    BeforeValue();
    const size_t first_entry = is_object ? fields_.size() : offsets_.size();
    const uint32_t ordinal = containers_started_++;
    const size_t reserved = ordinal < header_hints_.size() ? header_hints_[ordinal] : 0;
    const size_t header_at = buffer_.size();
    buffer_.resize(header_at + reserved);
    frames_.push_back({header_at, header_at + reserved, first_entry, ordinal, is_object});
    deepest_ = std::max(deepest_, frames_.size());
  }
  // Makes room for `header_size` bytes where `frame`'s header goes and returns a
  // pointer to them. Inline: the room OpenContainer() reserved usually fits.
  uint8_t* PlaceHeader(const Frame& frame, size_t header_size) {
    if (header_size != frame.start - frame.header_at) ResizeHeader(frame, header_size);
    return reinterpret_cast<uint8_t*>(buffer_.data() + frame.header_at);
  }
  // Moves `frame`'s values so that its header takes `header_size` bytes, and
  // remembers that size for the container started at the same place in the next value.
  void ResizeHeader(const Frame& frame, size_t header_size);
  arrow::Status DropDuplicates(const Frame& frame, size_t* count);
  arrow::Status CheckFinished() const;

  DuplicateKeyPolicy duplicates_;
  MetadataBuilder metadata_;
  Bytes buffer_;
  Stack<Frame> frames_;
  Stack<Field> fields_;      // fields of all open objects, innermost last
  Stack<uint32_t> offsets_;  // element offsets of all open arrays
  uint32_t pending_key_id_ = 0;
  bool has_pending_key_ = false;
  size_t top_level_values_ = 0;
  size_t deepest_ = 0;  // most containers open at once since Reset()
  // Header sizes of the previous value's containers, by start order: rows of one
  // column mostly repeat their shape, so reserving that much when a container starts
  // avoids moving its values to insert the header when it ends.
  std::vector<uint32_t> header_hints_;
  uint32_t containers_started_ = 0;
  // Key order of the previous value's objects, by start order, valid within one
  // dictionary replay epoch (MetadataBuilder::replay_epoch()).
  struct ObjectShape {
    uint64_t epoch = ~uint64_t{0};
    std::vector<uint32_t> ids;    // field ids as added
    std::vector<uint32_t> order;  // field positions in key order
    uint32_t max_id = 0;
    // Whether the ids.size() fields at `fields` have these ids. Differences are
    // accumulated, not branched on: objects are small and almost always match.
    bool SameIds(const Field* fields) const {
      uint32_t differ = 0;
      for (size_t i = 0; i < ids.size(); ++i) differ |= ids[i] ^ fields[i].id;
      return differ == 0;
    }
  };
  std::vector<ObjectShape> shapes_;
  // EndObject()'s path for an object unlike the one started at the same place in the
  // previous value: puts its `*count` fields in key order (order_), drops or refuses
  // repeated keys, sets `*max_id`, and remembers the order in `shape` when not null.
  // Out of line, so that the usual path stays short.
  [[gnu::noinline]] arrow::Status SortFields(const Frame& frame, ObjectShape* shape,
                                             size_t* count, uint32_t* max_id);
  std::vector<uint32_t> order_;     // scratch
  std::vector<uint64_t> prefixes_;  // scratch: first 8 key bytes, big-endian
  std::string metadata_scratch_;    // FinishViews()
};

/// \brief RAII scope for an object: rolls the builder back on destruction unless
/// Finish() succeeded. Only one child scope may be open at a time.
class ObjectScope {
 public:
  explicit ObjectScope(VariantBuilder* builder)
      : builder_(builder), checkpoint_(builder->MakeCheckpoint()) {
    builder_->StartObject();
  }
  ~ObjectScope() {
    if (!finished_) builder_->Rollback(checkpoint_);
  }
  ObjectScope(const ObjectScope&) = delete;
  ObjectScope& operator=(const ObjectScope&) = delete;

  void AddKey(std::string_view key) { builder_->AddKey(key); }
  arrow::Status Finish() {
    ARROW_RETURN_NOT_OK(builder_->EndObject());
    finished_ = true;
    return arrow::Status::OK();
  }

 private:
  VariantBuilder* builder_;
  VariantBuilder::Checkpoint checkpoint_;
  bool finished_ = false;
};

/// \brief RAII scope for an array, as ObjectScope.
class ArrayScope {
 public:
  explicit ArrayScope(VariantBuilder* builder)
      : builder_(builder), checkpoint_(builder->MakeCheckpoint()) {
    builder_->StartArray();
  }
  ~ArrayScope() {
    if (!finished_) builder_->Rollback(checkpoint_);
  }
  ArrayScope(const ArrayScope&) = delete;
  ArrayScope& operator=(const ArrayScope&) = delete;

  void Finish() {
    builder_->EndArray();
    finished_ = true;
  }

 private:
  VariantBuilder* builder_;
  VariantBuilder::Checkpoint checkpoint_;
  bool finished_ = false;
};

}  // namespace varshred
