// Licensed under the Apache License, Version 2.0.

#include "varshred/builder.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "varshred/container_encoding_internal.h"
#include "varshred/endian_internal.h"

namespace varshred {

using internal::ArrayHeaderLayout;
using internal::ContainerHeaderLayout;
using internal::ObjectHeaderLayout;
using internal::WriteArrayHeader;
using internal::WriteObjectHeader;

namespace {

// The first 8 bytes of `key` as a big-endian integer, zero-padded: comparing two of
// these orders keys as their unsigned bytes do, except when the prefixes are equal.
uint64_t KeyPrefix(std::string_view key) {
  uint64_t v = 0;
  if (key.size() >= 8) {
    std::memcpy(&v, key.data(), 8);  // one load
    if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
    return v;
  }
  // Byte by byte: a short memcpy into `v` then one 8-byte load stalls store forwarding.
  for (size_t i = 0; i < key.size(); ++i) v = (v << 8) | static_cast<uint8_t>(key[i]);
  return key.empty() ? 0 : v << (8 * (8 - key.size()));
}

// Only the first containers of a value keep a hint; deeper in, values are rarely
// shaped alike.
constexpr uint32_t kMaxHeaderHints = 256;

}  // namespace

void VariantBuilder::AppendDecimal(Decimal d) {
  const int precision = DecimalPrecision(d.unscaled);
  if (precision <= kMaxDecimal4Precision && d.scale <= kMaxDecimal4Precision) {
    AppendDecimal4(static_cast<int32_t>(d.unscaled), d.scale);
  } else if (precision <= kMaxDecimal8Precision && d.scale <= kMaxDecimal8Precision) {
    AppendDecimal8(static_cast<int64_t>(d.unscaled), d.scale);
  } else {
    AppendDecimal16(d.unscaled, d.scale);
  }
}

void VariantBuilder::AppendBinary(std::string_view v) {
  PutLengthPrefixed(PrimitiveType::kBinary, v);
}

void VariantBuilder::PutLengthPrefixed(PrimitiveType t, std::string_view v) {
  BeforeValue();
  buffer_.push_back(static_cast<char>(PrimitiveHeader(t)));
  buffer_.AppendLE(static_cast<uint32_t>(v.size()));
  buffer_.append(v);
}

void VariantBuilder::AppendUuid(std::string_view bytes16) {
  BeforeValue();
  buffer_.push_back(static_cast<char>(PrimitiveHeader(PrimitiveType::kUuid)));
  buffer_.append(bytes16.substr(0, 16));
}

arrow::Status VariantBuilder::AppendVariant(const VariantView& v) {
  switch (v.type()) {
    case VariantType::kObject: {
      const ObjectView obj = v.GetObject();
      StartObject();
      for (uint32_t i = 0; i < obj.num_fields(); ++i) {
        AddKey(obj.key(i));
        ARROW_RETURN_NOT_OK(AppendVariant(obj.value(i)));
      }
      return EndObject();
    }
    case VariantType::kArray: {
      const ArrayView arr = v.GetArray();
      StartArray();
      for (uint32_t i = 0; i < arr.size(); ++i) {
        ARROW_RETURN_NOT_OK(AppendVariant(arr.element(i)));
      }
      EndArray();
      return arrow::Status::OK();
    }
    default:
      // Scalars hold no key ids: their bytes are valid under any metadata.
      BeforeValue();
      buffer_.append(v.value_bytes());
      return arrow::Status::OK();
  }
}

// ----------------------------------------------------------------------
// Containers

void VariantBuilder::ResizeHeader(const Frame& frame, size_t header_size) {
  if (frame.ordinal < kMaxHeaderHints) {
    if (frame.ordinal >= header_hints_.size()) header_hints_.resize(frame.ordinal + 1, 0);
    header_hints_[frame.ordinal] = static_cast<uint32_t>(header_size);
  }
  const size_t reserved = frame.start - frame.header_at;
  const size_t data_size = buffer_.size() - frame.start;
  const size_t new_start = frame.header_at + header_size;
  if (header_size > reserved) buffer_.resize(new_start + data_size);
  char* base = buffer_.data();
  Bytes::Move(base + new_start, base + frame.start, data_size);
  if (header_size < reserved) buffer_.resize(new_start + data_size);
}

arrow::Status VariantBuilder::DropDuplicates(const Frame& frame, size_t* count) {
  // Fields are sorted by key, ties in insertion order: keep the last of each run. The
  // dictionary holds each key once, so equal keys are equal ids.
  Field* first = fields_.data() + frame.first_entry;
  size_t k = 1;
  while (k < *count && first[k - 1].id != first[k].id) ++k;
  if (k >= *count) return arrow::Status::OK();
  Field* out = first;
  for (size_t i = 0; i < *count; ++i) {
    if (i + 1 < *count && first[i].id == first[i + 1].id) {
      if (duplicates_ == DuplicateKeyPolicy::kRaise) {
        return arrow::Status::Invalid("duplicate key \"", metadata_.key(first[i].id),
                                      "\" in object");
      }
      continue;
    }
    *out++ = first[i];
  }
  const size_t kept = static_cast<size_t>(out - first);
  if (kept == *count) return arrow::Status::OK();
  // Compact: copy the kept values into a fresh values area in the order they were
  // written, as Spark does (so last-wins output matches parse_json byte for byte).
  std::vector<Field*> by_offset;
  by_offset.reserve(kept);
  for (size_t i = 0; i < kept; ++i) by_offset.push_back(first + i);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const Field* a, const Field* b) { return a->offset < b->offset; });
  const std::string_view all(buffer_.data() + frame.start, buffer_.size() - frame.start);
  std::string values;
  for (Field* f : by_offset) {
    const std::string_view bytes = all.substr(f->offset);
    f->offset = static_cast<uint32_t>(values.size());
    values.append(bytes.substr(0, ValueSize(bytes)));
  }
  buffer_.resize(frame.start);
  buffer_.append(values);
  fields_.resize(frame.first_entry + kept);
  *count = kept;
  return arrow::Status::OK();
}

