// Licensed under the Apache License, Version 2.0.

#include "varshred/parquet/reader.h"

#include <arrow/array.h>
#include <arrow/io/file.h>
#include <arrow/type.h>
#include <arrow/util/string.h>
#include <parquet/arrow/reader.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>
#include <parquet/schema.h>
#include <parquet/statistics.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "varshred/arrow/legacy.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/format.h"
#include "varshred/parquet/catch_internal.h"
#include "varshred/parquet/filesystem.h"
#include "varshred/row_error_internal.h"
#include "varshred/utf8_internal.h"

namespace varshred {

namespace pq = ::parquet;

namespace {

constexpr char kCorrupt[] = "corrupt Parquet file";

using FileSystemPtr = std::shared_ptr<arrow::fs::FileSystem>;

std::vector<ParquetColumnInfo> Columns(const pq::SchemaDescriptor& schema);

// Whether every data page of leaf `leaf`, in every row group, is dictionary-encoded
// (by the footer's page encoding statistics; unknown counts as no).
bool AllPagesInDictionary(const pq::FileMetaData& metadata, int leaf) {
  for (int g = 0; g < metadata.num_row_groups(); ++g) {
    const auto chunk = metadata.RowGroup(g)->ColumnChunk(leaf);
    const std::vector<pq::PageEncodingStats> stats = chunk->encoding_stats();
    if (stats.empty()) return false;
    for (const pq::PageEncodingStats& page : stats) {
      const bool data = page.page_type == pq::PageType::DATA_PAGE ||
                        page.page_type == pq::PageType::DATA_PAGE_V2;
      if (data && page.encoding != pq::Encoding::PLAIN_DICTIONARY &&
          page.encoding != pq::Encoding::RLE_DICTIONARY) {
        return false;
      }
    }
  }
  return true;
}

// ParquetReadOptions::dictionaries: the binary leaves of Variant columns whose pages
// are all dictionary-encoded are read as dictionary arrays, which decode without
// copying each row's bytes.
void ReadDictionaries(const pq::FileMetaData& metadata,
                      pq::ArrowReaderProperties* properties) {
  const pq::SchemaDescriptor& schema = *metadata.schema();
  for (const ParquetColumnInfo& c : Columns(schema)) {
    if (c.layout == VariantColumnLayout::kNone) continue;
    for (int leaf : c.leaves) {
      if (schema.Column(leaf)->physical_type() == pq::Type::BYTE_ARRAY &&
          AllPagesInDictionary(metadata, leaf)) {
        properties->set_read_dictionary(leaf, true);
      }
    }
  }
}

// Names are text to every reader (Python's str, JSON keys): pyarrow raised a bare
// UnicodeDecodeError on a column name that is not UTF-8.
arrow::Status CheckColumnNames(const std::string& path,
                               const pq::SchemaDescriptor& schema) {
  for (int i = 0; i < schema.num_columns(); ++i) {
    const auto column_path = schema.Column(i)->path();  // owns the names below
    for (const auto& name : column_path->ToDotVector()) {
      if (!internal::IsValidUtf8(name)) {
        return arrow::Status::Invalid(
            path, ": column name is not UTF-8: ", arrow::HexEncode(name));
      }
    }
  }
  return arrow::Status::OK();
}

// Parquet C++ ends a column early, without an error, on some files of empty pages
// (pyarrow writes them with tiny pages): a read of fewer rows than the footer lists for
// the row groups read is refused.
arrow::Status CheckRowsRead(const std::string& path, int64_t read, int64_t listed) {
  if (read == listed) return arrow::Status::OK();
  return arrow::Status::Invalid(path, ": corrupt file: ", read, " rows read of the ",
                                listed, " its footer lists for the row groups read");
}

arrow::Status NotReadable(const std::string& path, const arrow::Status& st) {
  return arrow::Status::Invalid(path, ": not a readable Parquet file (", st.message(),
                                ")");
}

pq::ReaderProperties FileProperties() {
  pq::ReaderProperties properties;
  properties.set_schema_depth_limit(kMaxParquetSchemaDepth);
  return properties;
}

// A reader of the file `opened` (of `path`, opened first when null).
arrow::Result<std::unique_ptr<pq::arrow::FileReader>> OpenFile(
    const std::string& path, arrow::MemoryPool* pool, const FileSystemPtr& filesystem,
    bool int96_as_micros = false, bool dictionaries = false,
    std::shared_ptr<const OpenedParquetFile> opened = nullptr) {
  if (opened == nullptr) {
    ARROW_ASSIGN_OR_RAISE(opened, OpenedParquetFile::Open(path, filesystem));
  }
  pq::arrow::FileReaderBuilder builder;
  // The footer already read: not parsed again.
  auto st = builder.Open(opened->file(), FileProperties(), opened->metadata());
  std::unique_ptr<pq::arrow::FileReader> reader;
  if (st.ok()) {
    pq::ArrowReaderProperties properties;
    if (int96_as_micros)
      properties.set_coerce_int96_timestamp_unit(arrow::TimeUnit::MICRO);
    if (dictionaries) ReadDictionaries(*opened->metadata(), &properties);
    st = builder.memory_pool(pool)->properties(properties)->Build(&reader);
  }
  if (!st.ok()) return NotReadable(path, st);
  return reader;
}

// `selected`, or every row group when it is empty; an index out of range is an error
// naming the file.
arrow::Result<std::vector<int>> RowGroups(const std::string& path,
                                          const pq::arrow::FileReader& reader,
                                          const std::vector<int>& selected) {
  const int n = reader.num_row_groups();
  if (selected.empty()) {
    std::vector<int> all(n);
    for (int i = 0; i < n; ++i) all[i] = i;
    return all;
  }
  for (int g : selected) {
    if (g < 0 || g >= n) {
      return arrow::Status::IndexError(path, ": no row group ", g, " (the file has ", n,
                                       ")");
    }
  }
  return selected;
}

// Every row has at least one value (or null) in each column chunk. Parquet C++ reads a
// chunk up to its footer's count, so a corrupt count (negative, or fewer than the
// rows) silently shortened the row group: the rows are refused instead.
arrow::Status CheckValueCounts(const std::string& path, const pq::FileMetaData& md,
                               const std::vector<int>& row_groups,
                               const std::vector<int>& leaves) {
  for (int g : row_groups) {
    const auto rg = md.RowGroup(g);
    const int64_t rows = rg->num_rows();
    for (int leaf : leaves) {
      const int64_t values = rg->ColumnChunk(leaf)->num_values();
      if (rows < 0 || values < rows) {
        return arrow::Status::Invalid(path, ": corrupt footer: row group ", g, " has ",
                                      rows, " rows but ", values, " values in column ",
                                      md.schema()->Column(leaf)->path()->ToDotString());
      }
    }
  }
  return arrow::Status::OK();
}

bool HasChild(const pq::schema::GroupNode& g, const std::string& name) {
  return g.FieldIndex(name) >= 0;
}

ParquetColumnInfo Classify(const pq::schema::Node& node) {
  ParquetColumnInfo info;
  info.name = node.name();
  if (!node.is_group()) return info;
  const auto& g = static_cast<const pq::schema::GroupNode&>(node);
  info.annotated = node.logical_type() != nullptr && node.logical_type()->is_variant();
  if (info.annotated) {
    info.spec_version =
        static_cast<const pq::VariantLogicalType&>(*node.logical_type()).spec_version();
  }
  const bool metadata = HasChild(g, "metadata");
  if (metadata && HasChild(g, "typed_value")) {
    info.layout = VariantColumnLayout::kShredded;
  } else if (metadata && HasChild(g, "value")) {
    info.layout = VariantColumnLayout::kUnshredded;
  } else if (!metadata && (HasChild(g, "untyped_value") || HasChild(g, "object") ||
                           HasChild(g, "array"))) {
    info.layout = VariantColumnLayout::kLegacy;
  }
  if (info.layout != VariantColumnLayout::kLegacy && info.annotated &&
      info.layout == VariantColumnLayout::kNone) {
    info.layout = VariantColumnLayout::kShredded;  // let reconstruction name the problem
  }
  return info;
}

std::vector<ParquetColumnInfo> Columns(const pq::SchemaDescriptor& schema) {
  std::vector<ParquetColumnInfo> out;
  const auto* root = schema.group_node();
  for (int i = 0; i < root->field_count(); ++i) out.push_back(Classify(*root->field(i)));
  for (int leaf = 0; leaf < schema.num_columns(); ++leaf) {
    const pq::schema::Node* top = schema.GetColumnRoot(leaf);
    for (int i = 0; i < root->field_count(); ++i) {
      if (root->field(i).get() == top) out[i].leaves.push_back(leaf);
    }
  }
  return out;
}

// Turns one stored column into an unshredded canonical Variant column.
arrow::Result<std::shared_ptr<arrow::Array>> Reconstruct(
    const ParquetColumnInfo& info, const std::shared_ptr<arrow::Array>& column,
    const ParquetReadOptions& options, arrow::MemoryPool* pool) {
  UnshredOptions unshred = options.unshred;
  unshred.layout = VariantLayout::kCanonical;
  if (info.layout == VariantColumnLayout::kLegacy) {
    return FromLegacyShredded(*column, pool);  // the draft layout, rebuilt directly
  }
  return Unshred(*column, unshred, pool);
}

class VariantBatchReader : public arrow::RecordBatchReader {
 public:
  VariantBatchReader(std::unique_ptr<pq::arrow::FileReader> file,
                     std::shared_ptr<arrow::RecordBatchReader> inner,
                     std::vector<ParquetColumnInfo> infos, ParquetReadOptions options,
                     std::string path, arrow::MemoryPool* pool,
                     const std::vector<int>& row_groups)
      : file_(std::move(file)),
        inner_(std::move(inner)),
        infos_(std::move(infos)),
        options_(std::move(options)),
        path_(std::move(path)),
        pool_(pool) {
    arrow::FieldVector fields = inner_->schema()->fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (Converts(i)) {
        fields[i] =
            arrow::field(fields[i]->name(), VariantStorageType(VariantLayout::kCanonical),
                         fields[i]->nullable());
      }
    }
    schema_ = arrow::schema(fields, inner_->schema()->metadata());
    const auto& md = *file_->parquet_reader()->metadata();
    std::vector<int64_t> first(static_cast<size_t>(md.num_row_groups()) + 1, 0);
    for (int g = 0; g < md.num_row_groups(); ++g) {
      first[g + 1] = first[g] + md.RowGroup(g)->num_rows();
    }
    for (int g : row_groups) spans_.emplace_back(first[g], first[g + 1] - first[g]);
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    return internal::CatchParquet(path_, kCorrupt, [&] { return ReadNextBatch(out); });
  }

