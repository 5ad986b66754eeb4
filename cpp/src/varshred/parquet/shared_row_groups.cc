// Licensed under the Apache License, Version 2.0.

#include <parquet/column_writer.h>
#include <parquet/exception.h>

#include "varshred/parquet/shared_row_groups_internal.h"

namespace varshred::internal {

namespace pq = ::parquet;

namespace {

// A row group of the real file seen through the subset's column numbers.
class SubsetRowGroup : public pq::RowGroupWriter::Contents {
 public:
  SubsetRowGroup(pq::RowGroupWriter* row_group, const std::vector<int>* leaves)
      : row_group_(row_group), leaves_(leaves) {}

  int num_columns() const override { return static_cast<int>(leaves_->size()); }
  // The subset's own row count: the owner writes its columns at other times, so the
  // file's row group (which checks that all columns agree) cannot be asked mid-way.
  int64_t num_rows() const override {
    return leaves_->empty() ? 0 : row_group_->column((*leaves_)[0])->rows_written();
  }
  pq::ColumnWriter* NextColumn() override {
    throw pq::ParquetException("SharedRowGroups: only buffered row groups");
  }
  pq::ColumnWriter* column(int i) override { return row_group_->column(leaves_->at(i)); }
  int current_column() const override { return -1; }
  void Close() override { row_group_->Close(); }
  int64_t total_bytes_written() const override {
    return row_group_->total_bytes_written();
  }
  int64_t total_compressed_bytes() const override {
    return row_group_->total_compressed_bytes();
  }
  int64_t total_compressed_bytes_written() const override {
    return row_group_->total_compressed_bytes_written();
  }
  pq::RowGroupWriter::BufferedStats EstimatedBufferedStats() const override {
    return row_group_->estimated_buffered_stats();
  }
  bool buffered() const override { return true; }

 private:
  pq::RowGroupWriter* row_group_;
  const std::vector<int>* leaves_;
};

}  // namespace

SharedRowGroups::SharedRowGroups(pq::ParquetFileWriter* file,
                                 std::shared_ptr<pq::schema::GroupNode> subset,
                                 std::vector<int> leaves)
    : Contents(std::move(subset), nullptr), file_(file), leaves_(std::move(leaves)) {}

SharedRowGroups::~SharedRowGroups() = default;

void SharedRowGroups::Close() {
  subset_row_group_.reset();
  row_group_ = nullptr;
  file_->Close();
  file_metadata_ = file_->metadata();
}

pq::RowGroupWriter* SharedRowGroups::AppendRowGroup() {
  throw pq::ParquetException("SharedRowGroups: only buffered row groups");
}

pq::RowGroupWriter* SharedRowGroups::AppendBufferedRowGroup() {
  row_group_ = file_->AppendBufferedRowGroup();
  subset_row_group_ = std::make_unique<pq::RowGroupWriter>(
      std::make_unique<SubsetRowGroup>(row_group_, &leaves_));
  return subset_row_group_.get();
}

int64_t SharedRowGroups::num_rows() const { return file_->num_rows(); }
int SharedRowGroups::num_columns() const { return static_cast<int>(leaves_.size()); }
int SharedRowGroups::num_row_groups() const { return file_->num_row_groups(); }

const std::shared_ptr<pq::WriterProperties>& SharedRowGroups::properties() const {
  return file_->properties();
}

void SharedRowGroups::AddKeyValueMetadata(
    const std::shared_ptr<const pq::KeyValueMetadata>& metadata) {
  file_->AddKeyValueMetadata(metadata);
}

}  // namespace varshred::internal
