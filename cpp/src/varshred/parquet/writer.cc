// Licensed under the Apache License, Version 2.0.
//
// ParquetWriter. The direct path compiles each Variant column's shredding schema into
// a tree of nodes that know their Parquet leaf columns and definition/repetition
// levels (Dremel encoding), walks every row once, and hands the levels and values of
// each leaf to Parquet C++'s typed column writers. The Arrow path shreds into Arrow
// arrays and lets parquet::arrow::FileWriter do the rest.

#include "varshred/parquet/writer.h"

#include <arrow/array.h>
#include <arrow/io/file.h>
#include <arrow/type.h>
#include <fcntl.h>
#include <parquet/arrow/schema.h>
#include <parquet/arrow/writer.h>
#include <parquet/column_writer.h>
#include <parquet/exception.h>
#include <parquet/file_writer.h>
#include <parquet/properties.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <random>

#include "varshred/arrow/typed_match_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/parquet/catch_internal.h"
#include "varshred/parquet/output_file.h"
#include "varshred/parquet/schema.h"
#include "varshred/validate.h"

namespace varshred {

namespace pq = ::parquet;

constexpr char kWriteFailed[] = "writing Parquet failed";
using pq::schema::GroupNode;
using pq::schema::NodePtr;

ParquetWriter::~ParquetWriter() = default;

namespace {

using internal::AtomicFile;  // parquet/output_file.h

std::shared_ptr<pq::WriterProperties> MakeProperties(const ParquetWriteOptions& o) {
  pq::WriterProperties::Builder b;
  b.compression(o.compression);
  if (o.compression_level) b.compression_level(*o.compression_level);
  b.data_pagesize(o.data_page_size);
  b.max_row_group_length(o.row_group_size);
  if (o.dictionary)
    b.enable_dictionary();
  else
    b.disable_dictionary();
  if (o.statistics)
    b.enable_statistics();
  else
    b.disable_statistics();
  return b.build();
}

// The Parquet group of one Variant column.
arrow::Result<NodePtr> VariantNode(const std::string& name, bool nullable,
                                   const ShreddingSchema& schema, bool annotate) {
  const auto rep = nullable ? pq::Repetition::OPTIONAL : pq::Repetition::REQUIRED;
  NodePtr node;
  if (!schema.has_typed_value()) {
    // Unshredded: docs/shredding.md#layout requires `value` here.
    node =
        GroupNode::Make(name, rep,
                        {pq::schema::PrimitiveNode::Make(
                             "metadata", pq::Repetition::REQUIRED, pq::Type::BYTE_ARRAY),
                         pq::schema::PrimitiveNode::Make(
                             "value", pq::Repetition::REQUIRED, pq::Type::BYTE_ARRAY)},
                        pq::LogicalType::Variant());
  } else {
    ARROW_ASSIGN_OR_RAISE(node, ToParquetSchema(schema, name, rep));
  }
  if (annotate) return node;
  const auto& g = static_cast<const GroupNode&>(*node);
  pq::schema::NodeVector kids;
  for (int i = 0; i < g.field_count(); ++i) kids.push_back(g.field(i));
  return GroupNode::Make(g.name(), g.repetition(), kids);
}

struct ColumnPlanInput {
  int field_index;
  ShreddingSchema schema;
};

// Resolves which input columns are Variant and their schemas.
arrow::Result<std::vector<ColumnPlanInput>> VariantColumns(
    const arrow::Schema& schema,
    const std::map<std::string, ShreddingSchema>& shredding) {
  std::vector<ColumnPlanInput> out;
  for (const auto& [name, s] : shredding) {
    const int i = schema.GetFieldIndex(name);
    if (i < 0) {
      return arrow::Status::KeyError("shredding names column \"", name,
                                     "\", which the table does not have");
    }
    if (!IsVariantType(*schema.field(i)->type())) {
      return arrow::Status::TypeError("column \"", name, "\" is not a Variant column: ",
                                      schema.field(i)->type()->ToString());
    }
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (!IsVariantType(*schema.field(i)->type())) continue;
    auto it = shredding.find(schema.field(i)->name());
    out.push_back({i, it == shredding.end() ? ShreddingSchema::ValueOnly() : it->second});
  }
  return out;
}

bool IsNested(const arrow::DataType& t) {
  return t.id() == arrow::Type::STRUCT || t.id() == arrow::Type::LIST ||
         t.id() == arrow::Type::LARGE_LIST || t.id() == arrow::Type::LIST_VIEW ||
         t.id() == arrow::Type::LARGE_LIST_VIEW || t.id() == arrow::Type::MAP ||
         t.id() == arrow::Type::FIXED_SIZE_LIST || t.id() == arrow::Type::SPARSE_UNION ||
         t.id() == arrow::Type::DENSE_UNION;
}

// Unshredded canonical input for a Variant column (shredded input is rebuilt first).
arrow::Result<std::shared_ptr<arrow::Array>> UnshreddedInput(
    const std::shared_ptr<arrow::Array>& column, arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(column));
  if (view.typed_value() != nullptr || !view.has_value()) {
    return Unshred(*column, UnshredOptions{}, pool);
  }
  return column;
}

// ----------------------------------------------------------------------
// Direct path: leaves, plan nodes, row walk

// Stable storage for bytes built while shredding (residual objects, big-endian
// decimals): blocks never move, so ByteArrays may point into them until the batch is
// written.
class Arena {
 public:
  std::string_view Copy(std::string_view bytes) {
    if (blocks_.empty() ||
        blocks_.back().capacity() - blocks_.back().size() < bytes.size()) {
      blocks_.emplace_back();
      blocks_.back().reserve(std::max<size_t>(bytes.size(), 1 << 20));
    }
    std::string& b = blocks_.back();
    const size_t at = b.size();
    b.append(bytes);
    return {b.data() + at, bytes.size()};
  }
  void Clear() {
    if (blocks_.size() > 1) blocks_.erase(blocks_.begin(), blocks_.end() - 1);
    if (!blocks_.empty()) blocks_.back().clear();
  }

