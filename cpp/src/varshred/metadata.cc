// Licensed under the Apache License, Version 2.0.

#include "varshred/metadata.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "varshred/endian_internal.h"
#include "varshred/format.h"
#include "varshred/hash_internal.h"
#include "varshred/utf8_internal.h"

namespace varshred {

// ----------------------------------------------------------------------
// MetadataView

arrow::Result<size_t> MetadataView::MeasureSize(std::string_view bytes) {
  if (bytes.empty()) return arrow::Status::Invalid("metadata: empty buffer");
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t header = p[0];
  if ((header & kMetadataVersionMask) != kMetadataVersion) {
    return arrow::Status::Invalid("metadata: unsupported version ",
                                  header & kMetadataVersionMask, " (expected 1)");
  }
  const int offset_size = (header >> kMetadataOffsetSizeShift) + 1;
  if (bytes.size() < 1 + static_cast<size_t>(offset_size)) {
    return arrow::Status::Invalid("metadata: truncated dictionary size");
  }
  const uint64_t dict_size = ReadUnsigned(p + 1, offset_size);
  // 64-bit arithmetic: a 4-byte dictionary size times a 4-byte width cannot overflow.
  const uint64_t header_size = 1 + static_cast<uint64_t>(offset_size) * (dict_size + 2);
  if (dict_size == 0 && bytes.size() == 1 + static_cast<size_t>(offset_size)) {
    // docs/format.md#metadata: the spec's tables abbreviate empty metadata to `01 00`. We
    // reject it: the grammar needs offset[0], and accepting it would make the length of a
    // metadata-then-value buffer ambiguous (`01 00` + value `00` reads as `01 00 00`).
    return arrow::Status::Invalid(
        "metadata: empty dictionary without its offset[0] (the abbreviated 2-byte form "
        "is not accepted; empty metadata is 01 00 00)");
  }
  if (header_size > bytes.size()) {
    return arrow::Status::Invalid("metadata: dictionary size ", dict_size,
                                  " needs more offsets than the ", bytes.size(),
                                  " bytes hold");
  }
  const uint64_t last = ReadUnsigned(p + header_size - offset_size, offset_size);
  if (header_size + last > bytes.size()) {
    return arrow::Status::Invalid("metadata: key bytes end at ", header_size + last,
                                  " past the buffer size ", bytes.size());
  }
  return static_cast<size_t>(header_size + last);
}

arrow::Result<MetadataView> MetadataView::Make(std::string_view bytes) {
  ARROW_ASSIGN_OR_RAISE(size_t size, MeasureSize(bytes));
  MetadataView view = MakeUnchecked(bytes.substr(0, size));
  uint32_t previous = 0;
  // 64-bit counter: `i <= dictionary_size_` must terminate for a size of 0xFFFFFFFF.
  for (uint64_t i = 0; i <= view.dictionary_size_; ++i) {
    const uint32_t off = view.offset(static_cast<uint32_t>(i));
    if (i == 0 && off != 0) {
      return arrow::Status::Invalid("metadata: first offset is ", off, ", not 0");
    }
    if (off < previous) {
      return arrow::Status::Invalid("metadata: offset ", i, " (", off,
                                    ") is before offset ", i - 1, " (", previous, ")");
    }
    previous = off;
  }
  // A metadata cell is exactly one dictionary: trailing bytes are corrupt (or a value
  // glued on), and every reader must say so rather than ignore them.
  if (size != bytes.size()) {
    return arrow::Status::Invalid("metadata: ", bytes.size() - size, " trailing bytes");
  }
  for (uint32_t i = 0; i < view.dictionary_size_; ++i) {
    if (!internal::IsValidUtf8(view.key(i))) {
      return arrow::Status::Invalid("metadata: key ", i, " is not valid UTF-8");
    }
    if (view.sorted_ && i > 0 && !(view.key(i - 1) < view.key(i))) {
      return arrow::Status::Invalid("metadata: marked sorted but key ", i,
                                    " is not greater than key ", i - 1);
    }
  }
  return view;
}

MetadataView MetadataView::MakeUnchecked(std::string_view bytes) {
  MetadataView view;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  view.offset_size_ = static_cast<uint8_t>((p[0] >> kMetadataOffsetSizeShift) + 1);
  view.sorted_ = (p[0] & kMetadataSortedBit) != 0;
  view.dictionary_size_ = ReadUnsigned(p + 1, view.offset_size_);
  view.offsets_ = p + 1 + view.offset_size_;
  view.strings_ = view.offsets_ + static_cast<size_t>(view.offset_size_) *
                                      (static_cast<size_t>(view.dictionary_size_) + 1);
  const size_t end =
      static_cast<size_t>(view.strings_ - p) + view.offset(view.dictionary_size_);
  view.bytes_ = bytes.substr(0, std::min(end, bytes.size()));
  return view;
}

std::optional<uint32_t> MetadataView::Find(std::string_view key) const {
  if (sorted_) {
    uint32_t lo = 0, hi = dictionary_size_;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      const std::string_view k = this->key(mid);
      if (k == key) return mid;
      if (k < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    return std::nullopt;
  }
  for (uint32_t i = 0; i < dictionary_size_; ++i) {
    if (this->key(i) == key) return i;
  }
  return std::nullopt;
}

// ----------------------------------------------------------------------
// MetadataBuilder

using internal::HashKey;

uint32_t MetadataBuilder::AddUnpredicted(std::string_view key) {
  // From here on, keys are looked up; the hash table (if this many keys need one) is
  // built by the next Index().
  if (replaying_) StopReplay();
  const uint32_t id = Lookup(key);
  new_ids_.push_back(id);
  return id;
}

void MetadataBuilder::StopReplay() {
  replaying_ = false;
  last_step_ = next_step_;  // Remember() reads the replayed calls' ids up to here
  if (next_step_ == replay_.data()) return;  // nothing replayed: keys_ is empty
  const uint32_t n = next_step_[-1].keys_after;
  keys_.assign(replay_keys_.begin(), replay_keys_.begin() + n);
  total_key_bytes_ = RememberedKeyBytes(n);
}

size_t MetadataBuilder::RememberedKeyBytes(uint32_t n) const {
  if (n == 0) return 0;
  const std::string_view last = replay_keys_[n - 1];
  return static_cast<size_t>(last.data() + last.size() - replay_bytes_.data());
}

uint32_t MetadataBuilder::Lookup(std::string_view key) {
  if (table_.empty()) {
    for (uint32_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].size() == key.size() && keys_[i] == key) return i;
    }
  } else {
    const size_t mask = table_.size() - 1;
    for (size_t slot = HashKey(key) & mask;; slot = (slot + 1) & mask) {
      const uint32_t entry = table_[slot];
      if (entry == 0) break;
      if (keys_[entry - 1] == key) return entry - 1;
    }
  }
  const auto id = static_cast<uint32_t>(keys_.size());
  keys_.push_back(Store(key));
  total_key_bytes_ += key.size();
  if (!table_.empty() || keys_.size() > kLinearLimit) Index(id);
  return id;
}

