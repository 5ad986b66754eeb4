// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/schema_of_variant.h"

#include <arrow/array.h>
#include <arrow/array/builder_binary.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/shredding_path_internal.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get_internal.h"
#include "varshred/decimal_internal.h"
#include "varshred/java_case_internal.h"

namespace varshred {

struct VariantSchemaAccumulator::Type {
  enum Kind : uint8_t {
    kVoid,
    kBoolean,
    kBigint,
    kFloat,
    kDouble,
    kDecimal,
    kString,
    kBinary,
    kDate,
    kTimestampNtz,
    kTimestamp,
    kUuid,
    kTime,
    kTimestampNs,
    kTimestampNtzNs,
    kObject,
    kArray,
    kVariant,
  };
  Kind kind = kVoid;
  int precision = 0;
  int scale = 0;
  std::vector<std::pair<std::string, Type>> fields;  // objects, sorted by name
  std::vector<Type> element;                         // arrays: exactly one
};

namespace {

using Type = VariantSchemaAccumulator::Type;

// The names Spark prints, by Kind (TIME and the nanosecond timestamps are ours:
// Spark 4.3 cannot read those values).
constexpr const char* kNames[] = {"VOID",   "BOOLEAN",       "BIGINT",           "FLOAT",
                                  "DOUBLE", "DECIMAL",       "STRING",           "BINARY",
                                  "DATE",   "TIMESTAMP_NTZ", "TIMESTAMP",        "UUID",
                                  "TIME",   "TIMESTAMP_NS",  "TIMESTAMP_NTZ_NS", "OBJECT",
                                  "ARRAY",  "VARIANT"};

Type Scalar(Type::Kind kind) {
  Type t;
  t.kind = kind;
  return t;
}

Type DecimalType(int precision, int scale) {
  Type t = Scalar(Type::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}

Type Merge(Type a, Type b, bool case_sensitive);

// Spark's DecimalType merge: the wider integer range and the larger scale; past 38
// digits the values no longer fit a decimal and merge as DOUBLE.
Type MergeDecimals(const Type& a, const Type& b) {
  const int scale = std::max(a.scale, b.scale);
  const int range = std::max(a.precision - a.scale, b.precision - b.scale);
  if (range + scale > 38) return Scalar(Type::kDouble);
  return DecimalType(range + scale, scale);
}

bool IsNumeric(Type::Kind k) {
  return k == Type::kBigint || k == Type::kFloat || k == Type::kDouble ||
         k == Type::kDecimal;
}

bool IsDatetime(Type::Kind k) {
  return k == Type::kDate || k == Type::kTimestampNtz || k == Type::kTimestamp;
}

// Spark's findTightestCommonType, which its merge tries first: a merge that loses
// nothing, or none. Objects pair their fields in order, by names equal ignoring case
// (Spark's default resolution), and keep the first object's names.
std::optional<Type> Tightest(const Type& a, const Type& b) {
  if (a.kind == Type::kVoid) return b;
  if (b.kind == Type::kVoid) return a;
  if (a.kind == Type::kDecimal || b.kind == Type::kDecimal) {
    if (a.kind == b.kind) {
      if (a.precision == b.precision && a.scale == b.scale) return a;
      return std::nullopt;
    }
    // A decimal holds every BIGINT when its integer range is at least DECIMAL(20,0)'s.
    const Type& decimal = a.kind == Type::kDecimal ? a : b;
    const Type& other = a.kind == Type::kDecimal ? b : a;
    if (other.kind == Type::kBigint && decimal.precision - decimal.scale >= 20) {
      return decimal;
    }
    return std::nullopt;
  }
  // BIGINT < FLOAT < DOUBLE and DATE < TIMESTAMP_NTZ < TIMESTAMP, in Kind order.
  if ((IsNumeric(a.kind) && IsNumeric(b.kind)) ||
      (IsDatetime(a.kind) && IsDatetime(b.kind))) {
    return a.kind >= b.kind ? a : b;
  }
  if (a.kind != b.kind) return std::nullopt;
  if (a.kind == Type::kArray) {
    std::optional<Type> element = Tightest(a.element[0], b.element[0]);
    if (!element) return std::nullopt;
    Type t = Scalar(Type::kArray);
    t.element.push_back(std::move(*element));
    return t;
  }
  if (a.kind == Type::kObject) {
    if (a.fields.size() != b.fields.size()) return std::nullopt;
    Type t = Scalar(Type::kObject);
    for (size_t i = 0; i < a.fields.size(); ++i) {
      if (!internal::JavaEqualsIgnoreCase(a.fields[i].first, b.fields[i].first)) {
        return std::nullopt;
      }
      std::optional<Type> field = Tightest(a.fields[i].second, b.fields[i].second);
      if (!field) return std::nullopt;
      t.fields.emplace_back(a.fields[i].first, std::move(*field));
    }
    return t;
  }
  return a;
}

// Whether two objects' field names pair up in order ignoring case, not all exactly:
// the one case where Spark's tightest merge differs from merging field by field.
bool NamesDifferOnlyInCase(const Type& a, const Type& b) {
  if (a.fields.size() != b.fields.size()) return false;
  bool differ = false;
  for (size_t i = 0; i < a.fields.size(); ++i) {
    const std::string& x = a.fields[i].first;
    const std::string& y = b.fields[i].first;
    if (x == y) continue;
    if (!internal::JavaEqualsIgnoreCase(x, y)) return false;
    differ = true;
  }
  return differ;
}

// Spark's merge (JsonInferSchema.compatibleType with VARIANT for conflicts).
Type Merge(Type a, Type b, bool case_sensitive) {
  if (a.kind == Type::kVoid) return b;
  if (b.kind == Type::kVoid) return a;
  if (IsNumeric(a.kind) && IsNumeric(b.kind)) {
    if (a.kind == b.kind && a.kind != Type::kDecimal) return a;
    if (a.kind == Type::kDouble || b.kind == Type::kDouble) return Scalar(Type::kDouble);
    if (a.kind == Type::kFloat || b.kind == Type::kFloat) {
      // FLOAT absorbs BIGINT; with a decimal both become DOUBLE.
      const Type& other = a.kind == Type::kFloat ? b : a;
      return Scalar(other.kind == Type::kDecimal ? Type::kDouble : Type::kFloat);
    }
    // BIGINT and DECIMAL: BIGINT is DECIMAL(20, 0) here.
    const Type x = a.kind == Type::kBigint ? DecimalType(20, 0) : a;
    const Type y = b.kind == Type::kBigint ? DecimalType(20, 0) : b;
    return MergeDecimals(x, y);
  }
  if (IsDatetime(a.kind) && IsDatetime(b.kind)) return a.kind > b.kind ? a : b;
  if (a.kind != b.kind) return Scalar(Type::kVariant);
  if (a.kind == Type::kArray) {
    a.element[0] =
        Merge(std::move(a.element[0]), std::move(b.element[0]), case_sensitive);
    return a;
  }
  if (a.kind == Type::kObject) {
    // With exactly equal names, the tightest merge (when there is one) equals the
    // merge field by field below.
    if (!case_sensitive && NamesDifferOnlyInCase(a, b)) {
      if (std::optional<Type> t = Tightest(a, b)) return std::move(*t);
    }
    Type out = Scalar(Type::kObject);
    size_t i = 0, j = 0;
    while (i < a.fields.size() || j < b.fields.size()) {
      if (j == b.fields.size() ||
          (i < a.fields.size() && a.fields[i].first < b.fields[j].first)) {
        out.fields.push_back(std::move(a.fields[i++]));
      } else if (i == a.fields.size() || b.fields[j].first < a.fields[i].first) {
        out.fields.push_back(std::move(b.fields[j++]));
      } else {
        out.fields.emplace_back(std::move(a.fields[i].first),
                                Merge(std::move(a.fields[i].second),
                                      std::move(b.fields[j].second), case_sensitive));
        ++i;
        ++j;
      }
    }
    return out;
  }
  return a;
}

Type Of(const VariantView& v, bool case_sensitive) {
  switch (v.type()) {
    case VariantType::kNull:
      return Scalar(Type::kVoid);
    case VariantType::kBoolean:
      return Scalar(Type::kBoolean);
    case VariantType::kInt8:
    case VariantType::kInt16:
    case VariantType::kInt32:
    case VariantType::kInt64:
      return Scalar(Type::kBigint);
    case VariantType::kFloat:
      return Scalar(Type::kFloat);
    case VariantType::kDouble:
      return Scalar(Type::kDouble);
    case VariantType::kDecimal4:
    case VariantType::kDecimal8:
    case VariantType::kDecimal16: {
      // Spark reads the value with trailing zeros stripped (1.50 is DECIMAL(2,1),
      // 100.0 is DECIMAL(3,0)); the precision covers the scale (0.001: DECIMAL(3,3)).
      Decimal d = v.GetDecimal();
      while (d.scale > 0 && d.unscaled % 10 == 0) {
        d.unscaled /= 10;
        --d.scale;
      }
      return DecimalType(std::max<int>(DecimalPrecision(d.unscaled), d.scale), d.scale);
    }
    case VariantType::kDate:
      return Scalar(Type::kDate);
    case VariantType::kTimestampMicros:
      return Scalar(Type::kTimestamp);
    case VariantType::kTimestampNtzMicros:
      return Scalar(Type::kTimestampNtz);
    case VariantType::kTimeNtzMicros:
      return Scalar(Type::kTime);
    case VariantType::kTimestampNanos:
      return Scalar(Type::kTimestampNs);
    case VariantType::kTimestampNtzNanos:
      return Scalar(Type::kTimestampNtzNs);
    case VariantType::kBinary:
      return Scalar(Type::kBinary);
    case VariantType::kString:
      return Scalar(Type::kString);
    case VariantType::kUuid:
      return Scalar(Type::kUuid);
    case VariantType::kObject: {
      const ObjectView object = v.GetObject();
      Type t = Scalar(Type::kObject);
      t.fields.reserve(object.num_fields());
      for (uint32_t i = 0; i < object.num_fields(); ++i) {
        t.fields.emplace_back(std::string(object.key(i)),
                              Of(object.value(i), case_sensitive));
      }
      // Readers accept objects whose ids are not in key order.
      std::sort(t.fields.begin(), t.fields.end(),
                [](const auto& x, const auto& y) { return x.first < y.first; });
      return t;
    }
    case VariantType::kArray: {
      const ArrayView array = v.GetArray();
      Type t = Scalar(Type::kArray);
      Type element = Scalar(Type::kVoid);
      for (uint32_t i = 0; i < array.size(); ++i) {
        element = Merge(std::move(element), Of(array.element(i), case_sensitive),
                        case_sensitive);
      }
      t.element.push_back(std::move(element));
      return t;
    }
  }
  return Scalar(Type::kVariant);
}

void Print(const Type& t, std::string* out) {
  switch (t.kind) {
    case Type::kDecimal:
      *out +=
          "DECIMAL(" + std::to_string(t.precision) + "," + std::to_string(t.scale) + ")";
      return;
    case Type::kArray:
      *out += "ARRAY<";
      Print(t.element[0], out);
      *out += ">";
      return;
    case Type::kObject:
      *out += "OBJECT<";
      for (size_t i = 0; i < t.fields.size(); ++i) {
        if (i > 0) *out += ", ";
        *out += internal::QuoteName(t.fields[i].first);
        *out += ": ";
        Print(t.fields[i].second, out);
      }
      *out += ">";
      return;
    default:
      *out += kNames[t.kind];
  }
}

// Reads what Print() writes.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  arrow::Result<Type> ParseAll() {
    ARROW_ASSIGN_OR_RAISE(Type t, ParseType(0));
    if (pos_ != text_.size()) return Error("trailing text");
    return t;
  }

