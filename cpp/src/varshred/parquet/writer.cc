// Licensed under the Apache License, Version 2.0.
//
// ParquetWriter. Each Variant column goes through the shredding core
// (arrow/shredder_internal.h) into a sink that computes the definition and repetition
// levels (Dremel encoding) of its Parquet leaf columns and hands them to Parquet C++'s
// typed column writers, without building shredded Arrow arrays. The other columns go
// through parquet::arrow::FileWriter into the same row groups
// (shared_row_groups_internal.h).

#include "varshred/parquet/writer.h"

#include <arrow/array.h>
#include <arrow/io/file.h>
#include <arrow/type.h>
#include <arrow/util/byte_size.h>
#include <arrow/util/compression.h>
#include <arrow/util/parallel.h>
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
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <numeric>
#include <random>
#include <span>

#include "varshred/arrow/extension_internal.h"
#include "varshred/arrow/json_documents_internal.h"
#include "varshred/arrow/json_shredder_internal.h"
#include "varshred/arrow/shredder_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/parquet/catch_internal.h"
#include "varshred/parquet/leaf_encoding_internal.h"
#include "varshred/parquet/output_file.h"
#include "varshred/parquet/schema.h"
#include "varshred/parquet/shared_row_groups_internal.h"
#include "varshred/row_error_internal.h"
#include "varshred/validate.h"

