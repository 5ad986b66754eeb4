// Licensed under the Apache License, Version 2.0.
//
// Arrow extension arrays: reaching their storage.

#pragma once

#include <arrow/array.h>
#include <arrow/extension_type.h>

#include <memory>

namespace varshred::internal {

/// The storage of an extension array, or the array itself.
inline std::shared_ptr<arrow::Array> StorageOf(const std::shared_ptr<arrow::Array>& a) {
  if (a->type_id() == arrow::Type::EXTENSION) {
    return std::static_pointer_cast<arrow::ExtensionArray>(a)->storage();
  }
  return a;
}

}  // namespace varshred::internal
