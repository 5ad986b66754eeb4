// Licensed under the Apache License, Version 2.0.
//
// ShreddingStats::Report and ShreddingReport::ToString: per path of a schema, how many
// values its typed column would take. Reads the counters only.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "varshred/arrow/shredding_stats.h"
#include "varshred/arrow/shredding_stats_internal.h"

namespace varshred {

using internal::Coverage;
using internal::JoinElement;
using internal::JoinField;
using internal::PrimitiveCoverage;

// ----------------------------------------------------------------------
// Report

namespace {

std::string TypeLabel(const ShreddingSchema& schema) {
  switch (schema.kind()) {
    case ShreddingSchema::Kind::kValueOnly:
      return "variant";
    case ShreddingSchema::Kind::kObject:
      return "struct";
    case ShreddingSchema::Kind::kArray:
      return "array";
    case ShreddingSchema::Kind::kPrimitive:
      return schema.ToDdl();
  }
  return "";
}

// `untracked`: the parent lost keys to the tracking caps, so a path without
// statistics may just be untracked.
void ReportNode(const ShreddingSchema& schema, const PathStats* s, int64_t slots,
                bool is_field, bool untracked, const std::string& path,
                std::vector<ShreddingReport::Row>* rows) {
  ShreddingReport::Row row;
  row.path = path;
  row.type = TypeLabel(schema);
  row.slots = slots;
  const int64_t present = s ? s->present() : 0;
  row.missing = is_field ? slots - present : 0;
  if (s == nullptr) {
    row.exact = !untracked;
  } else {
    row.variant_nulls = s->variant_nulls();
    switch (schema.kind()) {
      case ShreddingSchema::Kind::kValueOnly:
        break;
      case ShreddingSchema::Kind::kObject:
        row.typed = s->objects();
        row.unshredded_fields = s->untracked_field_values();
        for (size_t i = 0; i < s->num_fields(); ++i) {
          const std::string& name = s->field_name(i);
          const bool in_schema =
              std::any_of(schema.fields().begin(), schema.fields().end(),
                          [&](const auto& f) { return f.first == name; });
          if (!in_schema) row.unshredded_fields += s->field(i).present();
        }
        break;
      case ShreddingSchema::Kind::kArray:
        row.typed = s->arrays();
        break;
      case ShreddingSchema::Kind::kPrimitive: {
        const Coverage c = PrimitiveCoverage(*s, schema);
        row.typed = c.count;
        row.exact = c.exact;
        break;
      }
    }
  }
  row.residual = present - row.typed;
  rows->push_back(std::move(row));
  if (schema.kind() == ShreddingSchema::Kind::kObject) {
    const bool lost = s && s->untracked_field_values() > 0;
    for (const auto& [name, child] : schema.fields()) {
      ReportNode(child, s ? s->FindField(name) : nullptr, s ? s->objects() : 0, true,
                 lost || (s == nullptr && untracked), JoinField(path, name), rows);
    }
  } else if (schema.kind() == ShreddingSchema::Kind::kArray) {
    const PathStats* e = s ? s->element() : nullptr;
    ReportNode(schema.element(), e, e ? e->present() : 0, false, untracked,
               JoinElement(path), rows);
  }
}

std::string Share(int64_t n, int64_t of, bool exact) {
  std::ostringstream os;
  os << (exact ? "" : "~") << n;
  if (of > 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), " (%.1f%%)",
                  100.0 * static_cast<double>(n) / static_cast<double>(of));
    os << buf;
  }
  return os.str();
}

}  // namespace

arrow::Result<ShreddingReport> ShreddingStats::Report(
    const ShreddingSchema& schema) const {
  ShreddingReport report;
  report.rows = rows_;
  report.sql_null_rows = sql_null_rows_;
  ReportNode(schema, root_.get(), root_->present(), false, false, "$", &report.paths);
  return report;
}

std::string ShreddingReport::ToString() const {
  std::vector<std::array<std::string, 5>> cells;
  cells.push_back({"path", "type", "typed", "residual", "missing"});
  for (const Row& r : paths) {
    cells.push_back({r.path, r.type, Share(r.typed, r.slots, r.exact),
                     Share(r.residual, r.slots, r.exact),
                     Share(r.missing, r.slots, true)});
  }
  std::array<size_t, 5> width{};
  for (const auto& line : cells) {
    for (size_t i = 0; i < 5; ++i) width[i] = std::max(width[i], line[i].size());
  }
  std::ostringstream os;
  os << "rows: " << rows << " (" << sql_null_rows << " SQL NULL)\n";
  for (size_t l = 0; l < cells.size(); ++l) {
    for (size_t i = 0; i < 5; ++i) {
      if (i) os << " | ";
      os << cells[l][i];
      if (i + 1 < 5) os << std::string(width[i] - cells[l][i].size(), ' ');
    }
    os << '\n';
    if (l == 0) {
      for (size_t i = 0; i < 5; ++i) {
        if (i) os << "-+-";
        os << std::string(width[i], '-');
      }
      os << '\n';
    }
  }
  const bool estimates =
      std::any_of(paths.begin(), paths.end(), [](const Row& r) { return !r.exact; });
  if (estimates) os << "~ estimate (lower bound of typed values)\n";
  return os.str();
}

}  // namespace varshred
