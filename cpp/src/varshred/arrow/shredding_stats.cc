// Licensed under the Apache License, Version 2.0.
//
// Shredding statistics: the scan, the merge and the serialized form. The scan walks
// every value once, keeping per-path counters in a tree whose object nodes index their
// fields with a small open-addressing hash table, so the hot loop does no allocation
// once the paths are known. Schema derivation (shredding_inference.cc) and the report
// (shredding_report.cc) only read the counters.

#include "varshred/metadata_cache_internal.h"
#include "varshred/arrow/shredding_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <queue>
#include <sstream>
#include <utility>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/shredding_stats_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/metadata.h"
#include "varshred/validate.h"

namespace varshred {

using internal::JoinElement;
using internal::JoinField;

namespace {

constexpr size_t kNumTypes = static_cast<size_t>(VariantType::kArray) + 1;
using internal::kMaxDigits;
constexpr int kHistSize = kMaxDigits + 1;

uint64_t HashKey(std::string_view key) {
  // FNV-1a: keys are short, and this is cheaper than a general-purpose hash there.
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

// Decimal digits of v (1 for 0), by comparison: no division in the hot loop.
int CountDigits(uint64_t v) {
  static constexpr uint64_t kPow10[] = {10ull,
                                        100ull,
                                        1000ull,
                                        10000ull,
                                        100000ull,
                                        1000000ull,
                                        10000000ull,
                                        100000000ull,
                                        1000000000ull,
                                        10000000000ull,
                                        100000000000ull,
                                        1000000000000ull,
                                        10000000000000ull,
                                        100000000000000ull,
                                        1000000000000000ull,
                                        10000000000000000ull,
                                        100000000000000000ull,
                                        1000000000000000000ull,
                                        10000000000000000000ull};
  int d = 1;
  while (d <= 19 && v >= kPow10[d - 1]) ++d;
  return d;
}

// Smallest of int8 (0), int16 (1), int32 (2), int64 (3) holding x; 4 for none.
int IntegerWidth(int128_t x) {
  if (x >= INT8_MIN && x <= INT8_MAX) return 0;
  if (x >= INT16_MIN && x <= INT16_MAX) return 1;
  if (x >= INT32_MIN && x <= INT32_MAX) return 2;
  if (x >= INT64_MIN && x <= INT64_MAX) return 3;
  return 4;
}

}  // namespace

// ---- PathStats --------------------------------------------------------------------

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
    if (field_names_[slot - 1] == key) return fields_[slot - 1].get();
  }
}

// ---- Tree mutation and the scan -----------------------------------------------------

// Friend of PathStats and ShreddingStats: everything that writes the tree.
struct ShreddingStatsAccess {
  static PathStats* Lookup(PathStats& n, std::string_view key) {
    return const_cast<PathStats*>(n.FindField(key));
  }

  static void InsertIndex(PathStats& n, size_t i) {
    const size_t mask = n.index_.size() - 1;
    size_t h = HashKey(n.field_names_[i]) & mask;
    while (n.index_[h] != 0) h = (h + 1) & mask;
    n.index_[h] = static_cast<uint32_t>(i + 1);
  }

  // Appends a field known to be absent; the index stays at most half full.
  static PathStats* AddField(PathStats& n, std::string_view key) {
    n.field_names_.emplace_back(key);
    n.fields_.push_back(std::make_unique<PathStats>());
    const size_t count = n.fields_.size();
    if (count * 2 > n.index_.size()) {
      size_t size = 8;
      while (size < count * 4) size *= 2;
      n.index_.assign(size, 0);
      for (size_t i = 0; i < count; ++i) InsertIndex(n, i);
    } else {
      InsertIndex(n, count - 1);
    }
    return n.fields_.back().get();
  }

  static std::array<int64_t, 78>& Histograms(PathStats& n) {
    if (!n.numeric_histograms_) {
      n.numeric_histograms_ = std::make_unique<std::array<int64_t, 78>>();
    }
    return *n.numeric_histograms_;
  }

