// Validation with what a reader of many rows already knows about their dictionary.

#pragma once

#include <arrow/status.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "varshred/path.h"
#include "varshred/validate.h"
#include "varshred/value.h"

namespace varshred::internal {

/// \brief ValidateValue() given `key_ranks`: nullptr, or each key id's position in
/// byte order of `metadata`'s keys, equal keys sharing one
/// (internal::MetadataCache::key_ranks()). Objects' key order and uniqueness are then
/// checked on the ranks without reading the keys; the result is the same.
arrow::Status ValidateValue(const MetadataView& metadata, const uint32_t* key_ranks,
                            std::string_view value, const ValidateOptions& options,
                            ValueFacts* facts);

/// \brief ValidateValue() of what Lookup(value, path) reads: the containers on `path`
/// (header, every id and offset, key order) and all of the value at its end, if any.
/// Other children of those containers are not read, so they are not checked. On
/// success `*found` is what Lookup(value, path) gives, without a second search.
arrow::Status ValidatePath(const MetadataView& metadata, const uint32_t* key_ranks,
                           std::string_view value, const VariantPath& path,
                           const ValidateOptions& options,
                           std::optional<VariantView>* found);

}  // namespace varshred::internal
