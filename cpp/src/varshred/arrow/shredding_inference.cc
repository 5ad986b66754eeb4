// Licensed under the Apache License, Version 2.0.
//
// ShreddingStats::DeriveSchema: the shredding schema that the counters suggest (per
// path, the typed column taking the most values under lenient shredding, within the
// field budget). Reads the counters only.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "varshred/arrow/shredding_stats.h"
#include "varshred/arrow/shredding_stats_internal.h"

namespace varshred {

using internal::Coverage;
using internal::IntegerTypeOfWidth;
using internal::kMaxDigits;
using internal::PrimitiveCoverage;
using internal::WidthOfIntegerType;

namespace {

enum class ChoiceKind : uint8_t { kValueOnly, kPrimitive, kObject, kArray };

struct Choice {
  ChoiceKind kind = ChoiceKind::kValueOnly;
  ShreddingSchema primitive;
};

Choice ChooseType(const PathStats& s, const InferOptions& options, int depth) {
  const int64_t non_null = s.present() - s.variant_nulls();
  Choice best;
  int64_t best_count = 0;
  auto consider = [&](ChoiceKind kind, ShreddingSchema schema, int64_t count) {
    if (count > best_count) {
      best_count = count;
      best.kind = kind;
      best.primitive = std::move(schema);
    }
  };
  // Nested shapes first so that they win ties.
  if (depth < options.max_depth) {
    consider(ChoiceKind::kObject, {}, s.objects());
    consider(ChoiceKind::kArray, {}, s.arrays());
  }
  // Exact Numeric: integers and decimals share one column.
  const int64_t ints = s.integers();
  const int64_t decs = s.decimals();
  if (decs == 0 && ints > 0) {
    int width = 3;
    if (options.narrow_integers) {
      width = 0;
      for (int w = 0; w < 4; ++w) {
        if (s.integral_by_width(w) > 0) width = w;
      }
    }
    consider(ChoiceKind::kPrimitive,
             ShreddingSchema::Primitive(IntegerTypeOfWidth(width)), ints);
  } else if (decs > 0) {
    const int scale = s.max_scale();
    const int precision = std::max(1, s.max_integer_digits() + scale);
    if (precision <= kMaxDigits) {
      // Headroom for later rows at no cost: the widest precision of the same storage
      // (decimal4 up to 9 digits, decimal8 up to 18, decimal16 up to 38;
      // docs/shredding.md#schema-inference).
      const int stored = precision <= 9 ? 9 : precision <= 18 ? 18 : kMaxDigits;
      consider(ChoiceKind::kPrimitive, *ShreddingSchema::Decimal(stored, scale),
               ints + decs);
    } else {
      // Past 38 digits: the best of bigint and decimal(38, k).
      ShreddingSchema bigint = ShreddingSchema::Primitive(VariantType::kInt64);
      consider(ChoiceKind::kPrimitive, bigint, PrimitiveCoverage(s, bigint).count);
      for (int k = 0; k <= scale; ++k) {
        ShreddingSchema d = *ShreddingSchema::Decimal(kMaxDigits, k);
        const int64_t c = PrimitiveCoverage(s, d).count;
        consider(ChoiceKind::kPrimitive, std::move(d), c);
      }
    }
  }
  static constexpr VariantType kExactTypes[] = {VariantType::kString,
                                                VariantType::kDouble,
                                                VariantType::kBoolean,
                                                VariantType::kFloat,
                                                VariantType::kDate,
                                                VariantType::kTimestampMicros,
                                                VariantType::kTimestampNtzMicros,
                                                VariantType::kTimestampNanos,
                                                VariantType::kTimestampNtzNanos,
                                                VariantType::kTimeNtzMicros,
                                                VariantType::kBinary,
                                                VariantType::kUuid};
  for (VariantType t : kExactTypes) {
    consider(ChoiceKind::kPrimitive, ShreddingSchema::Primitive(t), s.count(t));
  }
  if (best_count == 0 || static_cast<double>(best_count) <
                             options.min_typed_fraction * static_cast<double>(non_null)) {
    return Choice{};
  }
  return best;
}

struct PlanNode {
  const PathStats* stats = nullptr;
  int depth = 0;
  Choice choice;
  std::vector<std::pair<std::string, std::unique_ptr<PlanNode>>> fields;
  std::unique_ptr<PlanNode> element;
};

struct Candidate {
  int64_t count;
  int depth;
  std::string_view name;
  PlanNode* parent;
  const PathStats* stats;
  bool operator<(const Candidate& o) const {
    // priority_queue pops the largest: most values, then shallowest, then name order.
    if (count != o.count) return count < o.count;
    if (depth != o.depth) return depth > o.depth;
    return name > o.name;
  }
};

class Planner {
 public:
  explicit Planner(const InferOptions& options) : options_(options) {}