 private:
  arrow::Status ReadNextBatch(std::shared_ptr<arrow::RecordBatch>* out) {
    std::shared_ptr<arrow::RecordBatch> batch;
    auto st = inner_->ReadNext(&batch);
    if (!st.ok()) return st.WithMessage(path_, ": ", st.message());
    if (!batch) {
      *out = nullptr;
      int64_t listed = 0;
      for (const auto& span : spans_) listed += span.second;
      return CheckRowsRead(path_, rows_, listed);
    }
    arrow::ArrayVector columns = batch->columns();
    for (size_t i = 0; i < columns.size(); ++i) {
      if (!Converts(i)) continue;
      auto rebuilt = Reconstruct(infos_[i], columns[i], options_, pool_);
      if (!rebuilt.ok()) {
        // The row as the file numbers it, whichever row groups this reader reads.
        const arrow::Status& st = rebuilt.status();
        const auto at =
            internal::RenumberRow(st, [&](int64_t row) { return FileRow(rows_ + row); });
        const std::string rows = internal::NamesRow(st.message())
                                     ? ""
                                     : "rows " + std::to_string(FileRow(rows_)) + "+: ";
        return st.WithMessage(path_, ": column \"", infos_[i].name, "\", ", rows,
                              at.message());
      }
      columns[i] = *rebuilt;
    }
    rows_ += batch->num_rows();
    *out = arrow::RecordBatch::Make(schema_, batch->num_rows(), std::move(columns));
    return arrow::Status::OK();
  }

