// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/shredding_schema.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <arrow/extension/uuid.h>
#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <parquet/types.h>

#include "varshred/arrow/shredding_path_internal.h"

namespace varshred {

namespace {

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

VariantType DecimalWidth(int precision) {
  return precision <= kMaxDecimal4Precision   ? VariantType::kDecimal4
         : precision <= kMaxDecimal8Precision ? VariantType::kDecimal8
                                              : VariantType::kDecimal16;
}

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

// ---- DDL parsing -------------------------------------------------------------------

class DdlParser {
 public:
  explicit DdlParser(std::string_view text) : text_(text) {}

  arrow::Result<ShreddingSchema> ParseTop() {
    SkipSpace();
    // Bare form `a int, b string` vs a type: a type word is followed by the end, `<`
    // or `(`; a field name is followed by `:` or a type.
    bool bare = Peek() == '`';
    if (!bare) {
      const size_t save = pos_;
      ARROW_ASSIGN_OR_RAISE(std::string word, Word());
      SkipSpace();
      bare = !AtEnd() && Peek() != '<' && Peek() != '(';
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
      return AtEnd() ? Error("expected a name or type but the text ended")
                     : Error("expected a name or type, got '" + std::string(1, Peek()) +
                             "'");
    }
    return std::string(text_.substr(start, pos_ - start));
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
    if (depth_ >= kMaxNestingDepth) {
      return ErrorAt(
          "nesting deeper than the limit of " + std::to_string(kMaxNestingDepth), pos);
    }
    ++depth_;
    return arrow::Status::OK();
  }
  void Leave() { --depth_; }

