// Licensed under the Apache License, Version 2.0.
//
// Shredding schema inference: per-path statistics gathered from unshredded Variant
// columns batch by batch, a shredding schema derived from them, and a report of how
// well a schema would shred the data the statistics describe.

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/format.h"
#include "varshred/value.h"

namespace varshred {

/// \brief Bounds on the path tree a ShreddingStats tracks, so memory stays bounded on
/// wild data (keys made of ids, ever deeper nesting).
struct ShreddingStatsOptions {
  /// New keys of one object path past this many are not tracked; their values are
  /// counted in PathStats::untracked_field_values() of that object path.
  int max_fields_per_object = 1024;
  /// New paths past this many in the whole tree are not tracked (same accounting).
  int max_total_paths = 16384;
  /// Paths deeper than this (root = 0, each field or `[]` adds 1) are not tracked;
  /// objects and arrays at the deepest level are counted but not descended into.
  /// At most kMaxNestingDepth (values are never deeper).
  int max_depth = 64;
  /// Validate every row's metadata and value before reading it (O(row size), about
  /// 40% of the scan). Turn it off only for bytes already validated (e.g. written by
  /// this library in this process): invalid bytes are then undefined behaviour.
  bool validate = true;
  /// Limits for validating the input values (unsorted field ids accepted).
  ValidateOptions validate_options = ValidateOptions::ForReading();
};

/// \brief Statistics of the values found at one path.
///
/// A path is the top level, a field of the objects at its parent path, or `[]`, the
/// elements of the arrays at its parent path. Counts are counts of values (an element
/// path sees one value per array element), not of rows.
class PathStats {
 public:
  /// Number of the values of type `t` seen here (kNull = Variant nulls).
  int64_t count(VariantType t) const { return type_counts_[static_cast<size_t>(t)]; }
  /// Values seen here, Variant nulls included.
  int64_t present() const { return present_; }
  int64_t variant_nulls() const { return count(VariantType::kNull); }
  int64_t objects() const { return count(VariantType::kObject); }
  int64_t arrays() const { return count(VariantType::kArray); }
  /// Values of types int8..int64.
  int64_t integers() const;
  /// Values of types decimal4..decimal16.
  int64_t decimals() const;
  /// Values of types float and double.
  int64_t floating() const;

  /// Range of the integer-typed values (int8..int64). \pre integers() > 0.
  int64_t int_min() const { return int_min_; }
  int64_t int_max() const { return int_max_; }
  /// Range of the float and double values, NaN ignored (+inf/-inf when none).
  double float_min() const { return float_min_; }
  double float_max() const { return float_max_; }
  /// Largest number of integer digits (digits left of the point; 0 for |x| < 1) over
  /// all Exact Numeric values (integers and decimals).
  int max_integer_digits() const { return max_integer_digits_; }
  /// Largest decimal scale seen, as encoded (0 when no decimals).
  int max_scale() const { return max_scale_; }
  /// Exact Numeric values whose value is a whole number that fits int8 (`width` 0),
  /// int16 (1, but not int8), int32 (2), int64 (3), or none of them (4).
  int64_t integral_by_width(int width) const { return integral_by_width_[width]; }
  /// Exact Numeric values with exactly `digits` integer digits (0..38).
  int64_t integer_digits_histogram(int digits) const;
  /// Exact Numeric values whose scale, trailing zeros removed, is `scale` (0..38).
  int64_t min_scale_histogram(int scale) const;

  /// String lengths in bytes. min/max are 0 when no strings were seen.
  int64_t string_min_length() const { return strings() ? string_min_ : 0; }
  int64_t string_max_length() const { return string_max_; }
  int64_t string_total_length() const { return string_total_; }

  /// Field values of the objects here whose key is not tracked (tracking caps).
  int64_t untracked_field_values() const { return untracked_field_values_; }

  /// Tracked fields of the objects here, in first-seen order.
  size_t num_fields() const { return field_names_.size(); }
  const std::string& field_name(size_t i) const { return field_names_[i]; }
  const PathStats& field(size_t i) const { return *fields_[i]; }
  /// The field `key`, or null when it is not tracked.
  const PathStats* FindField(std::string_view key) const;
  /// The `[]` path (array elements), or null when no array was seen here.
  const PathStats* element() const { return element_.get(); }

  /// How often this field is missing from the objects of `parent`:
  /// parent.objects() - present().
  int64_t MissingFrom(const PathStats& parent) const {
    return parent.objects() - present_;
  }

  PathStats();
  ~PathStats();
  PathStats(const PathStats&) = delete;
  PathStats& operator=(const PathStats&) = delete;

 private:
  friend class ShreddingStats;
  friend struct ShreddingStatsScan;    // the scan and the merge (shredding_stats.cc)
  friend struct ShreddingStatsFormat;  // the serialized form (shredding_stats_format.cc)