  // The file's number of the `row`th row this reader returns.
  int64_t FileRow(int64_t row) const {
    for (const auto& [first, rows] : spans_) {
      if (row < rows) return first + row;
      row -= rows;
    }
    return row;
  }

  bool Converts(size_t i) const {
    return infos_[i].layout != VariantColumnLayout::kNone &&
           (!options_.shredded || infos_[i].layout == VariantColumnLayout::kLegacy);
  }

  std::unique_ptr<pq::arrow::FileReader> file_;  // keeps the inner reader's source alive
  std::shared_ptr<arrow::RecordBatchReader> inner_;
  std::vector<ParquetColumnInfo> infos_;
  ParquetReadOptions options_;
  std::string path_;
  arrow::MemoryPool* pool_;
  std::shared_ptr<arrow::Schema> schema_;
  int64_t rows_ = 0;
  std::vector<std::pair<int64_t, int64_t>>
      spans_;  // (first file row, rows) read, in order
};

}  // namespace

arrow::Result<std::shared_ptr<const OpenedParquetFile>> OpenedParquetFile::Open(
    const std::string& path, const FileSystemPtr& filesystem) {
  return internal::CatchParquet(
      path, kCorrupt, [&]() -> arrow::Result<std::shared_ptr<const OpenedParquetFile>> {
        ARROW_ASSIGN_OR_RAISE(auto location, ResolveFile(path, filesystem));
        // Object stores: a size request, then range reads of the footer and the chunks.
        auto file = location.fs->OpenInputFile(location.path);
        if (!file.ok()) {
          // The OS error stays in the detail (its errno), as Arrow keeps it.
          const auto& st = file.status();
          std::string message = st.message();
          if (message.find(path) == std::string::npos) message = path + ": " + message;
          return arrow::Status(st.code(), message, st.detail());
        }
        pq::arrow::FileReaderBuilder builder;
        const auto st = builder.Open(*file, FileProperties());
        if (!st.ok()) return NotReadable(path, st);
        auto out = std::make_shared<OpenedParquetFile>();
        out->path_ = path;
        out->file_ = std::move(file).ValueOrDie();
        out->metadata_ = builder.raw_reader()->metadata();
        ARROW_RETURN_NOT_OK(CheckColumnNames(path, *out->metadata_->schema()));
        return out;
      });
}