std::string_view MetadataBuilder::Store(std::string_view key) {
  while (block_ < blocks_.size() &&
         blocks_[block_].capacity - blocks_[block_].size < key.size()) {
    ++block_;
  }
  if (block_ == blocks_.size()) {
    Block b;
    b.capacity = std::max<size_t>(key.size(), 4096);
    b.data.reset(new char[b.capacity]);
    blocks_.push_back(std::move(b));
  }
  Block& b = blocks_[block_];
  char* at = b.data.get() + b.size;
  if (!key.empty()) std::memcpy(at, key.data(), key.size());
  b.size += key.size();
  return {at, key.size()};
}

void MetadataBuilder::Index(uint32_t id) {
  if (table_.empty() || keys_.size() * 2 > table_.size()) {
    // Replayed keys are not indexed: the first table may need room for many.
    const size_t keys =
        table_.empty() ? std::max(keys_.size(), previous_keys_) : keys_.size();
    size_t capacity = std::max<size_t>(64, table_.size() * 2);
    while (capacity < keys * 2) capacity *= 2;
    Rehash(capacity);
    return;  // Rehash indexes every key, `id` included
  }
  const size_t mask = table_.size() - 1;
  size_t slot = HashKey(keys_[id]) & mask;
  while (table_[slot] != 0) slot = (slot + 1) & mask;
  table_[slot] = id + 1;
}

void MetadataBuilder::Rehash(size_t capacity) {
  table_.assign(capacity, 0);
  const size_t mask = capacity - 1;
  for (uint32_t i = 0; i < keys_.size(); ++i) {
    size_t slot = HashKey(keys_[i]) & mask;
    while (table_[slot] != 0) slot = (slot + 1) & mask;
    table_[slot] = i + 1;
  }
}

void MetadataBuilder::Finish(std::string* out) const {
  if (ReplaysWholeDictionary()) {
    out->append(Remembered());
    return;
  }
  EncodeKeys(out);
}