  int64_t strings() const { return count(VariantType::kString); }
  // Building the tree.
  PathStats* MutableField(std::string_view key);
  /// Appends a field known to be absent.
  PathStats* AddField(std::string_view key);
  void InsertIndex(size_t i);
  std::array<int64_t, 78>& Histograms();

  std::array<int64_t, static_cast<size_t>(VariantType::kArray) + 1> type_counts_{};
  int64_t present_ = 0;
  int64_t int_min_ = 0;
  int64_t int_max_ = 0;
  double float_min_;
  double float_max_;
  int max_integer_digits_ = 0;
  int max_scale_ = 0;
  std::array<int64_t, 5> integral_by_width_{};
  // Allocated on the first Exact Numeric value: 39 integer-digit counts then 39
  // minimal-scale counts.
  std::unique_ptr<std::array<int64_t, 78>> numeric_histograms_;
  int64_t string_min_ = 0;
  int64_t string_max_ = 0;
  int64_t string_total_ = 0;
  int64_t untracked_field_values_ = 0;
  std::vector<std::string> field_names_;
  std::vector<std::unique_ptr<PathStats>> fields_;
  // Open-addressing index over field_names_: slot holds field index + 1 (0 = empty).
  std::vector<uint32_t> index_;
  std::unique_ptr<PathStats> element_;
};

/// \brief Options of ShreddingStats::DeriveSchema() (and of the Python
/// `vs.infer_schema`).
struct InferOptions {
  /// A field is shredded when present in at least this share of its parent's objects.
  double min_fraction = 0.1;
  /// The schema's width: at most this many Parquet columns besides `metadata`, counted
  /// as Spark counts `maxSchemaWidth` (every shredded path, the root and array
  /// elements included, has a `value` column; a primitive one a `typed_value` column
  /// too). Fields are admitted most frequent first (by number of values) while their
  /// columns fit; the root is always shredded.
  int max_fields = 300;
  /// Deepest shredded path (root = 0, each field or `[]` adds 1), at most
  /// kMaxShreddingDepth. An object or array at the deepest level becomes value-only.
  int max_depth = kMaxShreddingDepth;
  /// A path is typed only when its chosen type covers at least this share of its
  /// non-null values; otherwise it stays value-only.
  double min_typed_fraction = 0.5;
  /// Integers shred as int64 by default (Spark's inference does the same, and files
  /// inferred from different samples then agree). When true, the narrowest integer
  /// type holding the observed range is used instead.
  bool narrow_integers = false;
};

/// \brief How a schema would shred the values of the data the statistics describe,
/// path by path.
struct ShreddingReport {
  struct Row {
    /// "$" for the top level, else FromPaths() syntax: `a.b`, `tags[]`, `e[].k`.
    std::string path;
    /// The node's schema as DDL ("bigint", "struct<...>" shown as "struct",
    /// "array", "variant" for value-only).
    std::string type;
    /// Places the path could hold a value: non-null rows for the top level, the
    /// parent path's objects for a field, the elements for `[]`.
    int64_t slots = 0;
    /// Values that would land in typed_value (objects and arrays count when their
    /// typed_value is set, even if some of their fields go to a residual).
    int64_t typed = 0;
    /// Values that would land whole in `value` (Variant nulls included).
    int64_t residual = 0;
    /// Slots where the field is absent (value and typed_value both null).
    int64_t missing = 0;
    /// Variant nulls (part of residual).
    int64_t variant_nulls = 0;
    /// Objects only: field values that would stay in the residual object because
    /// their key is not in the schema (untracked keys included).
    int64_t unshredded_fields = 0;
    /// False when `typed` is an estimate: a decimal column narrower than the values
    /// seen (only marginal digit and scale counts are kept, so the count is the lower
    /// bound max(0, fit_digits + fit_scale - all)), or a path the statistics stopped
    /// tracking (counts 0).
    bool exact = true;
  };
  int64_t rows = 0;
  int64_t sql_null_rows = 0;
  std::vector<Row> paths;

  /// \brief A readable table, one line per path:
  /// `path | type | typed | residual | missing` with counts and shares of slots.
  std::string ToString() const;
};

/// \brief How many values of one Variant type the statistics saw at one path.
struct PathTypeCount {
  std::string path;  ///< FromPaths() syntax; "$" for the top level
  VariantType type = VariantType::kNull;
  int64_t count = 0;
};

/// \brief Per-path statistics of Variant columns, for shredding schema inference.
///
/// Scan batches with Add(), combine partial results (batches, Spark tasks) with
/// Merge(), ship them with Serialize()/Deserialize(), then DeriveSchema() and
/// Report(). Not thread-safe; use one per thread and Merge().
class ShreddingStats {
 public:
  explicit ShreddingStats(ShreddingStatsOptions options = {});
  ~ShreddingStats();
  ShreddingStats(ShreddingStats&&) noexcept;
  ShreddingStats& operator=(ShreddingStats&&) noexcept;

