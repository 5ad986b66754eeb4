// Validating Variant metadata once per distinct dictionary while walking a column.

#pragma once

#include <arrow/result.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
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
      scans_ = 0;
      shift_ = 0;
      ranks_.clear();
      by_key_.clear();
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

  /// \brief An id of `key` in the current dictionary, for callers that look up many
  /// keys per dictionary: `hint` when it names `key` (the key's id in an earlier
  /// dictionary; rows written alike keep their ids), else MetadataView::Find()'s lowest
  /// id. An unsorted dictionary is scanned for its first few lookups, then searched
  /// through its ids in key order, sorted once (a wide row's object rebuilt field by
  /// field would otherwise scan it per field).
  std::optional<uint32_t> Find(std::string_view key, uint32_t hint = kNoHint) {
    if (hint != kNoHint) {
      // A key added or dropped before it shifts every later id alike: try the shift
      // the last miss found first.
      const int64_t shifted = int64_t{hint} + shift_;
      if (shifted >= 0 && shifted < view_.size() &&
          view_.key(static_cast<uint32_t>(shifted)) == key) {
        return static_cast<uint32_t>(shifted);
      }
      if (hint < view_.size() && view_.key(hint) == key) return hint;
    }
    const std::optional<uint32_t> id = FindWithoutHint(key);
    if (id && hint != kNoHint) shift_ = int64_t{*id} - int64_t{hint};
    return id;
  }

  /// Changes whenever Get() switched to another dictionary (for caches keyed on it).
  uint64_t epoch() const { return epoch_; }

  static constexpr uint32_t kNoHint = std::numeric_limits<uint32_t>::max();

 private:
  static constexpr uint32_t kScanKeys = 16;
  static constexpr uint32_t kScansBeforeSort = 8;

  std::optional<uint32_t> FindWithoutHint(std::string_view key) {
    if (view_.sorted() || view_.size() <= kScanKeys || scans_ < kScansBeforeSort) {
      ++scans_;
      return view_.Find(key);
    }
    if (by_key_.empty()) SortIds();
    const auto it = std::lower_bound(
        by_key_.begin(), by_key_.end(), key,
        [this](uint32_t id, std::string_view k) { return view_.key(id) < k; });
    if (it != by_key_.end() && view_.key(*it) == key) return *it;
    return std::nullopt;
  }

  // The ids in key order, equal keys by id (so the first of them is the lowest id).
  [[gnu::noinline]] void SortIds() {
    by_key_.resize(view_.size());
    std::iota(by_key_.begin(), by_key_.end(), 0);
    std::stable_sort(by_key_.begin(), by_key_.end(), [this](uint32_t a, uint32_t b) {
      return view_.key(a) < view_.key(b);
    });
  }

  // Out of line: key_ranks() is asked once per row, the ranks made once per dictionary.
  [[gnu::noinline]] void RankKeys() {
    if (by_key_.empty()) SortIds();
    ranks_.resize(by_key_.size());
    uint32_t rank = 0;
    for (size_t k = 0; k < by_key_.size(); ++k) {
      if (k > 0 && view_.key(by_key_[k]) != view_.key(by_key_[k - 1])) ++rank;
      ranks_[by_key_[k]] = rank;
    }
  }

  std::string_view last_;
  MetadataView view_;
  bool valid_ = false;
  uint64_t epoch_ = 0;
  uint64_t rows_ = 0;             // Get() calls for the current dictionary
  uint32_t scans_ = 0;            // Find() calls that scanned it
  int64_t shift_ = 0;             // Find(): its last found id less the hint
  std::vector<uint32_t> ranks_;   // key_ranks(), once computed
  std::vector<uint32_t> by_key_;  // SortIds(), once computed
};

}  // namespace varshred::internal
