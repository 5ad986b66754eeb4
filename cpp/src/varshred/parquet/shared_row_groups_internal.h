// Licensed under the Apache License, Version 2.0.
//
// Sharing row groups between two column writers: ParquetWriter writes the Variant
// columns itself (the shredding core's Parquet sink) and lets parquet::arrow::FileWriter
// write every other column, nested ones included, into the same row groups.

#pragma once

#include <parquet/file_writer.h>
#include <parquet/schema.h>

#include <memory>
#include <vector>

namespace varshred::internal {

/// \brief The contents of a ParquetFileWriter that shows its user (Arrow's FileWriter)
/// only some leaf columns of a real file writer `file`: those of `subset`, a schema
/// made of some of the file's top-level fields, whose leaves are the file's leaves
/// `leaves` (in order).
///
/// Row groups are the file's: AppendBufferedRowGroup() starts one in `file` and
/// row_group() hands it to the owner, who writes the other columns into it. Close()
/// closes `file`. Only buffered row groups are supported.
class SharedRowGroups : public ::parquet::ParquetFileWriter::Contents {
 public:
  SharedRowGroups(::parquet::ParquetFileWriter* file,
                  std::shared_ptr<::parquet::schema::GroupNode> subset,
                  std::vector<int> leaves);
  ~SharedRowGroups() override;

  /// The file's current row group (null before the first one).
  ::parquet::RowGroupWriter* row_group() const { return row_group_; }

  void Close() override;
  ::parquet::RowGroupWriter* AppendRowGroup() override;
  ::parquet::RowGroupWriter* AppendBufferedRowGroup() override;
  int64_t num_rows() const override;
  int num_columns() const override;
  int num_row_groups() const override;
  const std::shared_ptr<::parquet::WriterProperties>& properties() const override;
  void AddKeyValueMetadata(
      const std::shared_ptr<const ::parquet::KeyValueMetadata>& metadata) override;

 private:
  ::parquet::ParquetFileWriter* file_;
  std::vector<int> leaves_;
  ::parquet::RowGroupWriter* row_group_ = nullptr;
  std::unique_ptr<::parquet::RowGroupWriter> subset_row_group_;
};

}  // namespace varshred::internal
