// Licensed under the Apache License, Version 2.0.
//
// Object and array headers: their layout and the one routine writing each (used by
// VariantBuilder), and their insertion before values written against an existing
// metadata dictionary (ids reused, never re-encoded: Shred, Unshred, the Parquet
// writer, the re-sorting of unsorted objects). Arrow-free.

#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/endian_internal.h"
#include "varshred/format.h"
#include "varshred/value.h"

namespace varshred::internal {

/// One field of an object being written: its key (for ordering), its metadata id and
/// the offset of its value from the start of the values area.
struct FieldEntry {
  std::string_view key;
  uint32_t id;
  uint32_t offset;
};

/// \brief The sizes of a container header (docs/format.md: objects and arrays).
struct ContainerHeaderLayout {
  bool large;       // more than 255 elements: a 4-byte count
  int count_size;   // 1 or 4
  int id_size;      // objects only: bytes per field id
  int offset_size;  // bytes per offset
  size_t size;      // the whole header
};

/// The header of an object of `n` fields, ids at most `max_id`, `data_size` value bytes.
inline ContainerHeaderLayout ObjectHeaderLayout(size_t n, uint32_t max_id,
                                                uint32_t data_size) {
  ContainerHeaderLayout l;
  l.large = n > 0xFF;
  l.count_size = l.large ? 4 : 1;
  l.id_size = IntegerSize(max_id);
  l.offset_size = IntegerSize(data_size);
  l.size = 1 + l.count_size + n * l.id_size + (n + 1) * l.offset_size;
  return l;
}

/// The header of an array of `n` elements and `data_size` value bytes.
inline ContainerHeaderLayout ArrayHeaderLayout(size_t n, uint32_t data_size) {
  ContainerHeaderLayout l;
  l.large = n > 0xFF;
  l.count_size = l.large ? 4 : 1;
  l.id_size = 0;
  l.offset_size = IntegerSize(data_size);
  l.size = 1 + l.count_size + (n + 1) * l.offset_size;
  return l;
}

/// \brief Writes an object header of layout `l` at `p` (l.size bytes): `id_at(k)` and
/// `offset_at(k)` give the k-th of the `n` fields in key-byte order.
template <typename IdAt, typename OffsetAt>
inline void WriteObjectHeader(uint8_t* p, const ContainerHeaderLayout& l, size_t n,
                              uint32_t data_size, IdAt id_at, OffsetAt offset_at) {
  *p++ = ObjectHeader(l.large, l.id_size, l.offset_size);
  WriteUnsigned(p, static_cast<uint32_t>(n), l.count_size);
  p += l.count_size;
  if (l.id_size == 1 && l.offset_size == 1) {
    // The common small object: ids and offsets one byte each, in one pass.
    uint8_t* offsets = p + n;
    for (size_t k = 0; k < n; ++k) {
      p[k] = static_cast<uint8_t>(id_at(k));
      offsets[k] = static_cast<uint8_t>(offset_at(k));
    }
    offsets[n] = static_cast<uint8_t>(data_size);
    return;
  }
  p = WriteUnsignedRun(p, n, l.id_size, id_at);
  p = WriteUnsignedRun(p, n, l.offset_size, offset_at);
  WriteUnsigned(p, data_size, l.offset_size);
}

/// \brief Writes an array header of layout `l` at `p`: `offset_at(k)` gives the start
/// of the k-th of the `n` elements.
template <typename OffsetAt>
inline void WriteArrayHeader(uint8_t* p, const ContainerHeaderLayout& l, size_t n,
                             uint32_t data_size, OffsetAt offset_at) {
  *p++ = ArrayHeader(l.large, l.offset_size);
  WriteUnsigned(p, static_cast<uint32_t>(n), l.count_size);
  p += l.count_size;
  p = WriteUnsignedRun(p, n, l.offset_size, offset_at);
  WriteUnsigned(p, data_size, l.offset_size);
}

/// \brief Inserts an object header at `start` in `buf`, before the values written
/// from `start` to the end. The `n` entries at `fields` must be in key-byte order.
inline void InsertObjectHeader(std::string* buf, size_t start, const FieldEntry* fields,
                               size_t n) {
  const auto data_size = static_cast<uint32_t>(buf->size() - start);
  uint32_t max_id = 0;
  for (size_t i = 0; i < n; ++i) max_id = std::max(max_id, fields[i].id);
  const ContainerHeaderLayout l = ObjectHeaderLayout(n, max_id, data_size);
  buf->insert(start, l.size, '\0');
  WriteObjectHeader(
      reinterpret_cast<uint8_t*>(buf->data() + start), l, n, data_size,
      [fields](size_t k) { return fields[k].id; },
      [fields](size_t k) { return fields[k].offset; });
}

/// \brief Inserts an array header at `start`; `offsets` holds the start of each of the
/// `n` elements relative to `start` (the end offset is implied).
inline void InsertArrayHeader(std::string* buf, size_t start, const uint32_t* offsets,
                              size_t n) {
  const auto data_size = static_cast<uint32_t>(buf->size() - start);
  const ContainerHeaderLayout l = ArrayHeaderLayout(n, data_size);
  buf->insert(start, l.size, '\0');
  WriteArrayHeader(reinterpret_cast<uint8_t*>(buf->data() + start), l, n, data_size,
                   [offsets](size_t k) { return offsets[k]; });
}

/// Sorts the first `n` entries by key bytes (insertion sort: inputs are nearly sorted).
inline void SortFieldsByKey(std::vector<FieldEntry>* fields, size_t begin, size_t end) {
  auto& f = *fields;
  for (size_t i = begin + 1; i < end; ++i) {
    FieldEntry e = f[i];
    size_t j = i;
    while (j > begin && e.key < f[j - 1].key) {
      f[j] = f[j - 1];
      --j;
    }
    f[j] = e;
  }
}

/// \brief Appends `v` to `out` with every object's fields in key-byte order, ids and
/// values reused (same metadata). For values with unsorted ids (ValidateValue's
/// keys_sorted), which varshred reads but never writes.
inline void AppendSortedKeys(const VariantView& v, std::string* out) {
  const size_t start = out->size();
  if (v.type() == VariantType::kObject) {
    const ObjectView obj = v.GetObject();
    std::vector<FieldEntry> fields;
    fields.reserve(obj.num_fields());
    for (uint32_t i = 0; i < obj.num_fields(); ++i) {
      fields.push_back({obj.key(i), obj.field_id(i), i});  // offset: the field index
    }
    std::sort(fields.begin(), fields.end(),
              [](const FieldEntry& a, const FieldEntry& b) { return a.key < b.key; });
    for (FieldEntry& f : fields) {
      const uint32_t index = f.offset;
      f.offset = static_cast<uint32_t>(out->size() - start);
      AppendSortedKeys(obj.value(index), out);
    }
    InsertObjectHeader(out, start, fields.data(), fields.size());
  } else if (v.type() == VariantType::kArray) {
    const ArrayView arr = v.GetArray();
    std::vector<uint32_t> offsets;
    offsets.reserve(arr.size());
    for (uint32_t i = 0; i < arr.size(); ++i) {
      offsets.push_back(static_cast<uint32_t>(out->size() - start));
      AppendSortedKeys(arr.element(i), out);
    }
    InsertArrayHeader(out, start, offsets.data(), offsets.size());
  } else {
    out->append(v.value_bytes());
  }
}

}  // namespace varshred::internal
