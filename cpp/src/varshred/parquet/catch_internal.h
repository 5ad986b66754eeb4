// Licensed under the Apache License, Version 2.0.
//
// Parquet C++ reports corrupt files (and some failed writes) by throwing:
// parquet::ParquetException from metadata accessors, statistics, readers and writers,
// std::bad_alloc for absurd sizes, other std exceptions from thrift. No varshred entry
// point lets one escape (it would terminate the process): each runs its Parquet calls
// through CatchParquet().

#pragma once

#include <arrow/result.h>
#include <arrow/status.h>
#include <parquet/exception.h>

#include <exception>
#include <new>
#include <string>

namespace varshred::internal {

/// \brief Runs `f` (returning a Status or a Result) and turns any exception it throws
/// into an error naming `path`: Invalid "<path>: <what> (<exception>)", e.g. what =
/// "corrupt Parquet file", or OutOfMemory for std::bad_alloc.
template <typename F>
auto CatchParquet(const std::string& path, const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const ::parquet::ParquetStatusException& e) {
    return e.status().WithMessage(path, ": ", what, " (", e.status().message(), ")");
  } catch (const std::bad_alloc&) {
    return arrow::Status::OutOfMemory(path, ": ", what, " (out of memory)");
  } catch (const std::exception& e) {
    return arrow::Status::Invalid(path, ": ", what, " (", e.what(), ")");
  }
}

}  // namespace varshred::internal