  std::unique_ptr<PlanNode> Make(const PathStats* stats, int depth) {
    auto node = std::make_unique<PlanNode>();
    node->stats = stats;
    node->depth = depth;
    if (stats == nullptr) return node;
    node->choice = ChooseType(*stats, options_, depth);
    if (node->choice.kind == ChoiceKind::kArray) {
      // Elements take no field budget.
      node->element = Make(stats->element(), depth + 1);
    } else if (node->choice.kind == ChoiceKind::kObject) {
      const double objects = static_cast<double>(stats->objects());
      for (size_t i = 0; i < stats->num_fields(); ++i) {
        const PathStats& f = stats->field(i);
        if (f.present() > 0 &&
            static_cast<double>(f.present()) >= options_.min_fraction * objects) {
          queue_.push({f.present(), depth + 1, stats->field_name(i), node.get(), &f});
        }
      }
    }
    return node;
  }

  // Hands out the width budget, most frequent fields first: a field is admitted when
  // its columns still fit (a cheaper, rarer one may fit after a dearer one did not).
  void Fill(const PlanNode& root) {
    int total = Columns(root);  // the root is shredded whatever the budget
    while (!queue_.empty()) {
      const Candidate c = queue_.top();
      queue_.pop();
      const int cost = Columns(c.stats, c.depth);
      if (total + cost > options_.max_fields) continue;
      c.parent->fields.emplace_back(std::string(c.name), Make(c.stats, c.depth));
      total += cost;
    }
  }

  // The Parquet columns a path adds, as Spark counts its schema width: one `value`
  // column, one more `typed_value` for a primitive; an array adds its element's
  // columns; an object's fields are counted as they are admitted.
  int Columns(const PathStats* stats, int depth) const {
    if (stats == nullptr) return 1;
    switch (ChooseType(*stats, options_, depth).kind) {
      case ChoiceKind::kPrimitive:
        return 2;
      case ChoiceKind::kArray:
        return 1 + Columns(stats->element(), depth + 1);
      default:
        return 1;
    }
  }
  int Columns(const PlanNode& node) const { return Columns(node.stats, node.depth); }

  // The names among `fields` that every reader can take as typed field names. DuckDB
  // 2.0 matches struct fields without ASCII case (it reads "A" and "a" as "A" and
  // "a_1"), and Arrow's C data interface ends names at a NUL byte, which pyarrow
  // readers then see cut. Such keys stay in the residual value.
  template <typename Fields>
  static std::unordered_set<std::string_view> ReadableNames(const Fields& fields) {
    std::unordered_map<std::string, int> folded;
    auto fold = [](std::string_view name) {
      std::string out(name);
      for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
      }
      return out;
    };
    for (const auto& field : fields) ++folded[fold(field.first)];
    std::unordered_set<std::string_view> out;
    for (const auto& field : fields) {
      if (field.first.find('\0') == std::string::npos && folded[fold(field.first)] == 1) {
        out.insert(field.first);
      }
    }
    return out;
  }

  static arrow::Result<ShreddingSchema> ToSchema(const PlanNode& node) {
    switch (node.choice.kind) {
      case ChoiceKind::kValueOnly:
        return ShreddingSchema::ValueOnly();
      case ChoiceKind::kPrimitive:
        return node.choice.primitive;
      case ChoiceKind::kArray: {
        ShreddingSchema element;
        if (node.element) {
          ARROW_ASSIGN_OR_RAISE(element, ToSchema(*node.element));
        }
        return ShreddingSchema::Array(std::move(element));
      }
      case ChoiceKind::kObject: {
        std::vector<ShreddingSchema::Field> fields;
        const auto readable = ReadableNames(node.fields);
        for (const auto& [name, child] : node.fields) {
          if (!readable.contains(name)) continue;
          ARROW_ASSIGN_OR_RAISE(auto s, ToSchema(*child));
          fields.emplace_back(name, std::move(s));
        }
        // An object without shredded fields would be an empty struct, and DuckDB 2.0
        // refuses a group whose one field is the empty key (a tuple to it): keep it
        // whole.
        if (fields.empty() || (fields.size() == 1 && fields[0].first.empty())) {
          return ShreddingSchema::ValueOnly();
        }
        std::sort(fields.begin(), fields.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        return ShreddingSchema::Object(std::move(fields));
      }
    }
    return ShreddingSchema::ValueOnly();
  }

 private:
  const InferOptions& options_;
  std::priority_queue<Candidate> queue_;
};

}  // namespace

arrow::Result<ShreddingSchema> ShreddingStats::DeriveSchema(
    const InferOptions& options) const {
  if (!(options.min_fraction >= 0 && options.min_fraction <= 1) ||
      !(options.min_typed_fraction >= 0 && options.min_typed_fraction <= 1)) {
    return arrow::Status::Invalid("DeriveSchema: fractions must lie in [0, 1]");
  }
  if (options.max_fields < 0 || options.max_depth < 0) {
    return arrow::Status::Invalid("DeriveSchema: max_fields and max_depth must be >= 0");
  }
  InferOptions capped = options;  // a deeper schema could be written but not read back
  capped.max_depth = std::min(capped.max_depth, kMaxShreddingDepth);
  Planner planner(capped);
  auto root = planner.Make(root_.get(), 0);
  planner.Fill(*root);
  return Planner::ToSchema(*root);
}

}  // namespace varshred
