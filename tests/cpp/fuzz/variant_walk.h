// Shared by the fuzz driver and ValidateTest.RandomMutationsNeverCrash: validate
// untrusted bytes and, when they pass, touch every byte of the value through the views
// and rebuild it with VariantBuilder::AppendVariant. Crashes and sanitizer reports are
// the failures the callers look for; logical mismatches come back as a message.

#pragma once

#include <string>
#include <string_view>

#include "variant_equal.h"
#include "varshred/builder.h"
#include "varshred/validate.h"

namespace varshred::testing {

namespace internal_walk {

// Reads every field of `v` through the typed getters; returns a checksum so the reads
// cannot be optimised away.
inline uint64_t Touch(const VariantView& v, std::string* error) {
  uint64_t sum = static_cast<uint64_t>(v.type());
  switch (v.type()) {
    case VariantType::kNull:
      break;
    case VariantType::kBoolean:
      sum += v.GetBool();
      break;
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      sum += static_cast<uint64_t>(v.GetInteger());
      break;
    case VariantType::kFloat:
      sum += static_cast<uint64_t>(v.GetFloat() == 0.0f);
      break;
    case VariantType::kDouble:
      sum += static_cast<uint64_t>(v.GetDouble() == 0.0);
      break;
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      const Decimal d = v.GetDecimal();
      sum += static_cast<uint64_t>(d.unscaled) + d.scale;
      break;
    }
    case VariantType::kDate:
      sum += static_cast<uint64_t>(v.GetDate());
      break;
    case VariantType::kTimestampMicros:
    case VariantType::kTimestampNtzMicros:
    case VariantType::kTimeNtzMicros:
    case VariantType::kTimestampNanos:
    case VariantType::kTimestampNtzNanos:
      sum += static_cast<uint64_t>(v.GetTimeValue());
      break;
    case VariantType::kString:
      for (char c : v.GetString()) sum += static_cast<uint8_t>(c);
      break;
    case VariantType::kBinary:
      for (char c : v.GetBinary()) sum += static_cast<uint8_t>(c);
      break;
    case VariantType::kUuid:
      for (char c : v.GetUuid()) sum += static_cast<uint8_t>(c);
      break;
    case VariantType::kObject: {
      const ObjectView obj = v.GetObject();
      for (uint32_t i = 0; i < obj.num_fields(); ++i) {
        const std::string_view key = obj.key(i);
        for (char c : key) sum += static_cast<uint8_t>(c);
        const auto index = obj.FindIndex(key);
        if (!index || *index != i) {
          *error = "Find(\"" + std::string(key) + "\") does not return field " +
                   std::to_string(i);
        }
        sum += Touch(obj.value(i), error);
      }
      if (obj.size_bytes() != v.value_bytes().size())
        *error = "object size_bytes mismatch";
      break;
    }
    case VariantType::kArray: {
      const ArrayView arr = v.GetArray();
      for (uint32_t i = 0; i < arr.size(); ++i) sum += Touch(arr.element(i), error);
      if (arr.size_bytes() != v.value_bytes().size())
        *error = "array size_bytes mismatch";
      break;
    }
  }
  return sum;
}

}  // namespace internal_walk

/// \brief Validates (metadata, value) with `options`. Returns "" when the bytes are
/// rejected or when they are accepted and every check below holds: the views read
/// every value, Find() locates every key, AppendVariant rebuilds a Variant that
/// validates strictly and is LogicalEqual to the input. Otherwise returns what failed.
inline std::string ValidateAndWalk(std::string_view metadata, std::string_view value,
                                   const ValidateOptions& options = {},
                                   bool* accepted = nullptr) {
  if (accepted) *accepted = false;
  if (!Validate(metadata, value, options).ok()) return "";
  if (accepted) *accepted = true;
  const VariantView v =
      VariantView::MakeUnchecked(MetadataView::MakeUnchecked(metadata), value);
  if (v.value_bytes().size() != value.size()) return "ValueSize disagrees with Validate";
  std::string error;
  volatile uint64_t sink = internal_walk::Touch(v, &error);
  (void)sink;
  if (!error.empty()) return error;

  VariantBuilder builder;
  auto st = builder.AppendVariant(v);
  if (!st.ok()) return "AppendVariant failed: " + st.ToString();
  std::string md2, v2;
  st = builder.Finish(&md2, &v2);
  if (!st.ok()) return "Finish failed: " + st.ToString();
  // The rebuilt value has sorted keys, so it must pass the strict default options.
  st = Validate(md2, v2);
  if (!st.ok()) return "rebuilt value is invalid: " + st.ToString();
  const VariantView rebuilt =
      VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md2), v2);
  std::string diff = LogicalDiff(v, rebuilt);
  if (!diff.empty()) return "rebuilt value differs: " + diff;
  return "";
}

}  // namespace varshred::testing
