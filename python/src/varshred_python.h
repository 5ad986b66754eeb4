// Licensed under the Apache License, Version 2.0.
//
// Small C++ helpers for the Cython modules (python/varshred/*.pyx): what Cython cannot
// spell (128-bit integers, moving a Result's value into a unique_ptr).

#pragma once

#include <arrow/status.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "varshred/arrow/shredding_stats.h"
#include "varshred/value.h"

namespace varshred::python {

// A decimal's 128-bit unscaled value as two 64-bit halves (Python ints are built from
// them), and back.
inline int64_t DecimalHigh(const Decimal& d) {
  return static_cast<int64_t>(d.unscaled >> 64);
}
inline uint64_t DecimalLow(const Decimal& d) { return static_cast<uint64_t>(d.unscaled); }
inline Decimal MakeDecimal(int64_t hi, uint64_t lo, uint8_t scale) {
  Decimal d;
  d.unscaled = static_cast<int128_t>(
      (static_cast<unsigned __int128>(static_cast<uint64_t>(hi)) << 64) | lo);
  d.scale = scale;
  return d;
}

inline arrow::Status DeserializeStats(std::string_view bytes,
                                      std::unique_ptr<ShreddingStats>* out) {
  auto r = ShreddingStats::Deserialize(bytes);
  if (!r.ok()) return r.status();
  *out = std::make_unique<ShreddingStats>(std::move(*r));
  return arrow::Status::OK();
}

inline arrow::Status StatsReport(const ShreddingStats& stats,
                                 const ShreddingSchema& schema, std::string* out) {
  auto r = stats.Report(schema);
  if (!r.ok()) return r.status();
  *out = r->ToString();
  return arrow::Status::OK();
}

}  // namespace varshred::python
