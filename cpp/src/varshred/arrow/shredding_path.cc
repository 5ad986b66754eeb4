// Licensed under the Apache License, Version 2.0.
//
// The path syntax of FromPaths() and ShreddingStats (see shredding_path_internal.h),
// and ShreddingSchema::FromPaths(): (path, DDL type) pairs merged into one tree.

#include <arrow/status.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "varshred/arrow/shredding_path_internal.h"
#include "varshred/arrow/shredding_schema.h"

namespace varshred::internal {

arrow::Result<std::vector<PathSegment>> ParsePath(std::string_view path) {
  std::vector<PathSegment> out;
  size_t i = 0;
  auto bad = [&](const std::string& what) {
    return arrow::Status::Invalid("shredding path '", path, "': ", what, " at column ",
                                  i + 1);
  };
  if (path.empty()) return bad("empty path");
  bool expect_name = true;
  while (i < path.size()) {
    if (path[i] == '[') {
      if (i + 1 >= path.size() || path[i + 1] != ']') return bad("expected '[]'");
      if (expect_name && !out.empty()) return bad("'[]' after '.'");
      out.push_back({true, {}});
      i += 2;
      expect_name = false;
      continue;
    }
    if (!expect_name) {
      if (path[i] != '.') return bad("expected '.' or '[]'");
      ++i;
      expect_name = true;
      continue;
    }
    std::string name;
    const bool quoted = path[i] == '`';
    if (quoted) {
      ++i;
      while (true) {
        if (i >= path.size()) return bad("unterminated backquoted name");
        if (path[i] == '`') {
          if (i + 1 < path.size() && path[i + 1] == '`') {
            name.push_back('`');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        name.push_back(path[i++]);
      }
    } else {
      while (i < path.size() && path[i] != '.' && path[i] != '[')
        name.push_back(path[i++]);
    }
    if (name.empty() && !quoted) return bad("empty field name (write it ``)");
    out.push_back({false, std::move(name)});
    expect_name = false;
  }
  if (expect_name) return bad("path ends with '.'");
  return out;
}

std::string QuotePathSegment(std::string_view name) {
  // A leading '$' would read as the root ("$" itself, "$x"); a control character would
  // print unseen.
  bool plain = !name.empty() && name[0] != '$';
  for (char c : name) {
    if (c == '.' || c == '[' || c == ']' || c == '`' || c == ' ' ||
        static_cast<unsigned char>(c) < 0x20) {
      plain = false;
    }
  }
  if (plain) return std::string(name);
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  out += '`';
  return out;
}

}  // namespace varshred::internal

namespace varshred {

namespace {

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

}  // namespace

arrow::Result<ShreddingSchema> ShreddingSchema::FromPaths(
    const std::vector<std::pair<std::string, std::string>>& paths) {
  PathNode root;
  root.kind = PathNode::Kind::kObject;
  for (const auto& [path, type_text] : paths) {
    ARROW_ASSIGN_OR_RAISE(auto segments, internal::ParsePath(path));
    auto type = Parse(type_text);
    if (!type.ok()) {
      return arrow::Status::Invalid("shredding path '", path,
                                    "': ", type.status().message());
    }
    // Each segment opens one object or array above the leaf's own nesting.
    if (segments.size() + NestingDepth(*type) > static_cast<size_t>(kMaxShreddingDepth)) {
      return arrow::Status::Invalid("shredding path '", path, "': nesting deeper than ",
                                    "the limit of ", kMaxShreddingDepth);
    }
    PathNode* node = &root;
    for (size_t i = 0; i < segments.size(); ++i) {
      const std::string& seg = segments[i].name;
      const bool is_element = segments[i].element;
      const auto want = is_element ? PathNode::Kind::kArray : PathNode::Kind::kObject;
      if (node->kind == PathNode::Kind::kUnset) node->kind = want;
      if (node->kind != want) {
        return arrow::Status::Invalid(
            "shredding path '", path, "' conflicts with another",
            " path: its prefix is already shredded as ",
            node->kind == PathNode::Kind::kLeaf    ? "a leaf"
            : node->kind == PathNode::Kind::kArray ? "an array"
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

}  // namespace varshred