namespace varshred {

namespace pq = ::parquet;

constexpr char kWriteFailed[] = "writing Parquet failed";
constexpr char kNullInRequiredColumn[] =
    "SQL NULL in a Variant column whose field is not nullable";
using pq::schema::GroupNode;
using pq::schema::NodePtr;

ParquetWriter::~ParquetWriter() = default;

namespace {

using internal::AtomicFile;  // parquet/output_file.h

// The writer's properties; with `file`, also the encodings of the typed leaves of the
// Variant columns (the leaves `variant_leaves` of `file`), docs/shredding.md#storage:
// integers, dates, times and timestamps are mostly distinct and often ordered (ids,
// times, counters), where DELTA_BINARY_PACKED beats a dictionary.
// `dictionary_wins`: by file column, whether a Variant leaf's first values favour a
// dictionary (leaf_encoding_internal.h); leaves without values keep the defaults.
std::shared_ptr<pq::WriterProperties> MakeProperties(
    const ParquetWriteOptions& o, const pq::SchemaDescriptor* file = nullptr,
    const std::vector<int>& variant_leaves = {},
    const std::map<int, bool>& dictionary_wins = {}) {
  pq::WriterProperties::Builder b;
  b.compression(o.compression);
  if (o.compression_level) b.compression_level(*o.compression_level);
  b.data_pagesize(o.data_page_size);
  // Size statistics (level histograms, unencoded sizes) cost about 5% of a wide file
  // with small column chunks, and no reader we target uses them.
  b.set_size_statistics_level(pq::SizeStatisticsLevel::None);
  b.max_row_group_length(o.row_group_size);
  if (o.dictionary)
    b.enable_dictionary();
  else
    b.disable_dictionary();
  if (o.statistics)
    b.enable_statistics();
  else
    b.disable_statistics();
  for (int leaf : variant_leaves) {
    const pq::ColumnDescriptor* column = file->Column(leaf);
    const auto path = column->path();
    const auto hint = dictionary_wins.find(leaf);
    switch (column->physical_type()) {
      case pq::Type::INT32:
      case pq::Type::INT64:
        // Integers, dates, timestamps and short decimals: deltas unless their values
        // are few enough for a dictionary (the fallback of a full dictionary would be
        // PLAIN, not deltas).
        if (hint == dictionary_wins.end() || !hint->second) b.disable_dictionary(path);
        b.encoding(path, pq::Encoding::DELTA_BINARY_PACKED);
        break;
      case pq::Type::BYTE_ARRAY:
        // Metadata, residual values, strings: no dictionary for mostly distinct ones.
        if (hint != dictionary_wins.end() && !hint->second) b.disable_dictionary(path);
        break;
      default:
        break;
    }
  }
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

// Whether `type` is or holds an extension type named arrow.parquet.variant.
bool HoldsVariantExtension(const arrow::DataType& type) {
  if (type.id() == arrow::Type::EXTENSION) {
    const auto& ext = static_cast<const arrow::ExtensionType&>(type);
    return ext.extension_name() == kVariantExtensionName ||
           HoldsVariantExtension(*ext.storage_type());
  }
  for (const auto& f : type.fields()) {
    if (HoldsVariantExtension(*f->type())) return true;
  }
  return false;
}

// Resolves which input columns are Variant and their schemas.
arrow::Result<std::vector<ColumnPlanInput>> VariantColumns(
    const arrow::Schema& schema,
    const std::map<std::string, ShreddingSchema>& shredding) {
  std::vector<ColumnPlanInput> out;
  for (const auto& [name, s] : shredding) {
    const std::vector<int> found = schema.GetAllFieldIndices(name);
    if (found.empty()) {
      return arrow::Status::KeyError("shredding names column \"", name,
                                     "\", which the table does not have");
    }
    if (found.size() > 1) {
      return arrow::Status::Invalid("shredding names column \"", name,
                                    "\", which the table has ", found.size(),
                                    " times: a shredded column's name must be unique");
    }
    const int i = found[0];
    if (!IsVariantColumnType(*schema.field(i)->type())) {
      return arrow::Status::TypeError("column \"", name, "\" is not a Variant column: ",
                                      schema.field(i)->type()->ToString());
    }
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    const auto& type = *schema.field(i)->type();
    if (!IsVariantColumnType(type)) {
      // Parquet C++ takes any type of that name for its own class (a crash): a Variant
      // is written as a top-level column only.
      if (HoldsVariantExtension(type)) {
        return arrow::Status::TypeError(
            "column \"", schema.field(i)->name(), "\": ", kVariantExtensionName,
            " is written as a top-level column over a Variant struct only, got ",
            type.ToString());
      }
      continue;
    }
    auto it = shredding.find(schema.field(i)->name());
    out.push_back({i, it == shredding.end() ? ShreddingSchema::ValueOnly() : it->second});
  }
  return out;
}

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
// decimals, JSON values): blocks never move, so ByteArrays may point into them until
// the batch is written. Clear() keeps the blocks for the next batch: fresh memory
// costs a page fault and a zeroed page per 4 KB on first touch.
class Arena {
 public:
  std::string_view Copy(std::string_view bytes) {
    while (current_ < blocks_.size() &&
           blocks_[current_].capacity() - blocks_[current_].size() < bytes.size()) {
      ++current_;
    }
    if (current_ == blocks_.size()) {
      blocks_.emplace_back();
      blocks_.back().reserve(std::max<size_t>(bytes.size(), 1 << 20));
    }
    std::string& b = blocks_[current_];
    const size_t at = b.size();
    b.append(bytes);
    return {b.data() + at, bytes.size()};
  }
  void Clear() {
    for (auto& b : blocks_) b.clear();
    current_ = 0;
  }

 private:
  std::deque<std::string> blocks_;
  size_t current_ = 0;  // the block being filled
};

// Definition or repetition levels of one leaf: appended for every row at every leaf,
// so the append is a store through a cursor and growing is a call of its own (inlined
// into the append, std::vector's growth made every caller's frame heavy).
class LevelBuffer {
 public:
  void push_back(int16_t level) {
    if (end_ == capacity_) [[unlikely]]
      Grow();
    *end_++ = level;
  }
  const int16_t* data() const { return levels_.get(); }
  size_t size() const { return static_cast<size_t>(end_ - levels_.get()); }
  void clear() { end_ = levels_.get(); }

 private:
  [[gnu::noinline]] void Grow() {
    const size_t used = size();
    const size_t grown = std::max<size_t>(1024, 2 * used);
    auto levels = std::make_unique_for_overwrite<int16_t[]>(grown);
    if (used > 0) std::memcpy(levels.get(), levels_.get(), used * sizeof(int16_t));
    levels_ = std::move(levels);
    end_ = levels_.get() + used;
    capacity_ = levels_.get() + grown;
  }

  std::unique_ptr<int16_t[]> levels_;
  int16_t* end_ = nullptr;
  int16_t* capacity_ = nullptr;
};

// Levels and values of one Parquet leaf column for the batch being written.
struct Leaf {
  int column = 0;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  LevelBuffer def;
  LevelBuffer rep;
  std::vector<pq::ByteArray> bytes;
  std::vector<pq::FixedLenByteArray> fixed;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<uint8_t> bools;
  // How long writing its values took at the last Flush() (orders the next one).
  std::chrono::steady_clock::duration flush_time{};

  void Levels(int16_t d, int16_t r) {
    def.push_back(d);
    if (max_rep > 0) rep.push_back(r);
  }
  // The levels and values held: roughly what writing them costs.
  size_t Entries() const {
    return def.size() + rep.size() + bytes.size() + fixed.size() + i32.size() +
           i64.size() + f32.size() + f64.size() + bools.size();
  }
  void Clear() {
    def.clear(), rep.clear(), bytes.clear(), fixed.clear(), i32.clear(), i64.clear();
    f32.clear(), f64.clear(), bools.clear();
  }
};

// One {value, typed_value} pair of the shredding schema.

// ----------------------------------------------------------------------
// The shredding core's Parquet sink: levels and values per leaf column (Dremel
// encoding), handed to Parquet C++'s typed column writers once per batch.

// Where one {value, typed_value} pair goes in the file.
struct ParquetColumns {
  int16_t def = 0;  // definition level at which the pair's group is defined
  int value_leaf = -1;
  int typed_leaf = -1;            // primitive typed_value
  std::vector<int> typed_leaves;  // every leaf under typed_value
  int16_t list_rep = 0;           // array: repetition level of elements after the first
};

using Node = internal::ShredNode<ParquetColumns>;

class ParquetSink {
 public:
  using Columns = ParquetColumns;
  using Level = int16_t;  // repetition level

  // Numbers the leaves of the Variant group `group` from `first_leaf`, in the file's
  // depth-first column order, and places the pairs of `root` on them.
  arrow::Status Init(const GroupNode& group, Node& root, int first_leaf) {
    const int16_t base = group.is_optional() ? 1 : 0;
    nullable_ = group.is_optional();
    int next = first_leaf;
    metadata_leaf_ = AddLeaf(next++, base, 0);
    return Place(group, root, base, 0, &next);
  }

  int num_leaves() const { return static_cast<int>(leaves_.size()); }

  // For each leaf holding integers or byte arrays: whether a dictionary would store
  // them in fewer bytes than its other encoding, by file column, when a column chunk
  // holds `scale` times the values collected.
  // Judged on at most the first 64 Ki values of each leaf: enough to tell, and it
  // bounds the cost of a wide first slice.
  void DictionaryHints(double scale, std::map<int, bool>* out) const {
    constexpr size_t kMaxValues = size_t{1} << 16;
    auto head = [&](const auto& values) {
      const size_t n = std::min(values.size(), kMaxValues);
      return std::make_pair(std::span(values.data(), n),
                            scale * static_cast<double>(values.size()) / n);
    };
    for (const Leaf& leaf : leaves_) {
      if (!leaf.i32.empty()) {
        const auto [values, s] = head(leaf.i32);
        (*out)[leaf.column] = internal::DictionaryBeatsDelta(values, s);
      } else if (!leaf.i64.empty()) {
        const auto [values, s] = head(leaf.i64);
        (*out)[leaf.column] = internal::DictionaryBeatsDelta(values, s);
      } else if (!leaf.bytes.empty()) {
        (*out)[leaf.column] = internal::DictionaryBeatsPlain(head(leaf.bytes).first);
      }
    }
  }

  // Writes the collected leaves into `rg` and clears them, then those of `next` (a
  // twin sink holding the rows that follow, or null); with `use_threads`, on Arrow's
  // CPU thread pool, leaf by leaf (each leaf has its own column writer and buffer in a
  // buffered row group, as parquet::arrow::FileWriter's threaded writes use them):
  // one task per leaf writes both sinks' rows, so neither waits for the other.
  arrow::Status Flush(pq::RowGroupWriter* rg, bool use_threads,
                      ParquetSink* next = nullptr) {
    std::vector<pq::ColumnWriter*> writers;
    for (auto& leaf : leaves_) writers.push_back(rg->column(leaf.column));
    const std::vector<int> order = SlowestFirst();
    auto st = arrow::internal::OptionalParallelFor(
        use_threads && leaves_.size() > 1, static_cast<int>(leaves_.size()), [&](int k) {
          const int i = order[k];
          const auto start = std::chrono::steady_clock::now();
          auto written = WriteLeaf(leaves_[i], writers[i]);
          leaves_[i].Clear();
          if (next != nullptr && written.ok()) {
            written = WriteLeaf(next->leaves_[i], writers[i]);
          }
          if (next != nullptr) next->leaves_[i].Clear();
          leaves_[i].flush_time = std::chrono::steady_clock::now() - start;
          return written;
        });
    arena_.Clear();
    if (next != nullptr) next->arena_.Clear();
    return st;
  }

  // The leaves by the time the last Flush() took to write them, longest first (at the
  // first flush, by the levels and values they hold). A threaded flush lasts until
  // its slowest leaf is written: started last, that leaf (e.g. the strings of a list,
  // a third of the whole) would run alone at the end.
  std::vector<int> SlowestFirst() const {
    auto cost = [&](int i) {
      return std::make_pair(leaves_[i].flush_time, leaves_[i].Entries());
    };
    std::vector<int> order(leaves_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return cost(a) > cost(b); });
    return order;
  }

  // Drops the rows collected since the last Flush().
  void Discard() {
    for (auto& leaf : leaves_) leaf.Clear();
    arena_.Clear();
  }

  // Events of the shredding core (shredder_internal.h).

  arrow::Status NullRow(Node&) {
    // A required group has no level for NULL: writing one would misalign the leaves.
    if (!nullable_) return arrow::Status::Invalid(kNullInRequiredColumn);
    // SQL NULL: the group itself is null at every leaf.
    for (auto& leaf : leaves_) leaf.Levels(0, 0);
    return arrow::Status::OK();
  }
  arrow::Status BeginRow(Node&, std::string_view metadata) {
    Leaf& m = leaves_[metadata_leaf_];
    m.Levels(m.max_def, 0);
    m.bytes.push_back(ByteArray(metadata));
    return arrow::Status::OK();
  }
  // Values point into the batch or the arena until Flush().
  std::string_view Keep(std::string_view bytes) { return arena_.Copy(bytes); }

  arrow::Status Value(Node& node, std::string_view bytes, int16_t rep) {
    EmitValue(node, bytes, rep);
    for (int l : node.columns.typed_leaves) leaves_[l].Levels(node.columns.def, rep);
    return arrow::Status::OK();
  }
  arrow::Status Missing(Node& node, int16_t rep) {
    const int16_t def = node.columns.def;
    if (node.columns.value_leaf >= 0) leaves_[node.columns.value_leaf].Levels(def, rep);
    for (int l : node.columns.typed_leaves) leaves_[l].Levels(def, rep);
    return arrow::Status::OK();
  }
  arrow::Status Typed(Node& node, const internal::TypedValue& t, int16_t rep) {
    EmitNoValue(node, rep);
    return AppendTyped(node, t, rep);
  }
  arrow::Status BeginObject(Node&, int16_t) { return arrow::Status::OK(); }
  arrow::Status EndObject(Node& node, std::string_view residual, int16_t rep) {
    if (residual.empty()) {
      EmitNoValue(node, rep);
    } else {
      EmitValue(node, arena_.Copy(residual), rep);
    }
    return arrow::Status::OK();
  }
  arrow::Status BeginArray(Node& node, uint32_t size, int16_t rep) {
    EmitNoValue(node, rep);
    if (size == 0) {
      // An empty list: typed_value defined, no element.
      const auto def = static_cast<int16_t>(node.columns.def + 1);
      for (int l : node.columns.typed_leaves) leaves_[l].Levels(def, rep);
    }
    return arrow::Status::OK();
  }
  int16_t Element(Node& node, uint32_t index, int16_t rep) {
    return index == 0 ? rep : node.columns.list_rep;
  }
  arrow::Status EndArray(Node&, uint32_t, int16_t) { return arrow::Status::OK(); }

 private:
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

  // Walks the Parquet group of one pair alongside its plan node.
  arrow::Status Place(const GroupNode& group, Node& node, int16_t def, int16_t rep,
                      int* next) {
    ParquetColumns& c = node.columns;
    c.def = def;
    for (int i = 0; i < group.field_count(); ++i) {
      const NodePtr& child = group.field(i);
      if (child->name() == "metadata") continue;  // top level only, numbered by Init
      if (child->name() == "value") {
        // Optional when shredded; required in the plain {metadata, value} group.
        c.value_leaf = AddLeaf(
            (*next)++, static_cast<int16_t>(child->is_optional() ? def + 1 : def), rep);
        continue;
      }
      // typed_value
      const size_t before = leaves_.size();
      switch (node.kind) {
        case ShreddingSchema::Kind::kPrimitive:
          c.typed_leaf = AddLeaf((*next)++, static_cast<int16_t>(def + 1), rep);
          break;
        case ShreddingSchema::Kind::kObject: {
          const auto& typed = static_cast<const GroupNode&>(*child);
          for (size_t f = 0; f < node.fields.size(); ++f) {
            const int index = typed.FieldIndex(node.names[f]);
            if (index < 0) {
              return arrow::Status::Invalid("internal: no group for ", node.names[f]);
            }
            ARROW_RETURN_NOT_OK(Place(static_cast<const GroupNode&>(*typed.field(index)),
                                      *node.fields[f], static_cast<int16_t>(def + 1), rep,
                                      next));
          }
          break;
        }
        case ShreddingSchema::Kind::kArray: {
          const auto& list = static_cast<const GroupNode&>(*child);
          const auto& repeated = static_cast<const GroupNode&>(*list.field(0));
          const auto& element = static_cast<const GroupNode&>(*repeated.field(0));
          c.list_rep = static_cast<int16_t>(rep + 1);
          // typed_value (+1), the repeated group (+1); the element group is required.
          ARROW_RETURN_NOT_OK(Place(element, *node.element, static_cast<int16_t>(def + 2),
                                    c.list_rep, next));
          break;
        }
        case ShreddingSchema::Kind::kValueOnly:
          break;
      }
      for (size_t l = before; l < leaves_.size(); ++l) {
        c.typed_leaves.push_back(static_cast<int>(l));
      }
    }
    return arrow::Status::OK();
  }

  void EmitValue(const Node& node, std::string_view bytes, int16_t rep) {
    Leaf& leaf = leaves_[node.columns.value_leaf];
    leaf.Levels(leaf.max_def, rep);
    leaf.bytes.push_back(ByteArray(bytes));
  }
  void EmitNoValue(const Node& node, int16_t rep) {
    if (node.columns.value_leaf >= 0) {
      leaves_[node.columns.value_leaf].Levels(node.columns.def, rep);
    }
  }

  arrow::Status AppendTyped(const Node& node, const internal::TypedValue& t,
                            int16_t rep) {
    Leaf& leaf = leaves_[node.columns.typed_leaf];
    const VariantView& v = *t.variant;
    switch (node.type) {
      case VariantType::kBoolean:
        leaf.bools.push_back(v.GetBool());
        break;
      case VariantType::kInt8:
      case VariantType::kInt16:
      case VariantType::kInt32:
      case VariantType::kDecimal4:
        leaf.i32.push_back(static_cast<int32_t>(t.integer));
        break;
      case VariantType::kInt64:
      case VariantType::kDecimal8:
        leaf.i64.push_back(t.integer);
        break;
      case VariantType::kDecimal16: {
        // Parquet DECIMAL on FIXED_LEN_BYTE_ARRAY is big-endian two's complement.
        char be[16];
        for (int b = 0; b < 16; ++b)
          be[b] = static_cast<char>(t.decimal >> (8 * (15 - b)));
        leaf.fixed.emplace_back(
            reinterpret_cast<const uint8_t*>(arena_.Copy({be, 16}).data()));
        break;
      }
      case VariantType::kFloat:
        leaf.f32.push_back(v.GetFloat());
        break;
      case VariantType::kDouble:
        leaf.f64.push_back(v.GetDouble());
        break;
      case VariantType::kDate:
        leaf.i32.push_back(v.GetDate());
        break;
      case VariantType::kTimeNtzMicros:
      case VariantType::kTimestampMicros:
      case VariantType::kTimestampNtzMicros:
      case VariantType::kTimestampNanos:
      case VariantType::kTimestampNtzNanos:
        leaf.i64.push_back(v.GetTimeValue());
        break;
      case VariantType::kString:
      case VariantType::kBinary:
        leaf.bytes.push_back(ByteArray(t.bytes));
        break;
      case VariantType::kUuid:
        leaf.fixed.emplace_back(reinterpret_cast<const uint8_t*>(v.GetUuid().data()));
        break;
      default:
        return arrow::Status::Invalid("cannot shred into ", VariantTypeName(node.type),
                                      " at ", node.path);
    }
    leaf.Levels(leaf.max_def, rep);
    return arrow::Status::OK();
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

  int metadata_leaf_ = 0;
  bool nullable_ = true;  // whether the Variant group is optional
  std::vector<Leaf> leaves_;
  Arena arena_;
};

// One Variant column: its plan, its sink and the shredder between them.
class VariantColumnWriter {
 public:
  static arrow::Result<std::unique_ptr<VariantColumnWriter>> Make(
      const GroupNode& group, const ShreddingSchema& schema, int first_leaf, bool lenient,
      bool validate) {
    auto w = std::unique_ptr<VariantColumnWriter>(new VariantColumnWriter(lenient));
    w->validate_ = validate;
    w->root_ = internal::CompileShredPlan<ParquetColumns>(schema, "$");
    ARROW_RETURN_NOT_OK(w->sink_.Init(group, *w->root_, first_leaf));
    w->made_from_ = {&group, schema, first_leaf};
    return w;
  }

  // Another writer of the same leaves (the group node outlives both).
  arrow::Result<std::unique_ptr<VariantColumnWriter>> MakeTwin() const {
    return Make(*made_from_.group, made_from_.schema, made_from_.first_leaf,
                shredder_.lenient(), validate_);
  }

  // Shreds an unshredded canonical column into the leaves; they point into `column`,
  // which must outlive the Flush() that writes them.
  arrow::Status Shred(const std::shared_ptr<arrow::Array>& column, int64_t row_offset) {
    ARROW_ASSIGN_OR_RAISE(auto view, VariantArrayView::Make(column));
    const ValidateOptions options = ValidateOptions::ForReading();
    return shredder_.ShredRows(view, *root_, validate_ ? &options : nullptr, row_offset);
  }
  // Shreds JSON documents into the leaves, straight from the text
  // (json_shredder_internal.h); rows are numbered from `row_offset` in errors. Should a
  // document fail there, the leaves are dropped and every document is parsed into a
  // Variant and shredded instead, which reports its error (or makes it a SQL NULL row
  // under JsonErrorPolicy::kNull). Leaves point into the documents' text.
  // Returns the documents made SQL NULL rows (JsonErrorPolicy::kNull).
  arrow::Result<int64_t> ShredJson(std::span<const internal::JsonDocument> docs,
                                   const JsonToVariantOptions& options,
                                   int64_t row_offset) {
    internal::JsonShredder<ParquetSink>& json = JsonShredderFor(options.parse);
    json.Restart();
    for (const internal::JsonDocument& d : docs) {
      const arrow::Status st = d.is_null
                                   ? sink_.NullRow(*root_)
                                   : json.ShredDocument(d.text, d.readable_after, *root_);
      if (!st.ok()) {
        sink_.Discard();
        return ShredJsonThroughVariants(docs, options, row_offset);
      }
    }
    return 0;
  }

  // Writes the rows shredded since the last Flush() into `rg`, then those of `next`
  // (a twin holding the rows that follow, or null).
  arrow::Status Flush(pq::RowGroupWriter* rg, bool use_threads,
                      VariantColumnWriter* next = nullptr) {
    return sink_.Flush(rg, use_threads, next != nullptr ? &next->sink_ : nullptr);
  }
  void DictionaryHints(double scale, std::map<int, bool>* out) const {
    sink_.DictionaryHints(scale, out);
  }

  int num_leaves() const { return sink_.num_leaves(); }
  bool validated() const { return validate_; }
  uint32_t primitive_types_seen() const { return shredder_.primitive_types_seen(); }

 private:
  explicit VariantColumnWriter(bool lenient) : shredder_(&sink_, lenient) {}

  internal::JsonShredder<ParquetSink>& JsonShredderFor(const JsonParseOptions& o) {
    const auto& p = json_options_;
    if (json_ == nullptr || p.numbers != o.numbers ||
        p.duplicate_keys != o.duplicate_keys || p.max_depth != o.max_depth) {
      json_ =
          std::make_unique<internal::JsonShredder<ParquetSink>>(&sink_, &shredder_, o);
      json_options_ = o;
    }
    return *json_;
  }

  // JsonToVariant's rows, shredded one by one (their bytes kept until the Flush()).
  arrow::Result<int64_t> ShredJsonThroughVariants(
      std::span<const internal::JsonDocument> docs, const JsonToVariantOptions& options,
      int64_t row_offset) {
    int64_t invalid = 0;
    JsonParser parser(options.parse);
    parser.IndexAhead(true);  // `docs` stay as they are during the call
    VariantBuilder builder(options.parse.duplicate_keys);
    shredder_.StartColumn();
    for (size_t i = 0; i < docs.size(); ++i) {
      const int64_t row = row_offset + static_cast<int64_t>(i);
      auto null_row = [&] {
        auto st = sink_.NullRow(*root_);
        return st.ok() ? st : st.WithMessage("row ", row, ": ", st.message());
      };
      if (docs[i].is_null) {
        ARROW_RETURN_NOT_OK(null_row());
        continue;
      }
      std::string_view metadata, value;
      ARROW_ASSIGN_OR_RAISE(const bool parsed, internal::ParseJsonDocument(
                                                   parser, builder, docs[i], row,
                                                   options.errors, &metadata, &value));
      if (!parsed) {
        ARROW_RETURN_NOT_OK(null_row());
        ++invalid;
        continue;
      }
      ARROW_RETURN_NOT_OK(
          shredder_.ShredTrustedRow(*root_, sink_.Keep(metadata), sink_.Keep(value)));
      builder.Reset();
    }
    return invalid;
  }

  struct MadeFrom {
    const GroupNode* group = nullptr;
    ShreddingSchema schema;
    int first_leaf = 0;
  };
  MadeFrom made_from_;
  bool validate_ = true;  // false for trusted columns (bytes built by this process)
  std::unique_ptr<Node> root_;
  ParquetSink sink_;
  internal::Shredder<ParquetSink> shredder_;
  std::unique_ptr<internal::JsonShredder<ParquetSink>> json_;  // made on first use
  JsonParseOptions json_options_;
};

// ----------------------------------------------------------------------
// The writer: Variant columns through the shredding core into their column chunks,
// every other column through parquet::arrow::FileWriter, into the same row groups.

class SharedWriter : public ParquetWriter {
 public:
  SharedWriter(AtomicFile file, ParquetWriteOptions options, arrow::MemoryPool* pool)
      : file_(std::move(file)), options_(std::move(options)), pool_(pool) {}
  ~SharedWriter() override { Abort(); }

  arrow::Status Init(const std::shared_ptr<arrow::Schema>& schema,
                     const std::vector<ColumnPlanInput>& variants) {
    schema_ = schema;
    props_ = MakeProperties(options_);
    const auto arrow_props = pq::ArrowWriterProperties::Builder()
                                 .set_use_threads(options_.use_threads)
                                 ->build();
    std::map<int, const ShreddingSchema*> by_field;
    for (const auto& v : variants) by_field[v.field_index] = &v.schema;
    pq::schema::NodeVector fields, other_fields;
    arrow::FieldVector others;
    std::vector<int> other_leaves, variant_leaves;
    int leaf = 0;
    for (int i = 0; i < schema->num_fields(); ++i) {
      const auto& field = schema->field(i);
      auto it = by_field.find(i);
      if (it != by_field.end()) {
        ARROW_ASSIGN_OR_RAISE(auto node, VariantNode(field->name(), field->nullable(),
                                                     *it->second, options_.annotate));
        ARROW_ASSIGN_OR_RAISE(auto w,
                              VariantColumnWriter::Make(
                                  static_cast<const GroupNode&>(*node), *it->second, leaf,
                                  options_.numeric == NumericShredding::kLenient,
                                  !IsTrusted(field->name())));
        for (int l = 0; l < w->num_leaves(); ++l) variant_leaves.push_back(leaf++);
        variants_.push_back({i, std::move(w)});
        fields.push_back(std::move(node));
        continue;
      }
      // Arrow's mapping, made twice: a schema node has one parent.
      std::shared_ptr<pq::SchemaDescriptor> desc;
      ARROW_RETURN_NOT_OK(pq::arrow::ToParquetSchema(arrow::schema({field}).get(),
                                                     *props_, *arrow_props, &desc));
      for (int l = 0; l < desc->num_columns(); ++l) other_leaves.push_back(leaf++);
      fields.push_back(desc->group_node()->field(0));
      ARROW_RETURN_NOT_OK(pq::arrow::ToParquetSchema(arrow::schema({field}).get(),
                                                     *props_, *arrow_props, &desc));
      other_fields.push_back(desc->group_node()->field(0));
      others.push_back(field);
      other_columns_.push_back(i);
    }
    root_ = std::static_pointer_cast<GroupNode>(
        GroupNode::Make("schema", pq::Repetition::REQUIRED, fields));
    other_root_ = std::static_pointer_cast<GroupNode>(
        GroupNode::Make("schema", pq::Repetition::REQUIRED, other_fields));
    other_leaves_ = std::move(other_leaves);
    variant_leaves_ = std::move(variant_leaves);
    arrow_props_ = arrow_props;
    others_schema_ = arrow::schema(std::move(others));
    return arrow::Status::OK();
  }

  // Parquet C++ may throw from any call below: errors name the file instead.
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    return file_.Named(
        internal::CatchParquet(path(), kWriteFailed, [&] { return WriteBatch(batch); }));
  }
  arrow::Result<int64_t> WriteJson(const arrow::Array& strings,
                                   const JsonToVariantOptions& options) override {
    return WriteJsonRuns(options, [&](auto&& each) {
      return internal::ForEachJsonDocument(strings, each);
    });
  }
  arrow::Result<int64_t> WriteJsonLines(std::string_view text,
                                        const JsonToVariantOptions& options) override {
    return WriteJsonRuns(
        options, [&](auto&& each) { return internal::ForEachJsonLine(text, each); });
  }
  arrow::Status Close() override {
    return file_.Named(
        internal::CatchParquet(path(), kWriteFailed, [&] { return Finish(); }));
  }

  void Abort() override {
    closed_ = true;
    // The stream first: the writers' destructors try to finish the file (Parquet C++
    // writes the footer), which must reach no file, least of all in a fork, whose
    // descriptor shares the parent's file and offset.
    file_.Discard();
    // The Arrow writer's file view points at the file writer: it goes first.
    try {
      others_writer_.reset();
      file_writer_.reset();
    } catch (...) {
    }
  }

  bool closed() const override { return closed_; }
  int64_t num_rows() const override { return rows_; }
  const std::string& path() const override { return file_.final_path(); }
  std::optional<uint32_t> primitive_types_written(
      const std::string& name) const override {
    for (const auto& [field_index, writer] : variants_) {
      if (schema_->field(field_index)->name() == name && writer->validated()) {
        return writer->primitive_types_seen();
      }
    }
    return std::nullopt;
  }

 private:
  bool IsTrusted(const std::string& name) const {
    const auto& t = options_.trusted_columns;
    return std::find(t.begin(), t.end(), name) != t.end();
  }

  // The file starts once the first slice is shredded: its leaves' values choose their
  // encodings (MakeProperties), for row groups of as many rows as the options allow
  // rows like the slice's (`rows` rows of `bytes` input bytes). Closing before any row
  // starts it with the defaults.
  arrow::Status StartFile(int64_t rows = 0, int64_t bytes = 0) {
    std::map<int, bool> dictionary_wins;
    if (rows > 0) {
      double group_rows = static_cast<double>(options_.row_group_size);
      if (options_.row_group_bytes > 0 && bytes > 0) {
        group_rows = std::min(group_rows, static_cast<double>(options_.row_group_bytes) *
                                              static_cast<double>(rows) /
                                              static_cast<double>(bytes));
      }
      const double scale = std::max(1.0, group_rows / static_cast<double>(rows));
      for (auto& v : variants_) v.writer->DictionaryHints(scale, &dictionary_wins);
    }
    pq::SchemaDescriptor file_schema;
    file_schema.Init(root_);
    props_ = MakeProperties(options_, &file_schema, variant_leaves_, dictionary_wins);
    BEGIN_PARQUET_CATCH_EXCEPTIONS
    file_writer_ = pq::ParquetFileWriter::Open(file_.stream(), root_, props_);
    END_PARQUET_CATCH_EXCEPTIONS
    auto shared = std::make_unique<internal::SharedRowGroups>(file_writer_.get(),
                                                              other_root_, other_leaves_);
    shared_ = shared.get();
    auto view = std::make_unique<pq::ParquetFileWriter>();
    view->Open(std::move(shared));
    return pq::arrow::FileWriter::Make(pool_, std::move(view), others_schema_,
                                       arrow_props_, &others_writer_);
  }

  arrow::Status WriteBatch(const arrow::RecordBatch& batch) {
    if (closed_) return arrow::Status::Invalid("ParquetWriter is closed");
    if (!batch.schema()->Equals(*schema_, /*check_metadata=*/false)) {
      return arrow::Status::TypeError("batch schema ", batch.schema()->ToString(),
                                      " differs from the writer's ", schema_->ToString());
    }
    return ForEachSlice(batch.num_rows(), SliceRows(batch),
                        [&](int64_t offset, int64_t n, bool new_row_group) {
                          return WriteSlice(*batch.Slice(offset, n), new_row_group);
                        });
  }

  // Writes the documents `for_each` hands out (ForEachJsonDocument, ForEachJsonLine) in
  // runs of about slice_bytes of text, so that memory holds one run's documents
  // whatever the input's size. Returns the documents written as NULL.
  template <typename ForEach>
  arrow::Result<int64_t> WriteJsonRuns(const JsonToVariantOptions& options,
                                       ForEach&& for_each) {
    if (closed_) return arrow::Status::Invalid("ParquetWriter is closed");
    if (variants_.size() != 1 || schema_->num_fields() != 1) {
      return arrow::Status::TypeError(
          "WriteJson needs a writer whose only column is a Variant column, not ",
          schema_->ToString());
    }
    ARROW_RETURN_NOT_OK(options.parse.Validate());
    int64_t invalid = 0, first_row = 0, run_bytes = 0;
    auto write_run = [&]() -> arrow::Status {
      if (docs_.empty()) return arrow::Status::OK();
      ARROW_RETURN_NOT_OK(file_.Named(internal::CatchParquet(path(), kWriteFailed, [&] {
        return WriteJsonRows(docs_, run_bytes, options, first_row, &invalid);
      })));
      first_row += static_cast<int64_t>(docs_.size());
      docs_.clear();
      run_bytes = 0;
      return arrow::Status::OK();
    };
    docs_.clear();
    const int64_t rows_before = rows_;
    auto st = for_each([&](const internal::JsonDocument& d, int64_t) {
      docs_.push_back(d);
      run_bytes += static_cast<int64_t>(d.text.size());
      return options_.slice_bytes > 0 && run_bytes >= options_.slice_bytes
                 ? write_run()
                 : arrow::Status::OK();
    });
    if (st.ok()) st = write_run();
    // A call writes all its rows or drops the file: never the first part of them.
    if (!st.ok() && !closed_ && rows_ != rows_before) Abort();
    ARROW_RETURN_NOT_OK(st);
    return invalid;
  }

  // JSON documents (`text_bytes` of text) as rows of the one Variant column, in slices
  // of about slice_bytes of their text; errors number them from `first_row`.
  arrow::Status WriteJsonRows(std::span<const internal::JsonDocument> docs,
                              int64_t text_bytes, const JsonToVariantOptions& options,
                              int64_t first_row, int64_t* invalid) {
    const auto rows = static_cast<int64_t>(docs.size());
    const int64_t per_row = std::max<int64_t>(1, text_bytes / std::max<int64_t>(1, rows));
    const int64_t slice_rows = options_.slice_bytes <= 0
                                   ? rows
                                   : std::max<int64_t>(1, options_.slice_bytes / per_row);
    VariantColumn& column = variants_[0];
    if (options_.use_threads && twin_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(twin_, column.writer->MakeTwin());
    }
    return ForEachSlice(
        rows, slice_rows, [&](int64_t offset, int64_t n, bool new_row_group) {
          // Errors name the row of the input alone, as JsonToVariant's do.
          ARROW_ASSIGN_OR_RAISE(
              const int64_t nulled,
              ShredJsonSlice(docs.subspan(offset, n), options, first_row + offset));
          *invalid += nulled;
          // The slice's second half (the twin's), after the first in the same row group.
          return WriteShredded(n, n * per_row, nullptr, new_row_group, twin_.get());
        });
  }

  // With use_threads, the slice's halves are shredded at once on Arrow's CPU pool, the
  // second by the column's twin writer (flushed after the first); else the whole
  // slice by the column's writer. Errors are the first half's if both fail.
  arrow::Result<int64_t> ShredJsonSlice(std::span<const internal::JsonDocument> docs,
                                        const JsonToVariantOptions& options,
                                        int64_t offset) {
    VariantColumnWriter& first = *variants_[0].writer;
    if (twin_ == nullptr) return first.ShredJson(docs, options, offset);
    const size_t half = docs.size() / 2;
    arrow::Result<int64_t> results[2];
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(2, [&](int i) {
      results[i] = i == 0 ? first.ShredJson(docs.first(half), options, offset)
                          : twin_->ShredJson(docs.subspan(half), options,
                                             offset + static_cast<int64_t>(half));
      return arrow::Status::OK();
    }));
    ARROW_ASSIGN_OR_RAISE(const int64_t nulled_first, results[0]);
    ARROW_ASSIGN_OR_RAISE(const int64_t nulled_second, results[1]);
    return nulled_first + nulled_second;
  }