std::vector<int64_t> OpenedParquetFile::row_group_rows() const {
  std::vector<int64_t> rows(static_cast<size_t>(metadata_->num_row_groups()));
  for (int g = 0; g < metadata_->num_row_groups(); ++g) {
    rows[static_cast<size_t>(g)] = metadata_->RowGroup(g)->num_rows();
  }
  return rows;
}

arrow::Result<std::vector<ParquetColumnInfo>> InspectParquet(
    const std::string& path, const FileSystemPtr& filesystem) {
  return internal::CatchParquet(
      path, kCorrupt, [&]() -> arrow::Result<std::vector<ParquetColumnInfo>> {
        ARROW_ASSIGN_OR_RAISE(auto reader,
                              OpenFile(path, arrow::default_memory_pool(), filesystem));
        return Columns(*reader->parquet_reader()->metadata()->schema());
      });
}

arrow::Result<std::vector<std::vector<std::string>>> ParquetLeafPaths(
    const std::string& path, const FileSystemPtr& filesystem) {
  return internal::CatchParquet(
      path, kCorrupt, [&]() -> arrow::Result<std::vector<std::vector<std::string>>> {
        ARROW_ASSIGN_OR_RAISE(auto reader,
                              OpenFile(path, arrow::default_memory_pool(), filesystem));
        const pq::SchemaDescriptor& schema =
            *reader->parquet_reader()->metadata()->schema();
        std::vector<std::vector<std::string>> out;
        for (int leaf = 0; leaf < schema.num_columns(); ++leaf) {
          out.push_back(schema.Column(leaf)->path()->ToDotVector());
        }
        return out;
      });
}

