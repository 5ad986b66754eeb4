// Licensed under the Apache License, Version 2.0.
//
// Errors name a row by its place in the array a kernel was given ("row 12: ...",
// "row 12, $.a: ..."). A caller that gave the kernel part of a longer input (a slice
// of a table, a row group of a file) renames the row by its place in that input.

#pragma once

#include <arrow/status.h>

#include <cstdint>
#include <string>

namespace varshred::internal {

constexpr char kRow[] = "row ";
constexpr size_t kRowSize = sizeof(kRow) - 1;

/// \brief Whether `message` starts by naming a row ("row 12...").
inline bool NamesRow(const std::string& message) {
  return message.compare(0, kRowSize, kRow) == 0 && message.size() > kRowSize &&
         message[kRowSize] >= '0' && message[kRowSize] <= '9';
}

/// \brief `st` with the row number its message starts with replaced by
/// `input_row(row)`; `st` itself when its message names no row first.
template <typename InputRow>
arrow::Status RenumberRow(const arrow::Status& st, InputRow&& input_row) {
  const std::string& message = st.message();
  if (st.ok() || !NamesRow(message)) return st;
  size_t end = kRowSize;
  int64_t row = 0;
  while (end < message.size() && message[end] >= '0' && message[end] <= '9' &&
         row < (int64_t{1} << 58)) {
    row = row * 10 + (message[end++] - '0');
  }
  return st.WithMessage("row ", input_row(row), message.substr(end));
}

/// \brief The error for a non-null Variant row whose metadata is null: every reader
/// says it in these words.
inline arrow::Status NullMetadataError(int64_t row) {
  return arrow::Status::Invalid(kRow, row, ": metadata is null in a non-null row");
}

/// \brief RenumberRow() for a slice starting at row `first` of the input.
inline arrow::Status ShiftRow(const arrow::Status& st, int64_t first) {
  return RenumberRow(st, [first](int64_t row) { return first + row; });
}

}  // namespace varshred::internal