  arrow::Result<ShreddingSchema> ParseFields(char close) {
    RETURN_NOT_OK(Enter(pos_));
    std::vector<ShreddingSchema::Field> fields;
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
      for (const auto& f : fields) {
        if (f.first == name) return ErrorAt("duplicate field '" + name + "'", name_pos);
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
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "struct") {
      RETURN_NOT_OK(Expect('<'));
      ARROW_ASSIGN_OR_RAISE(auto obj, ParseFields('>'));
      RETURN_NOT_OK(Expect('>'));
      return obj;
    }
    if (lower == "array") {
      RETURN_NOT_OK(Enter(start));
      RETURN_NOT_OK(Expect('<'));
      ARROW_ASSIGN_OR_RAISE(auto element, ParseType());
      RETURN_NOT_OK(Expect('>'));
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
        RETURN_NOT_OK(Expect(')'));
      }
      auto d = ShreddingSchema::Decimal(precision, scale);
      if (!d.ok()) return ErrorAt(d.status().message(), start);
      return d;
    }
    for (const auto& t : kTypeNames) {
      if (t.name == lower) return ShreddingSchema::Primitive(t.type);
    }
    return ErrorAt("unknown type '" + word + "'", start);
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;  // objects and arrays open at pos_
};

// ---- FromPaths ---------------------------------------------------------------------

struct PathNode {
  enum class Kind { kUnset, kObject, kArray, kLeaf } kind = Kind::kUnset;
  std::vector<std::pair<std::string, std::unique_ptr<PathNode>>> fields;
  std::unique_ptr<PathNode> element;
  ShreddingSchema leaf;
};

arrow::Result<ShreddingSchema> Freeze(const PathNode& node) {
  switch (node.kind) {
    case PathNode::Kind::kLeaf:
    case PathNode::Kind::kUnset:
      return node.leaf;
    case PathNode::Kind::kArray: {
      ARROW_ASSIGN_OR_RAISE(auto element, Freeze(*node.element));
      return ShreddingSchema::Array(std::move(element));
    }
    case PathNode::Kind::kObject: {
      std::vector<ShreddingSchema::Field> fields;
      for (const auto& [name, child] : node.fields) {
        ARROW_ASSIGN_OR_RAISE(auto c, Freeze(*child));
        fields.emplace_back(name, std::move(c));
      }
      return ShreddingSchema::Object(std::move(fields));
    }
  }
  return arrow::Status::UnknownError("unreachable");
}

// Objects and arrays on the deepest path of `s` (bounded: schemas are built within the
// nesting limit).
int NestingDepth(const ShreddingSchema& s) {
  switch (s.kind()) {
    case ShreddingSchema::Kind::kArray:
      return 1 + NestingDepth(s.element());
    case ShreddingSchema::Kind::kObject: {
      int deepest = 0;
      for (const auto& f : s.fields()) {
        deepest = std::max(deepest, NestingDepth(f.second));
      }
      return 1 + deepest;
    }
    default:
      return 0;
  }
}

// ---- Arrow -------------------------------------------------------------------------

std::shared_ptr<arrow::Field> PairField(const std::string& name,
                                        const ShreddingSchema& node) {
  arrow::FieldVector children = {arrow::field("value", arrow::binary())};
  if (auto t = node.TypedValueArrowType()) children.push_back(arrow::field("typed_value", t));
  return arrow::field(name, arrow::struct_(std::move(children)), /*nullable=*/false);
}

// The typed_value type of a {value, typed_value} pair, or null for a value-only pair.
arrow::Result<const arrow::DataType*> PairTypedValue(const arrow::DataType& type,
                                                     const std::string& where) {
  if (type.id() != arrow::Type::STRUCT) {
    return arrow::Status::TypeError("shredded ", where, " must be a struct, got ",
                                    type.ToString());
  }
  const auto& st = static_cast<const arrow::StructType&>(type);
  int typed = -1;
  bool has_value = false;
  for (int i = 0; i < st.num_fields(); ++i) {
    const auto& f = st.field(i);
    if (f->name() == "typed_value") {
      typed = i;
    } else if (f->name() == "value") {
      has_value = true;
    } else {
      return arrow::Status::TypeError("shredded ", where, " has an unexpected child '",
                                      f->name(), "'");
    }
  }
  if (typed < 0 && !has_value) {
    return arrow::Status::TypeError("shredded ", where,
                                    " has neither value nor typed_value");
  }
  if (typed < 0) return nullptr;
  return st.field(typed)->type().get();
}

// ---- Parquet -----------------------------------------------------------------------

using parquet::LogicalType;
using parquet::schema::GroupNode;
using parquet::schema::NodePtr;
using parquet::schema::PrimitiveNode;
namespace pq = parquet;

arrow::Result<NodePtr> TypedValueNode(const ShreddingSchema& s);

arrow::Result<parquet::schema::NodeVector> PairNodes(const ShreddingSchema& s,
                                                     bool with_value = true) {
  parquet::schema::NodeVector out;
  if (with_value) {
    out.push_back(PrimitiveNode::Make("value", pq::Repetition::OPTIONAL,
                                      pq::Type::BYTE_ARRAY));
  }
  if (s.has_typed_value()) {
    ARROW_ASSIGN_OR_RAISE(auto typed, TypedValueNode(s));
    out.push_back(std::move(typed));
  }
  return out;
}

arrow::Result<NodePtr> TypedValueNode(const ShreddingSchema& s) {
  const auto opt = pq::Repetition::OPTIONAL;
  const std::string name = "typed_value";
  switch (s.kind()) {
    case ShreddingSchema::Kind::kValueOnly:
      return arrow::Status::Invalid("value-only node has no typed_value");
    case ShreddingSchema::Kind::kObject: {
      if (s.fields().empty()) {
        return arrow::Status::Invalid(
            "shredding schema: an object with no fields (struct<>) cannot be stored in "
            "Parquet (a group needs a child); use 'variant' to leave it unshredded");
      }
      parquet::schema::NodeVector fields;
      for (const auto& [fname, child] : s.fields()) {
        ARROW_ASSIGN_OR_RAISE(auto pair, PairNodes(child));
        // VariantShredding.md: object field groups must be required.
        fields.push_back(GroupNode::Make(fname, pq::Repetition::REQUIRED, pair));
      }
      return GroupNode::Make(name, opt, fields);
    }
    case ShreddingSchema::Kind::kArray: {
      ARROW_ASSIGN_OR_RAISE(auto pair, PairNodes(s.element()));
      // 3-level LIST with a required element group.
      auto element = GroupNode::Make("element", pq::Repetition::REQUIRED, pair);
      auto list = GroupNode::Make("list", pq::Repetition::REPEATED, {element});
      return GroupNode::Make(name, opt, {list}, LogicalType::List());
    }
    case ShreddingSchema::Kind::kPrimitive:
      break;
  }
  using T = pq::Type;
  const auto micros = LogicalType::TimeUnit::MICROS;
  const auto nanos = LogicalType::TimeUnit::NANOS;
  switch (s.type()) {
    case VariantType::kBoolean:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::BOOLEAN);
    case VariantType::kInt8:
      return PrimitiveNode::Make(name, opt, LogicalType::Int(8, true), T::INT32);
    case VariantType::kInt16:
      return PrimitiveNode::Make(name, opt, LogicalType::Int(16, true), T::INT32);
    case VariantType::kInt32:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::INT32);
    case VariantType::kInt64:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::INT64);
    case VariantType::kFloat:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::FLOAT);
    case VariantType::kDouble:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::DOUBLE);
    case VariantType::kDecimal4:
      return PrimitiveNode::Make(name, opt, LogicalType::Decimal(s.precision(), s.scale()),
                                 T::INT32);
    case VariantType::kDecimal8:
      return PrimitiveNode::Make(name, opt, LogicalType::Decimal(s.precision(), s.scale()),
                                 T::INT64);
    case VariantType::kDecimal16:
      return PrimitiveNode::Make(name, opt, LogicalType::Decimal(s.precision(), s.scale()),
                                 T::FIXED_LEN_BYTE_ARRAY, 16);
    case VariantType::kDate:
      return PrimitiveNode::Make(name, opt, LogicalType::Date(), T::INT32);
    case VariantType::kTimeNtzMicros:
      return PrimitiveNode::Make(name, opt, LogicalType::Time(false, micros), T::INT64);
    case VariantType::kTimestampMicros:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(true, micros), T::INT64);
    case VariantType::kTimestampNtzMicros:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(false, micros),
                                 T::INT64);
    case VariantType::kTimestampNanos:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(true, nanos), T::INT64);
    case VariantType::kTimestampNtzNanos:
      return PrimitiveNode::Make(name, opt, LogicalType::Timestamp(false, nanos), T::INT64);
    case VariantType::kBinary:
      return PrimitiveNode::Make(name, opt, LogicalType::None(), T::BYTE_ARRAY);
    case VariantType::kString:
      return PrimitiveNode::Make(name, opt, LogicalType::String(), T::BYTE_ARRAY);
    case VariantType::kUuid:
      return PrimitiveNode::Make(name, opt, LogicalType::UUID(), T::FIXED_LEN_BYTE_ARRAY,
                                 16);
    default:
      return arrow::Status::Invalid("no Parquet type for ", VariantTypeName(s.type()));
  }
}

}  // namespace

