// Licensed under the Apache License, Version 2.0.

// internal::ValidatePath(): the walk of validate_walk_internal.h restricted to a path.
// In a file of its own so that the compiler's choices for the whole-value walk in
// validate.cc do not depend on a second instantiation beside it.

#include <optional>
#include <string_view>
#include <vector>

#include "varshred/path.h"
#include "varshred/validate_internal.h"
#include "varshred/validate_walk_internal.h"

namespace varshred {

namespace {

// Follows one path: at depth d, the child named by segment d; past the last segment,
// every child (the value found).
class PathFollower : public internal::NoVisit {
 public:
  static constexpr bool kFollowsPath = true;
  PathFollower(const MetadataView& metadata, const VariantPath& path)
      : metadata_(metadata), segments_(path.segments()) {}

  bool FollowField(int depth, uint32_t id) const {
    if (static_cast<size_t>(depth) >= segments_.size()) return true;
    const PathSegment& s = segments_[depth];
    return s.is_key() && metadata_.key(id) == s.key;
  }
  bool FollowElement(int depth, uint64_t index) const {
    if (static_cast<size_t>(depth) >= segments_.size()) return true;
    const PathSegment& s = segments_[depth];
    return s.is_index() && index == static_cast<uint64_t>(s.index);
  }
  // The child followed at the last segment is the value found: only one is.
  void Followed(int depth, const uint8_t* child, uint64_t size) {
    if (static_cast<size_t>(depth) + 1 == segments_.size()) {
      found_ = std::string_view(reinterpret_cast<const char*>(child), size);
    }
  }

  const std::optional<std::string_view>& found() const { return found_; }

 private:
  const MetadataView& metadata_;
  const std::vector<PathSegment>& segments_;
  std::optional<std::string_view> found_;
};

}  // namespace

arrow::Status internal::ValidatePath(const MetadataView& metadata,
                                     const uint32_t* key_ranks, std::string_view value,
                                     const VariantPath& path,
                                     const ValidateOptions& options,
                                     std::optional<VariantView>* found) {
  ARROW_RETURN_NOT_OK(CheckValidateOptions(options));
  PathFollower follower(metadata, path);
  internal::Validator validator(metadata, key_ranks, options, &follower);
  ARROW_RETURN_NOT_OK(validator.Run(value));
  const std::optional<std::string_view> bytes =
      path.is_root() ? std::optional<std::string_view>(value) : follower.found();
  found->reset();
  if (bytes) *found = VariantView::MakeUnchecked(metadata, *bytes);
  return arrow::Status::OK();
}

}  // namespace varshred
