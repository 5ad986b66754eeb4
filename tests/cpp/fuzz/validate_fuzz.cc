// libFuzzer entry point for the Variant validator (docs/format.md#sizing,
// docs/development.md#fuzzing).
//
// Input: one flags byte, then metadata and value back to back (the layout of the
// corpus `.variant.bin` files), split with the §1.2 length formula. Flags bit 0 sets
// ValidateOptions::allow_unsorted_keys. When the split fails, the bytes are tried both
// as metadata alone and as a value under empty metadata. Anything accepted is walked
// through the views and rebuilt with AppendVariant (variant_walk.h); a crash, a
// sanitizer report or a logical mismatch aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include "variant_walk.h"

namespace {

// A heap copy of exactly `bytes`, so that ASan reports any read past its end.
struct ExactCopy {
  explicit ExactCopy(std::string_view bytes)
      : data(std::make_unique<char[]>(bytes.size())), size(bytes.size()) {
    if (size > 0) std::memcpy(data.get(), bytes.data(), size);
  }
  std::string_view view() const { return {data.get(), size}; }
  std::unique_ptr<char[]> data;
  size_t size;
};

void Check(std::string_view metadata, std::string_view value,
           const varshred::ValidateOptions& options) {
  const ExactCopy md(metadata), v(value);
  const std::string error =
      varshred::testing::ValidateAndWalk(md.view(), v.view(), options);
  if (!error.empty()) {
    std::fprintf(stderr, "validate_fuzz: accepted input failed the walk: %s\n",
                 error.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  varshred::ValidateOptions options;
  options.allow_unsorted_keys = (data[0] & 1) != 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto md_size = varshred::MetadataView::MeasureSize(rest);
  if (md_size.ok()) {
    Check(rest.substr(0, *md_size), rest.substr(*md_size), options);
  } else {
    Check(rest, varshred::kNullValue, options);
    Check(varshred::kEmptyMetadata, rest, options);
  }
  return 0;
}