namespace {

// Stable sort of `order` (positions into `fields`) by key bytes, the 8-byte prefixes
// (`prefixes`, by position) deciding unless equal, and equal ids being equal keys.
// Objects are small and often nearly sorted, so insertion sort wins there and
// allocates nothing; ties keep insertion order (last-wins relies on it).
template <typename FieldT>
void SortOrder(const FieldT* fields, const MetadataBuilder& keys,
               const uint64_t* prefixes, uint32_t* order, size_t n) {
  auto less = [fields, &keys, prefixes](uint32_t a, uint32_t b) {
    if (prefixes[a] != prefixes[b]) return prefixes[a] < prefixes[b];
    return fields[a].id != fields[b].id &&
           keys.key(fields[a].id) < keys.key(fields[b].id);
  };
  if (n > 32) {
    std::stable_sort(order, order + n, less);
    return;
  }
  for (size_t i = 1; i < n; ++i) {
    const uint32_t f = order[i];
    size_t j = i;
    while (j > 0 && less(f, order[j - 1])) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = f;
  }
}

}  // namespace

arrow::Status VariantBuilder::SortFields(const Frame& frame, ObjectShape* shape,
                                         size_t* count, uint32_t* max_id) {
  size_t n = *count;
  Field* fields = fields_.data() + frame.first_entry;
  order_.resize(n);
  prefixes_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    order_[i] = static_cast<uint32_t>(i);
    prefixes_[i] = KeyPrefix(metadata_.key(fields[i].id));
  }
  SortOrder(fields, metadata_, prefixes_.data(), order_.data(), n);
  bool duplicates = false;
  for (size_t k = 1; k < n && !duplicates; ++k) {
    duplicates = fields[order_[k - 1]].id == fields[order_[k]].id;
  }
  if (duplicates) {
    // Rare: put the fields in key order and drop (or reject) the repeated keys.
    std::vector<Field> sorted(n);
    for (size_t k = 0; k < n; ++k) sorted[k] = fields[order_[k]];
    std::copy(sorted.begin(), sorted.end(), fields);
    ARROW_RETURN_NOT_OK(DropDuplicates(frame, &n));
    fields = fields_.data() + frame.first_entry;
    order_.resize(n);
    for (size_t i = 0; i < n; ++i) order_[i] = static_cast<uint32_t>(i);
  }
  *max_id = 0;
  for (size_t i = 0; i < n; ++i) *max_id = std::max(*max_id, fields[i].id);
  if (shape != nullptr && !duplicates) {
    shape->epoch = metadata_.replay_epoch();
    shape->ids.resize(n);
    for (size_t i = 0; i < n; ++i) shape->ids[i] = fields[i].id;
    shape->order.assign(order_.begin(), order_.end());
    shape->max_id = *max_id;
  }
  *count = n;
  return arrow::Status::OK();
}

