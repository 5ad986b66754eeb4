// Licensed under the Apache License, Version 2.0.
//
// The serialized form of ShreddingStats ("VSST", version 1): options, row counts, then
// the tree depth first, integers as LEB128 varints (zigzag for signed ones). Deserialize
// checks every count and limit, so bytes from elsewhere give an error, never a
// malformed tree.

#include <arrow/status.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "varshred/arrow/shredding_stats.h"
#include "varshred/arrow/shredding_stats_internal.h"

namespace varshred {

using internal::kHistSize;
using internal::kMaxDigits;
using internal::kNumTypes;

// Friend of PathStats and ShreddingStats: writes and reads the serialized form.
struct ShreddingStatsFormat {
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
      uint8_t version = 0;
      ARROW_RETURN_NOT_OK(Byte(&version, "version"));
      if (version != 1) return Error("unsupported version ", static_cast<int>(version));
      int64_t per_object = 0, total = 0, depth = 0;
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
        uint8_t digits = 0, scale = 0;
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
        auto& hist = n.Histograms();
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
      uint8_t has_element = 0;
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
        if (n.FindField(name) != nullptr) return Error("duplicate field \"", name, "\"");
        pos_ += len;
        ARROW_RETURN_NOT_OK(NewPath());
        PathStats* f = n.AddField(name);
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

std::string ShreddingStats::Serialize() const {
  std::string out = "VSST";
  out.push_back(1);
  using A = ShreddingStatsFormat;
  A::PutVarint(&out, static_cast<uint64_t>(options_.max_fields_per_object));
  A::PutVarint(&out, static_cast<uint64_t>(options_.max_total_paths));
  A::PutVarint(&out, static_cast<uint64_t>(options_.max_depth));
  A::PutVarint(&out, static_cast<uint64_t>(rows_));
  A::PutVarint(&out, static_cast<uint64_t>(sql_null_rows_));
  ShreddingStatsFormat::WriteNode(&out, *root_);
  return out;
}

arrow::Result<ShreddingStats> ShreddingStats::Deserialize(std::string_view bytes) {
  ShreddingStats stats;
  ShreddingStatsFormat::Reader reader(bytes, &stats);
  ARROW_RETURN_NOT_OK(reader.Header());
  ARROW_RETURN_NOT_OK(reader.Node(*stats.root_, 0));
  ARROW_RETURN_NOT_OK(reader.Finish());
  return stats;
}

}  // namespace varshred
