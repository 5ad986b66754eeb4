// Licensed under the Apache License, Version 2.0.
//
// Validity bits appended one row at a time.

#pragma once

#include <arrow/buffer_builder.h>
#include <arrow/status.h>

namespace varshred::internal {

/// \brief Appends `bit` to `bits`. TypedBufferBuilder<bool>::Append() calls into
/// libarrow to resize for every bit (about 140 instructions); while the builder has
/// room, which it mostly has since it grows by doubling, setting the bit is enough.
inline arrow::Status AppendBit(arrow::TypedBufferBuilder<bool>* bits, bool bit) {
  if (bits->length() < bits->capacity()) {
    bits->UnsafeAppend(bit);
    return arrow::Status::OK();
  }
  return bits->Append(bit);
}

}  // namespace varshred::internal
