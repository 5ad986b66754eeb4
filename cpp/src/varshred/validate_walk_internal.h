// Licensed under the Apache License, Version 2.0.
//
// The one walk that validates Variant bytes (validate.h lists the rules), as a
// template over what else happens at each value it has checked. ValidateValue() only
// checks; the JSON printer prints in the same walk (internal::WriteJsonChecked), so that
// foreign bytes are read once rather than once to check and again to print.

#pragma once

#include <arrow/status.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "varshred/calendar_internal.h"
#include "varshred/endian_internal.h"
#include "varshred/format.h"
#include "varshred/utf8_internal.h"
#include "varshred/validate.h"

namespace varshred::internal {

/// \brief What a Validator does besides checking: nothing. A visitor's hooks run once
/// the value (a scalar) or its header (a container) has passed its checks, in the
/// order of the bytes: Field() and Element() before each child's own hooks.
struct NoVisit {
  // Whether the walk inlines the checks of primitives into its dispatch.
  static constexpr bool kInlineScalarChecks = false;
  // Whether the visitor chooses the children the walk checks, with
  // `bool FollowField(int depth, uint32_t id)` and
  // `bool FollowElement(int depth, uint64_t index)` (`depth`: the container's own,
  // the top-level value's 0), and hears of each child followed once it passed with
  // `void Followed(int depth, const uint8_t* child, uint64_t size)`. A child not
  // followed is not read; its id and offset are checked.
  static constexpr bool kFollowsPath = false;
  // A scalar of `size` bytes at `value`: a short string's, or a primitive's of type id
  // `id` (the walk has read both; a printer need not dispatch on them again).
  void ShortString(const uint8_t* /*value*/, uint64_t /*size*/) {}
  void Primitive(const uint8_t* /*value*/, uint8_t /*id*/, uint64_t /*size*/) {}
  void BeginObject() {}
  void Field(uint64_t /*index*/, uint32_t /*id*/) {}
  void EndObject() {}
  void BeginArray() {}
  void Element(uint64_t /*index*/) {}
  void EndArray() {}
};

// Whether key a sorts before key b in byte order, comparing the first bytes inline:
// most neighbouring keys differ there.
inline bool KeyLess(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0]) {
    return static_cast<uint8_t>(a[0]) < static_cast<uint8_t>(b[0]);
  }
  return a < b;
}

/// \brief Checks one value against a dictionary and options (ValidateValue()), calling
/// `visitor`'s hooks (see NoVisit) on the way. The hooks of a value that fails may have
/// run for its parts that came before the failure.
template <typename Visitor>
class Validator {
 public:
  // `key_ranks`: nullptr, or internal::MetadataCache::key_ranks() of `metadata`.
  Validator(const MetadataView& metadata, const uint32_t* key_ranks,
            const ValidateOptions& options, Visitor* visitor)
      : metadata_(metadata),
        key_ranks_(key_ranks),
        options_(options),
        visitor_(*visitor) {}

  const ValueFacts& facts() const { return facts_; }

  arrow::Status Run(std::string_view value) {
    if (value.size() > options_.max_size) {
      return arrow::Status::Invalid("$: value of ", value.size(),
                                    " bytes exceeds the size limit of ",
                                    options_.max_size);
    }
    uint64_t size = 0;
    if (!Check(reinterpret_cast<const uint8_t*>(value.data()), value.size(), 0, &size)) {
      return std::move(error_);
    }
    if (size != value.size()) {
      return arrow::Status::Invalid("$: value is ", size, " bytes but the buffer holds ",
                                    value.size(), " (trailing bytes)");
    }
    return arrow::Status::OK();
  }

 private:
  // The steps return whether the value passed; the first failure leaves its error in
  // error_ (a Status returned by every step cost each value a store and a load).
  // Errors name the path of the bad value: Fail() starts it at "$" and each
  // container on the way back up puts its step in front, so that valid values never
  // pay for tracking it.
  template <typename... Args>
  [[gnu::cold]] bool Fail(Args&&... args) {
    error_ = arrow::Status::Invalid("$: ", std::forward<Args>(args)...);
    return false;
  }
  [[gnu::cold]] bool InField(std::string_view key) {
    error_ = error_.WithMessage("$.", key, std::string_view(error_.message()).substr(1));
    return false;
  }
  [[gnu::cold]] bool InElement(uint64_t i) {
    error_ =
        error_.WithMessage("$[", i, "]", std::string_view(error_.message()).substr(1));
    return false;
  }

