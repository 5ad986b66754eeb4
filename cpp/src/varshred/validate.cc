// Licensed under the Apache License, Version 2.0.

#include "varshred/validate.h"

#include "varshred/validate_internal.h"
#include "varshred/validate_walk_internal.h"

namespace varshred {

arrow::Status internal::MaxDepthOutOfRange(int max_depth) {
  return arrow::Status::Invalid("max_depth ", max_depth, " is outside 0..",
                                kMaxNestingDepth, " (varshred's nesting limit)");
}

arrow::Status ValidateValue(const MetadataView& metadata, std::string_view value,
                            const ValidateOptions& options, ValueFacts* facts) {
  return internal::ValidateValue(metadata, nullptr, value, options, facts);
}

arrow::Status internal::ValidateValue(const MetadataView& metadata,
                                      const uint32_t* key_ranks, std::string_view value,
                                      const ValidateOptions& options, ValueFacts* facts) {
  ARROW_RETURN_NOT_OK(CheckValidateOptions(options));
  internal::NoVisit nothing;
  internal::Validator validator(metadata, key_ranks, options, &nothing);
  ARROW_RETURN_NOT_OK(validator.Run(value));
  if (facts != nullptr) *facts = validator.facts();
  return arrow::Status::OK();
}

arrow::Status Validate(std::string_view metadata, std::string_view value,
                       const ValidateOptions& options) {
  ARROW_ASSIGN_OR_RAISE(MetadataView md, MetadataView::Make(metadata));
  return ValidateValue(md, value, options);
}

}  // namespace varshred
