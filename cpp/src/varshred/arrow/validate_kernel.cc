// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/validate_kernel.h"

#include <arrow/array/util.h>

#include "varshred/arrow/variant_array.h"
#include "varshred/validate.h"

namespace varshred {

arrow::Status ValidateVariants(const arrow::Array& variants,
                               const ValidateOptions& options) {
  ARROW_RETURN_NOT_OK(CheckValidateOptions(options));
  ARROW_ASSIGN_OR_RAISE(auto view,
                        VariantArrayView::Make(arrow::MakeArray(variants.data())));
  const bool shredded = view.typed_value() != nullptr;
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) continue;
    if (view.metadata_column().IsNull(i)) {
      return arrow::Status::Invalid("row ", i, ": metadata is null in a non-null row");
    }
    if (view.value_is_null(i)) {
      if (shredded) {
        // Only the metadata can be checked here; the value lives in typed_value.
        arrow::Status st = MetadataView::Make(view.metadata(i)).status();
        if (!st.ok()) return st.WithMessage("row ", i, ": ", st.message());
        continue;
      }
      return arrow::Status::Invalid("row ", i,
                                    ": value is null in a non-null row of an "
                                    "unshredded Variant column");
    }
    arrow::Status st = Validate(view.metadata(i), view.value(i), options);
    if (!st.ok()) return st.WithMessage("row ", i, ": ", st.message());
  }
  return arrow::Status::OK();
}

}  // namespace varshred
