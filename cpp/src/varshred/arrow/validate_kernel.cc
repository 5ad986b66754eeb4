// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/validate_kernel.h"

#include <arrow/array/util.h>

#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/row_error_internal.h"
#include "varshred/validate.h"

namespace varshred {

arrow::Status ValidateVariants(const arrow::Array& variants,
                               const ValidateOptions& options) {
  ARROW_RETURN_NOT_OK(CheckValidateOptions(options));
  ARROW_ASSIGN_OR_RAISE(auto view,
                        VariantArrayView::Make(arrow::MakeArray(variants.data())));
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) continue;
    if (view.metadata_column().IsNull(i)) {
      return internal::NullMetadataError(i);
    }
    arrow::Status st =
        view.value_is_null(i)
            // A Variant null to every reader when the column is unshredded; its
            // typed_value's, checked below, when it is shredded.
            ? MetadataView::Make(view.metadata(i)).status()
            : Validate(view.metadata(i), view.value(i), options);
    if (!st.ok()) return st.WithMessage("row ", i, ": ", st.message());
  }
  if (view.typed_value() == nullptr) return arrow::Status::OK();
  // Below the top level a shredded column is checked as a reader checks it while it
  // rebuilds the values: residual bytes, typed types, conflicts.
  UnshredOptions unshred;
  unshred.validate = options;
  return Unshred(variants, unshred).status();
}

}  // namespace varshred