  // Cuts `rows` rows into slices of at most `slice_rows`, each within one row group, and
  // writes each with `write(offset, rows, new_row_group)`. A failure drops the file.
  template <typename WriteFn>
  arrow::Status ForEachSlice(int64_t rows, int64_t slice_rows, WriteFn&& write) {
    int64_t offset = 0;
    while (offset < rows) {
      const bool new_row_group =
          rg_rows_ == 0 || rg_rows_ >= options_.row_group_size ||
          (options_.row_group_bytes > 0 && BufferedBytes() >= options_.row_group_bytes);
      if (new_row_group) rg_rows_ = 0;
      const int64_t n =
          std::min({rows - offset, options_.row_group_size - rg_rows_, slice_rows});
      auto st = write(offset, n, new_row_group);
      if (!st.ok()) {
        Abort();
        return st;
      }
      offset += n;
      rg_rows_ += n;
      rows_ += n;
    }
    return arrow::Status::OK();
  }

  // Rows per slice: about slice_bytes of the batch's buffers (the average row).
  int64_t SliceRows(const arrow::RecordBatch& batch) const {
    if (options_.slice_bytes <= 0 || batch.num_rows() == 0) return batch.num_rows();
    const int64_t bytes = arrow::util::ReferencedBufferSize(batch).ValueOr(0);
    const int64_t per_row = std::max<int64_t>(1, bytes / batch.num_rows());
    return std::max<int64_t>(1, options_.slice_bytes / per_row);
  }

