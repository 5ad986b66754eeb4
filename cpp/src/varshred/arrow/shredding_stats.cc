// Licensed under the Apache License, Version 2.0.
//
// Shredding statistics: the tree, the scan and the merge. The scan walks
// every value once, keeping per-path counters in a tree whose object nodes index their
// fields with a small open-addressing hash table, so the hot loop does no allocation
// once the paths are known. The serialized form is in shredding_stats_format.cc; schema
// derivation (shredding_inference.cc) and the report (shredding_report.cc) only read
// the counters.

#include "varshred/arrow/shredding_stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/json_documents_internal.h"
#include "varshred/arrow/shredding_stats_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/decimal_internal.h"
#include "varshred/hash_internal.h"
#include "varshred/metadata.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/validate.h"
#include "varshred/validate_internal.h"

namespace varshred {

using internal::JoinElement;
using internal::JoinField;

namespace {

using internal::CountDigits;
using internal::HashKey;
using internal::kHistSize;
using internal::kMaxDigits;
using internal::kNumTypes;

// Smallest of int8 (0), int16 (1), int32 (2), int64 (3) holding x; 4 for none.
int IntegerWidth(int128_t x) {
  if (x >= INT8_MIN && x <= INT8_MAX) return 0;
  if (x >= INT16_MIN && x <= INT16_MAX) return 1;
  if (x >= INT32_MIN && x <= INT32_MAX) return 2;
  if (x >= INT64_MIN && x <= INT64_MAX) return 3;
  return 4;
}

}  // namespace

// ----------------------------------------------------------------------
// PathStats

PathStats::PathStats()
    : int_min_(std::numeric_limits<int64_t>::max()),
      int_max_(std::numeric_limits<int64_t>::min()),
      float_min_(std::numeric_limits<double>::infinity()),
      float_max_(-std::numeric_limits<double>::infinity()) {}
PathStats::~PathStats() = default;

int64_t PathStats::integers() const {
  return count(VariantType::kInt8) + count(VariantType::kInt16) +
         count(VariantType::kInt32) + count(VariantType::kInt64);
}
int64_t PathStats::decimals() const {
  return count(VariantType::kDecimal4) + count(VariantType::kDecimal8) +
         count(VariantType::kDecimal16);
}
int64_t PathStats::floating() const {
  return count(VariantType::kFloat) + count(VariantType::kDouble);
}
int64_t PathStats::integer_digits_histogram(int digits) const {
  if (!numeric_histograms_ || digits < 0 || digits > kMaxDigits) return 0;
  return (*numeric_histograms_)[digits];
}
int64_t PathStats::min_scale_histogram(int scale) const {
  if (!numeric_histograms_ || scale < 0 || scale > kMaxDigits) return 0;
  return (*numeric_histograms_)[kHistSize + scale];
}

const PathStats* PathStats::FindField(std::string_view key) const {
  if (index_.empty()) return nullptr;
  const size_t mask = index_.size() - 1;
  for (size_t h = HashKey(key) & mask;; h = (h + 1) & mask) {
    const uint32_t slot = index_[h];
    if (slot == 0) return nullptr;
    const std::string& name = field_names_[slot - 1];
    if (name.size() == key.size() &&
        internal::SameBytes(name.data(), key.data(), key.size())) {
      return fields_[slot - 1].get();
    }
  }
}

// ----------------------------------------------------------------------
// Building the tree: the scan, the merge, the reader of the serialized form

PathStats* PathStats::MutableField(std::string_view key) {
  return const_cast<PathStats*>(FindField(key));
}

void PathStats::InsertIndex(size_t i) {
  const size_t mask = index_.size() - 1;
  size_t h = HashKey(field_names_[i]) & mask;
  while (index_[h] != 0) h = (h + 1) & mask;
  index_[h] = static_cast<uint32_t>(i + 1);
}

// The index stays at most half full.
PathStats* PathStats::AddField(std::string_view key) {
  field_names_.emplace_back(key);
  fields_.push_back(std::make_unique<PathStats>());
  const size_t count = fields_.size();
  if (count * 2 > index_.size()) {
    size_t size = 8;
    while (size < count * 4) size *= 2;
    index_.assign(size, 0);
    for (size_t i = 0; i < count; ++i) InsertIndex(i);
  } else {
    InsertIndex(count - 1);
  }
  return fields_.back().get();
}

std::array<int64_t, 78>& PathStats::Histograms() {
  if (!numeric_histograms_) {
    numeric_histograms_ = std::make_unique<std::array<int64_t, 78>>();
  }
  return *numeric_histograms_;
}

// ----------------------------------------------------------------------
// The scan and the merge

// Friend of PathStats and ShreddingStats: the code that fills the counters.
struct ShreddingStatsScan {
  // An Exact Numeric value unscaled / 10^scale.
  static void RecordExactNumeric(PathStats& n, int128_t unscaled, int scale) {
    auto& hist = n.Histograms();
    n.max_scale_ = std::max(n.max_scale_, scale);
    int min_scale = scale;
    int int_digits = 0;
    int width = 0;
    if (unscaled != 0) {
      // Strip trailing zeros: Shred rescales down exactly when the dropped digits are 0.
      if (unscaled >= std::numeric_limits<int64_t>::min() &&
          unscaled <= std::numeric_limits<int64_t>::max()) {
        int64_t u = static_cast<int64_t>(unscaled);
        while (min_scale > 0 && u % 10 == 0) u /= 10, --min_scale;
        const uint64_t mag =
            u < 0 ? 0 - static_cast<uint64_t>(u) : static_cast<uint64_t>(u);
        int_digits = CountDigits(mag) - min_scale;
        unscaled = u;
      } else {
        while (min_scale > 0 && unscaled % 10 == 0) unscaled /= 10, --min_scale;
        int_digits = DecimalPrecision(unscaled) - min_scale;
      }
      int_digits = std::max(int_digits, 0);
      width = min_scale == 0 ? IntegerWidth(unscaled) : -1;
    } else {
      min_scale = 0;
    }
    if (width >= 0) ++n.integral_by_width_[width];
    n.max_integer_digits_ = std::max(n.max_integer_digits_, int_digits);
    ++hist[int_digits];
    ++hist[kHistSize + min_scale];
  }

