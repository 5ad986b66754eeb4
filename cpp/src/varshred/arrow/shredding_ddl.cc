// Licensed under the Apache License, Version 2.0.
//
// The DDL text of a ShreddingSchema: Parse() (Spark's type syntax, `struct<a: int>` or
// the bare `a int, b string`) and ToDdl().

#include <arrow/status.h>

#include <cctype>
#include <string>
#include <string_view>
#include <unordered_set>

#include "varshred/arrow/shredding_path_internal.h"
#include "varshred/arrow/shredding_schema.h"

namespace varshred {

namespace internal {

std::string QuoteName(const std::string& name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') plain = false;
  }
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    out.push_back(c);
    if (c == '`') out.push_back('`');
  }
  out.push_back('`');
  return out;
}

}  // namespace internal

namespace {

using internal::QuoteName;

struct TypeName {
  std::string_view name;
  VariantType type;
};

// DDL names, Spark spellings first. The first name listed for a type is what ToDdl
// writes.
constexpr TypeName kTypeNames[] = {
    {"boolean", VariantType::kBoolean},
    {"tinyint", VariantType::kInt8},
    {"byte", VariantType::kInt8},
    {"smallint", VariantType::kInt16},
    {"short", VariantType::kInt16},
    {"int", VariantType::kInt32},
    {"integer", VariantType::kInt32},
    {"bigint", VariantType::kInt64},
    {"long", VariantType::kInt64},
    {"float", VariantType::kFloat},
    {"real", VariantType::kFloat},
    {"double", VariantType::kDouble},
    {"date", VariantType::kDate},
    {"time", VariantType::kTimeNtzMicros},
    {"timestamp", VariantType::kTimestampMicros},
    {"timestamp_ltz", VariantType::kTimestampMicros},
    {"timestamp_ntz", VariantType::kTimestampNtzMicros},
    {"timestamp_ns", VariantType::kTimestampNanos},
    {"timestamp_ntz_ns", VariantType::kTimestampNtzNanos},
    {"binary", VariantType::kBinary},
    {"string", VariantType::kString},
    {"varchar", VariantType::kString},
    {"uuid", VariantType::kUuid},
};

// ----------------------------------------------------------------------
// Parser

class DdlParser {
 public:
  // `for_casts`: the text names the target type of a cast (variant_get), where Spark
  // accepts a field's NOT NULL and drops it (the result is nullable). A shredded field
  // is always nullable (a row may lack it or hold another type): a shredding schema
  // refuses NOT NULL rather than ignore what its author asked for.
  DdlParser(std::string_view text, bool for_casts) : text_(text), for_casts_(for_casts) {}

