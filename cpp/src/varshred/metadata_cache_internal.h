// Validating Variant metadata once per distinct dictionary while walking a column.

#pragma once

#include <arrow/result.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string_view>
#include <vector>

#include "varshred/metadata.h"

namespace varshred::internal {

/// Whether `a` and `b` hold the same bytes. Inline word compares up to 64 bytes (a
/// dictionary of a few keys; memcmp's call costs more than such a compare).
inline bool SameBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 64) return std::memcmp(a.data(), b.data(), n) == 0;
  auto word = [](const char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  if (n >= 8) {
    uint64_t diff = word(a.data() + n - 8) ^ word(b.data() + n - 8);
    for (size_t i = 0; i + 8 <= n; i += 8)
      diff |= word(a.data() + i) ^ word(b.data() + i);
    return diff == 0;
  }
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

/// \brief Validates each row's metadata, but only when its bytes differ from the
/// previous row's: consecutive rows usually share one dictionary (Spark writes the same
/// keys in the same order), so this turns a per-row check into a byte comparison
/// (SameBytes()).
///
/// The views it returns are valid while the row's bytes are.
class MetadataCache {
 public:
  /// \brief The validated view of `bytes`; the error is MetadataView::Make's.
  arrow::Result<MetadataView> Get(std::string_view bytes) {
    if (!valid_ || !SameBytes(bytes, last_)) {
      ARROW_ASSIGN_OR_RAISE(view_, MetadataView::Make(bytes));
      last_ = bytes;
      valid_ = true;
      ++epoch_;
      rows_ = 0;
      ranks_.clear();
    }
    ++rows_;
    return view_;
  }

  /// \brief Each key id's position in byte order of the current dictionary's keys
  /// (equal keys share one), for internal::ValidateValue(); nullptr for a dictionary
  /// without keys or that served only one row so far (ordering its keys would cost
  /// more than the row).
  const uint32_t* key_ranks() {
    if (rows_ < 2 || view_.size() == 0) return nullptr;
    if (ranks_.empty()) RankKeys();
    return ranks_.data();
  }

  /// Changes whenever Get() switched to another dictionary (for caches keyed on it).
  uint64_t epoch() const { return epoch_; }

 private:
  // Out of line: key_ranks() is asked once per row, the ranks made once per dictionary.
  [[gnu::noinline]] void RankKeys() {
    std::vector<uint32_t> ids(view_.size());
    std::iota(ids.begin(), ids.end(), 0);
    std::sort(ids.begin(), ids.end(),
              [this](uint32_t a, uint32_t b) { return view_.key(a) < view_.key(b); });
    ranks_.resize(ids.size());
    uint32_t rank = 0;
    for (size_t k = 0; k < ids.size(); ++k) {
      if (k > 0 && view_.key(ids[k]) != view_.key(ids[k - 1])) ++rank;
      ranks_[ids[k]] = rank;
    }
  }

  std::string_view last_;
  MetadataView view_;
  bool valid_ = false;
  uint64_t epoch_ = 0;
  uint64_t rows_ = 0;            // Get() calls for the current dictionary
  std::vector<uint32_t> ranks_;  // key_ranks(), once computed
};

}  // namespace varshred::internal