  static void RecordInteger(PathStats& n, int64_t x) {
    n.int_min_ = std::min(n.int_min_, x);
    n.int_max_ = std::max(n.int_max_, x);
    auto& hist = n.Histograms();
    const uint64_t mag = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    const int int_digits = x == 0 ? 0 : CountDigits(mag);
    ++n.integral_by_width_[IntegerWidth(x)];
    n.max_integer_digits_ = std::max(n.max_integer_digits_, int_digits);
    ++hist[int_digits];
    ++hist[kHistSize];
  }

  struct Scanner {
    const ShreddingStatsOptions& options;
    int64_t* num_paths;

    bool CanAddPath() const { return *num_paths < options.max_total_paths; }

    void Record(PathStats& n, const VariantView& v, int depth) {
      const VariantType t = v.type();
      ++n.type_counts_[static_cast<size_t>(t)];
      ++n.present_;
      // Dispatch per value on its type is inherent: every value may differ.
      switch (t) {
        case VariantType::kInt8:
        case VariantType::kInt16:
        case VariantType::kInt32:
        case VariantType::kInt64:
          RecordInteger(n, v.GetInteger());
          break;
        case VariantType::kDecimal4:
        case VariantType::kDecimal8:
        case VariantType::kDecimal16: {
          const Decimal d = v.GetDecimal();
          RecordExactNumeric(n, d.unscaled, d.scale);
          break;
        }
        case VariantType::kFloat:
        case VariantType::kDouble: {
          const double x = t == VariantType::kFloat ? v.GetFloat() : v.GetDouble();
          if (!std::isnan(x)) {
            n.float_min_ = std::min(n.float_min_, x);
            n.float_max_ = std::max(n.float_max_, x);
          }
          break;
        }
        case VariantType::kString: {
          const auto len = static_cast<int64_t>(v.GetString().size());
          if (n.strings() == 1) {
            n.string_min_ = len;
          } else {
            n.string_min_ = std::min(n.string_min_, len);
          }
          n.string_max_ = std::max(n.string_max_, len);
          n.string_total_ += len;
          break;
        }
        case VariantType::kObject: {
          const ObjectView o = v.GetObject();
          if (depth >= options.max_depth) {
            n.untracked_field_values_ += o.num_fields();
            break;
          }
          for (uint32_t i = 0; i < o.num_fields(); ++i) {
            const std::string_view key = o.key(i);
            PathStats* child = n.MutableField(key);
            if (child == nullptr) {
              const auto tracked = static_cast<int64_t>(n.fields_.size());
              if (tracked >= options.max_fields_per_object || !CanAddPath()) {
                ++n.untracked_field_values_;
                continue;
              }
              child = n.AddField(key);
              ++*num_paths;
            }
            Record(*child, o.value(i), depth + 1);
          }
          break;
        }
        case VariantType::kArray: {
          const ArrayView a = v.GetArray();
          if (depth >= options.max_depth || a.size() == 0) break;
          if (!n.element_) {
            if (!CanAddPath()) break;
            n.element_ = std::make_unique<PathStats>();
            ++*num_paths;
          }
          for (uint32_t i = 0; i < a.size(); ++i) {
            Record(*n.element_, a.element(i), depth + 1);
          }
          break;
        }
        default:
          break;
      }
    }
  };

