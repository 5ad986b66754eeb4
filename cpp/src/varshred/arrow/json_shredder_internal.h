// Licensed under the Apache License, Version 2.0.
//
// JSON text straight into a shredding sink (docs/architecture.md#data-flow),
// without building each document as a Variant and walking it again. The objects and
// arrays that the schema types are walked in the text itself; every other value (a
// scalar, or a container no typed_value takes) is encoded alone as Variant bytes and
// handed to the shredding core's own decision (Shredder::Shred), and an object's
// unshredded fields become its residual. So the writer rules keep one home
// (shredder_internal.h), and the sink receives what JsonParser + Shredder::ShredRows
// would send it, byte for byte: keys enter the row's dictionary in document order as
// the parser adds them, and a residual's values are laid out in key order as the
// shredder lays them out.
//
// Differences in how the sink is driven: BeginRow() comes after the row's events
// (the dictionary is complete only then), and an object's fields come in document
// order, missing ones last. The Parquet sink keeps each leaf apart, so neither matters
// to it.
//
// Any error leaves part of the row in the sink. The caller then drops what the sink
// holds and redoes those rows through JsonParser and Shredder, which name the error as
// they always do and apply JsonErrorPolicy and DuplicateKeyPolicy::kLastWins; this
// walk reports any duplicate key as an error for that reason.

#pragma once

#include <arrow/status.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/arrow/shredder_internal.h"
#include "varshred/builder.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/json.h"
#include "varshred/json_reader_internal.h"

namespace varshred::internal {

template <typename Sink>
class JsonShredder {
 public:
  using Node = ShredNode<typename Sink::Columns>;
  using Level = typename Sink::Level;

  /// `shredder` makes the decision for every value walked here as a whole; it must
  /// send its events to `sink`.
  JsonShredder(Sink* sink, Shredder<Sink>* shredder, const JsonParseOptions& options)
      : sink_(sink), shredder_(shredder), reader_(options) {}

  /// \brief Forgets the previous row's dictionary and the rows indexed ahead: call
  /// whenever the sink drops what it holds (rows share a dictionary through bytes the
  /// sink keeps) and at each new input (rows are read from an index of the bytes after
  /// them, which must not change: JsonParser::IndexAhead()).
  void Restart() {
    last_metadata_ = last_source_ = {};
    last_epoch_ = kNoEpoch;
    reader_.AllowWindows(true);
  }

  /// \brief Sends one JSON document to the sink as one row of pair tree `root`.
  /// `readable_after` as in JsonParser::Parse().
  arrow::Status ShredDocument(std::string_view json, size_t readable_after, Node& root) {
    builder_.Reset();
    fields_.clear();
    values_.clear();
    JsonCursor c;
    // JsonReader::Parse() reads such a document, checking its size as it goes.
    if (JsonReader::MayPassSizeLimit(json.size())) return Failed();
    if (!reader_.Index(json, readable_after, &builder_, &c)) return Failed();
    if (Walks(root, c.Peek())) {
      ARROW_RETURN_NOT_OK(WalkContainer(root, c, Level{}, /*depth=*/0));
    } else {
      if (!reader_.WalkValue(c, /*depth=*/0)) return Failed();
      ARROW_RETURN_NOT_OK(ShredWhole(root, Level{}));
    }
    if (!c.AtEnd()) return Failed();  // trailing content
    reader_.Walked(c);
    // Two rows that each replayed the remembered dictionary (the same epoch) to the
    // same size hold the same keys: compare the bytes only when they may differ. A row
    // that left the replay does not count, even when the builder then kept the old
    // dictionary: its keys differ and its encoding may have the same size.
    const MetadataBuilder& keys = builder_.metadata_builder();
    const std::string_view metadata = keys.FinishView(&metadata_scratch_);
    const uint64_t epoch = keys.replaying() ? keys.replay_epoch() : kNoEpoch;
    const bool same_source = metadata.data() == last_source_.data() &&
                             metadata.size() == last_source_.size() &&
                             epoch != kNoEpoch && epoch == last_epoch_;
    if (last_metadata_.data() == nullptr ||
        (!same_source && metadata != last_metadata_)) {
      last_metadata_ = sink_->Keep(metadata);
    }
    last_source_ = metadata;
    last_epoch_ = epoch;
    return sink_->BeginRow(root, last_metadata_);
  }

