// Licensed under the Apache License, Version 2.0.
//
// Reading Parquet files with Variant columns, in any layout, back into Variant arrays.

#pragma once

#include <arrow/io/interfaces.h>
#include <arrow/memory_pool.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/table.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "varshred/arrow/unshred.h"
#include "varshred/parquet/filesystem.h"

namespace parquet {
class FileMetaData;
}  // namespace parquet

namespace varshred {

/// \brief How a top-level Parquet column holds Variant data.
enum class VariantColumnLayout : uint8_t {
  kNone,        ///< not a Variant column
  kUnshredded,  ///< {metadata, value}
  kShredded,    ///< {metadata, value?, typed_value} (docs/shredding.md)
  kLegacy,      ///< the seed draft: untyped_value / object / array / typed_value
};

/// \brief One top-level column of a Parquet file, as varshred sees it.
struct ParquetColumnInfo {
  std::string name;
  VariantColumnLayout layout = VariantColumnLayout::kNone;
  /// True when the group carries the VARIANT logical type annotation.
  bool annotated = false;
  /// The annotation's Variant spec version (0 when not annotated); only 1 is read.
  int spec_version = 0;
  /// Leaf column indexes of this column in the file, in order.
  std::vector<int> leaves;
};

/// \brief A Parquet file opened once, its footer read and checked (column names UTF-8).
///
/// Readers given it (ParquetReadOptions::opened) share the open file and the parsed
/// footer instead of opening the path again: a scan that reads a file's row groups as
/// separate units parses the footer once, not once per unit, and every unit reads the
/// file that was opened, even if another file is renamed over its path meanwhile (a
/// local file; an object store's later range reads fetch whatever the key then holds).
class OpenedParquetFile {
 public:
  static arrow::Result<std::shared_ptr<const OpenedParquetFile>> Open(
      const std::string& path,
      const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr);

  /// The path as given to Open(): errors name it.
  const std::string& path() const { return path_; }
  const std::shared_ptr<arrow::io::RandomAccessFile>& file() const { return file_; }
  const std::shared_ptr<parquet::FileMetaData>& metadata() const { return metadata_; }
  /// Rows of each row group, in order.
  std::vector<int64_t> row_group_rows() const;

 private:
  std::string path_;
  std::shared_ptr<arrow::io::RandomAccessFile> file_;
  std::shared_ptr<parquet::FileMetaData> metadata_;
};

struct ParquetReadOptions {
  /// Top-level columns to read, by name; empty reads all.
  std::vector<std::string> columns;
  /// Return shredded Variant columns as stored (raw struct) instead of reconstructing.
  bool shredded = false;
  /// Rows per batch for streaming reads.
  int64_t batch_size = 64 * 1024;
  /// Row groups to read, in this order; empty reads all. Lets a dataset scan split a
  /// file into row groups read in parallel, and skip pruned ones.
  std::vector<int> row_groups;
  /// Reconstruction of invalid data (error by default; typed-wins as parquet-java).
  UnshredOptions unshred;
  /// INT96 timestamps (Spark's default physical type for TIMESTAMP) as microseconds,
  /// as Spark reads them, instead of Arrow's nanoseconds (which overflow outside the
  /// years 1677-2262).
  bool int96_as_micros = false;
  /// With `shredded`: the binary and string leaves of Variant columns whose pages are
  /// all dictionary-encoded come as dictionary arrays (int32 indices), which decode
  /// without copying each row's bytes, for a reader that prints or compares the
  /// columns as stored (BinaryColumn and the shredded JSON printer read them).
  bool dictionaries = false;
  /// The filesystem `path` is in; by default resolved from `path` (see ResolveFile).
  std::shared_ptr<arrow::fs::FileSystem> filesystem;
  /// The file already opened (then `filesystem` is not used, and `path` names it in
  /// errors only): see OpenedParquetFile.
  std::shared_ptr<const OpenedParquetFile> opened;
};

// Every `path` below is a local path or a URI (s3://, gs://, abfs://, hdfs://,
// file://...; see ResolveFile), or a path in `filesystem` when one is given.

/// \brief The top-level columns of the file at `path` and their Variant layouts.
/// Fails with a clear error when the file is not Parquet or is truncated.
arrow::Result<std::vector<ParquetColumnInfo>> InspectParquet(
    const std::string& path,
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr);

/// \brief The path of every leaf column of the file at `path`, by leaf index, as a list
/// of names from the top-level column down. Compare these, never dotted strings: a name
/// may itself contain '.' ("user.id" next to "user" {"id"}).
arrow::Result<std::vector<std::vector<std::string>>> ParquetLeafPaths(
    const std::string& path,
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr);

/// \brief Reads the footer of `path` and every row group's column chunk metadata and
/// statistics, failing with an error naming the file where they are corrupt (column
/// names that are not UTF-8 included). Callers
/// that then read the footer with pyarrow (whose metadata accessors abort the process
/// on a corrupt footer instead of raising) check it here first.
arrow::Status CheckParquetFooter(
    const std::string& path,
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr);

/// \brief Streams record batches from `path`, reconstructing Variant columns (canonical
/// layout) batch by batch, so files larger than memory can be read.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenParquetReader(
    const std::string& path, const ParquetReadOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief Reads the whole file (see OpenParquetReader).
arrow::Result<std::shared_ptr<arrow::Table>> ReadParquet(
    const std::string& path, const ParquetReadOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief Reads only the given leaf columns (by index) of one top-level column and
/// returns them as a (partial) struct column: the basis of path projection, which
/// reads a path's typed_value leaf and the value columns on the way, not the rest.
/// `row_groups` selects row groups as ParquetReadOptions::row_groups does; `opened`
/// as ParquetReadOptions::opened.
arrow::Result<std::shared_ptr<arrow::ChunkedArray>> ReadParquetLeaves(
    const std::string& path, const std::vector<int>& leaves,
    arrow::MemoryPool* pool = arrow::default_memory_pool(),
    const std::vector<int>& row_groups = {},
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr,
    const std::shared_ptr<const OpenedParquetFile>& opened = nullptr);

}  // namespace varshred
