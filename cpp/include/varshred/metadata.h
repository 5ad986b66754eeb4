// Licensed under the Apache License, Version 2.0.
//
// The Variant metadata: a dictionary of object keys (docs/format.md, "Metadata").

#pragma once

#include <arrow/result.h>
#include <arrow/status.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/format.h"

namespace varshred {

/// \brief A non-owning view over Variant metadata bytes.
///
/// Valid only while the bytes it was made from are alive and unchanged. Copying it is
/// cheap; it never allocates.
class MetadataView {
 public:
  MetadataView() = default;

  /// \brief Validates `bytes` fully and returns a view: header and version, offsets in
  /// bounds and non-decreasing, UTF-8 of every key, and (when the sorted bit is set)
  /// unique keys in byte order; the dictionary must fill `bytes` exactly (no trailing
  /// bytes). O(size of the dictionary). Every reader of bytes it did not build checks
  /// metadata with this (directly, through Validate() or internal::MetadataCache).
  static arrow::Result<MetadataView> Make(std::string_view bytes);

  /// \brief O(1): reads only the header. `bytes` must be valid metadata (e.g. checked
  /// by Make() before, or written by MetadataBuilder).
  static MetadataView MakeUnchecked(std::string_view bytes);

  /// Number of keys in the dictionary.
  uint32_t size() const { return dictionary_size_; }
  /// True when the writer promised unique keys in byte order.
  bool sorted() const { return sorted_; }
  /// The exact bytes of this metadata (trailing bytes of the input are excluded).
  std::string_view bytes() const { return bytes_; }

  /// \brief The key with dictionary id `id`. \pre id < size().
  std::string_view key(uint32_t id) const {
    const uint32_t begin = offset(id);
    return {reinterpret_cast<const char*>(strings_) + begin, offset(id + 1) - begin};
  }
  /// All keys' bytes back to back, in dictionary order.
  std::string_view key_bytes() const {
    return bytes_.substr(std::min(
        bytes_.size(),
        static_cast<size_t>(strings_ - reinterpret_cast<const uint8_t*>(bytes_.data()))));
  }

  /// \brief The id of `key`: binary search when sorted, linear scan otherwise (the first
  /// match, since unsorted dictionaries may repeat keys).
  std::optional<uint32_t> Find(std::string_view key) const;

  /// \brief Total length of the metadata at the start of `bytes` (1 + offset_size *
  /// (dictionary_size + 2) + last offset), or an error when it does not fit. Used to
  /// split buffers holding metadata and value back to back.
  static arrow::Result<size_t> MeasureSize(std::string_view bytes);

 private:
  uint32_t offset(uint32_t i) const {
    return ReadUnsigned(offsets_ + static_cast<size_t>(i) * offset_size_, offset_size_);
  }