  // Adds `b` into `a` (a at `depth`), creating paths within the caps of `stats`.
  static void MergeNode(ShreddingStats& stats, PathStats& a, const PathStats& b,
                        int depth) {
    if (b.strings() > 0) {
      a.string_min_ =
          a.strings() == 0 ? b.string_min_ : std::min(a.string_min_, b.string_min_);
    }
    for (size_t i = 0; i < kNumTypes; ++i) a.type_counts_[i] += b.type_counts_[i];
    a.present_ += b.present_;
    a.int_min_ = std::min(a.int_min_, b.int_min_);
    a.int_max_ = std::max(a.int_max_, b.int_max_);
    a.float_min_ = std::min(a.float_min_, b.float_min_);
    a.float_max_ = std::max(a.float_max_, b.float_max_);
    a.max_integer_digits_ = std::max(a.max_integer_digits_, b.max_integer_digits_);
    a.max_scale_ = std::max(a.max_scale_, b.max_scale_);
    for (size_t i = 0; i < a.integral_by_width_.size(); ++i) {
      a.integral_by_width_[i] += b.integral_by_width_[i];
    }
    if (b.numeric_histograms_) {
      auto& h = a.Histograms();
      for (size_t i = 0; i < h.size(); ++i) h[i] += (*b.numeric_histograms_)[i];
    }
    a.string_max_ = std::max(a.string_max_, b.string_max_);
    a.string_total_ += b.string_total_;
    a.untracked_field_values_ += b.untracked_field_values_;
    const auto& opts = stats.options_;
    for (size_t i = 0; i < b.fields_.size(); ++i) {
      const PathStats& bf = *b.fields_[i];
      PathStats* af = a.MutableField(b.field_names_[i]);
      if (af == nullptr) {
        if (depth >= opts.max_depth ||
            static_cast<int64_t>(a.fields_.size()) >= opts.max_fields_per_object ||
            stats.num_paths_ >= opts.max_total_paths) {
          a.untracked_field_values_ += bf.present_;
          continue;
        }
        af = a.AddField(b.field_names_[i]);
        ++stats.num_paths_;
      }
      MergeNode(stats, *af, bf, depth + 1);
    }
    if (b.element_) {
      if (!a.element_ && depth < opts.max_depth &&
          stats.num_paths_ < opts.max_total_paths) {
        a.element_ = std::make_unique<PathStats>();
        ++stats.num_paths_;
      }
      if (a.element_) MergeNode(stats, *a.element_, *b.element_, depth + 1);
    }
  }
};

// ----------------------------------------------------------------------
// ShreddingStats: scan, merge

ShreddingStats::ShreddingStats(ShreddingStatsOptions options)
    : options_(options), root_(std::make_unique<PathStats>()) {
  // No value is deeper (format.h); Deserialize() refuses more.
  options_.max_depth = std::min(options_.max_depth, kMaxNestingDepth);
}
ShreddingStats::~ShreddingStats() = default;
ShreddingStats::ShreddingStats(ShreddingStats&&) noexcept = default;
ShreddingStats& ShreddingStats::operator=(ShreddingStats&&) noexcept = default;

void ShreddingStats::AddValue(const VariantView& value) {
  ++rows_;
  ShreddingStatsScan::Scanner scanner{options_, &num_paths_};
  scanner.Record(*root_, value, 0);
}

template <typename AddTo>
arrow::Status ShreddingStats::AddAll(AddTo&& add) {
  // A call that fails part-way must not leave the rows before the bad one counted: a
  // caller that skips bad batches would derive its schema from skewed counts.
  ShreddingStats batch(options_);
  ARROW_RETURN_NOT_OK(add(batch));
  if (rows_ == 0) {
    *this = std::move(batch);  // nothing to merge with
    return arrow::Status::OK();
  }
  return Merge(batch);
}

arrow::Status ShreddingStats::Add(const arrow::Array& variants, arrow::MemoryPool* pool) {
  return AddAll([&](ShreddingStats& batch) { return batch.AddRows(variants, pool); });
}

arrow::Status ShreddingStats::AddJson(const arrow::Array& strings,
                                      const JsonToVariantOptions& options) {
  return AddAll(
      [&](ShreddingStats& batch) { return batch.AddJsonRows(strings, options); });
}

arrow::Status ShreddingStats::AddRows(const arrow::Array& variants,
                                      arrow::MemoryPool* pool) {
  std::shared_ptr<arrow::Array> input =
      internal::StorageOf(arrow::MakeArray(variants.data()));
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(input));
  if (view.typed_value()) {
    ARROW_ASSIGN_OR_RAISE(input, Unshred(*input, {}, pool));
    ARROW_ASSIGN_OR_RAISE(view, VariantArrayView::Make(input));
  }
  ShreddingStatsScan::Scanner scanner{options_, &num_paths_};
  internal::MetadataCache metadata_cache;
  const int64_t n = view.length();
  for (int64_t row = 0; row < n; ++row) {
    ++rows_;
    if (view.IsNull(row)) {
      ++sql_null_rows_;
      continue;
    }
    const std::string_view meta_bytes = view.metadata(row);
    const std::string_view value = view.value_or_variant_null(row);
    if (!options_.validate) {
      scanner.Record(
          *root_,
          VariantView::MakeUnchecked(MetadataView::MakeUnchecked(meta_bytes), value), 0);
      continue;
    }
    auto metadata = metadata_cache.Get(meta_bytes);
    if (!metadata.ok()) {
      return arrow::Status::Invalid("row ", row, ": ", metadata.status().message());
    }
    const arrow::Status st = internal::ValidateValue(
        *metadata, metadata_cache.key_ranks(), value, options_.validate_options, nullptr);
    if (!st.ok()) return arrow::Status::Invalid("row ", row, ": ", st.message());
    scanner.Record(*root_, VariantView::MakeUnchecked(*metadata, value), 0);
  }
  return arrow::Status::OK();
}

