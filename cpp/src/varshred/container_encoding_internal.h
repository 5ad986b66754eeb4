// Licensed under the Apache License, Version 2.0.
//
// Writing object and array headers against an existing metadata dictionary (ids
// reused, never re-encoded): used by Shred, Unshred, the Parquet writer and the
// re-sorting of unsorted objects. Arrow-free.

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

/// \brief Inserts an object header at `start` in `buf`, before the values written
/// from `start` to the end. The `n` entries at `fields` must be in key-byte order.
inline void InsertObjectHeader(std::string* buf, size_t start, const FieldEntry* fields,
                               size_t n) {
  const size_t data_size = buf->size() - start;
  uint32_t max_id = 0;
  for (size_t i = 0; i < n; ++i) max_id = std::max(max_id, fields[i].id);
  const bool large = n > 255;
  const int id_size = IntegerSize(max_id);
  const int offset_size = IntegerSize(static_cast<uint32_t>(data_size));
  const size_t count_size = large ? 4 : 1;
  const size_t header = 1 + count_size + n * id_size + (n + 1) * offset_size;
  buf->insert(start, header, '\0');
  auto* p = reinterpret_cast<uint8_t*>(buf->data() + start);
  *p++ = ObjectHeader(large, id_size, offset_size);
  WriteUnsigned(p, static_cast<uint32_t>(n), static_cast<int>(count_size));
  p += count_size;
  for (size_t i = 0; i < n; ++i, p += id_size) WriteUnsigned(p, fields[i].id, id_size);
  for (size_t i = 0; i < n; ++i, p += offset_size) {
    WriteUnsigned(p, fields[i].offset, offset_size);
  }
  WriteUnsigned(p, static_cast<uint32_t>(data_size), offset_size);
}

/// \brief Inserts an array header at `start`; `offsets` holds the start of each of the
/// `n` elements relative to `start` (the end offset is implied).
inline void InsertArrayHeader(std::string* buf, size_t start, const uint32_t* offsets,
                              size_t n) {
  const size_t data_size = buf->size() - start;
  const bool large = n > 255;
  const int offset_size = IntegerSize(static_cast<uint32_t>(data_size));
  const size_t count_size = large ? 4 : 1;
  const size_t header = 1 + count_size + (n + 1) * offset_size;
  buf->insert(start, header, '\0');
  auto* p = reinterpret_cast<uint8_t*>(buf->data() + start);
  *p++ = ArrayHeader(large, offset_size);
  WriteUnsigned(p, static_cast<uint32_t>(n), static_cast<int>(count_size));
  p += count_size;
  for (size_t i = 0; i < n; ++i, p += offset_size) WriteUnsigned(p, offsets[i], offset_size);
  WriteUnsigned(p, static_cast<uint32_t>(data_size), offset_size);
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