  // Checks the value at p (at most `avail` bytes) and returns its exact size.
  bool Check(const uint8_t* p, uint64_t avail, int depth, uint64_t* size) {
    return CheckInline(p, avail, depth, size);
  }

  // A container's child: checked in the container's loop, without a call for a
  // scalar, where a visitor does work at each scalar (Visitor::kInlineScalarChecks).
  [[gnu::always_inline]] bool CheckChild(const uint8_t* p, uint64_t avail, int depth,
                                         uint64_t* size) {
    if constexpr (Visitor::kInlineScalarChecks) {
      return CheckInline(p, avail, depth, size);
    } else {
      return Check(p, avail, depth, size);
    }
  }

  [[gnu::always_inline]] bool CheckInline(const uint8_t* p, uint64_t avail, int depth,
                                          uint64_t* size) {
    if (avail == 0) return Fail("empty value");
    const uint8_t header = p[0];
    const uint8_t vh = header >> kValueHeaderShift;
    switch (static_cast<BasicType>(header & kBasicTypeMask)) {
      case BasicType::kPrimitive:
        if constexpr (Visitor::kInlineScalarChecks) {
          if (!CheckPrimitiveInline(p, avail, vh, size)) return false;
        } else {
          if (!CheckPrimitive(p, avail, vh, size)) return false;
        }
        visitor_.Primitive(p, vh, *size);
        return true;
      case BasicType::kShortString: {
        *size = 1 + static_cast<uint64_t>(vh);
        if (*size > avail) {
          return Fail("short string of ", int(vh),
                      " bytes runs past the end of the value");
        }
        if (!internal::IsValidUtf8({reinterpret_cast<const char*>(p + 1), vh})) {
          return Fail("string is not valid UTF-8");
        }
        facts_.primitive_types |= 1u << static_cast<int>(PrimitiveType::kString);
        visitor_.ShortString(p, *size);
        return true;
      }
      case BasicType::kObject:
        return CheckObject(p, avail, vh, depth, size);
      case BasicType::kArray:
        return CheckArray(p, avail, vh, depth, size);
    }
    return true;
  }

  // Out of line for Validate alone (measured faster: the walk stays small), inline
  // where a visitor does work at each scalar (Visitor::kInlineScalarChecks).
  bool CheckPrimitive(const uint8_t* p, uint64_t avail, uint8_t id, uint64_t* size) {
    return CheckPrimitiveInline(p, avail, id, size);
  }

  [[gnu::always_inline]] bool CheckPrimitiveInline(const uint8_t* p, uint64_t avail,
                                                   uint8_t id, uint64_t* size) {
    if (id > kMaxPrimitiveTypeId) return Fail("unknown primitive type id ", int(id));
    facts_.primitive_types |= 1u << id;
    const int fixed = kPrimitivePayloadSize[id];
    if (fixed >= 0) {
      *size = 1 + static_cast<uint64_t>(fixed);
      if (*size > avail) {
        return Fail(VariantTypeName(TypeFromHeader(p[0])), " needs ", *size,
                    " bytes but only ", avail, " remain");
      }
      const auto type = static_cast<PrimitiveType>(id);
      if (type == PrimitiveType::kDecimal4 || type == PrimitiveType::kDecimal8 ||
          type == PrimitiveType::kDecimal16) {
        if (p[1] > kMaxDecimal16Precision) {
          return Fail("decimal scale ", int(p[1]), " exceeds 38");
        }
        if (type == PrimitiveType::kDecimal16 &&
            DecimalPrecision(ReadLE<int128_t>(p + 2)) > kMaxDecimal16Precision) {
          return Fail("decimal16 unscaled value has more than 38 digits");
        }
      }
      if (type == PrimitiveType::kTimeNtzMicros) {
        // A time of day: Arrow's time64 and Parquet's TIME hold nothing else.
        const auto micros = ReadLE<int64_t>(p + 1);
        if (micros < 0 || micros >= kMicrosPerDay) {
          return Fail("time of ", micros, " microseconds is not within a day");
        }
      }
      return true;
    }
    if (avail < 5)
      return Fail("length of a string or binary runs past the end of the value");
    const uint64_t length = ReadLE<uint32_t>(p + 1);
    *size = 5 + length;
    if (*size > avail) {
      return Fail(
          id == static_cast<uint8_t>(PrimitiveType::kString) ? "string" : "binary",
          " of ", length, " bytes runs past the end of the value");
    }
    if (id == static_cast<uint8_t>(PrimitiveType::kString) &&
        !internal::IsValidUtf8({reinterpret_cast<const char*>(p + 5), length})) {
      return Fail("string is not valid UTF-8");
    }
    return true;
  }