ShreddingSchema ShreddingSchema::Primitive(VariantType type) {
  ShreddingSchema s;
  s.kind_ = Kind::kPrimitive;
  s.type_ = type;
  return s;
}

arrow::Result<ShreddingSchema> ShreddingSchema::Decimal(int precision, int scale) {
  if (precision < 1 || precision > kMaxDecimal16Precision || scale < 0 ||
      scale > precision) {
    return arrow::Status::Invalid("invalid decimal(", precision, ",", scale,
                                  "): need 1 <= precision <= 38, 0 <= scale <= precision");
  }
  ShreddingSchema s;
  s.kind_ = Kind::kPrimitive;
  s.type_ = DecimalWidth(precision);
  s.precision_ = static_cast<uint8_t>(precision);
  s.scale_ = static_cast<uint8_t>(scale);
  return s;
}

arrow::Result<ShreddingSchema> ShreddingSchema::Object(std::vector<Field> fields) {
  std::set<std::string_view> seen;
  for (const auto& f : fields) {
    if (!seen.insert(f.first).second) {
      return arrow::Status::Invalid("duplicate field '", f.first, "' in shredding schema");
    }
  }
  ShreddingSchema s;
  s.kind_ = Kind::kObject;
  s.fields_ = std::move(fields);
  return s;
}