arrow::Status CheckParquetFooter(const std::string& path,
                                 const FileSystemPtr& filesystem) {
  return internal::CatchParquet(path, kCorrupt, [&]() -> arrow::Status {
    ARROW_ASSIGN_OR_RAISE(auto reader,
                          OpenFile(path, arrow::default_memory_pool(), filesystem));
    const auto md = reader->parquet_reader()->metadata();
    for (int g = 0; g < md->num_row_groups(); ++g) {
      const auto rg = md->RowGroup(g);
      for (int i = 0; i < rg->num_columns(); ++i) {
        const auto chunk = rg->ColumnChunk(i);  // decodes size statistics (histograms)
        chunk->path_in_schema();
        if (!chunk->is_stats_set()) continue;
        const auto stats = chunk->statistics();  // decodes min and max for the type
        if (stats != nullptr && stats->HasMinMax()) {
          stats->EncodeMin();
          stats->EncodeMax();
        }
      }
    }
    return arrow::Status::OK();
  });
}

namespace {

bool ReadsDictionaries(const ParquetReadOptions& options) {
  return options.shredded && options.dictionaries;
}

// The batches of `row_groups`, none spanning two of them: a leaf read as dictionaries
// has one dictionary per row group, and Parquet C++ cannot hand a nested column whose
// batch would need two ("nested data conversions not implemented for chunked array
// outputs").
class RowGroupBatches : public arrow::RecordBatchReader {
 public:
  static arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Make(
      pq::arrow::FileReader* file, std::vector<int> row_groups, std::vector<int> leaves) {
    // The schema, from a reader of no row group.
    ARROW_ASSIGN_OR_RAISE(auto none, file->GetRecordBatchReader({}, leaves));
    auto reader = std::make_shared<RowGroupBatches>();
    reader->file_ = file;
    reader->schema_ = none->schema();
    reader->row_groups_ = std::move(row_groups);
    reader->leaves_ = std::move(leaves);
    return reader;
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* out) override {
    while (true) {
      if (current_ == nullptr) {
        if (next_ == row_groups_.size()) {
          *out = nullptr;
          return arrow::Status::OK();
        }
        ARROW_ASSIGN_OR_RAISE(
            current_, file_->GetRecordBatchReader({row_groups_[next_++]}, leaves_));
      }
      ARROW_RETURN_NOT_OK(current_->ReadNext(out));
      if (*out != nullptr) return arrow::Status::OK();
      current_.reset();
    }
  }