 private:
  std::deque<std::string> blocks_;
};

// Levels and values of one Parquet leaf column for the batch being written.
struct Leaf {
  int column = 0;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  std::vector<pq::ByteArray> bytes;
  std::vector<pq::FixedLenByteArray> fixed;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<uint8_t> bools;

  void Levels(int16_t d, int16_t r) {
    def.push_back(d);
    if (max_rep > 0) rep.push_back(r);
  }
  void Clear() {
    def.clear(), rep.clear(), bytes.clear(), fixed.clear(), i32.clear(), i64.clear();
    f32.clear(), f64.clear(), bools.clear();
  }
};

// One {value, typed_value} pair of the shredding schema.
struct Node {
  ShreddingSchema::Kind kind = ShreddingSchema::Kind::kValueOnly;
  int16_t def = 0;  // definition level at which this pair's group is defined
  int value_leaf = -1;
  std::vector<int> typed_leaves;  // every leaf under typed_value
  // Primitive.
  int typed_leaf = -1;
  VariantType type = VariantType::kNull;
  int precision = 0;
  int scale = 0;
  // Object: fields in schema order.
  std::vector<std::string> names;
  std::vector<std::unique_ptr<Node>> fields;
  std::vector<int> match;         // per-row scratch: field index in the object, or -1
  std::vector<char> shredded;     // per-row scratch: object field i went to a typed group
  std::vector<uint32_t> by_name;  // field indexes ordered by name bytes
  // Object field id -> schema field (-1: not shredded) for the current dictionary,
  // filled lazily; cleared when `ids_epoch` falls behind the writer's epoch.
  std::vector<int32_t> id_to_field;
  uint64_t ids_epoch = 0;
  // Array.
  std::unique_ptr<Node> element;
  int16_t list_rep = 0;
};

class VariantColumnWriter {
 public:
  // Builds the plan for the Variant group `group` whose first leaf is `first_leaf`.
  static arrow::Result<std::unique_ptr<VariantColumnWriter>> Make(
      const GroupNode& group, const ShreddingSchema& schema, int first_leaf, bool lenient,
      bool validate) {
    auto w = std::make_unique<VariantColumnWriter>();
    w->lenient_ = lenient;
    w->validate_ = validate;
    w->nullable_ = group.is_optional();
    const int16_t base = w->nullable_ ? 1 : 0;
    int next = first_leaf;
    w->metadata_leaf_ = w->AddLeaf(next++, base, 0);
    w->root_ = std::make_unique<Node>();
    ARROW_RETURN_NOT_OK(w->Compile(group, schema, base, 0, &next, w->root_.get()));
    return w;
  }

  // Fills the leaves from the unshredded canonical array `column`.
  arrow::Status Shred(const std::shared_ptr<arrow::Array>& column, int64_t row_offset) {
    ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(column));
    internal::MetadataCache metadata_cache;  // per batch: it keeps views of the bytes
    // Field ids mean the same keys while the dictionary bytes stay the same: object
    // nodes cache id -> field per dictionary (epoch), rows of one shape skip key lookups.
    std::string_view last_md;
    ++epoch_;
    for (int64_t i = 0; i < view.length(); ++i) {
      if (view.IsNull(i)) {
        // SQL NULL: the group itself is null at every leaf.
        for (auto& leaf : leaves_) leaf.Levels(0, 0);
        continue;
      }
      const std::string_view md_bytes = view.metadata(i);
      if (md_bytes != last_md) {
        ++epoch_;
        last_md = md_bytes;
      }
      std::string_view value = view.value_is_null(i) ? kNullValue : view.value(i);
      arrow::Status st;
      MetadataView md;
      if (validate_) {
        auto cached = metadata_cache.Get(md_bytes);
        if (!cached.ok()) return RowError(row_offset + i, cached.status());
        md = *cached;
        bool keys_sorted = true;
        st = ValidateValue(md, value, ValidateOptions::ForReading(), &keys_sorted);
        if (!st.ok()) return RowError(row_offset + i, st);
        if (!keys_sorted) {
          // Files hold spec order: rewrite rows whose ids another engine left unsorted.
          residual_.clear();
          internal::AppendSortedKeys(VariantView::MakeUnchecked(md, value), &residual_);
          value = arena_.Copy(residual_);
        }
      } else {
        md = MetadataView::MakeUnchecked(md_bytes);
      }
      Leaf& m = leaves_[metadata_leaf_];
      m.Levels(m.max_def, 0);
      m.bytes.push_back(ByteArray(md_bytes));
      st = Emit(*root_, VariantView::MakeUnchecked(md, value), 0);
      if (!st.ok()) return RowError(row_offset + i, st);
    }
    return arrow::Status::OK();
  }