arrow::Status ShreddingStats::AddJsonRows(const arrow::Array& strings,
                                          const JsonToVariantOptions& options) {
  ARROW_RETURN_NOT_OK(options.parse.Validate());
  JsonParser parser(options.parse);
  parser.IndexAhead(true);  // `strings` stay as they are during the call
  VariantBuilder builder(options.parse.duplicate_keys);
  ShreddingStatsScan::Scanner scanner{options_, &num_paths_};
  return internal::ForEachJsonDocument(
      strings, [&](const internal::JsonDocument& d, int64_t row) -> arrow::Status {
        ++rows_;
        std::string_view metadata, value;
        bool parsed = false;
        if (!d.is_null) {
          ARROW_ASSIGN_OR_RAISE(
              parsed, internal::ParseJsonDocument(parser, builder, d, row, options.errors,
                                                  &metadata, &value));
        }
        if (!parsed) {
          ++sql_null_rows_;
          return arrow::Status::OK();
        }
        scanner.Record(
            *root_,
            VariantView::MakeUnchecked(MetadataView::MakeUnchecked(metadata), value), 0);
        builder.Reset();
        return arrow::Status::OK();
      });
}

arrow::Status ShreddingStats::Merge(const ShreddingStats& other) {
  if (&other == this) {
    ARROW_ASSIGN_OR_RAISE(auto copy, Deserialize(Serialize()));
    return Merge(copy);
  }
  rows_ += other.rows_;
  sql_null_rows_ += other.sql_null_rows_;
  ShreddingStatsScan::MergeNode(*this, *root_, *other.root_, 0);
  return arrow::Status::OK();
}

namespace {

void CollectTypeCounts(const PathStats& s, const std::string& path,
                       std::vector<PathTypeCount>* out) {
  for (int t = 0; t <= static_cast<int>(VariantType::kArray); ++t) {
    const auto type = static_cast<VariantType>(t);
    if (s.count(type) > 0) out->push_back({path, type, s.count(type)});
  }
  for (size_t i = 0; i < s.num_fields(); ++i) {
    CollectTypeCounts(s.field(i), JoinField(path, s.field_name(i)), out);
  }
  if (s.element() != nullptr) CollectTypeCounts(*s.element(), JoinElement(path), out);
}

}  // namespace

std::vector<PathTypeCount> ShreddingStats::TypeCounts() const {
  std::vector<PathTypeCount> out;
  CollectTypeCounts(*root_, "$", &out);
  return out;
}

const PathStats* ShreddingStats::Find(std::string_view path) const {
  if (path.empty() || path == "$") return root_.get();
  if (path[0] == '$') {  // "$.a" and "$[]"; a bare path starts with a name or "[]"
    path.remove_prefix(1);
    if (path[0] == '.') {
      path.remove_prefix(1);
      if (path.empty() || path[0] == '[') return nullptr;
    } else if (path[0] != '[') {
      return nullptr;
    }
  }
  auto segments = internal::ParsePath(path);
  if (!segments.ok()) return nullptr;
  const PathStats* node = root_.get();
  for (const internal::PathSegment& segment : *segments) {
    node = segment.element ? node->element() : node->FindField(segment.name);
    if (node == nullptr) return nullptr;
  }
  return node;
}

}  // namespace varshred
