// Licensed under the Apache License, Version 2.0.
//
// Output that appears under its final name only when complete (docs/storage.md):
// - local files and stores with a rename (HDFS, Azure with a hierarchical namespace):
//   a hidden temporary file next to the target (same directory, so the rename is
//   atomic; a leading '.' so that directory readers such as Spark, DuckDB and
//   pyarrow.dataset skip it if the process dies), renamed on success; local files are
//   synced first;
// - S3: a multipart upload of the final key, completed by Publish() and aborted by
//   Discard(), so no object exists before Publish();
// - other object stores (GCS, Azure without a namespace): a hidden temporary object,
//   copied to the final name (one atomic object creation) and deleted.

#pragma once

#include <arrow/filesystem/filesystem.h>
#include <arrow/io/interfaces.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <sys/types.h>

#include <memory>
#include <string>

namespace varshred::internal {

class AtomicFile {
 public:
  /// \brief Starts writing `path` (a local path or URI, see ResolveFile).
  static arrow::Result<AtomicFile> Open(
      const std::string& path,
      const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr);

  /// \brief Where the data go. Its Close() only flushes: nothing is published until
  /// Publish(), whoever closes the stream.
  const std::shared_ptr<arrow::io::OutputStream>& stream() const { return stream_; }

  /// \brief Finishes the file and makes it visible under its final name.
  arrow::Status Publish();
  /// \brief Drops everything written; nothing remains. Safe to call twice.
  void Discard();

  /// \brief The path as the user named it.
  const std::string& final_path() const { return display_; }

  /// \brief `st` naming the target (never the temporary name) with the OS error.
  arrow::Status Named(const arrow::Status& st) const;

 private:
  enum class Method : uint8_t { kLocalRename, kRename, kInPlace };

  arrow::Status Failed(const char* what) const;

  std::shared_ptr<arrow::fs::FileSystem> fs_;
  Method method_ = Method::kLocalRename;
  std::string display_;                            // the user's path or URI
  std::string final_;                              // in fs_
  std::string temp_;                               // in fs_; equal to final_ for kInPlace
  std::shared_ptr<arrow::io::OutputStream> sink_;  // the store's stream
  std::shared_ptr<arrow::io::OutputStream> stream_;  // what the writer sees
  bool done_ = false;
  // The process that opened the file: a fork inherits the object, but the file stays
  // its parent's to publish or discard.
  pid_t owner_ = 0;
};

}  // namespace varshred::internal
