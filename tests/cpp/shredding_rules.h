// Test helpers for shredding: building Variant columns from builder callbacks, and
// CheckWriterRules(), which asserts docs/shredding.md#writer-rules writer rules on a
// shredded column.

#pragma once

#include <arrow/array.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "variant_equal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/builder.h"
#include "varshred/metadata.h"
#include "varshred/value.h"

namespace varshred::testing {

/// One row: a function that appends a single top-level value, or nullptr for SQL NULL.
using RowFn = std::function<void(VariantBuilder&)>;

inline std::shared_ptr<arrow::Array> MakeVariantColumn(const std::vector<RowFn>& rows) {
  VariantArrayBuilder out;
  VariantBuilder b;
  for (const auto& row : rows) {
    if (!row) {
      EXPECT_TRUE(out.AppendNull().ok());
      continue;
    }
    row(b);
    std::string m, v;
    EXPECT_TRUE(b.Finish(&m, &v).ok());
    EXPECT_TRUE(out.Append(m, v).ok());
  }
  return *out.Finish();
}

namespace rules_internal {

inline std::shared_ptr<arrow::Array> Child(const arrow::StructArray& s,
                                           const char* name) {
  const int i = s.struct_type()->GetFieldIndex(name);
  return i < 0 ? nullptr : s.field(i);
}

inline std::string_view Bytes(const arrow::Array& a, int64_t i) {
  return static_cast<const arrow::BinaryArray&>(a).GetView(i);
}

// Checks the pair `group` at index i; `required` is true at top level and for array
// elements (a value must be present there).
inline ::testing::AssertionResult CheckPair(const arrow::StructArray& group, int64_t i,
                                            const MetadataView& meta, bool required,
                                            const std::string& path) {
  auto value = Child(group, "value");
  auto typed = Child(group, "typed_value");
  const bool has_value = value && !value->IsNull(i);
  const bool has_typed = typed && !typed->IsNull(i);
  auto fail = [&](const std::string& what) {
    return ::testing::AssertionFailure() << path << ": " << what;
  };
  if (required && !has_value && !has_typed) return fail("missing in a required context");
  VariantType value_type = VariantType::kNull;
  if (has_value) {
    value_type = TypeFromHeader(static_cast<uint8_t>(Bytes(*value, i)[0]));
  }
  if (!typed) return ::testing::AssertionSuccess();
  if (typed->type_id() == arrow::Type::STRUCT) {
    const auto& obj = static_cast<const arrow::StructArray&>(*typed);
    if (!has_typed) {
      if (has_value && value_type == VariantType::kObject) {
        return fail("object written to value while typed_value is an object group");
      }
      return ::testing::AssertionSuccess();
    }
    if (has_value) {
      if (value_type != VariantType::kObject) return fail("non-object value with fields");
      const ObjectView residual(meta, Bytes(*value, i));
      if (residual.num_fields() == 0) return fail("empty residual object");
      for (uint32_t f = 0; f < residual.num_fields(); ++f) {
        if (obj.struct_type()->GetFieldIndex(std::string(residual.key(f))) >= 0) {
          return fail("residual repeats shredded key " + std::string(residual.key(f)));
        }
      }
    }
    for (int k = 0; k < obj.num_fields(); ++k) {
      const std::string& name = obj.type()->field(k)->name();
      auto r = CheckPair(static_cast<const arrow::StructArray&>(*obj.field(k)), i, meta,
                         false, path + "." + name);
      if (!r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  if (typed->type_id() == arrow::Type::LIST) {
    if (!has_typed) {
      if (has_value && value_type == VariantType::kArray) {
        return fail("array written to value while typed_value is a list");
      }
      return ::testing::AssertionSuccess();
    }
    if (has_value) return fail("array with both value and typed_value");
    const auto& list = static_cast<const arrow::ListArray&>(*typed);
    const auto& elements = static_cast<const arrow::StructArray&>(*list.values());
    for (int64_t j = list.value_offset(i); j < list.value_offset(i + 1); ++j) {
      auto r = CheckPair(elements, j, meta, true, path + "[]");
      if (!r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  if (has_value && has_typed) return fail("primitive with both value and typed_value");
  return ::testing::AssertionSuccess();
}

}  // namespace rules_internal

/// \brief Logical equality in which Exact Numeric values of different widths or scales
/// are equal when their numeric values are (what lenient shredding preserves).
inline ::testing::AssertionResult NumericEquivalent(const VariantView& a,
                                                    const VariantView& b,
                                                    const std::string& path = "$") {
  auto as_dec = [](const VariantView& v, __int128* u, int* s) {
    if (IsInteger(v.type())) {
      *u = v.GetInteger();
      *s = 0;
    } else {
      const Decimal d = v.GetDecimal();
      *u = d.unscaled;
      *s = d.scale;
    }
  };
  if (IsExactNumeric(a.type()) && IsExactNumeric(b.type())) {
    __int128 ua, ub;
    int sa, sb;
    as_dec(a, &ua, &sa);
    as_dec(b, &ub, &sb);
    while (sa < sb) {
      ua *= 10;
      ++sa;
    }
    while (sb < sa) {
      ub *= 10;
      ++sb;
    }
    if (ua == ub) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << path << ": numbers differ";
  }
  if (a.type() == VariantType::kObject && b.type() == VariantType::kObject) {
    const ObjectView x = a.GetObject(), y = b.GetObject();
    if (x.num_fields() != y.num_fields()) {
      return ::testing::AssertionFailure() << path << ": field counts differ";
    }
    for (uint32_t i = 0; i < x.num_fields(); ++i) {
      auto other = y.Find(x.key(i));
      if (!other)
        return ::testing::AssertionFailure() << path << ": missing " << x.key(i);
      auto r = NumericEquivalent(x.value(i), *other, path + "." + std::string(x.key(i)));
      if (!r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  if (a.type() == VariantType::kArray && b.type() == VariantType::kArray) {
    const ArrayView x = a.GetArray(), y = b.GetArray();
    if (x.size() != y.size()) return ::testing::AssertionFailure() << path << ": sizes";
    for (uint32_t i = 0; i < x.size(); ++i) {
      auto r = NumericEquivalent(x.element(i), y.element(i),
                                 path + "[" + std::to_string(i) + "]");
      if (!r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  auto r = LogicalEqual(a, b);
  if (!r) return ::testing::AssertionFailure() << path << ": " << r.message();
  return r;
}

/// \brief Asserts the writer rules of docs/shredding.md#writer-rules on every non-null
/// row of a shredded column: exactly one of value/typed_value for primitives and arrays,
/// objects always in typed_value (never in value while typed_value is an object group),
/// residuals non-empty objects without shredded keys, required contexts never missing.
inline ::testing::AssertionResult CheckWriterRules(const arrow::Array& shredded) {
  const auto& top = static_cast<const arrow::StructArray&>(shredded);
  auto meta_col = rules_internal::Child(top, "metadata");
  for (int64_t row = 0; row < top.length(); ++row) {
    if (top.IsNull(row)) continue;
    auto meta = MetadataView::Make(rules_internal::Bytes(*meta_col, row));
    if (!meta.ok()) return ::testing::AssertionFailure() << "row " << row << ": metadata";
    auto r = rules_internal::CheckPair(top, row, *meta, true,
                                       "row " + std::to_string(row) + " $");
    if (!r) return r;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace varshred::testing
