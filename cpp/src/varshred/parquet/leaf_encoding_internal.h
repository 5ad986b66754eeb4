// Licensed under the Apache License, Version 2.0.
//
// Whether a typed leaf column is worth a dictionary, judged from its first values:
// Parquet C++ dictionary-encodes a column until its dictionary page fills and then
// falls back to PLAIN, so the choice has to be made before the first page.

#pragma once

#include <parquet/types.h>

#include <cstdint>
#include <span>

namespace varshred::internal {

/// \brief Whether dictionary encoding (the distinct values once, then a bit-packed
/// index per value) is expected to take fewer bytes than DELTA_BINARY_PACKED (the
/// differences of neighbouring values, bit-packed in blocks) for these integers.
/// Low-cardinality counters and codes favour the dictionary; ids, timestamps and
/// other mostly distinct or increasing values favour deltas.
///
/// `values` are the first of a column chunk expected to hold `scale` times as many
/// (scale >= 1): one dictionary page serves the whole chunk, whose distinct values
/// are estimated from how often `values` repeat (Chao1).
bool DictionaryBeatsDelta(std::span<const int32_t> values, double scale);
bool DictionaryBeatsDelta(std::span<const int64_t> values, double scale);

/// \brief Whether dictionary encoding is expected to take fewer bytes than PLAIN for
/// these strings or binaries: false when most values are distinct (ids, free text),
/// where the dictionary repeats every value and adds an index to each.
bool DictionaryBeatsPlain(std::span<const parquet::ByteArray> values);

}  // namespace varshred::internal