 private:
  arrow::Status Error(std::string_view what) const {
    return arrow::Status::Invalid("schema_of_variant_agg: cannot read the type '", text_,
                                  "': ", what, " at offset ", pos_);
  }
  bool Eat(std::string_view token) {
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  arrow::Result<int> Int() {
    int v = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (ec != std::errc()) return Error("expected a number");
    pos_ = end - text_.data();
    return v;
  }
  arrow::Result<std::string> Name() {
    std::string name;
    if (Eat("`")) {
      while (true) {
        if (pos_ >= text_.size()) return Error("unterminated `name`");
        if (Eat("``")) {
          name += '`';
        } else if (Eat("`")) {
          return name;
        } else {
          name += text_[pos_++];
        }
      }
    }
    while (pos_ < text_.size() && text_[pos_] != ':') name += text_[pos_++];
    if (name.empty()) return Error("expected a field name");
    return name;
  }

  arrow::Result<Type> ParseType(int depth) {
    if (depth > kMaxNestingDepth) return Error("nested too deeply");
    if (Eat("DECIMAL(")) {
      ARROW_ASSIGN_OR_RAISE(int p, Int());
      if (!Eat(",")) return Error("expected ','");
      ARROW_ASSIGN_OR_RAISE(int s, Int());
      if (!Eat(")")) return Error("expected ')'");
      if (p < 1 || p > 38 || s < 0 || s > p) return Error("bad decimal");
      return DecimalType(p, s);
    }
    if (Eat("ARRAY<")) {
      ARROW_ASSIGN_OR_RAISE(Type element, ParseType(depth + 1));
      if (!Eat(">")) return Error("expected '>'");
      Type t = Scalar(Type::kArray);
      t.element.push_back(std::move(element));
      return t;
    }
    if (Eat("OBJECT<")) {
      Type t = Scalar(Type::kObject);
      if (Eat(">")) return t;
      do {
        ARROW_ASSIGN_OR_RAISE(std::string name, Name());
        if (!Eat(": ")) return Error("expected ': '");
        ARROW_ASSIGN_OR_RAISE(Type field, ParseType(depth + 1));
        if (!t.fields.empty() && !(t.fields.back().first < name)) {
          return Error("fields out of order");
        }
        t.fields.emplace_back(std::move(name), std::move(field));
      } while (Eat(", "));
      if (!Eat(">")) return Error("expected '>'");
      return t;
    }
    // Longest names first: TIMESTAMP_NTZ_NS before TIMESTAMP_NTZ before TIMESTAMP.
    Type::Kind best = Type::kVoid;
    size_t best_size = 0;
    for (int k = 0; k <= Type::kVariant; ++k) {
      const std::string_view name = kNames[k];
      if (k == Type::kDecimal || k == Type::kObject || k == Type::kArray) continue;
      if (name.size() > best_size && text_.substr(pos_, name.size()) == name) {
        best = static_cast<Type::Kind>(k);
        best_size = name.size();
      }
    }
    if (best_size == 0) return Error("unknown type");
    pos_ += best_size;
    return Scalar(best);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> SchemaOfVariant(
    const arrow::Array& variants, const SchemaOfVariantOptions& options,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto array, internal::UnshreddedStorage(variants, pool));
  ARROW_ASSIGN_OR_RAISE(VariantArrayView view, VariantArrayView::Make(array));
  arrow::StringBuilder out(pool);
  ARROW_RETURN_NOT_OK(out.Reserve(view.length()));
  std::string text;
  internal::RowViews row_views(view, /*validate=*/true);
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) {
      ARROW_RETURN_NOT_OK(out.AppendNull());
      continue;
    }
    VariantView row;
    ARROW_RETURN_NOT_OK(row_views.Get(i, &row));
    text.clear();
    Print(Of(row, options.case_sensitive), &text);
    ARROW_RETURN_NOT_OK(out.Append(text));
  }
  return out.Finish();
}

VariantSchemaAccumulator::VariantSchemaAccumulator(SchemaOfVariantOptions options)
    : options_(options), type_(std::make_unique<Type>()) {}
VariantSchemaAccumulator::~VariantSchemaAccumulator() = default;
VariantSchemaAccumulator::VariantSchemaAccumulator(VariantSchemaAccumulator&&) noexcept =
    default;
VariantSchemaAccumulator& VariantSchemaAccumulator::operator=(
    VariantSchemaAccumulator&&) noexcept = default;

arrow::Status VariantSchemaAccumulator::Add(const arrow::Array& variants) {
  ARROW_ASSIGN_OR_RAISE(
      auto array, internal::UnshreddedStorage(variants, arrow::default_memory_pool()));
  ARROW_ASSIGN_OR_RAISE(VariantArrayView view, VariantArrayView::Make(array));
  internal::RowViews row_views(view, /*validate=*/true);
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) continue;
    VariantView row;
    ARROW_RETURN_NOT_OK(row_views.Get(i, &row));
    Add(row);
  }
  return arrow::Status::OK();
}

void VariantSchemaAccumulator::Add(const VariantView& value) {
  *type_ = varshred::Merge(std::move(*type_), Of(value, options_.case_sensitive),
                           options_.case_sensitive);
}

arrow::Status VariantSchemaAccumulator::Merge(std::string_view type) {
  ARROW_ASSIGN_OR_RAISE(Type other, Parser(type).ParseAll());
  *type_ = varshred::Merge(std::move(*type_), std::move(other), options_.case_sensitive);
  return arrow::Status::OK();
}

std::string VariantSchemaAccumulator::ToString() const {
  std::string out;
  Print(*type_, &out);
  return out;
}

}  // namespace varshred