  // An Exact Numeric value unscaled / 10^scale.
  static void RecordExactNumeric(PathStats& n, int128_t unscaled, int scale) {
    auto& hist = Histograms(n);
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
    auto& hist = Histograms(n);
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
            PathStats* child = Lookup(n, key);
            if (child == nullptr) {
              const auto tracked = static_cast<int64_t>(n.fields_.size());
              if (tracked >= options.max_fields_per_object || !CanAddPath()) {
                ++n.untracked_field_values_;
                continue;
              }
              child = AddField(n, key);
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
      auto& h = Histograms(a);
      for (size_t i = 0; i < h.size(); ++i) h[i] += (*b.numeric_histograms_)[i];
    }
    a.string_max_ = std::max(a.string_max_, b.string_max_);
    a.string_total_ += b.string_total_;
    a.untracked_field_values_ += b.untracked_field_values_;
    const auto& opts = stats.options_;
    for (size_t i = 0; i < b.fields_.size(); ++i) {
      const PathStats& bf = *b.fields_[i];
      PathStats* af = Lookup(a, b.field_names_[i]);
      if (af == nullptr) {
        if (depth >= opts.max_depth ||
            static_cast<int64_t>(a.fields_.size()) >= opts.max_fields_per_object ||
            stats.num_paths_ >= opts.max_total_paths) {
          a.untracked_field_values_ += bf.present_;
          continue;
        }
        af = AddField(a, b.field_names_[i]);
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

  // ---- serialization ----

  static void PutVarint(std::string* out, uint64_t v) {
    while (v >= 0x80) {
      out->push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out->push_back(static_cast<char>(v));
  }
  static void PutSigned(std::string* out, int64_t v) {
    PutVarint(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  static void PutDouble(std::string* out, double v) {
    char b[8];
    std::memcpy(b, &v, 8);  // little-endian hosts only, as the rest of varshred
    out->append(b, 8);
  }

  static void WriteNode(std::string* out, const PathStats& n) {
    uint64_t mask = 0;
    for (size_t i = 0; i < kNumTypes; ++i) {
      if (n.type_counts_[i] != 0) mask |= uint64_t{1} << i;
    }
    PutVarint(out, mask);
    for (size_t i = 0; i < kNumTypes; ++i) {
      if (n.type_counts_[i] != 0) {
        PutVarint(out, static_cast<uint64_t>(n.type_counts_[i]));
      }
    }
    if (n.integers() > 0) {
      PutSigned(out, n.int_min_);
      PutSigned(out, n.int_max_);
    }
    if (n.floating() > 0) {
      PutDouble(out, n.float_min_);
      PutDouble(out, n.float_max_);
    }
    if (n.integers() + n.decimals() > 0) {
      out->push_back(static_cast<char>(n.max_integer_digits_));
      out->push_back(static_cast<char>(n.max_scale_));
      for (int64_t w : n.integral_by_width_) PutVarint(out, static_cast<uint64_t>(w));
      for (int64_t h : *n.numeric_histograms_) PutVarint(out, static_cast<uint64_t>(h));
    }
    if (n.strings() > 0) {
      PutVarint(out, static_cast<uint64_t>(n.string_min_));
      PutVarint(out, static_cast<uint64_t>(n.string_max_));
      PutVarint(out, static_cast<uint64_t>(n.string_total_));
    }
    PutVarint(out, static_cast<uint64_t>(n.untracked_field_values_));
    out->push_back(n.element_ ? 1 : 0);
    if (n.element_) WriteNode(out, *n.element_);
    PutVarint(out, n.fields_.size());
    for (size_t i = 0; i < n.fields_.size(); ++i) {
      PutVarint(out, n.field_names_[i].size());
      out->append(n.field_names_[i]);
      WriteNode(out, *n.fields_[i]);
    }
  }

  class Reader {
   public:
    Reader(std::string_view bytes, ShreddingStats* stats) : in_(bytes), stats_(stats) {}

    template <typename... Args>
    arrow::Status Error(Args&&... args) const {
      return arrow::Status::Invalid("ShreddingStats::Deserialize: byte ", pos_, ": ",
                                    std::forward<Args>(args)...);
    }

    arrow::Status Varint(uint64_t* out, const char* what) {
      uint64_t v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos_ >= in_.size()) return Error("truncated ", what);
        const auto b = static_cast<uint8_t>(in_[pos_++]);
        if (shift == 63 && (b & 0x7E) != 0) return Error(what, " overflows 64 bits");
        v |= static_cast<uint64_t>(b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          *out = v;
          return arrow::Status::OK();
        }
      }
      return Error(what, " overflows 64 bits");
    }
    // A count: fits in int64 with room to add a few without overflow.
    arrow::Status Count(int64_t* out, const char* what) {
      uint64_t v;
      ARROW_RETURN_NOT_OK(Varint(&v, what));
      if (v > (uint64_t{1} << 56)) return Error(what, " ", v, " is implausibly large");
      *out = static_cast<int64_t>(v);
      return arrow::Status::OK();
    }
    arrow::Status Signed(int64_t* out, const char* what) {
      uint64_t v;
      ARROW_RETURN_NOT_OK(Varint(&v, what));
      *out = static_cast<int64_t>((v >> 1) ^ (0 - (v & 1)));
      return arrow::Status::OK();
    }
    arrow::Status Byte(uint8_t* out, const char* what) {
      if (pos_ >= in_.size()) return Error("truncated ", what);
      *out = static_cast<uint8_t>(in_[pos_++]);
      return arrow::Status::OK();
    }
    arrow::Status Double(double* out, const char* what) {
      if (in_.size() - pos_ < 8) return Error("truncated ", what);
      std::memcpy(out, in_.data() + pos_, 8);
      pos_ += 8;
      return arrow::Status::OK();
    }

    arrow::Status Header() {
      if (in_.size() < 5 || in_.substr(0, 4) != "VSST") {
        return arrow::Status::Invalid(
            "ShreddingStats::Deserialize: not serialized ShreddingStats (magic VSST "
            "missing)");
      }
      pos_ = 4;
      uint8_t version;
      ARROW_RETURN_NOT_OK(Byte(&version, "version"));
      if (version != 1) return Error("unsupported version ", static_cast<int>(version));
      int64_t per_object, total, depth;
      ARROW_RETURN_NOT_OK(Count(&per_object, "max_fields_per_object"));
      ARROW_RETURN_NOT_OK(Count(&total, "max_total_paths"));
      ARROW_RETURN_NOT_OK(Count(&depth, "max_depth"));
      if (per_object > (1 << 24) || total < 1 || total > (1 << 24)) {
        return Error("field caps out of range");
      }
      // The reader recurses once per level; no value is deeper than the limit.
      if (depth > kMaxNestingDepth) {
        return Error("max_depth ", depth, " exceeds the nesting limit of ",
                     kMaxNestingDepth);
      }
      stats_->options_.max_fields_per_object = static_cast<int>(per_object);
      stats_->options_.max_total_paths = static_cast<int>(total);
      stats_->options_.max_depth = static_cast<int>(depth);
      ARROW_RETURN_NOT_OK(Count(&stats_->rows_, "rows"));
      ARROW_RETURN_NOT_OK(Count(&stats_->sql_null_rows_, "sql_null_rows"));
      return arrow::Status::OK();
    }

    arrow::Status Node(PathStats& n, int depth) {
      const auto& opts = stats_->options_;
      uint64_t mask;
      ARROW_RETURN_NOT_OK(Varint(&mask, "type mask"));
      if (mask >> kNumTypes) return Error("unknown type in type mask");
      for (size_t i = 0; i < kNumTypes; ++i) {
        if (!(mask & (uint64_t{1} << i))) continue;
        ARROW_RETURN_NOT_OK(Count(&n.type_counts_[i], "type count"));
        if (n.type_counts_[i] == 0) return Error("zero count for a type in the mask");
        n.present_ += n.type_counts_[i];
      }
      if (n.integers() > 0) {
        ARROW_RETURN_NOT_OK(Signed(&n.int_min_, "int_min"));
        ARROW_RETURN_NOT_OK(Signed(&n.int_max_, "int_max"));
        if (n.int_min_ > n.int_max_) return Error("int_min > int_max");
      }
      if (n.floating() > 0) {
        ARROW_RETURN_NOT_OK(Double(&n.float_min_, "float_min"));
        ARROW_RETURN_NOT_OK(Double(&n.float_max_, "float_max"));
        // Both infinite-sentinel (all NaN) or an ordered pair.
        if (std::isnan(n.float_min_) || std::isnan(n.float_max_) ||
            (n.float_min_ > n.float_max_ &&
             !(n.float_min_ == std::numeric_limits<double>::infinity() &&
               n.float_max_ == -std::numeric_limits<double>::infinity()))) {
          return Error("bad float range");
        }
      }
      const int64_t exact = n.integers() + n.decimals();
      if (exact > 0) {
        uint8_t digits, scale;
        ARROW_RETURN_NOT_OK(Byte(&digits, "max_integer_digits"));
        ARROW_RETURN_NOT_OK(Byte(&scale, "max_scale"));
        if (digits > kMaxDigits || scale > kMaxDigits) return Error("digits past 38");
        n.max_integer_digits_ = digits;
        n.max_scale_ = scale;
        int64_t sum = 0;
        for (auto& w : n.integral_by_width_) {
          ARROW_RETURN_NOT_OK(Count(&w, "integral count"));
          sum += w;
        }
        if (sum > exact) return Error("integral counts exceed the numeric values");
        auto& hist = Histograms(n);
        int64_t digit_sum = 0, scale_sum = 0;
        for (int i = 0; i < 2 * kHistSize; ++i) {
          ARROW_RETURN_NOT_OK(Count(&hist[i], "histogram count"));
          (i < kHistSize ? digit_sum : scale_sum) += hist[i];
          if (hist[i] != 0 && i < kHistSize && i > digits) {
            return Error("integer digits histogram past max_integer_digits");
          }
        }
        if (digit_sum != exact || scale_sum != exact) {
          return Error("numeric histograms do not add up to the numeric values");
        }
      }
      if (n.strings() > 0) {
        ARROW_RETURN_NOT_OK(Count(&n.string_min_, "string_min"));
        ARROW_RETURN_NOT_OK(Count(&n.string_max_, "string_max"));
        ARROW_RETURN_NOT_OK(Count(&n.string_total_, "string_total"));
        if (n.string_min_ > n.string_max_) return Error("string_min > string_max");
      }
      ARROW_RETURN_NOT_OK(Count(&n.untracked_field_values_, "untracked count"));
      uint8_t has_element;
      ARROW_RETURN_NOT_OK(Byte(&has_element, "element flag"));
      if (has_element > 1) return Error("bad element flag");
      if (has_element) {
        if (n.arrays() == 0) return Error("element statistics without arrays");
        if (depth >= opts.max_depth) return Error("path deeper than max_depth");
        ARROW_RETURN_NOT_OK(NewPath());
        n.element_ = std::make_unique<PathStats>();
        ARROW_RETURN_NOT_OK(Node(*n.element_, depth + 1));
      }
      uint64_t num_fields;
      ARROW_RETURN_NOT_OK(Varint(&num_fields, "field count"));
      if (num_fields > static_cast<uint64_t>(opts.max_fields_per_object)) {
        return Error("more fields than max_fields_per_object");
      }
      if (num_fields > 0 && (n.objects() == 0 || depth >= opts.max_depth)) {
        return Error("field statistics without objects");
      }
      for (uint64_t i = 0; i < num_fields; ++i) {
        uint64_t len;
        ARROW_RETURN_NOT_OK(Varint(&len, "field name length"));
        if (len > in_.size() - pos_) return Error("field name runs past the end");
        const std::string_view name = in_.substr(pos_, len);
        if (Lookup(n, name) != nullptr) return Error("duplicate field \"", name, "\"");
        pos_ += len;
        ARROW_RETURN_NOT_OK(NewPath());
        PathStats* f = AddField(n, name);
        ARROW_RETURN_NOT_OK(Node(*f, depth + 1));
        if (f->present_ > n.objects()) {
          return Error("field \"", name, "\" present more often than its objects");
        }
      }
      return arrow::Status::OK();
    }

    arrow::Status NewPath() {
      if (stats_->num_paths_ >= stats_->options_.max_total_paths) {
        return Error("more paths than max_total_paths");
      }
      ++stats_->num_paths_;
      return arrow::Status::OK();
    }

    arrow::Status Finish() {
      if (pos_ != in_.size()) return Error("trailing bytes");
      if (stats_->root_->present_ + stats_->sql_null_rows_ != stats_->rows_) {
        return arrow::Status::Invalid(
            "ShreddingStats::Deserialize: row counts do not add up");
      }
      return arrow::Status::OK();
    }

   private:
    std::string_view in_;
    size_t pos_ = 0;
    ShreddingStats* stats_;
  };
};

// ---- ShreddingStats: scan, merge, serialization ------------------------------------

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
  ShreddingStatsAccess::Scanner scanner{options_, &num_paths_};
  scanner.Record(*root_, value, 0);
}

arrow::Status ShreddingStats::Add(const arrow::Array& variants, arrow::MemoryPool* pool) {
  std::shared_ptr<arrow::Array> input =
      internal::StorageOf(arrow::MakeArray(variants.data()));
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(input));
  if (view.typed_value()) {
    ARROW_ASSIGN_OR_RAISE(input, Unshred(*input, {}, pool));
    ARROW_ASSIGN_OR_RAISE(view, VariantArrayView::Make(input));
  }
  ShreddingStatsAccess::Scanner scanner{options_, &num_paths_};
  internal::MetadataCache metadata_cache;
  const int64_t n = view.length();
  for (int64_t row = 0; row < n; ++row) {
    ++rows_;
    if (view.IsNull(row)) {
      ++sql_null_rows_;
      continue;
    }
    const std::string_view meta_bytes = view.metadata(row);
    const std::string_view value = view.value_is_null(row) ? kNullValue : view.value(row);
    if (!options_.validate) {
      scanner.Record(*root_,
                     VariantView::MakeUnchecked(MetadataView::MakeUnchecked(meta_bytes),
                                                value),
                     0);
      continue;
    }
    auto metadata = metadata_cache.Get(meta_bytes);
    if (!metadata.ok()) {
      return arrow::Status::Invalid("row ", row, ": ", metadata.status().message());
    }
    auto v = VariantView::Make(*metadata, value, options_.validate_options);
    if (!v.ok()) return arrow::Status::Invalid("row ", row, ": ", v.status().message());
    scanner.Record(*root_, *v, 0);
  }
  return arrow::Status::OK();
}

arrow::Status ShreddingStats::Merge(const ShreddingStats& other) {
  if (&other == this) {
    ARROW_ASSIGN_OR_RAISE(auto copy, Deserialize(Serialize()));
    return Merge(copy);
  }
  rows_ += other.rows_;
  sql_null_rows_ += other.sql_null_rows_;
  ShreddingStatsAccess::MergeNode(*this, *root_, *other.root_, 0);
  return arrow::Status::OK();
}

std::string ShreddingStats::Serialize() const {
  std::string out = "VSST";
  out.push_back(1);
  using A = ShreddingStatsAccess;
  A::PutVarint(&out, static_cast<uint64_t>(options_.max_fields_per_object));
  A::PutVarint(&out, static_cast<uint64_t>(options_.max_total_paths));
  A::PutVarint(&out, static_cast<uint64_t>(options_.max_depth));
  A::PutVarint(&out, static_cast<uint64_t>(rows_));
  A::PutVarint(&out, static_cast<uint64_t>(sql_null_rows_));
  ShreddingStatsAccess::WriteNode(&out, *root_);
  return out;
}

arrow::Result<ShreddingStats> ShreddingStats::Deserialize(std::string_view bytes) {
  ShreddingStats stats;
  ShreddingStatsAccess::Reader reader(bytes, &stats);
  ARROW_RETURN_NOT_OK(reader.Header());
  ARROW_RETURN_NOT_OK(reader.Node(*stats.root_, 0));
  ARROW_RETURN_NOT_OK(reader.Finish());
  return stats;
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
