// Logical Variant equality for tests (docs/shredding.md#logical-equality): objects
// compare by key, whatever the dictionary or the physical order of values; arrays
// element-wise; primitives by exact type and value (int8 34 != int32 34, decimal scale
// must match); short and long strings holding the same text are equal. Floats compare by
// bits, so NaN equals the same NaN and 0.0 differs from -0.0.

#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>

#include "varshred/value.h"

namespace varshred::testing {

namespace internal_equal {

inline std::string DescribeScalar(const VariantView& v) {
  std::ostringstream os;
  os << VariantTypeName(v.type());
  switch (v.type()) {
    case VariantType::kBoolean:
      os << " " << (v.GetBool() ? "true" : "false");
      break;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      os << " " << v.GetInteger();
      break;
    case VariantType::kFloat:
      os << " " << v.GetFloat();
      break;
    case VariantType::kDouble:
      os << " " << v.GetDouble();
      break;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      os << " unscaled " << static_cast<long double>(d.unscaled) << " scale "
         << int(d.scale);
      break;
    }
    case VariantType::kDate:
      os << " " << v.GetDate();
      break;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimeNtzMicros:
    case VariantType::kTimestampNanos:
    case VariantType::kTimestampNtzNanos:
      os << " " << v.GetTimeValue();
      break;
    case VariantType::kString:
      os << " \"" << v.GetString() << "\"";
      break;
    case VariantType::kBinary:
      os << " of " << v.GetBinary().size() << " bytes";
      break;
    default:
      break;
  }
  return os.str();
}

inline bool ScalarEqual(const VariantView& a, const VariantView& b) {
  switch (a.type()) {
    case VariantType::kNull:
      return true;
    case VariantType::kBoolean:
      return a.GetBool() == b.GetBool();
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      return a.GetInteger() == b.GetInteger();
    case VariantType::kFloat: {
      const float x = a.GetFloat(), y = b.GetFloat();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case VariantType::kDouble: {
      const double x = a.GetDouble(), y = b.GetDouble();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal x = a.GetDecimal(), y = b.GetDecimal();
      return x.unscaled == y.unscaled && x.scale == y.scale;
    }
    case VariantType::kDate:
      return a.GetDate() == b.GetDate();
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimeNtzMicros:
    case VariantType::kTimestampNanos:
    case VariantType::kTimestampNtzNanos:
      return a.GetTimeValue() == b.GetTimeValue();
    case VariantType::kString:
      return a.GetString() == b.GetString();
    case VariantType::kBinary:
      return a.GetBinary() == b.GetBinary();
    case VariantType::kUuid:
      return a.GetUuid() == b.GetUuid();
    default:
      return false;
  }
}

// Appends the first difference to *diff (empty when equal).
inline bool Compare(const VariantView& a, const VariantView& b, const std::string& path,
                    std::string* diff) {
  if (a.type() != b.type()) {
    *diff = path + ": " + std::string(VariantTypeName(a.type())) + " vs " +
            std::string(VariantTypeName(b.type()));
    return false;
  }
  if (a.type() == VariantType::kObject) {
    const ObjectView x = a.GetObject(), y = b.GetObject();
    if (x.num_fields() != y.num_fields()) {
      *diff = path + ": object of " + std::to_string(x.num_fields()) + " fields vs " +
              std::to_string(y.num_fields());
      return false;
    }
    for (uint32_t i = 0; i < x.num_fields(); ++i) {
      const std::string_view key = x.key(i);
      const auto other = y.Find(key);
      const std::string child = path + "." + std::string(key);
      if (!other) {
        *diff = child + ": missing on the right";
        return false;
      }
      if (!Compare(x.value(i), *other, child, diff)) return false;
    }
    return true;
  }
  if (a.type() == VariantType::kArray) {
    const ArrayView x = a.GetArray(), y = b.GetArray();
    if (x.size() != y.size()) {
      *diff = path + ": array of " + std::to_string(x.size()) + " elements vs " +
              std::to_string(y.size());
      return false;
    }
    for (uint32_t i = 0; i < x.size(); ++i) {
      if (!Compare(x.element(i), y.element(i), path + "[" + std::to_string(i) + "]",
                   diff)) {
        return false;
      }
    }
    return true;
  }
  if (!ScalarEqual(a, b)) {
    *diff = path + ": " + DescribeScalar(a) + " vs " + DescribeScalar(b);
    return false;
  }
  return true;
}

}  // namespace internal_equal

/// \brief The first logical difference between two valid Variants and its path, e.g.
/// `$.a[2]: int8 vs int32`, or "" when they are equal. Needs no gtest (the fuzz driver
/// uses it). Both views must be valid (checked by Validate or made by a builder).
inline std::string LogicalDiff(const VariantView& a, const VariantView& b) {
  std::string diff;
  internal_equal::Compare(a, b, "$", &diff);
  return diff;
}

/// \brief Logical equality of two valid Variants (see the file comment), as a gtest
/// assertion whose failure message is LogicalDiff().
inline ::testing::AssertionResult LogicalEqual(const VariantView& a,
                                               const VariantView& b) {
  const std::string diff = LogicalDiff(a, b);
  if (diff.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << diff;
}

}  // namespace varshred::testing