  // Writes the collected leaves into `rg` and clears them.
  arrow::Status Flush(pq::RowGroupWriter* rg) {
    for (auto& leaf : leaves_) {
      ARROW_RETURN_NOT_OK(WriteLeaf(leaf, rg->column(leaf.column)));
      leaf.Clear();
    }
    arena_.Clear();
    return arrow::Status::OK();
  }

  int num_leaves() const { return static_cast<int>(leaves_.size()); }

 private:
  static arrow::Status RowError(int64_t row, const arrow::Status& st) {
    return st.WithMessage("row ", row, ": ", st.message());
  }
  static pq::ByteArray ByteArray(std::string_view s) {
    return pq::ByteArray(static_cast<uint32_t>(s.size()),
                         reinterpret_cast<const uint8_t*>(s.data()));
  }

  int AddLeaf(int column, int16_t max_def, int16_t max_rep) {
    Leaf leaf;
    leaf.column = column;
    leaf.max_def = max_def;
    leaf.max_rep = max_rep;
    leaves_.push_back(std::move(leaf));
    return static_cast<int>(leaves_.size()) - 1;
  }

  // Walks the Parquet group of one pair alongside its schema node, numbering leaves in
  // the same depth-first order as the file's column indexes.
  arrow::Status Compile(const GroupNode& group, const ShreddingSchema& schema,
                        int16_t def, int16_t rep, int* next, Node* node) {
    node->kind = schema.kind();
    node->def = def;
    for (int i = 0; i < group.field_count(); ++i) {
      const NodePtr& child = group.field(i);
      if (child->name() == "metadata") continue;  // top level only, numbered by Make
      if (child->name() == "value") {
        // Optional when shredded; required in the plain {metadata, value} group.
        node->value_leaf = AddLeaf(
            (*next)++, static_cast<int16_t>(child->is_optional() ? def + 1 : def), rep);
        continue;
      }
      // typed_value
      const size_t before = leaves_.size();
      switch (schema.kind()) {
        case ShreddingSchema::Kind::kPrimitive:
          node->typed_leaf = AddLeaf((*next)++, static_cast<int16_t>(def + 1), rep);
          node->type = schema.type();
          node->precision = schema.precision();
          node->scale = schema.scale();
          break;
        case ShreddingSchema::Kind::kObject: {
          const auto& typed = static_cast<const GroupNode&>(*child);
          for (const auto& [name, field_schema] : schema.fields()) {
            const int index = typed.FieldIndex(name);
            if (index < 0) return arrow::Status::Invalid("internal: no group for ", name);
            auto field = std::make_unique<Node>();
            ARROW_RETURN_NOT_OK(
                Compile(static_cast<const GroupNode&>(*typed.field(index)), field_schema,
                        static_cast<int16_t>(def + 1), rep, next, field.get()));
            node->names.push_back(name);
            node->fields.push_back(std::move(field));
          }
          node->match.resize(node->fields.size());
          for (uint32_t f = 0; f < node->names.size(); ++f) node->by_name.push_back(f);
          std::sort(
              node->by_name.begin(), node->by_name.end(),
              [&](uint32_t a, uint32_t b) { return node->names[a] < node->names[b]; });
          break;
        }
        case ShreddingSchema::Kind::kArray: {
          const auto& list = static_cast<const GroupNode&>(*child);
          const auto& repeated = static_cast<const GroupNode&>(*list.field(0));
          const auto& element = static_cast<const GroupNode&>(*repeated.field(0));
          node->list_rep = static_cast<int16_t>(rep + 1);
          node->element = std::make_unique<Node>();
          // typed_value (+1), the repeated group (+1); the element group is required.
          ARROW_RETURN_NOT_OK(Compile(element, schema.element(),
                                      static_cast<int16_t>(def + 2), node->list_rep, next,
                                      node->element.get()));
          break;
        }
        case ShreddingSchema::Kind::kValueOnly:
          break;
      }
      for (size_t l = before; l < leaves_.size(); ++l) {
        node->typed_leaves.push_back(static_cast<int>(l));
      }
    }
    return arrow::Status::OK();
  }

  // Every leaf of `node` null at definition level `def` (absent field, or the parent's
  // typed_value is null).
  void EmitAbsent(const Node& node, int16_t def, int16_t rep) {
    if (node.value_leaf >= 0) leaves_[node.value_leaf].Levels(def, rep);
    for (int l : node.typed_leaves) leaves_[l].Levels(def, rep);
  }

  void EmitValue(const Node& node, std::string_view bytes, int16_t rep) {
    Leaf& leaf = leaves_[node.value_leaf];
    leaf.Levels(leaf.max_def, rep);
    leaf.bytes.push_back(ByteArray(bytes));
  }
  void EmitNoValue(const Node& node, int16_t rep) {
    if (node.value_leaf >= 0) leaves_[node.value_leaf].Levels(node.def, rep);
  }

