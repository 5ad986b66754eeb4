// Licensed under the Apache License, Version 2.0.
//
// Writing tables with Variant columns to Parquet, shredding them on the way.

#pragma once

#include <arrow/memory_pool.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/table.h>
#include <arrow/util/compression.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/parquet/filesystem.h"

namespace varshred {

struct ParquetWriteOptions {
  arrow::Compression::type compression = arrow::Compression::ZSTD;
  std::optional<int> compression_level;
  /// Rows per row group, at most.
  int64_t row_group_size = 1 << 20;
  /// Bytes a row group may buffer in memory (its encoded and compressed pages, plus
  /// what is not yet paged): a new one starts once it holds this much, so that wide
  /// rows bound the writer's memory by bytes, not by a row count. 0: no bound.
  int64_t row_group_bytes = 128 << 20;
  /// Input bytes of a Variant column shredded at a time: larger batches are written in
  /// slices of about this size, which bounds the levels and values held between the
  /// shredder and Parquet's column writers.
  int64_t slice_bytes = 16 << 20;
  /// Target size of a data page in bytes.
  int64_t data_page_size = 1 << 20;
  /// The smallest data_page_size accepted: smaller pages make Parquet C++ write empty
  /// pages in repeated columns, which Spark and pyarrow refuse.
  static constexpr int64_t kMinDataPageSize = 1024;
  bool dictionary = true;
  bool statistics = true;
  /// Annotate Variant groups VARIANT(1). Spark and DuckDB need it; Polars 2.1 fails on
  /// it (docs/interop.md#other-engines), so it can be turned off.
  bool annotate = true;
  NumericShredding numeric = NumericShredding::kLenient;
  /// Encode and compress the leaf columns of Variant columns in parallel on Arrow's
  /// CPU thread pool (not from a task of that pool: it waits for the leaves).
  bool use_threads = false;
  /// Variant columns whose bytes this process built itself (e.g. JsonToVariant output
  /// handed straight to the writer): their rows are not validated again. Bytes from
  /// anywhere else must not be listed: invalid bytes here are undefined behaviour.
  std::vector<std::string> trusted_columns;
  /// The filesystem `path` is in; by default resolved from `path` (a local path or a
  /// URI: see ResolveFile).
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
};

/// \brief Writes record batches to one Parquet file, shredding Variant columns.
///
/// A column is a Variant column when it is a struct whose children are `metadata` and
/// `value` binaries (any order: canonical or Spark layout) or a shredded Variant struct.
/// Each is written as a group {required binary metadata; optional binary value;
/// typed_value per its schema in `shredding`} (an unlisted Variant column, or one
/// mapped to ShreddingSchema::ValueOnly(), is the plain group {metadata, value}).
/// Other columns, nested ones included, are written by parquet::arrow::FileWriter into
/// the same row groups.
///
/// `path` is a local path or a URI (s3://, gs://, abfs://, hdfs://, file://...). The
/// write is never partial: the file appears under `path` only when Close() succeeds
/// (locally a temporary file next to `path`, renamed; on S3 a multipart upload,
/// completed; docs/storage.md). Abort(), a failed Close() or destroying an unclosed
/// writer drops what was written, so no partial file ever appears under `path`.
class ParquetWriter {
 public:
  static arrow::Result<std::unique_ptr<ParquetWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>& schema,
      std::map<std::string, ShreddingSchema> shredding,
      const ParquetWriteOptions& options = {},
      arrow::MemoryPool* pool = arrow::default_memory_pool());
  virtual ~ParquetWriter();

  /// \brief Writes the rows of `batch` (its schema must equal the writer's).
  virtual arrow::Status Write(const arrow::RecordBatch& batch) = 0;
  /// \brief Writes JSON documents as rows of the writer's Variant column, which must be
  /// its only column: the same file as Write() of JsonToVariant(strings, options), with
  /// less work (json_kernels.h). Values the shredding schema types go to their columns
  /// without being built as Variant bytes first. A null string is a SQL NULL row;
  /// errors name the row of `strings`, as JsonToVariant's do. Documents are taken in
  /// runs of about slice_bytes of text, so memory does not grow with the input. With
  /// use_threads a run's halves are shredded at once. Returns the number of invalid
  /// documents written as SQL NULL (JsonErrorPolicy::kNull).
  virtual arrow::Result<int64_t> WriteJson(const arrow::Array& strings,
                                           const JsonToVariantOptions& options = {}) = 0;
  /// \brief As WriteJson(), for JSON lines: each line of `text` holding more than
  /// whitespace is a row (JsonLinesToVariant()).
  virtual arrow::Result<int64_t> WriteJsonLines(
      std::string_view text, const JsonToVariantOptions& options = {}) = 0;
  /// \brief Finishes the file and publishes it under its final name.
  virtual arrow::Status Close() = 0;
  /// \brief Drops everything written; no file remains.
  virtual void Abort() = 0;
  /// \brief Whether the writer is closed: by Close(), Abort() or a failed write, which
  /// drops the file. A call refused before it writes anything (a batch of another
  /// schema, WriteJson() on a writer of several columns) leaves it open.
  virtual bool closed() const = 0;
  /// \brief Rows written so far.
  virtual int64_t num_rows() const = 0;
  /// \brief The path actually used (after Close(), the final file).
  virtual const std::string& path() const = 0;
  /// \brief The primitive types (ValueFacts::primitive_types) found anywhere in the
  /// values of Variant column `name` written so far, learnt while validating them;
  /// nullopt when `name` is not a Variant column or is trusted (not validated).
  virtual std::optional<uint32_t> primitive_types_written(
      const std::string& name) const = 0;
};

/// \brief Writes `table` to `path` in one call (see ParquetWriter).
arrow::Status WriteParquet(const arrow::Table& table, const std::string& path,
                           std::map<std::string, ShreddingSchema> shredding,
                           const ParquetWriteOptions& options = {},
                           arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief The codec named `name`, case-insensitive: none | uncompressed, snappy, gzip,
/// brotli, zstd, lz4 (LZ4 raw, as Parquet's LZ4_RAW). Unknown names are Invalid, with
/// the valid ones listed.
arrow::Result<arrow::Compression::type> ParseCompression(std::string_view name);

}  // namespace varshred