  std::string_view bytes_;
  const uint8_t* offsets_ = nullptr;  // dictionary_size_ + 1 entries
  const uint8_t* strings_ = nullptr;
  uint32_t dictionary_size_ = 0;
  uint8_t offset_size_ = 1;
  bool sorted_ = false;
};

namespace internal {

// Equality of two `n`-byte strings with at most four loads when short (most keys),
// instead of a call to memcmp.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    if (n > 16) return std::memcmp(a, b, n) == 0;
    uint64_t a0, b0, a1, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 4) {
    uint32_t a0, b0, a1, b1;
    std::memcpy(&a0, a, 4);
    std::memcpy(&b0, b, 4);
    std::memcpy(&a1, a + n - 4, 4);
    std::memcpy(&b1, b + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace internal

/// \brief Collects the keys of one Variant's metadata, de-duplicated, in first-seen
/// order (as Spark writes them), and encodes them with the smallest offset width.
///
/// Rows of one column mostly name the same keys in the same order, so the builder
/// remembers the previous value's sequence of Add() results across Reset() and
/// replays it: while each key matches the one predicted, Add() costs one comparison,
/// and a value whose dictionary equals the remembered one reuses its encoding.
class MetadataBuilder {
 public:
  /// \brief Adds `key` if new; returns its id either way.
  uint32_t Add(std::string_view key) {
    // Inline: the replayed key is usually right, and this runs once per object field.
    if (next_step_ != last_step_) {
      const ReplayStep& step = *next_step_;
      if (step.size == key.size() &&
          internal::SameBytes(step.data, key.data(), key.size())) {
        ++next_step_;
        return step.id;
      }
    }
    return AddUnpredicted(key);
  }

  uint32_t size() const {
    if (!replaying_) return static_cast<uint32_t>(keys_.size());
    return next_step_ == replay_.data() ? 0 : next_step_[-1].keys_after;
  }
  std::string_view key(uint32_t id) const { return Keys()[id]; }

  /// \brief Appends the encoded metadata to `out`: keys in first-seen order, offsets
  /// as narrow as the dictionary allows, sorted bit clear (as Spark writes it).
  void Finish(std::string* out) const;
  /// \brief As Finish(), without a copy when it can: returns the encoding, either
  /// held by the builder (the remembered dictionary's) or written to `*scratch`.
  /// Valid until the next non-const call or a change of `*scratch`.
  std::string_view FinishView(std::string* scratch) const;

  /// \brief Drops keys added after the first `size` (used to roll back a value).
  void Truncate(uint32_t size);
  /// \brief Starts the next value: drops the keys, keeps allocated memory and the
  /// remembered dictionary.
  void Reset();

  /// \brief True while every key added since Reset() was the one replayed from the
  /// remembered dictionary: ids then name the same keys as in every other value
  /// built under the same replay_epoch(). Lets callers cache work per key id.
  bool replaying() const { return replaying_; }
  /// \brief Changes whenever Reset() remembers a new dictionary; unique in the
  /// process, so that caches keyed by it outlive the builder that filled them.
  uint64_t replay_epoch() const { return replay_epoch_; }

 private:
  // Small dictionaries (most JSON rows) are searched linearly; past kLinearLimit keys a
  // hash table of ids is kept. Key bytes live in blocks that never move, so the views
  // in keys_ stay valid until Reset(); memory is kept across Reset() for reuse.
  static constexpr uint32_t kLinearLimit = 16;
  uint32_t AddUnpredicted(std::string_view key);  // stops the replay
  // Ends the replay: the keys replayed so far become keys_.
  void StopReplay();
  uint32_t Lookup(std::string_view key);  // Add() without the replay
  std::string_view Store(std::string_view key);
  void Index(uint32_t id);
  void Rehash(size_t capacity);

  std::vector<std::string_view> keys_;  // while not replaying
  struct Block {
    std::unique_ptr<char[]> data;
    size_t size = 0;
    size_t capacity = 0;
  };
  std::vector<Block> blocks_;
  size_t block_ = 0;             // the block being filled
  std::vector<uint32_t> table_;  // id + 1 per slot, 0 = empty; empty while linear
  // How many keys the previous value had: a value's first table has room for as many,
  // so that values of many keys do not rebuild theirs at each doubling.
  size_t previous_keys_ = 0;
  size_t total_key_bytes_ = 0;

  // The dictionary's keys in id order.
  std::span<const std::string_view> Keys() const {
    if (replaying_) return {replay_keys_.data(), size()};
    return keys_;
  }
  // Appends the encoding of the dictionary (EncodeKeys()) or of `keys`, whose lengths
  // add up to `total_key_bytes`.
  void EncodeKeys(std::string* out) const;
  static void Encode(std::span<const std::string_view> keys, size_t total_key_bytes,
                     std::string* out);
  std::string_view Remembered() const;  // the remembered dictionary's encoding
  // Whether the value has replayed every remembered key: its encoding is Remembered().
  bool ReplaysWholeDictionary() const {
    return replaying_ && size() == replay_keys_.size();
  }
  // The bytes of the first `n` remembered keys (back to back in replay_bytes_).
  size_t RememberedKeyBytes(uint32_t n) const;
  void Remember();

  // The remembered value: its keys (views into replay_bytes_, whose heap buffer does
  // not move when swapped), its Add() calls in order, its encoding (made when first
  // reused). While a value replays it, its dictionary is the first size() keys of
  // replay_keys_, and keys_ is left empty (filled by StopReplay()).
  struct ReplayStep {
    const char* data;     // the key's bytes
    uint32_t size;        // and length
    uint32_t id;          // the id the call returned
    uint32_t keys_after;  // the dictionary's size after the call
  };
  std::vector<char> replay_bytes_;
  std::vector<std::string_view> replay_keys_;
  std::vector<ReplayStep> replay_;
  const ReplayStep* next_step_ = nullptr;  // the next Add() call's prediction
  const ReplayStep* last_step_ = nullptr;  // past the last; next_step_ when stopped
  mutable std::string replay_encoded_;
  static uint64_t NewEpoch();
  uint64_t replay_epoch_ = NewEpoch();
  std::vector<uint32_t> new_ids_;  // Add() results after the replay stopped
  bool replaying_ = true;
  bool truncated_ = false;      // the call sequence no longer rebuilds the keys
  uint64_t diverged_rows_ = 0;  // consecutive values that left the replay
};

}  // namespace varshred