  arrow::Status Emit(Node& node, const VariantView& v, int16_t rep) {
    switch (node.kind) {
      case ShreddingSchema::Kind::kValueOnly:
        EmitValue(node, v.value_bytes(), rep);
        return arrow::Status::OK();
      case ShreddingSchema::Kind::kPrimitive:
        if (EmitTyped(node, v, rep)) {
          EmitNoValue(node, rep);
        } else {
          // docs/shredding.md rule 1: anything else goes whole to value.
          leaves_[node.typed_leaf].Levels(node.def, rep);
          EmitValue(node, v.value_bytes(), rep);
        }
        return arrow::Status::OK();
      case ShreddingSchema::Kind::kObject:
        if (v.type() != VariantType::kObject) {
          EmitValue(node, v.value_bytes(), rep);
          for (int l : node.typed_leaves) leaves_[l].Levels(node.def, rep);
          return arrow::Status::OK();
        }
        return EmitObject(node, v.GetObject(), rep);
      case ShreddingSchema::Kind::kArray: {
        if (v.type() != VariantType::kArray) {
          EmitValue(node, v.value_bytes(), rep);
          for (int l : node.typed_leaves) leaves_[l].Levels(node.def, rep);
          return arrow::Status::OK();
        }
        EmitNoValue(node, rep);
        const ArrayView arr = v.GetArray();
        if (arr.size() == 0) {
          for (int l : node.typed_leaves) leaves_[l].Levels(node.def + 1, rep);
          return arrow::Status::OK();
        }
        for (uint32_t i = 0; i < arr.size(); ++i) {
          ARROW_RETURN_NOT_OK(
              Emit(*node.element, arr.element(i), i == 0 ? rep : node.list_rep));
        }
        return arrow::Status::OK();
      }
    }
    return arrow::Status::OK();
  }

  // docs/shredding.md rule 2: an object always gets a typed_value; shredded fields
  // go to their groups, the rest to a residual object in value (never a shredded key).
  arrow::Status EmitObject(Node& node, const ObjectView& obj, int16_t rep) {
    const uint32_t n = obj.num_fields();
    if (node.ids_epoch != epoch_) {
      node.id_to_field.clear();
      node.ids_epoch = epoch_;
    }
    std::fill(node.match.begin(), node.match.end(), -1);
    // Per node, not per writer: child objects are emitted before this one's residual.
    node.shredded.assign(n, 0);
    size_t matched = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t id = obj.field_id(i);
      if (id >= node.id_to_field.size()) node.id_to_field.resize(id + 1, kUnresolved);
      int32_t& f = node.id_to_field[id];
      if (f == kUnresolved) f = FieldNamed(node, obj.key(i));
      if (f >= 0) {
        node.match[f] = static_cast<int>(i);
        node.shredded[i] = 1;
        ++matched;
      }
    }
    for (size_t f = 0; f < node.fields.size(); ++f) {
      if (node.match[f] >= 0) {
        ARROW_RETURN_NOT_OK(
            Emit(*node.fields[f], obj.value(static_cast<uint32_t>(node.match[f])), rep));
      } else {
        EmitAbsent(*node.fields[f], static_cast<int16_t>(node.def + 1), rep);
      }
    }
    if (matched == n) {
      EmitNoValue(node, rep);
      return arrow::Status::OK();
    }
    // Residual: the unshredded fields, re-encoded against the row's metadata.
    residual_.clear();
    entries_.clear();
    for (uint32_t i = 0; i < n; ++i) {
      if (node.shredded[i]) continue;
      const std::string_view bytes = obj.value(i).value_bytes();
      entries_.push_back(
          {obj.key(i), obj.field_id(i), static_cast<uint32_t>(residual_.size())});
      residual_.append(bytes);
    }
    internal::SortFieldsByKey(&entries_, 0, entries_.size());
    internal::InsertObjectHeader(&residual_, 0, entries_.data(), entries_.size());
    EmitValue(node, arena_.Copy(residual_), rep);
    return arrow::Status::OK();
  }

  static constexpr int32_t kUnresolved = -2;

  // The schema field named `key` (binary search by name bytes), or -1.
  static int32_t FieldNamed(const Node& node, std::string_view key) {
    auto it = std::lower_bound(node.by_name.begin(), node.by_name.end(), key,
                               [&](uint32_t f, std::string_view k) {
                                 return std::string_view(node.names[f]) < k;
                               });
    if (it == node.by_name.end() || node.names[*it] != key) return -1;
    return static_cast<int32_t>(*it);
  }

  // Appends `v` to the primitive typed leaf when it has the leaf's type.
  bool EmitTyped(const Node& node, const VariantView& v, int16_t rep) {
    Leaf& leaf = leaves_[node.typed_leaf];
    switch (node.type) {
      case VariantType::kBoolean:
        if (v.type() != VariantType::kBoolean) return false;
        leaf.bools.push_back(v.GetBool());
        break;
      case VariantType::kInt8:
      case VariantType::kInt16:
      case VariantType::kInt32: {
        int64_t x;
        if (!internal::MatchInteger(v, node.type, lenient_, &x)) return false;
        leaf.i32.push_back(static_cast<int32_t>(x));
        break;
      }
      case VariantType::kInt64: {
        int64_t x;
        if (!internal::MatchInteger(v, node.type, lenient_, &x)) return false;
        leaf.i64.push_back(x);
        break;
      }
      case VariantType::kDecimal4:
      case VariantType::kDecimal8:
      case VariantType::kDecimal16: {
        int128_t x;
        if (!internal::MatchDecimal(v, node.type, node.precision, node.scale, lenient_,
                                    &x)) {
          return false;
        }
        if (node.type == VariantType::kDecimal4) {
          leaf.i32.push_back(static_cast<int32_t>(x));
        } else if (node.type == VariantType::kDecimal8) {
          leaf.i64.push_back(static_cast<int64_t>(x));
        } else {
          // Parquet DECIMAL on FIXED_LEN_BYTE_ARRAY is big-endian two's complement.
          char be[16];
          for (int b = 0; b < 16; ++b) be[b] = static_cast<char>(x >> (8 * (15 - b)));
          leaf.fixed.emplace_back(
              reinterpret_cast<const uint8_t*>(arena_.Copy({be, 16}).data()));
        }
        break;
      }
      case VariantType::kFloat:
        if (v.type() != VariantType::kFloat) return false;
        leaf.f32.push_back(v.GetFloat());
        break;
      case VariantType::kDouble:
        if (v.type() != VariantType::kDouble) return false;
        leaf.f64.push_back(v.GetDouble());
        break;
      case VariantType::kDate:
        if (v.type() != VariantType::kDate) return false;
        leaf.i32.push_back(v.GetDate());
        break;
      case VariantType::kTimeNtzMicros:
      case VariantType::kTimestampMicros:
      case VariantType::kTimestampNtzMicros:
      case VariantType::kTimestampNanos:
      case VariantType::kTimestampNtzNanos:
        if (v.type() != node.type) return false;
        leaf.i64.push_back(v.GetTimeValue());
        break;
      case VariantType::kString:
        if (v.type() != VariantType::kString) return false;
        leaf.bytes.push_back(ByteArray(v.GetString()));
        break;
      case VariantType::kBinary:
        if (v.type() != VariantType::kBinary) return false;
        leaf.bytes.push_back(ByteArray(v.GetBinary()));
        break;
      case VariantType::kUuid:
        if (v.type() != VariantType::kUuid) return false;
        leaf.fixed.emplace_back(reinterpret_cast<const uint8_t*>(v.GetUuid().data()));
        break;
      default:
        return false;
    }
    leaf.Levels(leaf.max_def, rep);
    return true;
  }

  template <typename WriterT, typename T>
  static arrow::Status WriteTyped(Leaf& leaf, pq::ColumnWriter* w, const T* values) {
    BEGIN_PARQUET_CATCH_EXCEPTIONS
    static_cast<WriterT*>(w)->WriteBatch(
        static_cast<int64_t>(leaf.def.size()), leaf.def.data(),
        leaf.max_rep > 0 ? leaf.rep.data() : nullptr, values);
    END_PARQUET_CATCH_EXCEPTIONS
    return arrow::Status::OK();
  }

  static arrow::Status WriteLeaf(Leaf& leaf, pq::ColumnWriter* w) {
    switch (w->type()) {
      case pq::Type::BYTE_ARRAY:
        return WriteTyped<pq::ByteArrayWriter>(leaf, w, leaf.bytes.data());
      case pq::Type::FIXED_LEN_BYTE_ARRAY:
        return WriteTyped<pq::FixedLenByteArrayWriter>(leaf, w, leaf.fixed.data());
      case pq::Type::INT32:
        return WriteTyped<pq::Int32Writer>(leaf, w, leaf.i32.data());
      case pq::Type::INT64:
        return WriteTyped<pq::Int64Writer>(leaf, w, leaf.i64.data());
      case pq::Type::FLOAT:
        return WriteTyped<pq::FloatWriter>(leaf, w, leaf.f32.data());
      case pq::Type::DOUBLE:
        return WriteTyped<pq::DoubleWriter>(leaf, w, leaf.f64.data());
      case pq::Type::BOOLEAN:
        return WriteTyped<pq::BoolWriter>(
            leaf, w, reinterpret_cast<const bool*>(leaf.bools.data()));
      default:
        return arrow::Status::NotImplemented("leaf type");
    }
  }

  bool lenient_ = true;
  bool validate_ = true;  // false for trusted columns (bytes built by this process)
  uint64_t epoch_ = 0;    // bumped whenever the rows' metadata dictionary changes
  bool nullable_ = true;
  int metadata_leaf_ = 0;
  std::unique_ptr<Node> root_;
  std::vector<Leaf> leaves_;
  Arena arena_;
  std::string residual_;
  std::vector<internal::FieldEntry> entries_;
};