 private:
  // Whether this walk descends into the value starting with `first` at `node`: an
  // object at an object typed_value, an array at an array typed_value.
  static bool Walks(const Node& node, char first) {
    return (first == '{' && node.kind == ShreddingSchema::Kind::kObject) ||
           (first == '[' && node.kind == ShreddingSchema::Kind::kArray);
  }

  // The value at `c` sits inside `depth` containers.
  arrow::Status Walk(Node& node, JsonCursor& c, Level level, int depth) {
    if (Walks(node, c.Peek())) return WalkContainer(node, c, level, depth);
    if (node.kind == ShreddingSchema::Kind::kPrimitive &&
        node.type == VariantType::kString) {
      // A string matches a string column (MatchTyped): one without escapes goes there
      // as its text stands, without being encoded first.
      TypedValue typed;
      if (reader_.PlainString(c, &typed.bytes)) {
        static const VariantView kNoView;  // sinks read strings from `bytes` only
        typed.variant = &kNoView;
        if (!reader_.InPlace()) typed.bytes = sink_->Keep(typed.bytes);
        return sink_->Typed(node, typed, level);
      }
    }
    builder_.ClearValue();
    if (!reader_.WalkValue(c, depth)) return Failed();
    return ShredWhole(node, level);
  }

  // The value in the builder, decided by the shredding core. Never an object at an
  // object typed_value nor an array at an array one (those are walked here), so the
  // core does not descend and needs no metadata.
  arrow::Status ShredWhole(Node& node, Level level) {
    const std::string_view bytes = builder_.value_bytes();
    if (bytes.size() > kMaxValueSize) return Failed();
    if (node.kind == ShreddingSchema::Kind::kPrimitive && !KeepsBytes(node.type)) {
      // As Shredder::Shred, without copying bytes the sink does not keep: a typed
      // number, boolean, date or time is stored as its value.
      const VariantView v = VariantView::MakeExact(MetadataView(), bytes);
      TypedValue typed;
      if (MatchTyped(node.type, node.precision, node.scale, shredder_->lenient(), v,
                     &typed)) {
        return sink_->Typed(node, typed, level);
      }
    }
    return shredder_->Shred(
        node, VariantView::MakeExact(MetadataView(), sink_->Keep(bytes)), level);
  }

  // Whether a typed_value of `type` stores a view of the value's bytes (sinks keep
  // views of strings, binaries and uuids until they write them).
  static bool KeepsBytes(VariantType type) {
    return type == VariantType::kString || type == VariantType::kBinary ||
           type == VariantType::kUuid;
  }

  arrow::Status WalkContainer(Node& node, JsonCursor& c, Level level, int depth) {
    if (depth + 1 > reader_.options().max_depth) return Failed();
    const char first = c.Peek();
    ++c.pos;
    return first == '{' ? WalkObject(node, c, level, depth + 1)
                        : WalkArray(node, c, level, depth + 1);
  }

  // docs/shredding.md rule 2, as Shredder::ShredObject: shredded fields to their
  // groups, the rest to a residual object in value.
  arrow::Status WalkObject(Node& node, JsonCursor& c, Level level, int depth) {
    ARROW_RETURN_NOT_OK(sink_->BeginObject(node, level));
    std::fill(node.match.begin(), node.match.end(), -1);
    // This object's unshredded fields and their values, on stacks shared with the
    // objects nested in its shredded fields.
    const size_t first_field = fields_.size();
    const size_t first_byte = values_.size();
    arrow::Status st;
    const bool walked = reader_.WalkFields(c, [&](std::string_view key) {
      const int32_t f = FieldOf(node, key);
      const uint32_t id = last_id_;
      if (f >= 0) {
        if (node.match[f] >= 0) return false;  // a repeated key
        node.match[f] = 1;
        st = Walk(*node.fields[f], c, level, depth);
        return st.ok();
      }
      builder_.ClearValue();
      if (!reader_.WalkValue(c, depth)) return false;
      const std::string_view bytes = builder_.value_bytes();
      fields_.push_back({{builder_.metadata_builder().key(id), id,
                          static_cast<uint32_t>(values_.size() - first_byte)},
                         static_cast<uint32_t>(bytes.size())});
      values_.append(bytes);
      return true;
    });
    if (!walked) return st.ok() ? Failed() : st;
    for (size_t f = 0; f < node.fields.size(); ++f) {
      if (node.match[f] < 0) ARROW_RETURN_NOT_OK(sink_->Missing(*node.fields[f], level));
    }
    if (fields_.size() == first_field) return sink_->EndObject(node, {}, level);
    const arrow::Status ended = EndResidual(node, first_field, first_byte, level);
    fields_.resize(first_field);
    values_.resize(first_byte);
    return ended;
  }

