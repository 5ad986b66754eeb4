// Licensed under the Apache License, Version 2.0.

#include "varshred/parquet/output_file.h"

#include <arrow/util/io_util.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <vector>

#include "varshred/parquet/filesystem.h"

namespace varshred::internal {

namespace {

// The stream the Parquet writer sees: Close() only flushes, so that publication is
// AtomicFile's decision alone whatever the writer does with its sink (on S3, closing
// the stream completes the upload).
class DeferredCloseStream : public arrow::io::OutputStream {
 public:
  explicit DeferredCloseStream(std::shared_ptr<arrow::io::OutputStream> sink)
      : sink_(std::move(sink)) {}
  arrow::Status Close() override {
    if (closed_) return arrow::Status::OK();
    closed_ = true;
    return sink_->closed() ? arrow::Status::OK() : sink_->Flush();
  }
  arrow::Status Abort() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_ || sink_->closed(); }
  arrow::Result<int64_t> Tell() const override { return sink_->Tell(); }
  arrow::Status Write(const void* data, int64_t nbytes) override {
    if (closed_) return arrow::Status::Invalid("write to a closed stream");
    return sink_->Write(data, nbytes);
  }
  arrow::Status Write(const std::shared_ptr<arrow::Buffer>& data) override {
    if (closed_) return arrow::Status::Invalid("write to a closed stream");
    return sink_->Write(data);
  }
  arrow::Status Flush() override { return sink_->Flush(); }

 private:
  std::shared_ptr<arrow::io::OutputStream> sink_;
  bool closed_ = false;
};

bool Sync(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  errno = err;
  return ok;
}

}  // namespace

arrow::Result<AtomicFile> AtomicFile::Open(
    const std::string& path, const std::shared_ptr<arrow::fs::FileSystem>& filesystem) {
  AtomicFile f;
  f.display_ = path;
  ARROW_ASSIGN_OR_RAISE(auto location, ResolveFile(path, filesystem));
  f.fs_ = std::move(location.fs);
  f.final_ = std::move(location.path);
  const std::string type = f.fs_->type_name();
  f.method_ = type == "local" ? Method::kLocalRename
              : type == "s3"  ? Method::kInPlace
                              : Method::kRename;
  // Refused before any row is written. A local directory would fail only at the
  // rename; an object store makes "directories" of key prefixes, and an object named
  // as one would hide the dataset under it.
  const auto existing = f.fs_->GetFileInfo(f.final_);
  if (!existing.ok()) return f.Named(existing.status());
  if (existing->type() == arrow::fs::FileType::Directory) {
    return arrow::Status::IOError(path, ": is a directory");
  }
  if (f.method_ == Method::kInPlace) {
    f.temp_ = f.final_;
  } else {
    const size_t slash = f.final_.rfind('/');
    const std::string dir =
        slash == std::string::npos ? "" : f.final_.substr(0, slash + 1);
    const std::string base =
        slash == std::string::npos ? f.final_ : f.final_.substr(slash + 1);
    std::random_device rd;
    const std::string suffix =
        ".varshred-tmp-" + std::to_string(rd()) + std::to_string(rd());
    // A name may take 255 bytes (NAME_MAX): a long target's temporary name keeps
    // what fits of it, cut between characters.
    constexpr size_t kMaxName = 255;
    size_t keep = std::min(base.size(), kMaxName - 1 - suffix.size());
    while (keep > 0 && keep < base.size() &&
           (static_cast<unsigned char>(base[keep]) & 0xC0) == 0x80) {
      --keep;
    }
    f.temp_ = dir + "." + base.substr(0, keep) + suffix;
  }
  f.owner_ = ::getpid();
  auto sink = f.fs_->OpenOutputStream(f.temp_);
  if (!sink.ok()) return f.Named(sink.status());
  f.sink_ = std::move(sink).ValueOrDie();
  f.stream_ = std::make_shared<DeferredCloseStream>(f.sink_);
  return f;
}