  arrow::Result<ShreddingSchema> ParseTop() {
    SkipSpace();
    // Bare form `a int, b string` vs a type: a type word is followed by the end, `<`
    // or `(`; a field name is followed by `:` or a type.
    bool bare = Peek() == '`';
    if (!bare) {
      const size_t save = pos_;
      ARROW_ASSIGN_OR_RAISE(std::string word, Word());
      SkipSpace();
      bare = !AtEnd() && Peek() != '<' && Peek() != '(' && !NextWordIs("collate") &&
             !NextWordIs("with") && !NextWordIs("without");
      pos_ = save;
    }
    ShreddingSchema out;
    if (bare) {
      ARROW_ASSIGN_OR_RAISE(out, ParseFields('\0'));
    } else {
      ARROW_ASSIGN_OR_RAISE(out, ParseType());
    }
    SkipSpace();
    if (!AtEnd()) return Error("unexpected '" + std::string(1, Peek()) + "'");
    return out;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  arrow::Status Error(const std::string& what) const { return ErrorAt(what, pos_); }
  arrow::Status ErrorAt(const std::string& what, size_t pos) const {
    return arrow::Status::Invalid("shredding schema: ", what, " at column ", pos + 1);
  }
  arrow::Status Expect(char c) {
    SkipSpace();
    if (Peek() != c) {
      return Error(std::string("expected '") + c + "'" +
                   (AtEnd() ? " but the text ended" : ""));
    }
    ++pos_;
    return arrow::Status::OK();
  }

  arrow::Result<std::string> Word() {
    SkipSpace();
    const size_t start = pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                        text_[pos_] == '_')) {
      ++pos_;
    }
    if (pos_ == start) {
      return AtEnd()
                 ? Error("expected a name or type but the text ended")
                 : Error("expected a name or type, got '" + std::string(1, Peek()) + "'");
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // Whether the next word is `keyword` (any case), consuming it only if so.
  bool TakeWord(std::string_view keyword) {
    if (!NextWordIs(keyword)) return false;
    SkipSpace();
    pos_ += keyword.size();
    return true;
  }
  bool NextWordIs(std::string_view keyword) {
    const size_t save = pos_;
    SkipSpace();
    size_t end = pos_;
    while (end < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
      ++end;
    }
    bool match = end - pos_ == keyword.size();
    for (size_t i = 0; match && i < keyword.size(); ++i) {
      match = std::tolower(static_cast<unsigned char>(text_[pos_ + i])) == keyword[i];
    }
    pos_ = save;
    return match;
  }

  // Spark's string literal ('...' or "...", backslash escapes), whose text is dropped.
  arrow::Status SkipStringLiteral() {
    SkipSpace();
    const size_t start = pos_;
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("expected a quoted comment");
    for (++pos_; !AtEnd(); ++pos_) {
      if (text_[pos_] == '\\') {
        ++pos_;
      } else if (text_[pos_] == quote) {
        ++pos_;
        return arrow::Status::OK();
      }
    }
    return ErrorAt("unterminated comment", start);
  }

  // What Spark's DDL allows after a field's type: `NOT NULL`, then `COMMENT '...'`.
  // Neither changes the values read or shredded.
  arrow::Status FieldOptions() {
    const size_t start = (SkipSpace(), pos_);
    if (TakeWord("not")) {
      if (!TakeWord("null")) return Error("expected NULL after NOT");
      if (!for_casts_) {
        return ErrorAt(
            "NOT NULL: a shredded field is always nullable (a row may lack it or hold "
            "another type)",
            start);
      }
    }
    if (TakeWord("comment")) return SkipStringLiteral();
    return arrow::Status::OK();
  }

  arrow::Result<std::string> Name() {
    SkipSpace();
    if (Peek() != '`') return Word();
    const size_t start = pos_++;
    std::string out;
    while (true) {
      if (AtEnd()) return ErrorAt("unterminated backquoted name", start);
      const char c = text_[pos_++];
      if (c == '`') {
        if (Peek() == '`') {
          out.push_back('`');
          ++pos_;
          continue;
        }
        break;
      }
      out.push_back(c);
    }
    return out;  // `` is the empty name, a valid JSON and Variant key
  }

  arrow::Result<int> Number() {
    SkipSpace();
    const size_t start = pos_;
    int v = 0;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      v = v * 10 + (text_[pos_++] - '0');
      if (v > 1000) return ErrorAt("number too large", start);
    }
    if (pos_ == start) return Error("expected a number");
    return v;
  }

  // Opens one level of nesting (an object or array; Leave() closes it), failing past
  // the limit before recursing further. A failed parse is abandoned, so error paths
  // need not Leave().
  arrow::Status Enter(size_t pos) {
    if (depth_ >= kMaxShreddingDepth) {
      return ErrorAt(
          "nesting deeper than the limit of " + std::to_string(kMaxShreddingDepth), pos);
    }
    ++depth_;
    return arrow::Status::OK();
  }
  void Leave() { --depth_; }

  arrow::Result<ShreddingSchema> ParseFields(char close) {
    ARROW_RETURN_NOT_OK(Enter(pos_));
    std::vector<ShreddingSchema::Field> fields;
    std::unordered_set<std::string> names;  // wide objects: no pairwise comparison
    SkipSpace();
    if (close != '\0' && Peek() == close) {
      Leave();
      return ShreddingSchema::Object({});
    }
    while (true) {
      const size_t name_pos = pos_;
      ARROW_ASSIGN_OR_RAISE(std::string name, Name());
      SkipSpace();
      if (Peek() == ':') ++pos_;
      ARROW_ASSIGN_OR_RAISE(ShreddingSchema type, ParseType());
      ARROW_RETURN_NOT_OK(FieldOptions());
      if (!names.insert(name).second) {
        return ErrorAt("duplicate field '" + name + "'", name_pos);
      }
      fields.emplace_back(std::move(name), std::move(type));
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      break;
    }
    Leave();
    return ShreddingSchema::Object(std::move(fields));
  }