ShreddingSchema ShreddingSchema::Array(ShreddingSchema element) {
  ShreddingSchema s;
  s.kind_ = Kind::kArray;
  s.children_.push_back(std::move(element));
  return s;
}

arrow::Result<ShreddingSchema> ShreddingSchema::FromArrow(const arrow::DataType& type) {
  return FromArrowAt(type, 0);
}

arrow::Result<ShreddingSchema> ShreddingSchema::FromArrowAt(const arrow::DataType& type,
                                                            int depth) {
  using arrow::Type;
  // A pair's typed_value (null: value-only), one level below this node.
  auto pair = [depth](const arrow::DataType& t,
                      const std::string& where) -> arrow::Result<ShreddingSchema> {
    ARROW_ASSIGN_OR_RAISE(const arrow::DataType* typed, PairTypedValue(t, where));
    if (typed == nullptr) return ValueOnly();
    return FromArrowAt(*typed, depth + 1);
  };
  if ((type.id() == Type::STRUCT || type.id() == Type::LIST ||
       type.id() == Type::LARGE_LIST || type.id() == Type::LIST_VIEW ||
       type.id() == Type::LARGE_LIST_VIEW) &&
      depth >= kMaxNestingDepth) {
    return arrow::Status::Invalid("shredded typed_value nested deeper than the limit of ",
                                  kMaxNestingDepth);
  }
  switch (type.id()) {
    case Type::BOOL: return Primitive(VariantType::kBoolean);
    case Type::INT8: return Primitive(VariantType::kInt8);
    case Type::INT16: return Primitive(VariantType::kInt16);
    case Type::INT32: return Primitive(VariantType::kInt32);
    case Type::INT64: return Primitive(VariantType::kInt64);
    case Type::FLOAT: return Primitive(VariantType::kFloat);
    case Type::DOUBLE: return Primitive(VariantType::kDouble);
    case Type::DATE32: return Primitive(VariantType::kDate);
    case Type::BINARY:
    case Type::LARGE_BINARY:
    case Type::BINARY_VIEW: return Primitive(VariantType::kBinary);
    case Type::STRING:
    case Type::LARGE_STRING:
    case Type::STRING_VIEW: return Primitive(VariantType::kString);
    case Type::DECIMAL32:
    case Type::DECIMAL64:
    case Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::DecimalType&>(type);
      ARROW_ASSIGN_OR_RAISE(auto s, Decimal(d.precision(), d.scale()));
      // The Arrow width, when narrower than 16 bytes, names the Variant width.
      if (type.id() == Type::DECIMAL32) s.type_ = VariantType::kDecimal4;
      if (type.id() == Type::DECIMAL64) s.type_ = VariantType::kDecimal8;
      return s;
    }
    case Type::TIME64: {
      const auto& t = static_cast<const arrow::Time64Type&>(type);
      if (t.unit() == arrow::TimeUnit::MICRO) return Primitive(VariantType::kTimeNtzMicros);
      break;
    }
    case Type::TIMESTAMP: {
      const auto& t = static_cast<const arrow::TimestampType&>(type);
      const bool utc = !t.timezone().empty();
      if (t.unit() == arrow::TimeUnit::MICRO) {
        return Primitive(utc ? VariantType::kTimestampMicros
                             : VariantType::kTimestampNtzMicros);
      }
      if (t.unit() == arrow::TimeUnit::NANO) {
        return Primitive(utc ? VariantType::kTimestampNanos
                             : VariantType::kTimestampNtzNanos);
      }
      break;
    }
    case Type::FIXED_SIZE_BINARY:
      if (static_cast<const arrow::FixedSizeBinaryType&>(type).byte_width() == 16) {
        return Primitive(VariantType::kUuid);
      }
      break;
    case Type::EXTENSION: {
      const auto& ext = static_cast<const arrow::ExtensionType&>(type);
      if (ext.extension_name() == "arrow.uuid") return Primitive(VariantType::kUuid);
      break;
    }
    case Type::STRUCT: {
      std::vector<Field> fields;
      for (const auto& f : type.fields()) {
        ARROW_ASSIGN_OR_RAISE(auto child, pair(*f->type(), "field '" + f->name() + "'"));
        fields.emplace_back(f->name(), std::move(child));
      }
      return Object(std::move(fields));
    }
    case Type::LIST:
    case Type::LARGE_LIST:
    case Type::LIST_VIEW:
    case Type::LARGE_LIST_VIEW: {
      ARROW_ASSIGN_OR_RAISE(auto element, pair(*type.field(0)->type(), "array element"));
      return Array(std::move(element));
    }
    default:
      break;
  }
  return arrow::Status::TypeError("unsupported shredded typed_value type ",
                                  type.ToString());
}