arrow::Status AtomicFile::Publish() {
  if (done_ || !sink_) return arrow::Status::Invalid(display_, ": already closed");
  if (::getpid() != owner_) {
    return arrow::Status::Invalid(display_, ": opened by another process (this one is ",
                                  "a fork of it): only that process may publish it");
  }
  auto st = stream_->Close();
  // Completes the upload in place (S3: the object appears now, whole).
  if (st.ok()) st = sink_->Close();
  if (!st.ok()) {
    Discard();
    return Named(st);
  }
  switch (method_) {
    case Method::kInPlace:
      break;
    case Method::kLocalRename: {
      // The data reach the disk before the name does: a crash after the rename never
      // leaves an empty or partial file under the target's name.
      if (!Sync(temp_, O_RDONLY)) {
        st = Failed("cannot sync the written file");
      } else if (std::rename(temp_.c_str(), final_.c_str()) != 0) {
        st = Failed("cannot move the written file into place");
      }
      if (!st.ok()) {
        Discard();
        return st;
      }
      // Best effort: make the rename durable too (not every file system syncs a
      // directory).
      const size_t slash = final_.rfind('/');
      (void)Sync(slash == std::string::npos ? "." : final_.substr(0, slash + 1),
                 O_RDONLY | O_DIRECTORY);
      break;
    }
    case Method::kRename: {
      st = fs_->Move(temp_, final_);
      if (st.IsNotImplemented()) {
        // No rename (e.g. Azure without a hierarchical namespace): a server-side copy
        // creates the final object at once.
        st = fs_->CopyFile(temp_, final_);
        if (st.ok()) (void)fs_->DeleteFile(temp_);
      }
      if (!st.ok()) {
        Discard();
        return Named(st);
      }
      break;
    }
  }
  done_ = true;
  return arrow::Status::OK();
}

namespace {

// A stream whose destructor must never run: it would complete an upload (S3 closes on
// destruction) that this process may not publish. Kept until the process exits.
void KeepUntilExit(std::shared_ptr<arrow::io::OutputStream> sink) {
  static auto* kept = new std::vector<std::shared_ptr<arrow::io::OutputStream>>;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  kept->push_back(std::move(sink));
}

}  // namespace

void AtomicFile::Discard() {
  if (done_ || !sink_) return;
  done_ = true;
  (void)stream_->Abort();  // no more writes through the writer's stream
  if (::getpid() != owner_) {
    // A fork dropping the writer it inherited: the file, the upload and the temporary
    // name are the parent's, which goes on writing them.
    KeepUntilExit(sink_);
    return;
  }
  // S3: aborts the multipart upload. A stream's destructor would Close() it instead,
  // which publishes.
  if (!sink_->Abort().ok() && !sink_->closed()) {
    // The store refused the abort (a policy without s3:AbortMultipartUpload): no
    // destructor may complete the upload. It stays incomplete, as after a killed
    // process, and never appears.
    KeepUntilExit(sink_);
  }
  if (method_ == Method::kLocalRename) {
    std::remove(temp_.c_str());
  } else if (method_ != Method::kInPlace) {
    (void)fs_->DeleteFile(temp_);
  }
}

arrow::Status AtomicFile::Named(const arrow::Status& st) const {
  if (st.ok() || !st.IsIOError()) return st;
  std::string message = st.message();
  if (temp_ != final_) {
    for (size_t at; (at = message.find(temp_)) != std::string::npos;) {
      message.replace(at, temp_.size(), final_);
    }
  }
  if (final_ != display_ && message.find(display_) == std::string::npos) {
    for (size_t at = 0; (at = message.find(final_, at)) != std::string::npos;
         at += display_.size()) {
      message.replace(at, final_.size(), display_);
    }
  }
  if (message.find(display_) == std::string::npos) message = display_ + ": " + message;
  return arrow::Status(st.code(), message, st.detail());
}

arrow::Status AtomicFile::Failed(const char* what) const {
  // errno in the detail, as Arrow's own I/O errors carry it (the Python binding
  // raises the OSError subclass for it).
  return arrow::Status::IOError(display_, ": ", what)
      .WithDetail(arrow::internal::StatusDetailFromErrno(errno));
}

}  // namespace varshred::internal
