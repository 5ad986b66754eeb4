// Licensed under the Apache License, Version 2.0.
//
// Where the Parquet reader and writer find their files: local paths and every URI
// Arrow's filesystem layer understands (docs/storage.md).

#pragma once

#include <arrow/filesystem/filesystem.h>
#include <arrow/result.h>

#include <memory>
#include <string>

namespace varshred {

/// \brief A file named by the user, resolved to a filesystem and a path in it.
struct FileLocation {
  std::shared_ptr<arrow::fs::FileSystem> fs;
  /// The path in `fs` (for object stores "bucket/key").
  std::string path;
};

/// \brief Resolves `path`: a local path (relative or absolute) or a URI that
/// arrow::fs::FileSystemFromUri understands (file://, s3://, gs://, abfs://, hdfs://...;
/// credentials, region and endpoint from the URI's query parameters or the standard
/// environment variables, e.g. AWS_ENDPOINT_URL). With `filesystem` given, `path` is a
/// path in it, or a URI of it.
///
/// S3 is initialised on first use by Arrow; a C++ program that uses s3:// calls
/// arrow::fs::EnsureS3Finalized() before it exits (pyarrow does so in Python).
arrow::Result<FileLocation> ResolveFile(
    const std::string& path,
    const std::shared_ptr<arrow::fs::FileSystem>& filesystem = nullptr);

}  // namespace varshred
