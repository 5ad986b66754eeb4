// Variant columns of known shapes for the shredding benchmarks, built directly with
// VariantBuilder: events, a flat 10-field object, nested objects, arrays of objects,
// and events whose values half mismatch their leaf types.

#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/builder.h"

namespace varshred::bench {

constexpr uint64_t kDatasetSeed = 20240611;
constexpr int64_t kRows = 100000;

enum class Dataset { kEvents, kFlat10, kNested, kArrayOfObjects, kHalfMismatch };

inline void AppendEvent(VariantBuilder& b, int64_t i, bool mismatch) {
  b.StartObject();
  b.AddKey("id");
  if (mismatch)
    b.AppendString("id-" + std::to_string(i));
  else
    b.AppendInt(i % 1000);
  b.AddKey("name");
  b.AppendString("user_" + std::to_string(i % 1000));
  b.AddKey("score");
  if (mismatch)
    b.AppendInt(8);
  else
    b.AppendDouble(8.5 + static_cast<double>(i % 7));
  b.AddKey("tags");
  b.StartArray();
  b.AppendString("a");
  b.AppendString("b");
  b.EndArray();
  b.AddKey("nested");
  b.StartObject();
  b.AddKey("x");
  b.AppendInt(i % 100);
  b.AddKey("flag");
  if (mismatch)
    b.AppendString("yes");
  else
    b.AppendBool(i % 2 == 0);
  (void)b.EndObject();
  (void)b.EndObject();
}

/// \brief `rows` event rows; every `mismatch_every`-th row (0: none) has a string id
/// and flag, as AppendEvent's mismatch makes them.
inline std::shared_ptr<arrow::Array> EventColumn(int64_t rows,
                                                 int64_t mismatch_every = 0) {
  VariantArrayBuilder out;
  VariantBuilder b;
  std::string m, v;
  for (int64_t i = 0; i < rows; ++i) {
    AppendEvent(b, i, mismatch_every > 0 && i % mismatch_every == 0);
    m.clear();
    v.clear();
    (void)b.Finish(&m, &v);
    (void)out.Append(m, v);
  }
  return *out.Finish();
}

inline std::shared_ptr<arrow::Array> MakeColumn(Dataset d, int64_t* bytes) {
  std::mt19937_64 rng(kDatasetSeed);
  VariantArrayBuilder out;
  VariantBuilder b;
  std::string m, v;
  *bytes = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    switch (d) {
      case Dataset::kEvents:
        AppendEvent(b, i, false);
        break;
      case Dataset::kHalfMismatch:
        AppendEvent(b, i, rng() % 2 == 0);
        break;
      case Dataset::kFlat10:
        b.StartObject();
        for (int f = 0; f < 10; ++f) {
          b.AddKey("f" + std::to_string(f));
          switch (f % 4) {
            case 0:
              b.AppendInt(static_cast<int64_t>(rng() % 100000));
              break;
            case 1:
              b.AppendString("s" + std::to_string(rng() % 1000));
              break;
            case 2:
              b.AppendDouble(static_cast<double>(rng() % 1000) / 8);
              break;
            default:
              b.AppendBool(rng() % 2);
              break;
          }
        }
        (void)b.EndObject();
        break;
      case Dataset::kNested:
        for (int depth = 0; depth < 4; ++depth) {
          b.StartObject();
          b.AddKey("v");
          b.AppendInt(depth + i % 10);
          b.AddKey("n");
        }
        b.AppendString("leaf");
        for (int depth = 0; depth < 4; ++depth) (void)b.EndObject();
        break;
      case Dataset::kArrayOfObjects:
        b.StartArray();
        for (int e = 0; e < 5; ++e) {
          b.StartObject();
          b.AddKey("kind");
          b.AppendString(e % 2 ? "click" : "view");
          b.AddKey("n");
          b.AppendInt(static_cast<int64_t>(rng() % 50));
          (void)b.EndObject();
        }
        b.EndArray();
        break;
    }
    m.clear();
    v.clear();
    (void)b.Finish(&m, &v);
    *bytes += static_cast<int64_t>(m.size() + v.size());
    (void)out.Append(m, v);
  }
  return *out.Finish();
}

inline ShreddingSchema SchemaFor(Dataset d) {
  const char* ddl = "";
  switch (d) {
    case Dataset::kEvents:
    case Dataset::kHalfMismatch:
      ddl =
          "struct<id: bigint, name: string, score: double, tags: array<string>, "
          "nested: struct<x: int, flag: boolean>>";
      break;
    case Dataset::kFlat10:
      ddl =
          "struct<f0: bigint, f1: string, f2: double, f3: boolean, f4: bigint, "
          "f5: string, f6: double, f7: boolean, f8: bigint, f9: string>";
      break;
    case Dataset::kNested:
      ddl =
          "struct<v: int, n: struct<v: int, n: struct<v: int, n: struct<v: int, "
          "n: string>>>>";
      break;
    case Dataset::kArrayOfObjects:
      ddl = "array<struct<kind: string, n: int>>";
      break;
  }
  return *ShreddingSchema::Parse(ddl);
}

}  // namespace varshred::bench