// ----------------------------------------------------------------------
// Writers

struct Column {
  int field_index;
  int first_leaf;
  std::unique_ptr<VariantColumnWriter> variant;  // null for other columns
};

class DirectWriter : public ParquetWriter {
 public:
  DirectWriter(AtomicFile file, ParquetWriteOptions options, arrow::MemoryPool* pool)
      : file_(std::move(file)),
        options_(options),
        pool_(pool),
        arrow_props_(pq::default_arrow_writer_properties()),
        ctx_(pool, arrow_props_.get()) {}
  ~DirectWriter() override { Abort(); }

  bool IsTrusted(const std::string& name) const {
    const auto& t = options_.trusted_columns;
    return std::find(t.begin(), t.end(), name) != t.end();
  }

  arrow::Status Init(const std::shared_ptr<arrow::Schema>& schema,
                     const std::vector<ColumnPlanInput>& variants) {
    schema_ = schema;
    props_ = MakeProperties(options_);
    pq::schema::NodeVector fields;
    std::map<int, const ShreddingSchema*> by_field;
    for (const auto& v : variants) by_field[v.field_index] = &v.schema;
    int leaf = 0;
    for (int i = 0; i < schema->num_fields(); ++i) {
      const auto& field = schema->field(i);
      auto it = by_field.find(i);
      NodePtr node;
      if (it != by_field.end()) {
        ARROW_ASSIGN_OR_RAISE(node, VariantNode(field->name(), field->nullable(),
                                                *it->second, options_.annotate));
        ARROW_ASSIGN_OR_RAISE(auto w,
                              VariantColumnWriter::Make(
                                  static_cast<const GroupNode&>(*node), *it->second, leaf,
                                  options_.numeric == NumericShredding::kLenient,
                                  !IsTrusted(field->name())));
        columns_.push_back({i, leaf, nullptr});
        leaf += w->num_leaves();
        columns_.back().variant = std::move(w);
      } else {
        std::shared_ptr<pq::SchemaDescriptor> desc;
        ARROW_RETURN_NOT_OK(pq::arrow::ToParquetSchema(arrow::schema({field}).get(),
                                                       *props_, *arrow_props_, &desc));
        node = desc->group_node()->field(0);
        columns_.push_back({i, leaf, nullptr});
        leaf += 1;
      }
      fields.push_back(node);
    }
    auto root = std::static_pointer_cast<GroupNode>(
        GroupNode::Make("schema", pq::Repetition::REQUIRED, fields));
    BEGIN_PARQUET_CATCH_EXCEPTIONS
    writer_ = pq::ParquetFileWriter::Open(file_.stream(), root, props_);
    END_PARQUET_CATCH_EXCEPTIONS
    return arrow::Status::OK();
  }

