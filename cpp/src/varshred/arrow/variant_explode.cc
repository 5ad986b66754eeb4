// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/variant_explode.h"

#include <arrow/array.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>

#include "varshred/arrow/variant_get_internal.h"

namespace varshred {

arrow::Result<std::shared_ptr<arrow::Array>> VariantExplode(
    const arrow::Array& variants, const VariantExplodeOptions& options,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto array, internal::UnshreddedStorage(variants, pool));
  ARROW_ASSIGN_OR_RAISE(VariantArrayView view, VariantArrayView::Make(array));
  arrow::Int64Builder rows(pool);
  arrow::Int32Builder positions(pool);
  arrow::StringBuilder keys(pool);
  VariantArrayBuilder values(pool);
  auto append = [&](int64_t row, int32_t pos, const std::string_view* key,
                    std::string_view metadata, std::string_view value) -> arrow::Status {
    ARROW_RETURN_NOT_OK(rows.Append(row));
    ARROW_RETURN_NOT_OK(positions.Append(pos));
    ARROW_RETURN_NOT_OK(key ? keys.Append(*key) : keys.AppendNull());
    return values.Append(metadata, value);
  };
  internal::RowViews row_views(view, /*validate=*/true);
  for (int64_t i = 0; i < view.length(); ++i) {
    bool exploded = false;
    if (!view.IsNull(i)) {
      VariantView v;
      ARROW_RETURN_NOT_OK(row_views.Get(i, &v));
      const std::string_view metadata = view.metadata(i);
      if (v.type() == VariantType::kObject) {
        const ObjectView object = v.GetObject();
        for (uint32_t j = 0; j < object.num_fields(); ++j) {
          const std::string_view key = object.key(j);
          ARROW_RETURN_NOT_OK(append(i, static_cast<int32_t>(j), &key, metadata,
                                     object.value(j).value_bytes()));
        }
        exploded = object.num_fields() > 0;
      } else if (v.type() == VariantType::kArray) {
        const ArrayView elements = v.GetArray();
        for (uint32_t j = 0; j < elements.size(); ++j) {
          ARROW_RETURN_NOT_OK(append(i, static_cast<int32_t>(j), nullptr, metadata,
                                     elements.element(j).value_bytes()));
        }
        exploded = elements.size() > 0;
      }
    }
    if (!exploded && options.outer) {
      ARROW_RETURN_NOT_OK(rows.Append(i));
      ARROW_RETURN_NOT_OK(positions.AppendNull());
      ARROW_RETURN_NOT_OK(keys.AppendNull());
      ARROW_RETURN_NOT_OK(values.AppendNull());
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto row_array, rows.Finish());
  ARROW_ASSIGN_OR_RAISE(auto pos_array, positions.Finish());
  ARROW_ASSIGN_OR_RAISE(auto key_array, keys.Finish());
  ARROW_ASSIGN_OR_RAISE(auto value_array, values.Finish(options.layout));
  return arrow::StructArray::Make(
      {row_array, pos_array, key_array, value_array},
      {arrow::field("row", arrow::int64(), false), arrow::field("pos", arrow::int32()),
       arrow::field("key", arrow::utf8()), arrow::field("value", value_array->type())});
}

}  // namespace varshred