  // What the current row group holds in memory: finished pages (compressed), and the
  // levels, values and dictionaries not yet paged.
  int64_t BufferedBytes() const {
    const pq::RowGroupWriter* rg = shared_ != nullptr ? shared_->row_group() : nullptr;
    if (rg == nullptr) return 0;
    const auto pending = rg->estimated_buffered_stats();
    return rg->total_compressed_bytes() + rg->total_compressed_bytes_written() +
           pending.def_level_bytes + pending.rep_level_bytes + pending.value_bytes +
           pending.dict_bytes;
  }

  // One slice, in the current row group or a new one: every column gets the same
  // rows. Variant columns are shredded first (their leaves keep pointing into
  // `inputs`), then written.
  arrow::Status WriteSlice(const arrow::RecordBatch& slice, bool new_row_group) {
    arrow::ArrayVector inputs;
    for (auto& [field_index, writer] : variants_) {
      auto unshredded =
          UnshreddedInput(internal::StorageOf(slice.column(field_index)), pool_);
      if (!unshredded.ok()) {
        return InColumn(field_index, internal::ShiftRow(unshredded.status(), rows_));
      }
      std::shared_ptr<arrow::Array> input = *std::move(unshredded);
      auto st = writer->Shred(input, rows_);
      if (!st.ok()) return InColumn(field_index, st);
      inputs.push_back(std::move(input));
    }
    const int64_t bytes =
        file_writer_ ? 0 : arrow::util::ReferencedBufferSize(slice).ValueOr(0);
    return WriteShredded(slice.num_rows(), bytes, &slice, new_row_group);
  }