  arrow::Result<ShreddingSchema> ParseType() {
    SkipSpace();
    const size_t start = pos_;
    ARROW_ASSIGN_OR_RAISE(std::string word, Word());
    std::string lower = word;
    for (char& c : lower)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "struct") {
      ARROW_RETURN_NOT_OK(Expect('<'));
      ARROW_ASSIGN_OR_RAISE(auto obj, ParseFields('>'));
      ARROW_RETURN_NOT_OK(Expect('>'));
      return obj;
    }
    if (lower == "array") {
      ARROW_RETURN_NOT_OK(Enter(start));
      ARROW_RETURN_NOT_OK(Expect('<'));
      ARROW_ASSIGN_OR_RAISE(auto element, ParseType());
      ARROW_RETURN_NOT_OK(Expect('>'));
      Leave();
      return ShreddingSchema::Array(std::move(element));
    }
    if (lower == "variant") return ShreddingSchema::ValueOnly();
    if (lower == "decimal" || lower == "numeric" || lower == "dec") {
      int precision = 10, scale = 0;  // Spark's default DECIMAL
      SkipSpace();
      if (Peek() == '(') {
        ++pos_;
        ARROW_ASSIGN_OR_RAISE(precision, Number());
        SkipSpace();
        scale = 0;
        if (Peek() == ',') {
          ++pos_;
          ARROW_ASSIGN_OR_RAISE(scale, Number());
        }
        ARROW_RETURN_NOT_OK(Expect(')'));
      }
      auto d = ShreddingSchema::Decimal(precision, scale);
      if (!d.ok()) return ErrorAt(d.status().message(), start);
      return d;
    }
    for (const auto& t : kTypeNames) {
      if (t.name != lower) continue;
      // Spark's `STRING COLLATE UTF8_LCASE`: a collation orders and compares strings;
      // the values are the same strings.
      if (t.type == VariantType::kString && TakeWord("collate")) {
        ARROW_RETURN_NOT_OK(CollationName());
      }
      if (lower == "time") ARROW_RETURN_NOT_OK(TimePrecision());
      if (lower == "timestamp") return TimestampZone();
      return ShreddingSchema::Primitive(t.type);
    }
    return ErrorAt("unknown type '" + word + "'", start);
  }

  // Spark's `TIME(p)`: the microseconds of TIME are TIME(6); another precision would
  // cut the fraction, which no Variant type does.
  arrow::Status TimePrecision() {
    SkipSpace();
    if (Peek() != '(') return arrow::Status::OK();
    const size_t start = pos_++;
    ARROW_ASSIGN_OR_RAISE(const int precision, Number());
    ARROW_RETURN_NOT_OK(Expect(')'));
    if (precision != 6) {
      return ErrorAt("TIME(" + std::to_string(precision) +
                         "): only TIME(6), microseconds, is a Variant type",
                     start);
    }
    return arrow::Status::OK();
  }

  // SQL's spellings of Spark's two timestamps: `TIMESTAMP WITH LOCAL TIME ZONE` (an
  // instant) and `TIMESTAMP WITHOUT TIME ZONE` (timestamp_ntz).
  arrow::Result<ShreddingSchema> TimestampZone() {
    const size_t start = (SkipSpace(), pos_);
    VariantType type = VariantType::kTimestampMicros;
    if (TakeWord("with")) {
      if (!TakeWord("local")) return ErrorAt("expected WITH LOCAL TIME ZONE", start);
    } else if (TakeWord("without")) {
      type = VariantType::kTimestampNtzMicros;
    } else {
      return ShreddingSchema::Primitive(type);
    }
    if (!TakeWord("time") || !TakeWord("zone")) {
      return ErrorAt("expected TIME ZONE", start);
    }
    return ShreddingSchema::Primitive(type);
  }

  // A collation's name, possibly qualified (`SYSTEM.BUILTIN.UTF8_LCASE`).
  arrow::Status CollationName() {
    while (true) {
      ARROW_RETURN_NOT_OK(Name().status());
      SkipSpace();
      if (Peek() != '.') return arrow::Status::OK();
      ++pos_;
    }
  }

  std::string_view text_;
  const bool for_casts_;
  size_t pos_ = 0;
  int depth_ = 0;  // objects and arrays open at pos_
};

}  // namespace

arrow::Result<ShreddingSchema> ShreddingSchema::Parse(std::string_view ddl) {
  return DdlParser(ddl, /*for_casts=*/false).ParseTop();
}

arrow::Result<ShreddingSchema> ShreddingSchema::ParseSqlType(std::string_view ddl) {
  return DdlParser(ddl, /*for_casts=*/true).ParseTop();
}

std::string ShreddingSchema::ToDdl() const {
  switch (kind_) {
    case Kind::kValueOnly:
      return "variant";
    case Kind::kArray:
      return "array<" + element().ToDdl() + ">";
    case Kind::kObject: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) out += ", ";
        out += QuoteName(fields_[i].first) + ": " + fields_[i].second.ToDdl();
      }
      return out + ">";
    }
    case Kind::kPrimitive:
      break;
  }
  if (IsDecimal(type_)) {
    return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
  }
  for (const auto& t : kTypeNames) {
    if (t.type == type_) return std::string(t.name);
  }
  return "variant";
}

}  // namespace varshred