  // Parquet C++ may throw from any call below: errors name the file instead.
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    return file_.Named(
        internal::CatchParquet(path(), kWriteFailed, [&] { return WriteBatch(batch); }));
  }
  arrow::Status Close() override {
    return file_.Named(
        internal::CatchParquet(path(), kWriteFailed, [&] { return Finish(); }));
  }
  arrow::Status WriteBatch(const arrow::RecordBatch& batch) {
    if (!writer_) return arrow::Status::Invalid("ParquetWriter is closed");
    if (!batch.schema()->Equals(*schema_, /*check_metadata=*/false)) {
      return arrow::Status::TypeError("batch schema ", batch.schema()->ToString(),
                                      " differs from the writer's ", schema_->ToString());
    }
    int64_t offset = 0;
    while (offset < batch.num_rows()) {
      if (rg_ == nullptr) {
        BEGIN_PARQUET_CATCH_EXCEPTIONS
        rg_ = writer_->AppendBufferedRowGroup();
        END_PARQUET_CATCH_EXCEPTIONS
        rg_rows_ = 0;
      }
      const int64_t n =
          std::min(batch.num_rows() - offset, options_.row_group_size - rg_rows_);
      auto st = WriteSlice(*batch.Slice(offset, n));
      if (!st.ok()) {
        Abort();
        return st;
      }
      offset += n;
      rg_rows_ += n;
      rows_ += n;
      if (rg_rows_ >= options_.row_group_size) ARROW_RETURN_NOT_OK(CloseRowGroup());
    }
    return arrow::Status::OK();
  }

  arrow::Status Finish() {
    if (!writer_) return arrow::Status::Invalid("ParquetWriter is closed");
    auto st = CloseRowGroup();
    if (st.ok()) {
      st = [&]() -> arrow::Status {
        BEGIN_PARQUET_CATCH_EXCEPTIONS
        writer_->Close();
        END_PARQUET_CATCH_EXCEPTIONS
        return arrow::Status::OK();
      }();
    }
    if (st.ok()) {
      writer_.reset();
      st = file_.Publish();
    }
    if (!st.ok()) Abort();
    return st;
  }

  void Abort() override {
    rg_ = nullptr;
    if (writer_) {
      try {
        writer_.reset();
      } catch (...) {
      }
    }
    file_.Discard();
  }

  int64_t num_rows() const override { return rows_; }
  const std::string& path() const override { return file_.final_path(); }

 private:
  arrow::Status CloseRowGroup() {
    if (rg_ == nullptr) return arrow::Status::OK();
    BEGIN_PARQUET_CATCH_EXCEPTIONS
    rg_->Close();
    END_PARQUET_CATCH_EXCEPTIONS
    rg_ = nullptr;
    return arrow::Status::OK();
  }

  arrow::Status WriteSlice(const arrow::RecordBatch& batch) {
    for (auto& c : columns_) {
      const auto& array = batch.column(c.field_index);
      if (c.variant) {
        ARROW_ASSIGN_OR_RAISE(auto input, UnshreddedInput(array, pool_));
        auto st = c.variant->Shred(input, rows_);
        if (!st.ok()) {
          return st.WithMessage("column \"", schema_->field(c.field_index)->name(),
                                "\", ", st.message());
        }
        ARROW_RETURN_NOT_OK(c.variant->Flush(rg_));
        continue;
      }
      const bool nullable = schema_->field(c.field_index)->nullable();
      std::vector<int16_t> def;
      if (nullable) {
        def.resize(array->length());
        for (int64_t i = 0; i < array->length(); ++i) def[i] = array->IsValid(i) ? 1 : 0;
      }
      BEGIN_PARQUET_CATCH_EXCEPTIONS
      ARROW_RETURN_NOT_OK(rg_->column(c.first_leaf)
                              ->WriteArrow(nullable ? def.data() : nullptr, nullptr,
                                           array->length(), *array, &ctx_, nullable));
      END_PARQUET_CATCH_EXCEPTIONS
    }
    return arrow::Status::OK();
  }

  AtomicFile file_;
  ParquetWriteOptions options_;
  arrow::MemoryPool* pool_;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<pq::WriterProperties> props_;
  std::shared_ptr<pq::ArrowWriterProperties> arrow_props_;
  pq::ArrowWriteContext ctx_;
  std::unique_ptr<pq::ParquetFileWriter> writer_;
  pq::RowGroupWriter* rg_ = nullptr;
  int64_t rg_rows_ = 0;
  int64_t rows_ = 0;
  std::vector<Column> columns_;
};