  // Writes a slice of `rows` rows (`bytes` of input) whose Variant columns are
  // shredded, with its other columns from `slice` (null: it has none), in the current
  // row group or a new one. `second_half`: the twin of the only Variant column's
  // writer, holding the slice's later rows (WriteJson), or null.
  arrow::Status WriteShredded(int64_t rows, int64_t bytes,
                              const arrow::RecordBatch* slice, bool new_row_group,
                              VariantColumnWriter* second_half = nullptr) {
    if (!file_writer_) ARROW_RETURN_NOT_OK(StartFile(rows, bytes));
    if (new_row_group) ARROW_RETURN_NOT_OK(others_writer_->NewBufferedRowGroup());
    if (!other_columns_.empty()) {
      arrow::ArrayVector columns;
      for (int i : other_columns_) columns.push_back(slice->column(i));
      ARROW_RETURN_NOT_OK(others_writer_->WriteRecordBatch(
          *arrow::RecordBatch::Make(others_schema_, rows, columns)));
    }
    for (auto& [field_index, writer] : variants_) {
      auto st = writer->Flush(shared_->row_group(), options_.use_threads, second_half);
      if (!st.ok()) return InColumn(field_index, st);
    }
    return arrow::Status::OK();
  }

  arrow::Status InColumn(int field_index, const arrow::Status& st) const {
    return st.WithMessage("column \"", schema_->field(field_index)->name(), "\", ",
                          st.message());
  }