arrow::Result<ShreddingSchema> ShreddingSchema::Parse(std::string_view ddl) {
  return DdlParser(ddl).ParseTop();
}

arrow::Result<ShreddingSchema> ShreddingSchema::FromPaths(
    const std::vector<std::pair<std::string, std::string>>& paths) {
  PathNode root;
  root.kind = PathNode::Kind::kObject;
  for (const auto& [path, type_text] : paths) {
    ARROW_ASSIGN_OR_RAISE(auto segments, internal::ParsePath(path));
    auto type = Parse(type_text);
    if (!type.ok()) {
      return arrow::Status::Invalid("shredding path '", path, "': ",
                                    type.status().message());
    }
    // Each segment opens one object or array above the leaf's own nesting.
    if (segments.size() + NestingDepth(*type) > static_cast<size_t>(kMaxNestingDepth)) {
      return arrow::Status::Invalid("shredding path '", path, "': nesting deeper than ",
                                    "the limit of ", kMaxNestingDepth);
    }
    PathNode* node = &root;
    for (size_t i = 0; i < segments.size(); ++i) {
      const std::string& seg = segments[i].name;
      const bool is_element = segments[i].element;
      const auto want = is_element ? PathNode::Kind::kArray : PathNode::Kind::kObject;
      if (node->kind == PathNode::Kind::kUnset) node->kind = want;
      if (node->kind != want) {
        return arrow::Status::Invalid("shredding path '", path, "' conflicts with another",
                                      " path: its prefix is already shredded as ",
                                      node->kind == PathNode::Kind::kLeaf ? "a leaf"
                                      : node->kind == PathNode::Kind::kArray
                                          ? "an array"
                                          : "an object");
      }
      PathNode* next = nullptr;
      if (is_element) {
        if (!node->element) node->element = std::make_unique<PathNode>();
        next = node->element.get();
      } else {
        for (auto& [name, child] : node->fields) {
          if (name == seg) next = child.get();
        }
        if (!next) {
          node->fields.emplace_back(seg, std::make_unique<PathNode>());
          next = node->fields.back().second.get();
        }
      }
      node = next;
    }
    if (node->kind != PathNode::Kind::kUnset) {
      return arrow::Status::Invalid("shredding path '", path,
                                    "' is given twice or conflicts with another path");
    }
    node->kind = PathNode::Kind::kLeaf;
    node->leaf = *std::move(type);
  }
  return Freeze(root);
}