std::string_view MetadataBuilder::FinishView(std::string* scratch) const {
  if (ReplaysWholeDictionary()) return Remembered();
  scratch->clear();
  EncodeKeys(scratch);
  return *scratch;
}

std::string_view MetadataBuilder::Remembered() const {
  // The same keys in the same order as the remembered value: the same bytes.
  if (replay_encoded_.empty()) {
    Encode(replay_keys_, replay_bytes_.size(), &replay_encoded_);
  }
  return replay_encoded_;
}

void MetadataBuilder::EncodeKeys(std::string* out) const {
  Encode(Keys(), replaying_ ? RememberedKeyBytes(size()) : total_key_bytes_, out);
}

void MetadataBuilder::Encode(std::span<const std::string_view> keys,
                             size_t total_key_bytes, std::string* out) {
  const size_t n = keys.size();
  const int offset_size =
      IntegerSize(static_cast<uint32_t>(std::max<size_t>(total_key_bytes, n)));
  out->push_back(static_cast<char>(kMetadataVersion |
                                   ((offset_size - 1) << kMetadataOffsetSizeShift)));
  internal::AppendUnsigned(out, static_cast<uint32_t>(n), offset_size);
  uint32_t off = 0;
  internal::AppendUnsigned(out, off, offset_size);
  for (std::string_view k : keys) {
    off += static_cast<uint32_t>(k.size());
    internal::AppendUnsigned(out, off, offset_size);
  }
  for (std::string_view k : keys) out->append(k);
}

void MetadataBuilder::Truncate(uint32_t size) {
  if (this->size() <= size) return;
  if (replaying_) StopReplay();
  truncated_ = true;
  while (keys_.size() > size) {
    total_key_bytes_ -= keys_.back().size();
    keys_.pop_back();
  }
  // The dropped keys' bytes stay in their block until Reset(); rare (rollback) path.
  if (!table_.empty()) {
    if (keys_.size() > kLinearLimit)
      Rehash(table_.size());
    else
      table_.clear();
  }
}

void MetadataBuilder::Remember() {
  std::vector<char> bytes(total_key_bytes_);
  std::vector<std::string_view> keys;
  keys.reserve(keys_.size());
  size_t at = 0;
  for (std::string_view k : keys_) {
    if (!k.empty()) std::memcpy(bytes.data() + at, k.data(), k.size());
    keys.emplace_back(bytes.data() + at, k.size());
    at += k.size();
  }
  replay_bytes_.swap(bytes);
  replay_keys_.swap(keys);
  replay_encoded_.clear();
  replay_epoch_ = NewEpoch();
  // The value's Add() calls in order: those replayed (the same ids, their keys now in
  // replay_bytes_), then those looked up.
  uint32_t keys_after = 0;
  auto step = [&](uint32_t id) -> ReplayStep {
    keys_after = std::max(keys_after, id + 1);
    const std::string_view k = replay_keys_[id];
    return {k.data(), static_cast<uint32_t>(k.size()), id, keys_after};
  };
  if (truncated_) {
    // Ids returned before a Truncate() may name dropped keys: replay each kept key
    // once, in order, instead.
    replay_.clear();
    for (uint32_t id = 0; id < replay_keys_.size(); ++id) replay_.push_back(step(id));
    return;
  }
  replay_.resize(static_cast<size_t>(next_step_ - replay_.data()));
  for (ReplayStep& s : replay_) s = step(s.id);
  for (const uint32_t id : new_ids_) replay_.push_back(step(id));
}

uint64_t MetadataBuilder::NewEpoch() {
  // Process-wide: the JSON shredder's schema nodes cache key ids by epoch across the
  // builders of successive calls (a per-builder count gave two builders one epoch).
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void MetadataBuilder::Reset() {
  // A value that left the replay becomes the one remembered for the next. Rows that
  // never repeat their predecessor's keys (JSON used as a map) would pay for that
  // for nothing: after a run of them, remember only now and then.
  if (replaying_) {
    diverged_rows_ = 0;
  } else if (++diverged_rows_ < 8 || diverged_rows_ % 64 == 0) {
    Remember();
  }
  previous_keys_ = size();
  replaying_ = true;
  truncated_ = false;
  next_step_ = replay_.data();
  last_step_ = replay_.data() + replay_.size();
  new_ids_.clear();
  keys_.clear();
  for (auto& b : blocks_) b.size = 0;  // keeps the memory
  block_ = 0;
  table_.clear();
  total_key_bytes_ = 0;
}

}  // namespace varshred
