// Licensed under the Apache License, Version 2.0.

#include "varshred/parquet/filesystem.h"

#include <arrow/filesystem/localfs.h>

#include <cctype>

namespace varshred {

namespace {

// "scheme://...": RFC 3986 scheme characters, at least two of them (so that a Windows
// drive letter is never taken for a scheme).
bool IsUri(const std::string& path) {
  const size_t colon = path.find("://");
  if (colon == std::string::npos || colon < 2) return false;
  if (!std::isalpha(static_cast<unsigned char>(path[0]))) return false;
  for (size_t i = 1; i < colon; ++i) {
    const char c = path[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' &&
        c != '.') {
      return false;
    }
  }
  return true;
}

}  // namespace

arrow::Result<FileLocation> ResolveFile(
    const std::string& path, const std::shared_ptr<arrow::fs::FileSystem>& filesystem) {
  if (filesystem != nullptr) {
    if (!IsUri(path)) return FileLocation{filesystem, path};
    auto inner = filesystem->PathFromUri(path);
    if (!inner.ok())
      return inner.status().WithMessage(path, ": ", inner.status().message());
    return FileLocation{filesystem, *inner};
  }
  if (!IsUri(path)) {
    // Relative paths stay relative (arrow::fs::FileSystemFromUriOrPath wants them
    // absolute), so errors name the file as the user did.
    return FileLocation{std::make_shared<arrow::fs::LocalFileSystem>(), path};
  }
  FileLocation out;
  auto fs = arrow::fs::FileSystemFromUri(path, &out.path);
  if (!fs.ok()) return fs.status().WithMessage(path, ": ", fs.status().message());
  out.fs = std::move(fs).ValueOrDie();
  return out;
}

}  // namespace varshred