  arrow::Status Finish() {
    if (closed_) return arrow::Status::Invalid("ParquetWriter is closed");
    if (!file_writer_) ARROW_RETURN_NOT_OK(StartFile());
    closed_ = true;
    // Closes the last row group and the file (through SharedRowGroups).
    auto st = others_writer_->Close();
    if (st.ok()) {
      others_writer_.reset();
      file_writer_.reset();
      st = file_.Publish();
    }
    if (!st.ok()) Abort();
    return st;
  }

  struct VariantColumn {
    int field_index;
    std::unique_ptr<VariantColumnWriter> writer;
  };

  AtomicFile file_;
  ParquetWriteOptions options_;
  arrow::MemoryPool* pool_;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<pq::WriterProperties> props_;
  // The file's schema and what StartFile() needs to begin it.
  std::shared_ptr<GroupNode> root_, other_root_;
  std::vector<int> other_leaves_, variant_leaves_;
  std::shared_ptr<pq::ArrowWriterProperties> arrow_props_;
  bool closed_ = false;
  std::unique_ptr<pq::ParquetFileWriter> file_writer_;
  internal::SharedRowGroups* shared_ = nullptr;  // owned by others_writer_
  std::shared_ptr<arrow::Schema> others_schema_;
  std::unique_ptr<pq::arrow::FileWriter> others_writer_;
  std::vector<int> other_columns_;
  std::vector<VariantColumn> variants_;
  std::unique_ptr<VariantColumnWriter> twin_;  // WriteJson()'s second shredder
  // The documents of one run of WriteJson(), kept for the next: a fresh array of them
  // per run would be fresh pages, faulted in and zeroed.
  std::vector<internal::JsonDocument> docs_;
  int64_t rg_rows_ = 0;
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
  if (options.compression_level) {
    // Checked here, not by the first page's compression (gzip's error there says
    // "unknown error"; zstd, brotli and lz4 would take any level silently).
    const auto codec = options.compression;
    const int level = *options.compression_level;
    const std::string name = arrow::util::Codec::GetCodecAsString(codec);
    if (!arrow::util::Codec::SupportsCompressionLevel(codec)) {
      return arrow::Status::Invalid("compression ", name, " takes no compression_level");
    }
    ARROW_ASSIGN_OR_RAISE(const int low,
                          arrow::util::Codec::MinimumCompressionLevel(codec));
    ARROW_ASSIGN_OR_RAISE(const int high,
                          arrow::util::Codec::MaximumCompressionLevel(codec));
    if (level < low || level > high) {
      return arrow::Status::Invalid("compression_level ", level, " is outside ", low,
                                    "..", high, " for ", name);
    }
  }
  if (options.data_page_size < ParquetWriteOptions::kMinDataPageSize) {
    // Smaller pages make Parquet C++ write empty pages in repeated columns, which
    // Spark and pyarrow refuse (and Parquet C++ reads as no rows).
    return arrow::Status::Invalid("data_page_size must be at least ",
                                  ParquetWriteOptions::kMinDataPageSize, " bytes, not ",
                                  options.data_page_size);
  }
  if (options.row_group_bytes < 0 || options.slice_bytes < 0) {
    return arrow::Status::Invalid("row_group_bytes and slice_bytes must not be negative");
  }
  ARROW_ASSIGN_OR_RAISE(auto variants, VariantColumns(*schema, shredding));
  ARROW_ASSIGN_OR_RAISE(auto file, AtomicFile::Open(path, options.filesystem));
  return internal::CatchParquet(
      path, kWriteFailed, [&]() -> arrow::Result<std::unique_ptr<ParquetWriter>> {
        auto w = std::make_unique<SharedWriter>(std::move(file), options, pool);
        ARROW_RETURN_NOT_OK(w->Init(schema, variants));
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
