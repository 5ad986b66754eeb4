// Random Variant values and random shredding schemas for property tests: every type,
// objects (sometimes wide), arrays, nesting; schemas of every leaf type, objects and
// arrays. Deterministic for a seed.

#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "shredding_rules.h"  // RowFn, MakeVariantColumn
#include "varshred/arrow/shredding_schema.h"
#include "varshred/builder.h"

namespace varshred::testing {

class RandomVariants {
 public:
  explicit RandomVariants(uint64_t seed) : rng_(seed) {}

  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }

  void Value(VariantBuilder& b, int depth) {
    const int kind = Pick(depth > 3 ? 20 : 24);
    switch (kind) {
      case 0:
        b.AppendNull();
        break;
      case 1:
        b.AppendBool(Pick(2));
        break;
      case 2:
        b.AppendInt8(static_cast<int8_t>(rng_()));
        break;
      case 3:
        b.AppendInt16(static_cast<int16_t>(rng_()));
        break;
      case 4:
        b.AppendInt32(static_cast<int32_t>(rng_()));
        break;
      case 5:
        b.AppendInt64(static_cast<int64_t>(rng_()));
        break;
      case 6:
        b.AppendFloat(static_cast<float>(Pick(1000)) / 4);
        break;
      case 7:
        b.AppendDouble(static_cast<double>(Pick(100000)) / 8);
        break;
      case 8:
        b.AppendDecimal4(Pick(2000000) - 1000000, static_cast<uint8_t>(Pick(6)));
        break;
      case 9:
        b.AppendDecimal8(static_cast<int64_t>(rng_() % 100000000000ULL),
                         static_cast<uint8_t>(Pick(12)));
        break;
      case 10:
        b.AppendDecimal16(static_cast<int128_t>(rng_()) * 1000,
                          static_cast<uint8_t>(Pick(20)));
        break;
      case 11:
        b.AppendDate(Pick(40000));
        break;
      case 12:
        b.AppendTimestampMicros(static_cast<int64_t>(rng_() >> 8));
        break;
      case 13:
        b.AppendTimestampNtzNanos(static_cast<int64_t>(rng_() >> 8));
        break;
      case 14:
        b.AppendTimeMicros(Pick(86400000));
        break;
      case 15:
        b.AppendString(std::string(static_cast<size_t>(Pick(3) == 0 ? 70 : 5),
                                   static_cast<char>('a' + Pick(26))));
        break;
      case 16:
        b.AppendBinary(std::string(static_cast<size_t>(Pick(9)), '\x01'));
        break;
      case 17:
        b.AppendUuid(std::string(16, static_cast<char>(Pick(256))));
        break;
      case 18:
        b.AppendTimestampNanos(static_cast<int64_t>(rng_() >> 8));
        break;
      case 19:
        b.AppendInt(Pick(300));
        break;
      case 20:
      case 21: {
        b.StartObject();
        const int n = Pick(5) == 0 ? 30 + Pick(20) : Pick(6);
        std::vector<int> keys;
        for (int k = 0; k < n; ++k) {
          const int key = Pick(n < 8 ? 8 : 60);
          bool dup = false;
          for (int seen : keys) dup |= seen == key;
          if (dup) continue;
          keys.push_back(key);
          b.AddKey(Key(key));
          Value(b, depth + 1);
        }
        (void)b.EndObject();
        break;
      }
      default: {
        b.StartArray();
        const int n = Pick(5) == 0 ? 40 : Pick(5);
        for (int k = 0; k < n; ++k) Value(b, depth + 1);
        b.EndArray();
      }
    }
  }

  /// \brief A column of `rows` random values, about one in 15 a SQL NULL. Each row's
  /// value is drawn here, so the column is deterministic for the seed.
  std::shared_ptr<arrow::Array> Column(int rows) {
    std::vector<RowFn> fns;
    for (int r = 0; r < rows; ++r) {
      if (Pick(15) == 0) {
        fns.push_back(nullptr);
        continue;
      }
      VariantBuilder tmp;
      Value(tmp, 0);
      std::string m, v;
      EXPECT_TRUE(tmp.Finish(&m, &v).ok());
      fns.push_back([m, v](VariantBuilder& b) {
        auto view = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(m), v);
        ASSERT_TRUE(b.AppendVariant(view).ok());
      });
    }
    return MakeVariantColumn(fns);
  }

  ShreddingSchema Schema(int depth) {
    static const char* kLeaves[] = {
        "boolean", "tinyint",   "smallint",         "int",           "bigint",
        "float",   "double",    "decimal(9,2)",     "decimal(18,4)", "decimal(38,10)",
        "date",    "timestamp", "timestamp_ntz_ns", "time",          "string",
        "binary",  "uuid",      "timestamp_ns",     "decimal(4,0)",  "variant"};
    const int kind = Pick(depth > 2 ? 4 : 8);
    if (kind < 4) return *ShreddingSchema::Parse(kLeaves[Pick(20)]);
    if (kind < 6) {
      std::vector<ShreddingSchema::Field> fields;
      const int n = Pick(5);
      for (int k = 0; k < n; ++k) {
        const std::string key = Key(Pick(8));
        bool dup = false;
        for (const auto& f : fields) dup |= f.first == key;
        if (!dup) fields.emplace_back(key, Schema(depth + 1));
      }
      return *ShreddingSchema::Object(std::move(fields));
    }
    return ShreddingSchema::Array(Schema(depth + 1));
  }

 private:
  static std::string Key(int k) {
    return k < 8 ? std::string(1, 'a' + k) : "k" + std::to_string(k);
  }
  std::mt19937_64 rng_;
};

}  // namespace varshred::testing