// `type` with every decimal128 relabelled decimal128(38, scale). Arrow's writer writes
// FIXED_LEN_BYTE_ARRAY decimals at the width the array's precision implies, while the
// file declares FLBA(16) for every decimal16 (varshred::ToParquetSchema, as the
// direct path writes); at precision 38 it writes all 16 bytes. The footer keeps the
// declared precision.
std::shared_ptr<arrow::DataType> FullWidthDecimals(
    const std::shared_ptr<arrow::DataType>& type) {
  switch (type->id()) {
    case arrow::Type::DECIMAL128:
      return arrow::decimal128(arrow::Decimal128Type::kMaxPrecision,
                               static_cast<const arrow::DecimalType&>(*type).scale());
    case arrow::Type::STRUCT: {
      arrow::FieldVector fields;
      for (const auto& f : type->fields()) {
        fields.push_back(f->WithType(FullWidthDecimals(f->type())));
      }
      return arrow::struct_(fields);
    }
    case arrow::Type::LIST: {
      const auto& element = static_cast<const arrow::ListType&>(*type).value_field();
      return arrow::list(element->WithType(FullWidthDecimals(element->type())));
    }
    default:
      return type;
  }
}

// Shreds into Arrow arrays, then parquet::arrow::FileWriter.
class ArrowPathWriter : public ParquetWriter {
 public:
  ArrowPathWriter(AtomicFile file, ParquetWriteOptions options, arrow::MemoryPool* pool)
      : file_(std::move(file)), options_(options), pool_(pool) {}
  ~ArrowPathWriter() override { Abort(); }

  arrow::Status Init(const std::shared_ptr<arrow::Schema>& schema,
                     std::vector<ColumnPlanInput> variants) {
    schema_ = schema;
    variants_ = std::move(variants);
    props_ = MakeProperties(options_);
    auto arrow_props = pq::ArrowWriterProperties::Builder().store_schema()->build();
    // Output Arrow schema: each Variant column becomes its shredded struct.
    arrow::FieldVector fields = schema->fields();
    pq::schema::NodeVector nodes;
    std::map<int, const ShreddingSchema*> by_field;
    for (const auto& v : variants_) by_field[v.field_index] = &v.schema;
    for (int i = 0; i < schema->num_fields(); ++i) {
      auto it = by_field.find(i);
      if (it == by_field.end()) {
        std::shared_ptr<pq::SchemaDescriptor> desc;
        ARROW_RETURN_NOT_OK(pq::arrow::ToParquetSchema(arrow::schema({fields[i]}).get(),
                                                       *props_, *arrow_props, &desc));
        nodes.push_back(desc->group_node()->field(0));
        continue;
      }
      fields[i] =
          arrow::field(fields[i]->name(), OutputType(*it->second), fields[i]->nullable());
      ARROW_ASSIGN_OR_RAISE(
          auto node, VariantNode(fields[i]->name(), fields[i]->nullable(), *it->second,
                                 options_.annotate));
      nodes.push_back(node);
    }
    out_schema_ = arrow::schema(fields);
    auto root = std::static_pointer_cast<GroupNode>(
        GroupNode::Make("schema", pq::Repetition::REQUIRED, nodes));
    std::unique_ptr<pq::ParquetFileWriter> file_writer;
    BEGIN_PARQUET_CATCH_EXCEPTIONS
    file_writer = pq::ParquetFileWriter::Open(file_.stream(), root, props_);
    END_PARQUET_CATCH_EXCEPTIONS
    return pq::arrow::FileWriter::Make(pool_, std::move(file_writer), out_schema_,
                                       arrow_props, &writer_);
  }

