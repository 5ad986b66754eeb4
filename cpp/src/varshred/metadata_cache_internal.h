// Validating Variant metadata once per distinct dictionary while walking a column.

#pragma once

#include <arrow/result.h>

#include <cstdint>
#include <string_view>

#include "varshred/metadata.h"

namespace varshred::internal {

/// \brief Validates each row's metadata, but only when its bytes differ from the
/// previous row's: consecutive rows usually share one dictionary (Spark writes the same
/// keys in the same order), so this turns a per-row check into a memcmp.
///
/// The views it returns are valid while the row's bytes are.
class MetadataCache {
 public:
  /// \brief The validated view of `bytes`; the error is MetadataView::Make's.
  arrow::Result<MetadataView> Get(std::string_view bytes) {
    if (!valid_ || bytes != last_) {
      ARROW_ASSIGN_OR_RAISE(view_, MetadataView::Make(bytes));
      last_ = bytes;
      valid_ = true;
      ++epoch_;
    }
    return view_;
  }

  /// Changes whenever Get() switched to another dictionary (for caches keyed on it).
  uint64_t epoch() const { return epoch_; }

 private:
  std::string_view last_;
  MetadataView view_;
  bool valid_ = false;
  uint64_t epoch_ = 0;
};

}  // namespace varshred::internal