 private:
  pq::arrow::FileReader* file_ = nullptr;  // owned by the VariantBatchReader around this
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int> row_groups_;
  std::vector<int> leaves_;
  size_t next_ = 0;  // the next row group's place in row_groups_
  std::shared_ptr<arrow::RecordBatchReader> current_;
};

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenReader(
    const std::string& path, const ParquetReadOptions& options, arrow::MemoryPool* pool) {
  // Parquet C++ reads no rows at 0 and calls the file corrupt below it.
  if (options.batch_size <= 0) {
    return arrow::Status::Invalid("batch_size must be positive, not ",
                                  options.batch_size);
  }
  ARROW_ASSIGN_OR_RAISE(auto reader,
                        OpenFile(path, pool, options.filesystem, options.int96_as_micros,
                                 ReadsDictionaries(options), options.opened));
  const auto all = Columns(*reader->parquet_reader()->metadata()->schema());
  std::vector<ParquetColumnInfo> selected;
  if (options.columns.empty()) {
    selected = all;
  } else {
    // By name through a map: a file may have many thousands of columns.
    std::unordered_map<std::string_view, size_t> by_name;
    for (size_t i = all.size(); i-- > 0;) by_name[all[i].name] = i;  // the first wins
    std::vector<bool> named(all.size(), false);
    for (const auto& name : options.columns) {
      const auto it = by_name.find(name);
      if (it == by_name.end()) {
        return arrow::Status::KeyError(path, ": no column named \"", name, "\"");
      }
      // A column named twice is read once, where it was first named.
      if (!named[it->second]) selected.push_back(all[it->second]);
      named[it->second] = true;
    }
  }
  for (const auto& c : selected) {
    if (c.annotated && c.spec_version != 1) {
      return arrow::Status::NotImplemented(
          path, ": column \"", c.name, "\" is annotated VARIANT spec version ",
          c.spec_version, "; this reader knows version 1 only");
    }
  }
  std::vector<int> leaves;
  for (const auto& c : selected)
    leaves.insert(leaves.end(), c.leaves.begin(), c.leaves.end());
  ARROW_ASSIGN_OR_RAISE(auto row_groups, RowGroups(path, *reader, options.row_groups));
  ARROW_RETURN_NOT_OK(
      CheckValueCounts(path, *reader->parquet_reader()->metadata(), row_groups, leaves));
  reader->set_batch_size(options.batch_size);
  const std::vector<int> read_groups = row_groups;  // moved into the inner reader below
  auto inner = ReadsDictionaries(options)
                   ? RowGroupBatches::Make(reader.get(), std::move(row_groups), leaves)
                   : reader->GetRecordBatchReader(row_groups, leaves);
  if (!inner.ok())
    return inner.status().WithMessage(path, ": ", inner.status().message());
  std::shared_ptr<arrow::RecordBatchReader> inner_reader = std::move(inner).ValueOrDie();
  // Columns come back in the order their first leaves were asked for, which is
  // `selected`'s: each column's info is used on its own data.
  const arrow::Schema& read = *inner_reader->schema();
  bool aligned = read.num_fields() == static_cast<int>(selected.size());
  for (size_t i = 0; aligned && i < selected.size(); ++i) {
    aligned = read.field(static_cast<int>(i))->name() == selected[i].name;
  }
  if (!aligned) {
    return arrow::Status::Invalid(path, ": the columns read (", read.ToString(),
                                  ") are not the columns asked for");
  }
  return std::make_shared<VariantBatchReader>(std::move(reader), std::move(inner_reader),
                                              std::move(selected), options, path, pool,
                                              read_groups);
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenParquetReader(
    const std::string& path, const ParquetReadOptions& options, arrow::MemoryPool* pool) {
  return internal::CatchParquet(path, kCorrupt,
                                [&] { return OpenReader(path, options, pool); });
}

arrow::Result<std::shared_ptr<arrow::Table>> ReadParquet(
    const std::string& path, const ParquetReadOptions& options, arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto reader, OpenParquetReader(path, options, pool));
  return reader->ToTable();
}

arrow::Result<std::shared_ptr<arrow::ChunkedArray>> ReadParquetLeaves(
    const std::string& path, const std::vector<int>& leaves, arrow::MemoryPool* pool,
    const std::vector<int>& row_groups, const FileSystemPtr& filesystem,
    const std::shared_ptr<const OpenedParquetFile>& opened) {
  return internal::CatchParquet(
      path, kCorrupt, [&]() -> arrow::Result<std::shared_ptr<arrow::ChunkedArray>> {
        ARROW_ASSIGN_OR_RAISE(auto reader,
                              OpenFile(path, pool, filesystem, false, false, opened));
        ARROW_ASSIGN_OR_RAISE(auto groups, RowGroups(path, *reader, row_groups));
        ARROW_RETURN_NOT_OK(CheckValueCounts(path, *reader->parquet_reader()->metadata(),
                                             groups, leaves));
        auto read = reader->ReadRowGroups(groups, leaves);
        if (!read.ok()) {
          return read.status().WithMessage(path, ": ", read.status().message());
        }
        std::shared_ptr<arrow::Table> table = std::move(read).ValueOrDie();
        int64_t listed = 0;
        for (int g : groups)
          listed += reader->parquet_reader()->metadata()->RowGroup(g)->num_rows();
        ARROW_RETURN_NOT_OK(CheckRowsRead(path, table->num_rows(), listed));
        if (table->num_columns() != 1) {
          return arrow::Status::Invalid(path,
                                        ": leaves must belong to one top-level column");
        }
        return table->column(0);
      });
}

}  // namespace varshred