  // Parquet C++ may throw from any call below: errors name the file instead.
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    return file_.Named(
        internal::CatchParquet(path(), kWriteFailed, [&] { return WriteBatch(batch); }));
  }
  arrow::Status Close() override {
    return file_.Named(
        internal::CatchParquet(path(), kWriteFailed, [&] { return Finish(); }));
  }
  arrow::Status WriteBatch(const arrow::RecordBatch& batch) {
    if (!writer_) return arrow::Status::Invalid("ParquetWriter is closed");
    arrow::ArrayVector columns = batch.columns();
    for (const auto& v : variants_) {
      ARROW_ASSIGN_OR_RAISE(auto unshredded,
                            UnshreddedInput(columns[v.field_index], pool_));
      ARROW_ASSIGN_OR_RAISE(auto input,
                            ToLayout(unshredded, VariantLayout::kCanonical, pool_));
      if (v.schema.has_typed_value()) {
        ShredOptions so;
        so.numeric = options_.numeric;
        auto shredded = Shred(*input, v.schema, so, pool_);
        if (!shredded.ok()) {
          Abort();
          return shredded.status().WithMessage("column \"",
                                               schema_->field(v.field_index)->name(),
                                               "\", ", shredded.status().message());
        }
        ARROW_ASSIGN_OR_RAISE(auto typed, CastLike(*shredded, v.field_index));
        ARROW_ASSIGN_OR_RAISE(columns[v.field_index],
                              typed->View(FullWidthDecimals(typed->type())));
      } else {
        columns[v.field_index] = input;
      }
    }
    auto out = arrow::RecordBatch::Make(out_schema_, batch.num_rows(), columns);
    auto st = writer_->WriteRecordBatch(*out);
    if (!st.ok()) {
      Abort();
      return st;
    }
    rows_ += batch.num_rows();
    return arrow::Status::OK();
  }

  arrow::Status Finish() {
    if (!writer_) return arrow::Status::Invalid("ParquetWriter is closed");
    auto st = writer_->Close();
    writer_.reset();
    if (st.ok()) st = file_.Publish();
    if (!st.ok()) Abort();
    return st;
  }

  void Abort() override {
    writer_.reset();
    file_.Discard();
  }
  int64_t num_rows() const override { return rows_; }
  const std::string& path() const override { return file_.final_path(); }

 private:
  static std::shared_ptr<arrow::DataType> OutputType(const ShreddingSchema& s) {
    return s.has_typed_value() ? s.ToArrow()
                               : VariantStorageType(VariantLayout::kCanonical);
  }
  // The shredded array relabelled with the declared output type (same children; only
  // field nullability may differ).
  arrow::Result<std::shared_ptr<arrow::Array>> CastLike(
      const std::shared_ptr<arrow::Array>& a, int field_index) {
    const auto& want = out_schema_->field(field_index)->type();
    if (a->type()->Equals(*want)) return a;
    const auto& s = static_cast<const arrow::StructArray&>(*a);
    if (s.num_fields() != want->num_fields()) {
      return arrow::Status::TypeError("shredded type ", a->type()->ToString(),
                                      " does not match ", want->ToString());
    }
    return std::make_shared<arrow::StructArray>(
        want, s.length(), s.fields(), s.null_bitmap(), s.null_count(), s.offset());
  }

  AtomicFile file_;
  ParquetWriteOptions options_;
  arrow::MemoryPool* pool_;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<arrow::Schema> out_schema_;
  std::vector<ColumnPlanInput> variants_;
  std::shared_ptr<pq::WriterProperties> props_;
  std::unique_ptr<pq::arrow::FileWriter> writer_;
  int64_t rows_ = 0;
};

}  // namespace

arrow::Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(
    const std::string& path, const std::shared_ptr<arrow::Schema>& schema,
    std::map<std::string, ShreddingSchema> shredding, const ParquetWriteOptions& options,
    arrow::MemoryPool* pool) {
  if (options.row_group_size <= 0) {
    return arrow::Status::Invalid("row_group_size must be positive");
  }
  ARROW_ASSIGN_OR_RAISE(auto variants, VariantColumns(*schema, shredding));
  bool direct = options.path == ParquetWritePath::kDirect;
  for (int i = 0; i < schema->num_fields(); ++i) {
    if (!IsVariantType(*schema->field(i)->type()) &&
        IsNested(*schema->field(i)->type())) {
      direct = false;  // nested non-Variant columns need Arrow's level builder
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto file, AtomicFile::Open(path, options.filesystem));
  return internal::CatchParquet(
      path, kWriteFailed, [&]() -> arrow::Result<std::unique_ptr<ParquetWriter>> {
        if (direct) {
          auto w = std::make_unique<DirectWriter>(std::move(file), options, pool);
          ARROW_RETURN_NOT_OK(w->Init(schema, variants));
          return w;
        }
        auto w = std::make_unique<ArrowPathWriter>(std::move(file), options, pool);
        ARROW_RETURN_NOT_OK(w->Init(schema, std::move(variants)));
        return w;
      });
}

arrow::Status WriteParquet(const arrow::Table& table, const std::string& path,
                           std::map<std::string, ShreddingSchema> shredding,
                           const ParquetWriteOptions& options, arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(
      auto writer,
      ParquetWriter::Open(path, table.schema(), std::move(shredding), options, pool));
  arrow::TableBatchReader reader(table);
  std::shared_ptr<arrow::RecordBatch> batch;
  while (true) {
    ARROW_RETURN_NOT_OK(reader.ReadNext(&batch));
    if (!batch) break;
    ARROW_RETURN_NOT_OK(writer->Write(*batch));
  }
  return writer->Close();
}

arrow::Result<arrow::Compression::type> ParseCompression(std::string_view name) {
  struct Name {
    std::string_view name;
    arrow::Compression::type codec;
  };
  static constexpr Name kNames[] = {
      {"none", arrow::Compression::UNCOMPRESSED},
      {"uncompressed", arrow::Compression::UNCOMPRESSED},
      {"snappy", arrow::Compression::SNAPPY},
      {"gzip", arrow::Compression::GZIP},
      {"brotli", arrow::Compression::BROTLI},
      {"zstd", arrow::Compression::ZSTD},
      {"lz4", arrow::Compression::LZ4},
  };
  std::string lower(name);
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::string valid;
  for (const Name& n : kNames) {
    if (n.name == lower) return n.codec;
    valid += valid.empty() ? "" : ", ";
    valid += n.name;
  }
  return arrow::Status::Invalid("unknown compression '", name, "' (valid: ", valid, ")");
}

}  // namespace varshred
