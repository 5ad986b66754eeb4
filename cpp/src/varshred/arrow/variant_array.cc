// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/variant_array.h"

#include <arrow/array/array_binary.h>
#include <arrow/array/array_dict.h>
#include <arrow/array/array_nested.h>
#include <arrow/array/array_primitive.h>
#include <arrow/array/util.h>
#include <arrow/buffer_builder.h>
#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include <algorithm>
#include <limits>

#include "varshred/arrow/bit_builder_internal.h"
#include "varshred/format.h"
#include "varshred/row_error_internal.h"

namespace varshred {

std::shared_ptr<arrow::DataType> VariantStorageType(VariantLayout layout) {
  // Both layouts tag metadata with variant=true, as Spark does: a plain struct of two
  // binaries is an ordinary struct to ArrowToVariant, and a tagged one is a Variant.
  static const auto metadata =
      arrow::field("metadata", arrow::binary(), /*nullable=*/false,
                   arrow::key_value_metadata({"variant"}, {"true"}));
  static const auto value = arrow::field("value", arrow::binary(), /*nullable=*/false);
  static const auto spark_type = arrow::struct_({value, metadata});
  static const auto canonical_type = arrow::struct_({metadata, value});
  return layout == VariantLayout::kSpark ? spark_type : canonical_type;
}

bool IsVariantType(const arrow::DataType& type) {
  if (type.id() != arrow::Type::STRUCT) return false;
  bool metadata = false, payload = false;
  for (const auto& f : type.fields()) {
    if (f->name() == "metadata") {
      metadata = true;
    } else if (f->name() == "value" || f->name() == "typed_value") {
      payload = true;
    } else {
      return false;
    }
  }
  return metadata && payload;
}

bool IsVariantColumnType(const arrow::DataType& type) {
  if (type.id() != arrow::Type::EXTENSION) return IsVariantType(type);
  const auto& ext = static_cast<const arrow::ExtensionType&>(type);
  return ext.extension_name() == kVariantExtensionName &&
         IsVariantType(*ext.storage_type());
}

// ----------------------------------------------------------------------
// BinaryColumn

arrow::Result<BinaryColumn> BinaryColumn::Make(
    const std::shared_ptr<arrow::Array>& array) {
  BinaryColumn col;
  col.array_ = array;
  col.nulls_ = NullMask(*array);
  switch (array->type_id()) {
    case arrow::Type::BINARY:
    case arrow::Type::STRING: {
      const auto& a = static_cast<const arrow::BinaryArray&>(*array);
      col.kind_ = Kind::kBinary;
      col.offsets32_ = a.raw_value_offsets();
      col.data_ = a.raw_data();
      return col;
    }
    case arrow::Type::LARGE_BINARY:
    case arrow::Type::LARGE_STRING: {
      const auto& a = static_cast<const arrow::LargeBinaryArray&>(*array);
      col.kind_ = Kind::kLargeBinary;
      col.offsets64_ = a.raw_value_offsets();
      col.data_ = a.raw_data();
      return col;
    }
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::STRING_VIEW:
      col.kind_ = Kind::kBinaryView;
      return col;
    case arrow::Type::DICTIONARY: {
      const auto& a = static_cast<const arrow::DictionaryArray&>(*array);
      const auto& type = static_cast<const arrow::DictionaryType&>(*a.type());
      const arrow::Type::type values = type.value_type()->id();
      if (type.index_type()->id() != arrow::Type::INT32 ||
          (values != arrow::Type::BINARY && values != arrow::Type::STRING) ||
          a.dictionary()->null_count() != 0) {
        ARROW_ASSIGN_OR_RAISE(auto decoded, Decode(a));
        return Make(decoded);
      }
      const auto& dictionary = static_cast<const arrow::BinaryArray&>(*a.dictionary());
      col.kind_ = Kind::kDictionary;
      col.dictionary_ = a.dictionary();
      col.dictionary_size_ = static_cast<uint32_t>(
          std::min<int64_t>(dictionary.length(), std::numeric_limits<int32_t>::max()));
      col.offsets32_ = dictionary.raw_value_offsets();
      col.data_ = dictionary.raw_data();
      col.indices_ = static_cast<const arrow::Int32Array&>(*a.indices()).raw_values();
      for (int64_t i = 0; i < array->length(); ++i) {
        if (!col.IsNull(i) &&
            static_cast<uint32_t>(col.indices_[i]) >= col.dictionary_size_) {
          return arrow::Status::Invalid("row ", i, ": dictionary index ", col.indices_[i],
                                        " outside the dictionary of ",
                                        col.dictionary_size_, " values");
        }
      }
      return col;
    }
    default:
      break;
  }
  return arrow::Status::TypeError("expected a binary column, got ",
                                  array->type()->ToString());
}

arrow::Result<std::shared_ptr<arrow::Array>> BinaryColumn::Decode(
    const arrow::DictionaryArray& array) {
  ARROW_ASSIGN_OR_RAISE(BinaryColumn values, Make(array.dictionary()));
  const int64_t size = array.dictionary()->length();
  arrow::LargeBinaryBuilder out;
  ARROW_RETURN_NOT_OK(out.Reserve(array.length()));
  for (int64_t i = 0; i < array.length(); ++i) {
    if (array.IsNull(i)) {
      ARROW_RETURN_NOT_OK(out.AppendNull());
      continue;
    }
    const int64_t k = array.GetValueIndex(i);  // a uint64 past int64 is negative
    if (k < 0 || k >= size) {
      return arrow::Status::Invalid("row ", i, ": dictionary index ", k,
                                    " outside the dictionary of ", size, " values");
    }
    // A valid index of a null entry is a null row, as Arrow's readers take it.
    ARROW_RETURN_NOT_OK(values.IsNull(k) ? out.AppendNull() : out.Append(values.Get(k)));
  }
  return out.Finish();
}

std::string_view BinaryColumn::GetView(int64_t i) const {
  return static_cast<const arrow::BinaryViewArray&>(*array_).GetView(i);
}

// ----------------------------------------------------------------------
// VariantArrayView

arrow::Result<VariantArrayView> VariantArrayView::Make(
    const std::shared_ptr<arrow::Array>& array) {
  if (array->type_id() != arrow::Type::STRUCT) {
    return arrow::Status::TypeError("a Variant column must be a struct array, got ",
                                    array->type()->ToString());
  }
  VariantArrayView view;
  view.struct_ = std::static_pointer_cast<arrow::StructArray>(array);
  const auto& type = *view.struct_->type();
  for (int i = 0; i < type.num_fields(); ++i) {
    const std::string& name = type.field(i)->name();
    std::shared_ptr<arrow::Array> child = view.struct_->field(i);
    if (view.struct_->struct_type()->GetFieldIndex(name) < 0) {  // -1: a repeated name
      return arrow::Status::TypeError("a Variant column has a duplicate \"", name,
                                      "\" child: ", type.ToString());
    }
    if (name == "metadata") {
      ARROW_ASSIGN_OR_RAISE(view.metadata_, BinaryColumn::Make(child));
    } else if (name == "value") {
      ARROW_ASSIGN_OR_RAISE(view.value_, BinaryColumn::Make(child));
    } else if (name == "typed_value") {
      view.typed_value_ = child;
    } else {
      return arrow::Status::TypeError("a Variant column has children metadata, value ",
                                      "and typed_value only; found \"", name, "\" in ",
                                      type.ToString());
    }
  }
  if (!view.metadata_) {
    return arrow::Status::TypeError(
        "a Variant column needs a binary \"metadata\" child: ", type.ToString());
  }
  if (!view.value_ && !view.typed_value_) {
    return arrow::Status::TypeError(
        "a Variant column needs a \"value\" or \"typed_value\" ",
        "child: ", type.ToString());
  }
  return view;
}

// ----------------------------------------------------------------------
// VariantArrayBuilder

VariantArrayBuilder::VariantArrayBuilder(arrow::MemoryPool* pool)
    : metadata_(pool), value_(pool), validity_(pool) {}

arrow::Status VariantArrayBuilder::Append(std::string_view metadata,
                                          std::string_view value) {
  ARROW_RETURN_NOT_OK(metadata_.Append(metadata));
  ARROW_RETURN_NOT_OK(value_.Append(value));
  if (null_count_ > 0) ARROW_RETURN_NOT_OK(internal::AppendBit(&validity_, true));
  ++length_;
  if (length_ >= probe_at_) return ReserveForReservedRows();
  return arrow::Status::OK();
}

arrow::Status VariantArrayBuilder::AppendNull() {
  ARROW_RETURN_NOT_OK(metadata_.Append({}));
  ARROW_RETURN_NOT_OK(value_.Append({}));
  if (null_count_ == 0) {  // the rows before were all valid
    ARROW_RETURN_NOT_OK(validity_.Reserve(std::max(length_ + 1, reserved_rows_)));
    validity_.UnsafeAppend(length_, true);
  }
  ARROW_RETURN_NOT_OK(internal::AppendBit(&validity_, false));
  ++length_;
  ++null_count_;
  return arrow::Status::OK();
}

arrow::Status VariantArrayBuilder::Reserve(int64_t rows, int64_t bytes) {
  // A few rows are too few to predict from; too many delay the prediction.
  constexpr int64_t kProbeRows = 1024;
  reserved_rows_ = std::max(reserved_rows_, length_ + rows);
  probe_at_ = reserved_rows_ - length_ >= 2 * kProbeRows
                  ? length_ + kProbeRows
                  : std::numeric_limits<int64_t>::max();
  ARROW_RETURN_NOT_OK(metadata_.Reserve(rows));
  ARROW_RETURN_NOT_OK(value_.Reserve(rows));
  ARROW_RETURN_NOT_OK(value_.ReserveBytes(bytes));
  return null_count_ > 0 ? validity_.Reserve(rows) : arrow::Status::OK();
}

arrow::Status VariantArrayBuilder::ReserveForReservedRows() {
  probe_at_ = std::numeric_limits<int64_t>::max();
  const double scale = 1.125 * static_cast<double>(reserved_rows_ - length_) /
                       static_cast<double>(length_);
  ARROW_RETURN_NOT_OK(metadata_.ReserveBytes(
      static_cast<int64_t>(scale * static_cast<double>(metadata_.bytes_length()))));
  return value_.ReserveBytes(
      static_cast<int64_t>(scale * static_cast<double>(value_.bytes_length())));
}

arrow::Result<std::shared_ptr<arrow::Array>> VariantArrayBuilder::Finish(
    VariantLayout layout) {
  ARROW_ASSIGN_OR_RAISE(auto metadata, metadata_.Finish());
  ARROW_ASSIGN_OR_RAISE(auto value, value_.Finish());
  std::shared_ptr<arrow::Buffer> validity;
  if (null_count_ > 0) {
    ARROW_RETURN_NOT_OK(validity_.Finish(&validity));
  } else {
    validity_.Reset();
  }
  const auto type = VariantStorageType(layout);
  arrow::ArrayVector children = layout == VariantLayout::kSpark
                                    ? arrow::ArrayVector{value, metadata}
                                    : arrow::ArrayVector{metadata, value};
  auto out = std::make_shared<arrow::StructArray>(type, length_, std::move(children),
                                                  std::move(validity), null_count_);
  length_ = 0;
  null_count_ = 0;
  reserved_rows_ = 0;
  probe_at_ = std::numeric_limits<int64_t>::max();
  return out;
}

arrow::Status VariantArrayBuilder::BinaryChild::GrowOffsets(int64_t rows) {
  const bool first = offsets_.length() == 0;
  ARROW_RETURN_NOT_OK(offsets_.Reserve(rows + (first ? 1 : 0)));
  if (first) offsets_.UnsafeAppend(0);
  return arrow::Status::OK();
}

arrow::Status VariantArrayBuilder::BinaryChild::TooLarge() const {
  return arrow::Status::CapacityError("a Variant array's binary child cannot hold more ",
                                      "than ", kMaxBytes, " bytes");
}

arrow::Result<std::shared_ptr<arrow::Array>> VariantArrayBuilder::BinaryChild::Finish() {
  if (offsets_.length() == 0) ARROW_RETURN_NOT_OK(GrowOffsets(0));  // no rows
  const int64_t rows = offsets_.length() - 1;
  std::shared_ptr<arrow::Buffer> offsets, bytes;
  ARROW_RETURN_NOT_OK(offsets_.Finish(&offsets));
  ARROW_RETURN_NOT_OK(bytes_.Finish(&bytes));
  return arrow::MakeArray(arrow::ArrayData::Make(
      arrow::binary(), rows, {nullptr, std::move(offsets), std::move(bytes)},
      /*null_count=*/0));
}

// ----------------------------------------------------------------------
// ToLayout

arrow::Result<std::shared_ptr<arrow::Array>> ToLayout(
    const std::shared_ptr<arrow::Array>& array, VariantLayout layout,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(array));
  if (view.typed_value() != nullptr || !view.has_value()) {
    return arrow::Status::Invalid("the Variant column is shredded (it has a typed_value ",
                                  "child); unshred it first");
  }
  const auto& storage = view.storage();
  const auto& md = view.metadata_column().array();
  const auto& val = view.value_column().array();
  const bool zero_copy = md->type_id() == arrow::Type::BINARY &&
                         val->type_id() == arrow::Type::BINARY && md->null_count() == 0 &&
                         val->null_count() == 0;
  if (zero_copy) {
    // The struct keeps its own offset, so take the children unsliced (field() would
    // apply the offset a second time).
    const auto& type = *storage->type();
    std::shared_ptr<arrow::Array> raw_md, raw_val;
    for (int k = 0; k < type.num_fields(); ++k) {
      auto child = arrow::MakeArray(storage->data()->child_data[k]);
      if (type.field(k)->name() == "metadata") raw_md = child;
      if (type.field(k)->name() == "value") raw_val = child;
    }
    arrow::ArrayVector children = layout == VariantLayout::kSpark
                                      ? arrow::ArrayVector{raw_val, raw_md}
                                      : arrow::ArrayVector{raw_md, raw_val};
    return std::make_shared<arrow::StructArray>(
        VariantStorageType(layout), storage->length(), std::move(children),
        storage->null_bitmap(), storage->null_count(), storage->offset());
  }
  // Copy, so that no child is null inside a non-null row (Spark fails on that) and
  // the children become plain binary.
  VariantArrayBuilder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(view.length(), 0));
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
    } else if (view.metadata_column().IsNull(i)) {
      return internal::NullMetadataError(i);
    } else {
      ARROW_RETURN_NOT_OK(
          builder.Append(view.metadata(i), view.value_or_variant_null(i)));
    }
  }
  return builder.Finish(layout);
}

}  // namespace varshred