  [[gnu::noinline]] bool CheckObject(const uint8_t* p, uint64_t avail, uint8_t vh,
                                     int depth, uint64_t* size) {
    if (depth >= options_.max_depth) {
      return Fail("nesting deeper than the limit of ", options_.max_depth);
    }
    const int count_size = (vh & kObjectIsLargeBit) ? 4 : 1;
    const int id_size = ((vh >> kObjectIdSizeShift) & 0x03) + 1;
    const int offset_size = (vh & 0x03) + 1;
    if (avail < 1 + static_cast<uint64_t>(count_size)) {
      return Fail("object header runs past the end of the value");
    }
    const uint64_t n = ReadUnsigned(p + 1, count_size);
    const uint64_t ids = 1 + count_size;
    const uint64_t offsets = ids + n * id_size;
    const uint64_t values = offsets + (n + 1) * offset_size;
    if (values > avail) {
      return Fail("object of ", n,
                  " fields: ids and offsets run past the end of the value");
    }
    const uint64_t data_size = ReadUnsigned(p + offsets + n * offset_size, offset_size);
    *size = values + data_size;
    if (*size > avail) {
      return Fail("object data of ", data_size, " bytes runs past the end of the value");
    }
    visitor_.BeginObject();
    bool sorted = true;
    // Ids and offsets of one byte each (most objects) read with a constant width, in a
    // loop of their own where the walk only checks (a printer's loop is large enough
    // that two copies of it measured slower).
    const bool fields_ok =
        !Visitor::kInlineScalarChecks && id_size == 1 && offset_size == 1
            ? CheckFields<1>(p, ids, offsets, values, n, data_size, depth, id_size,
                             offset_size, &sorted)
            : CheckFields<0>(p, ids, offsets, values, n, data_size, depth, id_size,
                             offset_size, &sorted);
    if (!fields_ok) return false;
    visitor_.EndObject();
    if (!sorted) {
      if (!options_.allow_unsorted_keys) {
        return Fail("object keys are not in key-byte order (docs/format.md)");
      }
      facts_.keys_sorted = false;
      return CheckUniqueKeys(p + ids, n, id_size);
    }
    return true;
  }