  // The residual object of fields_[first_field:] (values in values_[first_byte:]),
  // its values laid out in key order as Shredder::ShredObject lays them out.
  arrow::Status EndResidual(Node& node, size_t first_field, size_t first_byte,
                            Level level) {
    const auto begin = fields_.begin() + static_cast<std::ptrdiff_t>(first_field);
    std::sort(begin, fields_.end(), [](const ResidualField& a, const ResidualField& b) {
      return a.entry.key < b.entry.key;
    });
    const std::string_view values = std::string_view(values_).substr(first_byte);
    residual_.clear();
    header_.clear();
    for (auto it = begin; it != fields_.end(); ++it) {
      if (it != begin && it->entry.key == (it - 1)->entry.key)
        return Failed();  // repeated
      header_.push_back(
          {it->entry.key, it->entry.id, static_cast<uint32_t>(residual_.size())});
      residual_.append(values.substr(it->entry.offset, it->size));
    }
    if (residual_.size() > kMaxValueSize) return Failed();
    InsertObjectHeader(&residual_, 0, header_.data(), header_.size());
    return sink_->EndObject(node, residual_, level);
  }

  // docs/shredding.md: an array goes entirely to typed_value, element by element.
  arrow::Status WalkArray(Node& node, JsonCursor& c, Level level, int depth) {
    const uint32_t n = JsonReader::CountElements(c);
    ARROW_RETURN_NOT_OK(sink_->BeginArray(node, n, level));
    uint32_t i = 0;
    arrow::Status st;
    const bool walked = JsonReader::WalkElements(c, [&] {
      if (i == n) return false;
      st = Walk(*node.element, c, sink_->Element(node, i++, level), depth);
      return st.ok();
    });
    if (!walked) return st.ok() ? Failed() : st;
    if (i != n) return Failed();
    return sink_->EndArray(node, n, level);
  }

  // Adds `key` to the row's dictionary (its id in last_id_) and returns the schema
  // field it names, or -1. While the row's keys replay the previous rows' dictionary,
  // ids name the same keys in every row, and the answer is cached by id.
  int32_t FieldOf(Node& node, std::string_view key) {
    MetadataBuilder& keys = builder_.metadata_builder();
    last_id_ = keys.Add(key);
    if (!keys.replaying()) return node.FieldNamed(key);
    if (node.key_ids_epoch != keys.replay_epoch()) {
      node.key_id_to_field.clear();
      node.key_ids_epoch = keys.replay_epoch();
    }
    if (last_id_ >= node.key_id_to_field.size()) {
      node.key_id_to_field.resize(last_id_ + 1, kUnresolved);
    }
    int32_t& f = node.key_id_to_field[last_id_];
    if (f == kUnresolved) f = node.FieldNamed(key);
    return f;
  }

  static constexpr int32_t kUnresolved = -2;

  // The caller redoes the rows through JsonParser, which names the problem.
  static arrow::Status Failed() {
    return arrow::Status::Invalid("JSON shredding failed");
  }

  Sink* sink_;
  Shredder<Sink>* shredder_;
  JsonReader reader_;
  VariantBuilder builder_;  // the row's dictionary; values encoded one at a time
  std::string metadata_scratch_;
  std::string_view last_metadata_;  // kept by the sink
  std::string_view last_source_;    // the builder's bytes it was kept from
  static constexpr uint64_t kNoEpoch = ~uint64_t{0};
  uint64_t last_epoch_ = kNoEpoch;  // the last row's replay epoch, if it replayed
  uint32_t last_id_ = 0;            // of the key FieldOf() added last
  // An unshredded field: its entry (offset into values_ from its object's first byte)
  // and the size of its value.
  struct ResidualField {
    FieldEntry entry;
    uint32_t size;
  };
  std::vector<ResidualField> fields_;
  std::string values_;
  std::vector<FieldEntry> header_;
  std::string residual_;
};

}  // namespace varshred::internal