arrow::Status VariantBuilder::EndObject() {
  if (frames_.empty() || !frames_.back().is_object) {
    return arrow::Status::Invalid("VariantBuilder::EndObject without an open object");
  }
  const Frame frame = frames_.back();
  frames_.pop_back();
  if (frame.missing_key) {
    return arrow::Status::Invalid("VariantBuilder: a value was added to an object ",
                                  "without AddKey()");
  }
  size_t n = fields_.size() - frame.first_entry;
  Field* fields = fields_.data() + frame.first_entry;
  // docs/format.md: ids and offsets are listed in key order (unsigned bytes).
  // While the dictionary is replayed, an id names the same key in every row of the
  // epoch, so an object with the ids of the one started at the same place in the
  // previous row has its key order too.
  ObjectShape* shape = nullptr;
  if (frame.ordinal < kMaxHeaderHints && metadata_.replaying()) {
    if (frame.ordinal >= shapes_.size()) shapes_.resize(frame.ordinal + 1);
    shape = &shapes_[frame.ordinal];
  }
  const uint32_t* order = nullptr;
  uint32_t max_id = 0;
  if (shape != nullptr && shape->epoch == metadata_.replay_epoch() &&
      shape->ids.size() == n && shape->SameIds(fields)) {
    order = shape->order.data();
    max_id = shape->max_id;
  } else {
    ARROW_RETURN_NOT_OK(SortFields(frame, shape, &n, &max_id));
    fields = fields_.data() + frame.first_entry;
    order = order_.data();
  }
  const auto data_size = static_cast<uint32_t>(buffer_.size() - frame.start);
  const ContainerHeaderLayout layout = ObjectHeaderLayout(n, max_id, data_size);
  WriteObjectHeader(
      PlaceHeader(frame, layout.size), layout, n, data_size,
      [fields, order](size_t k) { return fields[order[k]].id; },
      [fields, order](size_t k) { return fields[order[k]].offset; });
  fields_.resize(frame.first_entry);
  return arrow::Status::OK();
}

void VariantBuilder::EndArray() {
  const Frame frame = frames_.back();
  frames_.pop_back();
  const size_t n = offsets_.size() - frame.first_entry;
  const auto data_size = static_cast<uint32_t>(buffer_.size() - frame.start);
  const ContainerHeaderLayout layout = ArrayHeaderLayout(n, data_size);
  const uint32_t* offsets = offsets_.data() + frame.first_entry;
  WriteArrayHeader(PlaceHeader(frame, layout.size), layout, n, data_size,
                   [offsets](size_t k) { return offsets[k]; });
  offsets_.resize(frame.first_entry);
}

// ----------------------------------------------------------------------
// Results

arrow::Status VariantBuilder::Finish(std::string* metadata, std::string* value) {
  ARROW_RETURN_NOT_OK(CheckFinished());
  metadata_.Finish(metadata);
  value->append(buffer_.view());
  Reset();
  return arrow::Status::OK();
}

arrow::Status VariantBuilder::FinishViews(std::string_view* metadata,
                                          std::string_view* value) {
  ARROW_RETURN_NOT_OK(CheckFinished());
  *metadata = metadata_.FinishView(&metadata_scratch_);
  *value = buffer_.view();
  return arrow::Status::OK();
}

arrow::Status VariantBuilder::CheckFinished() const {
  if (!frames_.empty()) {
    return arrow::Status::Invalid("VariantBuilder::Finish with ", frames_.size(),
                                  " open containers");
  }
  if (top_level_values_ != 1) {
    return arrow::Status::Invalid(
        "VariantBuilder::Finish needs exactly one top-level value, ", "got ",
        top_level_values_);
  }
  // Readers refuse values past these limits (format.h): never build one.
  if (deepest_ > static_cast<size_t>(kMaxNestingDepth)) {
    return arrow::Status::Invalid("value nested ", deepest_,
                                  " levels deep exceeds the nesting limit of ",
                                  kMaxNestingDepth);
  }
  if (buffer_.size() > kMaxValueSize) {
    return arrow::Status::Invalid("value of ", buffer_.size(),
                                  " bytes exceeds the size limit of ", kMaxValueSize,
                                  " bytes");
  }
  return arrow::Status::OK();
}

void VariantBuilder::Reset() {
  metadata_.Reset();
  buffer_.clear();
  frames_.clear();
  fields_.clear();
  offsets_.clear();
  top_level_values_ = 0;
  containers_started_ = 0;
  deepest_ = 0;
  has_pending_key_ = false;
}

void VariantBuilder::ClearValue() {
  buffer_.clear();
  top_level_values_ = 0;
  containers_started_ = 0;
}

void VariantBuilder::Rollback(const Checkpoint& cp) {
  buffer_.resize(cp.value_size);
  metadata_.Truncate(cp.dictionary_size);
  frames_.resize(cp.frames);
  fields_.resize(cp.fields);
  offsets_.resize(cp.offsets);
  top_level_values_ = cp.top_level_values;
  has_pending_key_ = cp.has_pending_key;
  if (has_pending_key_) pending_key_id_ = cp.pending_key_id;
}

}  // namespace varshred