  // The fields of the object at `p`, whose parts start at `ids`, `offsets` and
  // `values` from p. With kWidth != 0 the caller has found id_size and offset_size
  // both kWidth, and the reads use the constant.
  template <int kWidth>
  [[gnu::always_inline]] bool CheckFields(const uint8_t* p, uint64_t ids,
                                          uint64_t offsets, uint64_t values, uint64_t n,
                                          uint64_t data_size, int depth, int id_size,
                                          int offset_size, bool* sorted) {
    if constexpr (kWidth != 0) {
      id_size = kWidth;
      offset_size = kWidth;
    }
    std::string_view previous;
    uint32_t previous_rank = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint32_t id = ReadUnsigned(p + ids + i * id_size, id_size);
      if (id >= metadata_.size()) {
        return Fail("field id ", id, " is out of range (dictionary has ",
                    metadata_.size(), " keys)");
      }
      // Key order on ranks when the dictionary has them, else on the keys' bytes.
      if (key_ranks_ != nullptr) {
        const uint32_t rank = key_ranks_[id];
        if (i > 0 && rank <= previous_rank) {
          if (rank == previous_rank)
            return Fail("duplicate key \"", metadata_.key(id), "\"");
          *sorted = false;
        }
        previous_rank = rank;
      } else {
        const std::string_view key = metadata_.key(id);
        if (i > 0 && !KeyLess(previous, key)) {
          if (previous == key) return Fail("duplicate key \"", key, "\"");
          *sorted = false;
        }
        previous = key;
      }
      const uint64_t off = ReadUnsigned(p + offsets + i * offset_size, offset_size);
      if (off >= data_size) {
        return Fail("offset ", off, " of field \"", metadata_.key(id),
                    "\" is outside the object data (", data_size, " bytes)");
      }
      if constexpr (Visitor::kFollowsPath) {
        if (!visitor_.FollowField(depth, id)) continue;
      }
      visitor_.Field(i, id);
      uint64_t child = 0;
      if (!CheckChild(p + values + off, data_size - off, depth + 1, &child)) {
        return InField(metadata_.key(id));
      }
      if constexpr (Visitor::kFollowsPath)
        visitor_.Followed(depth, p + values + off, child);
    }
    return true;
  }

  bool CheckUniqueKeys(const uint8_t* ids, uint64_t n, int id_size) {
    // The ids sorted by key (by rank when known): equal neighbours name one key.
    std::vector<uint32_t> sorted(n);
    for (uint64_t i = 0; i < n; ++i) sorted[i] = ReadUnsigned(ids + i * id_size, id_size);
    auto less = [this](uint32_t a, uint32_t b) {
      return key_ranks_ != nullptr ? key_ranks_[a] < key_ranks_[b]
                                   : metadata_.key(a) < metadata_.key(b);
    };
    std::sort(sorted.begin(), sorted.end(), less);
    const auto dup =
        std::adjacent_find(sorted.begin(), sorted.end(),
                           [&](uint32_t a, uint32_t b) { return !less(a, b); });
    if (dup != sorted.end()) return Fail("duplicate key \"", metadata_.key(*dup), "\"");
    return true;
  }

  [[gnu::noinline]] bool CheckArray(const uint8_t* p, uint64_t avail, uint8_t vh,
                                    int depth, uint64_t* size) {
    if (depth >= options_.max_depth) {
      return Fail("nesting deeper than the limit of ", options_.max_depth);
    }
    const int count_size = (vh & kArrayIsLargeBit) ? 4 : 1;
    const int offset_size = (vh & 0x03) + 1;
    if (avail < 1 + static_cast<uint64_t>(count_size)) {
      return Fail("array header runs past the end of the value");
    }
    const uint64_t n = ReadUnsigned(p + 1, count_size);
    const uint64_t offsets = 1 + count_size;
    const uint64_t values = offsets + (n + 1) * offset_size;
    if (values > avail) {
      return Fail("array of ", n, " elements: offsets run past the end of the value");
    }
    const uint64_t data_size = ReadUnsigned(p + offsets + n * offset_size, offset_size);
    *size = values + data_size;
    if (*size > avail) {
      return Fail("array data of ", data_size, " bytes runs past the end of the value");
    }
    visitor_.BeginArray();
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t off = ReadUnsigned(p + offsets + i * offset_size, offset_size);
      if (off >= data_size) {
        return Fail("offset ", off, " of element ", i, " is outside the array data (",
                    data_size, " bytes)");
      }
      if constexpr (Visitor::kFollowsPath) {
        if (!visitor_.FollowElement(depth, i)) continue;
      }
      visitor_.Element(i);
      uint64_t child = 0;
      if (!CheckChild(p + values + off, data_size - off, depth + 1, &child)) {
        return InElement(i);
      }
      if constexpr (Visitor::kFollowsPath)
        visitor_.Followed(depth, p + values + off, child);
    }
    visitor_.EndArray();
    return true;
  }

  const MetadataView& metadata_;
  const uint32_t* key_ranks_;
  const ValidateOptions& options_;
  Visitor& visitor_;
  ValueFacts facts_;
  arrow::Status error_;  // the first failure's (Fail())
};

}  // namespace varshred::internal