std::string ShreddingSchema::ToDdl() const {
  switch (kind_) {
    case Kind::kValueOnly: return "variant";
    case Kind::kArray: return "array<" + element().ToDdl() + ">";
    case Kind::kObject: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) out += ", ";
        out += QuoteName(fields_[i].first) + ": " + fields_[i].second.ToDdl();
      }
      return out + ">";
    }
    case Kind::kPrimitive: break;
  }
  if (IsDecimal(type_)) {
    return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
  }
  for (const auto& t : kTypeNames) {
    if (t.type == type_) return std::string(t.name);
  }
  return "variant";
}

std::shared_ptr<arrow::DataType> ShreddingSchema::TypedValueArrowType() const {
  switch (kind_) {
    case Kind::kValueOnly: return nullptr;
    case Kind::kObject: {
      arrow::FieldVector fields;
      for (const auto& [name, child] : fields_) fields.push_back(PairField(name, child));
      return arrow::struct_(std::move(fields));
    }
    case Kind::kArray: return arrow::list(PairField("element", element()));
    case Kind::kPrimitive: break;
  }
  switch (type_) {
    case VariantType::kBoolean: return arrow::boolean();
    case VariantType::kInt8: return arrow::int8();
    case VariantType::kInt16: return arrow::int16();
    case VariantType::kInt32: return arrow::int32();
    case VariantType::kInt64: return arrow::int64();
    case VariantType::kFloat: return arrow::float32();
    case VariantType::kDouble: return arrow::float64();
    case VariantType::kDecimal4: return arrow::decimal32(precision_, scale_);
    case VariantType::kDecimal8: return arrow::decimal64(precision_, scale_);
    case VariantType::kDecimal16: return arrow::decimal128(precision_, scale_);
    case VariantType::kDate: return arrow::date32();
    case VariantType::kTimeNtzMicros: return arrow::time64(arrow::TimeUnit::MICRO);
    case VariantType::kTimestampMicros: return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case VariantType::kTimestampNtzMicros: return arrow::timestamp(arrow::TimeUnit::MICRO);
    case VariantType::kTimestampNanos: return arrow::timestamp(arrow::TimeUnit::NANO, "UTC");
    case VariantType::kTimestampNtzNanos: return arrow::timestamp(arrow::TimeUnit::NANO);
    case VariantType::kBinary: return arrow::binary();
    case VariantType::kString: return arrow::utf8();
    case VariantType::kUuid: return arrow::fixed_size_binary(16);
    default: return nullptr;
  }
}

std::shared_ptr<arrow::DataType> ShreddingSchema::ToArrow() const {
  arrow::FieldVector fields = {arrow::field("metadata", arrow::binary(), false),
                               arrow::field("value", arrow::binary())};
  if (auto t = TypedValueArrowType()) fields.push_back(arrow::field("typed_value", t));
  return arrow::struct_(std::move(fields));
}

arrow::Result<parquet::schema::NodePtr> ShreddingSchema::ToParquetSchema(
    const std::string& name, parquet::Repetition::type repetition) const {
  parquet::schema::NodeVector children = {
      PrimitiveNode::Make("metadata", pq::Repetition::REQUIRED, pq::Type::BYTE_ARRAY)};
  ARROW_ASSIGN_OR_RAISE(auto pair, PairNodes(*this));
  for (auto& n : pair) children.push_back(std::move(n));
  return GroupNode::Make(name, repetition, children, LogicalType::Variant());
}

bool ShreddingSchema::Equals(const ShreddingSchema& o) const {
  if (kind_ != o.kind_ || type_ != o.type_ || precision_ != o.precision_ ||
      scale_ != o.scale_ || fields_.size() != o.fields_.size() ||
      children_.size() != o.children_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].first != o.fields_[i].first ||
        !fields_[i].second.Equals(o.fields_[i].second)) {
      return false;
    }
  }
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!children_[i].Equals(o.children_[i])) return false;
  }
  return true;
}

}  // namespace varshred