  /// \brief Scans an unshredded Variant column (canonical or Spark layout; a shredded
  /// column is unshredded first). SQL NULL rows are counted in sql_null_rows(); a
  /// null value cell in a non-null row is a Variant null. Every row is validated
  /// (unless options().validate is off); invalid input fails naming the row, and a
  /// call that fails changes nothing.
  arrow::Status Add(const arrow::Array& variants,
                    arrow::MemoryPool* pool = arrow::default_memory_pool());
  /// \brief Adds one Variant value (already validated) as one row.
  void AddValue(const VariantView& value);
  /// \brief Scans JSON documents (a string, large_string or string_view array) as
  /// Add(JsonToVariant(strings, options)) would, without building the Variant column
  /// or validating what the parser just built: each document is parsed, then counted.
  /// A null string, and an invalid document under JsonErrorPolicy::kNull, is a SQL
  /// NULL row; other errors name the row, as JsonToVariant()'s do, and a call that
  /// fails changes nothing.
  arrow::Status AddJson(const arrow::Array& strings,
                        const JsonToVariantOptions& options = {});

  /// \brief Adds `other`'s counts to this. Paths `other` tracks but this cannot (caps
  /// of this object's options) are counted as untracked field values. Without caps
  /// hit, the result equals scanning both inputs into one object.
  arrow::Status Merge(const ShreddingStats& other);

  /// \brief A compact versioned binary form (magic "VSST", version 1, varints).
  std::string Serialize() const;
  /// \brief Reads Serialize() output. Truncated, inconsistent or foreign bytes give
  /// Invalid naming what is wrong and at which byte; never a crash.
  static arrow::Result<ShreddingStats> Deserialize(std::string_view bytes);

  /// \brief The shredding schema the statistics suggest.
  ///
  /// Per path, the candidate type covering the most values under Shred's lenient
  /// numeric rules wins:
  /// - integers only: bigint (or the narrowest type with narrow_integers);
  /// - integers and/or decimals: decimal(max integer digits + max scale, max scale);
  ///   past 38 digits, bigint or decimal(38, s) for the s that covers most values;
  /// - float, double, boolean, string, binary, uuid, date, time and each timestamp
  ///   kind: that exact type (floats and doubles never mix with exact numerics);
  /// - objects: an object of the fields present in >= min_fraction of them;
  /// - arrays: an array of the `[]` path's schema.
  /// The winner must cover min_typed_fraction of the non-null values, else the path
  /// is value-only. This holds at the top level too: rows of another shape than the
  /// dominant one simply go to the residual `value`.
  arrow::Result<ShreddingSchema> DeriveSchema(const InferOptions& options = {}) const;

  /// \brief Typed/residual/missing counts per path of `schema` for the scanned data,
  /// assuming NumericShredding::kLenient (Shred's default). Exact except where
  /// ShreddingReport::Row::exact says otherwise.
  arrow::Result<ShreddingReport> Report(const ShreddingSchema& schema) const;

  /// Rows scanned, SQL NULL rows included.
  int64_t rows() const { return rows_; }
  int64_t sql_null_rows() const { return sql_null_rows_; }
  /// The top-level path (its present() is the number of non-null rows).
  const PathStats& root() const { return *root_; }
  /// \brief The statistics of a path in FromPaths() syntax ("" or "$" for the top
  /// level, `a.b`, `tags[]`, `` `a.b`.c ``), or null when not tracked.
  const PathStats* Find(std::string_view path) const;
  /// \brief Every non-zero count of values by type, path by path (depth first, fields
  /// in first-seen order); untracked paths are not counted.
  std::vector<PathTypeCount> TypeCounts() const;
  /// Number of tracked paths, the top level included.
  int64_t num_paths() const { return num_paths_; }
  const ShreddingStatsOptions& options() const { return options_; }

 private:
  friend struct ShreddingStatsScan;
  friend struct ShreddingStatsFormat;

  arrow::Status AddRows(const arrow::Array& variants, arrow::MemoryPool* pool);
  arrow::Status AddJsonRows(const arrow::Array& strings,
                            const JsonToVariantOptions& options);
  // `add(batch)` counts rows into a fresh `batch`, merged in only if it succeeds.
  template <typename AddTo>
  arrow::Status AddAll(AddTo&& add);

  ShreddingStatsOptions options_;
  std::unique_ptr<PathStats> root_;
  int64_t rows_ = 0;
  int64_t sql_null_rows_ = 0;
  int64_t num_paths_ = 1;
};

}  // namespace varshred
