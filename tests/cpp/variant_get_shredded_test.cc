// variant_get on shredded columns: every (path, type) must give exactly what
// variant_get gives on the same column unshredded, in both error modes; plus the
// layout variations of docs/shredding.md (absent value / typed_value, nullable groups,
// large_list, large_binary, slices) and the zero-copy fast path.

#include <arrow/api.h>
#include <arrow/json/from_string.h>

#include <random>

#include "test_util.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get.h"
#include "varshred/builder.h"
#include "varshred/json.h"

namespace varshred {
namespace {

using testing::VariantsFromJson;

VariantPath P(std::string_view text) { return *VariantPath::Parse(text); }

std::shared_ptr<arrow::Array> ShredAs(const std::shared_ptr<arrow::Array>& variants,
                                      const char* ddl) {
  auto schema = ShreddingSchema::Parse(ddl);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  auto out = Shred(*variants, *schema);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return *out;
}

// ----------------------------------------------------------------------
// Random Variant documents

class DocGenerator {
 public:
  explicit DocGenerator(uint64_t seed) : rng_(seed) {}

  std::shared_ptr<arrow::Array> Column(int64_t rows) {
    VariantArrayBuilder out;
    std::string md, value;
    for (int64_t i = 0; i < rows; ++i) {
      const int kind = Pick(20);
      if (kind == 0) {
        EXPECT_TRUE(out.AppendNull().ok());
        continue;
      }
      VariantBuilder b;
      if (kind == 1) {
        Scalar(b);
      } else if (kind == 2) {
        Array(b, 0);
      } else {
        TopObject(b);
      }
      md.clear();
      value.clear();
      EXPECT_TRUE(b.Finish(&md, &value).ok());
      EXPECT_TRUE(out.Append(md, value).ok());
    }
    return *out.Finish();
  }

 private:
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }

  void Scalar(VariantBuilder& b) {
    switch (Pick(17)) {
      case 0:
        b.AppendNull();
        break;
      case 1:
        b.AppendBool(Pick(2) == 0);
        break;
      case 2:
        b.AppendInt8(static_cast<int8_t>(Pick(200) - 100));
        break;
      case 3:
        b.AppendInt16(static_cast<int16_t>(Pick(60000) - 30000));
        break;
      case 4:
        b.AppendInt32(Pick(2000000000) - 1000000000);
        break;
      case 5:
        b.AppendInt64(static_cast<int64_t>(rng_()));
        break;
      case 6:
        b.AppendInt(Pick(1000));
        break;
      case 7:
        b.AppendDouble(static_cast<double>(Pick(100000)) / 64 - 500);
        break;
      case 8:
        b.AppendFloat(static_cast<float>(Pick(1000)) / 8);
        break;
      case 9:
        b.AppendDecimal4(Pick(2000000) - 1000000, static_cast<uint8_t>(Pick(4)));
        break;
      case 10:
        b.AppendDecimal8(static_cast<int64_t>(rng_() % 100000000000ULL), 2);
        break;
      case 11:
        b.AppendString("s" + std::to_string(Pick(100)));
        break;
      case 12:
        b.AppendString(std::string(64 + Pick(10), 'x'));
        break;
      case 13:
        b.AppendString(std::to_string(Pick(300)));
        break;  // castable string
      case 14:
        b.AppendDate(Pick(40000) - 10000);
        break;
      case 15:
        b.AppendTimestampMicros(static_cast<int64_t>(rng_() % (1ULL << 52)));
        break;
      default:
        b.AppendBinary(std::string(static_cast<size_t>(Pick(5)), '\x7f'));
        break;
    }
  }

  void Value(VariantBuilder& b, int depth) {
    const int k = Pick(10);
    if (depth < 2 && k == 0) return Object(b, depth + 1);
    if (depth < 2 && k == 1) return Array(b, depth + 1);
    Scalar(b);
  }

  void Object(VariantBuilder& b, int depth) {
    static const char* kKeys[] = {"x", "y", "z", "w"};
    b.StartObject();
    for (const char* key : kKeys) {
      if (Pick(4) == 0) continue;
      b.AddKey(key);
      if (std::string_view(key) == "x" && Pick(2) == 0) {
        b.AppendInt(Pick(100));
      } else {
        Value(b, depth);
      }
    }
    EXPECT_TRUE(b.EndObject().ok());
  }

  void Array(VariantBuilder& b, int depth) {
    b.StartArray();
    const int n = Pick(4);
    const bool objects = Pick(2) == 0;
    for (int i = 0; i < n; ++i) {
      if (objects && depth < 2 && Pick(5) != 0) {
        Object(b, depth + 1);
      } else if (Pick(3) == 0) {
        Value(b, depth + 1);
      } else {
        b.AppendInt(Pick(50));
      }
    }
    b.EndArray();
  }

  void TopObject(VariantBuilder& b) {
    b.StartObject();
    if (Pick(5) != 0) {
      b.AddKey("a");
      if (Pick(3) != 0) {
        b.AppendInt(static_cast<int64_t>(rng_() % 100000));
      } else {
        Value(b, 1);
      }
    }
    if (Pick(5) != 0) {
      b.AddKey("b");
      if (Pick(3) != 0) {
        b.AppendString("b" + std::to_string(Pick(1000)));
      } else {
        Value(b, 1);
      }
    }
    if (Pick(3) != 0) {
      b.AddKey("c");
      Value(b, 1);
    }
    if (Pick(5) != 0) {
      b.AddKey("obj");
      if (Pick(5) != 0)
        Object(b, 1);
      else
        Value(b, 1);
    }
    if (Pick(5) != 0) {
      b.AddKey("arr");
      if (Pick(5) != 0)
        Array(b, 0);
      else
        Value(b, 1);
    }
    if (Pick(4) == 0) {
      b.AddKey("d");
      if (Pick(2) == 0)
        b.AppendDate(Pick(20000));
      else
        Scalar(b);
    }
    EXPECT_TRUE(b.EndObject().ok());
  }

  std::mt19937_64 rng_;
};

// ----------------------------------------------------------------------
// Layout variations

struct Variation {
  bool drop_null_value_columns = false;  // value columns with no value are left out
  bool large = false;                    // large_binary values, large_list arrays
};

std::shared_ptr<arrow::Array> LargeBinary(const std::shared_ptr<arrow::Array>& a) {
  const auto& in = static_cast<const arrow::BinaryArray&>(*a);
  arrow::LargeBinaryBuilder b;
  for (int64_t i = 0; i < in.length(); ++i) {
    EXPECT_TRUE((in.IsNull(i) ? b.AppendNull() : b.Append(in.GetView(i))).ok());
  }
  return *b.Finish();
}

// The validity bitmap of `a` copied to start at bit 0 (for arrays rebuilt with
// children that no longer carry a's offset), or null when a has no nulls.
std::shared_ptr<arrow::Buffer> ValidityAtZero(const arrow::Array& a) {
  if (a.null_count() == 0) return nullptr;
  auto validity = *arrow::AllocateEmptyBitmap(a.length());
  arrow::internal::CopyBitmap(a.null_bitmap_data(), a.offset(), a.length(),
                              validity->mutable_data(), 0);
  return validity;
}

std::shared_ptr<arrow::Array> Transform(const std::shared_ptr<arrow::Array>& a,
                                        const Variation& v);

// A {value, typed_value} group (or the top-level struct) transformed.
std::shared_ptr<arrow::Array> TransformGroup(const std::shared_ptr<arrow::Array>& a,
                                             const Variation& v) {
  const auto& st = static_cast<const arrow::StructArray&>(*a);
  arrow::ArrayVector children;
  arrow::FieldVector fields;
  for (int k = 0; k < st.num_fields(); ++k) {
    auto field = st.type()->field(k);
    auto child = st.field(k);
    if (field->name() == "value") {
      const bool has_typed = st.GetFieldByName("typed_value") != nullptr;
      if (v.drop_null_value_columns && has_typed &&
          child->null_count() == child->length()) {
        continue;
      }
      if (v.large) child = LargeBinary(child);
    } else if (field->name() == "typed_value") {
      child = Transform(child, v);
    }
    children.push_back(child);
    fields.push_back(field->WithType(child->type()));
  }
  return std::make_shared<arrow::StructArray>(
      arrow::struct_(fields), st.length(), children, ValidityAtZero(st), st.null_count());
}

std::shared_ptr<arrow::Array> Transform(const std::shared_ptr<arrow::Array>& a,
                                        const Variation& v) {
  if (a->type_id() == arrow::Type::STRUCT) {
    // An object typed_value: a struct of field groups.
    const auto& st = static_cast<const arrow::StructArray&>(*a);
    arrow::ArrayVector children;
    arrow::FieldVector fields;
    for (int k = 0; k < st.num_fields(); ++k) {
      children.push_back(TransformGroup(st.field(k), v));
      fields.push_back(st.type()->field(k)->WithType(children.back()->type()));
    }
    return std::make_shared<arrow::StructArray>(arrow::struct_(fields), st.length(),
                                                children, st.null_bitmap(),
                                                st.null_count(), st.offset());
  }
  if (a->type_id() == arrow::Type::LIST) {
    const auto& l = static_cast<const arrow::ListArray&>(*a);
    auto element = TransformGroup(l.values(), v);
    auto field = l.list_type()->value_field()->WithType(element->type());
    if (!v.large) {
      return std::make_shared<arrow::ListArray>(
          arrow::list(field), l.length(), l.value_offsets(), element, l.null_bitmap(),
          l.null_count(), l.offset());
    }
    arrow::TypedBufferBuilder<int64_t> offsets;
    for (int64_t i = 0; i <= l.length(); ++i) {
      EXPECT_TRUE(offsets.Append(l.raw_value_offsets()[i]).ok());
    }
    return std::make_shared<arrow::LargeListArray>(arrow::large_list(field), l.length(),
                                                   *offsets.Finish(), element,
                                                   ValidityAtZero(l), l.null_count());
  }
  return a;
}

// ----------------------------------------------------------------------
// The differential check

const std::vector<std::shared_ptr<arrow::DataType>>& Types() {
  static const std::vector<std::shared_ptr<arrow::DataType>> types = {
      nullptr,
      arrow::int64(),
      arrow::int32(),
      arrow::int16(),
      arrow::int8(),
      arrow::utf8(),
      arrow::large_utf8(),
      arrow::float64(),
      arrow::float32(),
      arrow::boolean(),
      arrow::decimal128(10, 2),
      arrow::decimal128(38, 0),
      arrow::date32(),
      arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
      arrow::timestamp(arrow::TimeUnit::MICRO),
      arrow::binary()};
  return types;
}

const std::vector<const char*>& Paths() {
  static const std::vector<const char*> paths = {
      "$",        "$.a",      "$.b",      "$.c",        "$.d",        "$.obj",
      "$.obj.x",  "$.obj.y",  "$.obj.z",  "$.obj.w",    "$.obj.x.q",  "$.arr",
      "$.arr[0]", "$.arr[1]", "$.arr[3]", "$.arr[0].x", "$.arr[1].y", "$.missing",
      "$[0]",     "$[1]",     "$[2]",     "$[3]",       "$[0].x",     "$.a.x",
      "$.obj[0]", "$.arr.x"};
  return paths;
}

std::string Describe(const char* path, const std::shared_ptr<arrow::DataType>& type,
                     VariantGetErrors errors) {
  return std::string(path) + " as " + (type ? type->ToString() : "variant") +
         (errors == VariantGetErrors::kRaise ? " (raise)" : " (null)");
}

// VariantGet(shredded) == VariantGet(Unshred(shredded)), results and errors alike.
void ExpectSameAsUnshredded(const std::shared_ptr<arrow::Array>& shredded,
                            const std::shared_ptr<arrow::Array>& unshredded,
                            const char* path_text,
                            const std::shared_ptr<arrow::DataType>& type,
                            VariantGetErrors errors, const std::string& context) {
  SCOPED_TRACE(context + ": " + Describe(path_text, type, errors));
  const VariantPath path = P(path_text);
  VariantGetOptions options;
  options.errors = errors;
  auto expected = VariantGet(*unshredded, path, type, options);
  auto actual = VariantGet(*shredded, path, type, options);
  if (!expected.ok()) {
    ASSERT_FALSE(actual.ok()) << "expected " << expected.status().ToString();
    EXPECT_EQ(actual.status().ToString(), expected.status().ToString());
    return;
  }
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  VS_ASSERT_OK((*actual)->ValidateFull());
  EXPECT_TRUE((*actual)->type()->Equals(*(*expected)->type()))
      << (*actual)->type()->ToString();
  EXPECT_TRUE((*actual)->Equals(**expected))
      << "actual: " << (*actual)->ToString() << "\nexpected: " << (*expected)->ToString();
}

void ExpectSameForAllPathsAndTypes(const std::shared_ptr<arrow::Array>& shredded,
                                   const std::string& context, bool raise_too = true) {
  VS_ASSIGN_OR_FAIL(auto unshredded, Unshred(*shredded));
  for (const char* path : Paths()) {
    for (const auto& type : Types()) {
      ExpectSameAsUnshredded(shredded, unshredded, path, type, VariantGetErrors::kNull,
                             context);
      if (raise_too && type != nullptr) {
        ExpectSameAsUnshredded(shredded, unshredded, path, type, VariantGetErrors::kRaise,
                               context);
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

const std::vector<const char*>& Schemas() {
  static const std::vector<const char*> schemas = {
      "struct<a: bigint, b: string, obj: struct<x: bigint, y: string>, "
      "arr: array<bigint>>",
      "struct<a: int, c: double, d: date, arr: array<struct<x: bigint, y: variant>>>",
      "bigint",
      "array<struct<x: string>>",
      "struct<obj: struct<x: decimal(10,2), z: variant, w: timestamp>, a: variant>",
      "struct<a: tinyint, b: binary, obj: struct<x: struct<q: int>>, "
      "arr: array<array<bigint>>>",
      "struct<d: timestamp_ntz, c: float, obj: struct<y: boolean>>",
  };
  return schemas;
}

TEST(VariantGetShreddedTest, MatchesUnshreddedOnRandomDataForEverySchema) {
  DocGenerator gen(20240611);
  auto variants = gen.Column(120);
  for (const char* ddl : Schemas()) {
    auto shredded = ShredAs(variants, ddl);
    ExpectSameForAllPathsAndTypes(shredded, ddl);
    if (HasFatalFailure()) return;
  }
}

TEST(VariantGetShreddedTest, MatchesUnshreddedOnSlicedArrays) {
  DocGenerator gen(7);
  auto variants = gen.Column(90);
  for (const char* ddl : {Schemas()[0], Schemas()[1], Schemas()[3]}) {
    auto shredded = ShredAs(variants, ddl)->Slice(13, 61);
    ASSERT_EQ(shredded->offset(), 13);
    ExpectSameForAllPathsAndTypes(shredded, std::string("sliced ") + ddl,
                                  /*raise_too=*/false);
    if (HasFatalFailure()) return;
  }
}

TEST(VariantGetShreddedTest, MatchesUnshreddedWithoutNullValueColumnsAndWithLargeTypes) {
  DocGenerator gen(99);
  auto variants = gen.Column(80);
  for (const char* ddl : {Schemas()[0], Schemas()[1], Schemas()[5]}) {
    for (Variation v :
         {Variation{true, false}, Variation{false, true}, Variation{true, true}}) {
      auto shredded = TransformGroup(ShredAs(variants, ddl), v);
      VS_ASSERT_OK(shredded->ValidateFull());
      ExpectSameForAllPathsAndTypes(
          shredded->Slice(3),
          std::string(ddl) + (v.large ? " large" : "") +
              (v.drop_null_value_columns ? " no-null-values" : ""),
          /*raise_too=*/false);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(VariantGetShreddedTest, RandomDifferentialProperty) {
  // More seeds and sizes over the richest schemas, in try mode.
  const auto seeds = static_cast<uint64_t>(testing::FuzzRounds(4));
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    DocGenerator gen(seed * 1000003);
    auto variants = gen.Column(40 + static_cast<int64_t>(seed) * 17);
    for (const char* ddl : {Schemas()[1], Schemas()[5]}) {
      auto shredded = ShredAs(variants, ddl);
      VS_ASSIGN_OR_FAIL(auto unshredded, Unshred(*shredded));
      for (const char* path : Paths()) {
        for (const auto& type :
             {std::shared_ptr<arrow::DataType>(nullptr), arrow::int64(), arrow::utf8()}) {
          ExpectSameAsUnshredded(shredded, unshredded, path, type,
                                 VariantGetErrors::kNull,
                                 "seed " + std::to_string(seed) + " " + ddl);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

// ----------------------------------------------------------------------
// Typical data, exact values

const std::vector<const char*> kEvents = {
    R"({"id": 1, "user": {"id": "u1", "age": 30}, "tags": ["a", "b"]})",
    R"({"id": 2, "user": {"id": "u2"}, "tags": []})",
    nullptr,                                                 // SQL NULL
    R"({"id": "three", "user": {"id": 3, "extra": true}})",  // mismatches: residual
    R"({"id": null, "user": null, "tags": [null, "c"]})",    // Variant nulls
    R"({"other": 1})",                                       // missing fields
    R"("not an object")",
    R"({"id": 9223372036854775807, "user": {"age": "41"}, "tags": ["x"]})",
};

constexpr const char* kEventsSchema =
    "struct<id: bigint, user: struct<id: string, age: int>, tags: array<string>>";

TEST(VariantGetShreddedTest, TypedPathsGiveTheTypedValues) {
  auto shredded = ShredAs(VariantsFromJson(kEvents), kEventsSchema);
  VS_ASSIGN_OR_FAIL(auto id, VariantGet(*shredded, P("$.id"), arrow::int64()));
  auto expected = *arrow::json::ArrayFromJSONString(
      arrow::int64(), "[1, 2, null, null, null, null, null, 9223372036854775807]");
  EXPECT_TRUE(id->Equals(*expected)) << id->ToString();

  VS_ASSIGN_OR_FAIL(auto user_id, VariantGet(*shredded, P("$.user.id"), arrow::utf8()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::utf8(), R"(["u1", "u2", null, "3", null, null, null, null])");
  EXPECT_TRUE(user_id->Equals(*expected)) << user_id->ToString();

  VS_ASSIGN_OR_FAIL(auto age, VariantGet(*shredded, P("$.user.age"), arrow::int64()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::int64(), "[30, null, null, null, null, null, null, 41]");
  EXPECT_TRUE(age->Equals(*expected)) << age->ToString();

  VS_ASSIGN_OR_FAIL(auto tag1, VariantGet(*shredded, P("$.tags[1]"), arrow::utf8()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::utf8(), R"(["b", null, null, null, "c", null, null, null])");
  EXPECT_TRUE(tag1->Equals(*expected)) << tag1->ToString();

  VS_ASSIGN_OR_FAIL(auto extra, VariantGet(*shredded, P("$.user.extra"), arrow::utf8()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::utf8(), R"([null, null, null, "true", null, null, null, null])");
  EXPECT_TRUE(extra->Equals(*expected)) << extra->ToString();

  // variant_get (raise) fails on the string id, naming the output row.
  VariantGetOptions raise;
  raise.errors = VariantGetErrors::kRaise;
  auto failed = VariantGet(*shredded, P("$.id"), arrow::int64(), raise);
  ASSERT_TRUE(failed.status().IsInvalid()) << failed.status().ToString();
  EXPECT_EQ(failed.status().message().rfind("row 3, path $.id: ", 0), 0u)
      << failed.status().message();
}

// ----------------------------------------------------------------------
// Integer leaves read as other types (the bulk cast paths)

// Values at every integer type's bounds and just past them, 2^53 + 1 and 2^24 + 1
// (rounded by double and float), Variant nulls, missing fields, residual strings, and
// rows whose list is missing, short or not a list.
const std::vector<const char*> kIntegerDocs = {
    R"({"v": 0, "l": [0, 1]})",
    R"({"v": 127, "l": [-128, 127]})",
    R"({"v": 128, "l": [128, -129]})",
    R"({"v": -32769, "l": [32767, 32768]})",
    R"({"v": 2147483647, "l": [-2147483648, 2147483648]})",
    R"({"v": -2147483649, "l": [1, 16777217]})",
    nullptr,
    R"({"v": 9007199254740993, "l": [1, 9223372036854775807]})",
    R"({"v": -9223372036854775808, "l": [2, -9223372036854775808]})",
    R"({"v": null, "l": [null, null]})",
    R"({"l": [3]})",
    R"({"v": "12", "l": [4, "13"]})",
    R"({"v": 1.5, "l": "not a list", "other": 1})",
    R"({"v": -1, "l": []})",
};

TEST(VariantGetShreddedTest, IntegerLeavesCastToOtherTypesAsUnshredded) {
  const auto variants = VariantsFromJson(kIntegerDocs);
  const std::vector<std::shared_ptr<arrow::DataType>> targets = {
      arrow::int8(),    arrow::int16(),   arrow::int32(), arrow::int64(),
      arrow::float32(), arrow::float64(), arrow::utf8(),  arrow::large_utf8()};
  for (const char* leaf : {"tinyint", "smallint", "int", "bigint"}) {
    const std::string ddl =
        std::string("struct<v: ") + leaf + ", l: array<" + leaf + ">>";
    const auto shredded = ShredAs(variants, ddl.c_str());
    VS_ASSIGN_OR_FAIL(auto unshredded, Unshred(*shredded));
    // Every suffix, so that each overflowing row is the first error once under raise.
    for (int64_t from = 0; from < shredded->length(); ++from) {
      const auto s = shredded->Slice(from);
      const auto u = unshredded->Slice(from);
      for (const char* path : {"$.v", "$.l[0]", "$.l[1]"}) {
        for (const auto& type : targets) {
          for (auto errors : {VariantGetErrors::kNull, VariantGetErrors::kRaise}) {
            ExpectSameAsUnshredded(s, u, path, type, errors,
                                   ddl + " from row " + std::to_string(from));
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

TEST(VariantGetShreddedTest, BigintLeafNarrowedGivesNullOrErrorOnOverflow) {
  const auto shredded =
      ShredAs(VariantsFromJson(kIntegerDocs), "struct<v: bigint, l: array<bigint>>");
  VS_ASSIGN_OR_FAIL(auto v, VariantGet(*shredded, P("$.v"), arrow::int8()));
  auto expected = *arrow::json::ArrayFromJSONString(
      arrow::int8(),
      "[0, 127, null, null, null, null, null, null, null, null, null, 12, 1, -1]");
  EXPECT_TRUE(v->Equals(*expected)) << v->ToString();

  VS_ASSIGN_OR_FAIL(auto l1, VariantGet(*shredded, P("$.l[1]"), arrow::int32()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::int32(),
      "[1, 127, -129, 32768, null, 16777217, null, null, null, null, null, 13, null, "
      "null]");
  EXPECT_TRUE(l1->Equals(*expected)) << l1->ToString();

  VS_ASSIGN_OR_FAIL(auto f, VariantGet(*shredded, P("$.v"), arrow::float64()));
  EXPECT_EQ(std::static_pointer_cast<arrow::DoubleArray>(f)->Value(7),
            9007199254740992.0);  // 2^53 + 1 rounds to even

  VS_ASSIGN_OR_FAIL(auto text, VariantGet(*shredded, P("$.v"), arrow::utf8()));
  EXPECT_EQ(std::static_pointer_cast<arrow::StringArray>(text)->GetView(8),
            "-9223372036854775808");

  VariantGetOptions raise;
  raise.errors = VariantGetErrors::kRaise;
  auto failed = VariantGet(*shredded, P("$.l[1]"), arrow::int16(), raise);
  ASSERT_TRUE(failed.status().IsInvalid()) << failed.status().ToString();
  EXPECT_EQ(failed.status().message().rfind("row 3, path $.l[1]: ", 0), 0u)
      << failed.status().message();
}

TEST(VariantGetShreddedTest, ObjectsAndArraysAtThePathAreRebuilt) {
  auto shredded = ShredAs(VariantsFromJson(kEvents), kEventsSchema);
  VS_ASSIGN_OR_FAIL(auto user, VariantGet(*shredded, P("$.user"), arrow::utf8()));
  auto expected = *arrow::json::ArrayFromJSONString(arrow::utf8(), R"([
      "{\"age\":30,\"id\":\"u1\"}", "{\"id\":\"u2\"}", null,
      "{\"extra\":true,\"id\":3}", null, null, null, "{\"age\":\"41\"}"])");
  EXPECT_TRUE(user->Equals(*expected)) << user->ToString();

  VS_ASSIGN_OR_FAIL(auto tags, VariantGet(*shredded, P("$.tags"), arrow::utf8()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::utf8(), R"(["[\"a\",\"b\"]", "[]", null, null, "[null,\"c\"]", null, null,
                         "[\"x\"]"])");
  EXPECT_TRUE(tags->Equals(*expected)) << tags->ToString();

  // Variant output: sub-values, a Variant null stays a Variant null.
  VS_ASSIGN_OR_FAIL(auto tag0, VariantGet(*shredded, P("$.tags[0]"), nullptr));
  const auto& st = static_cast<const arrow::StructArray&>(*tag0);
  const auto& values =
      static_cast<const arrow::BinaryArray&>(*st.GetFieldByName("value"));
  EXPECT_EQ(testing::ToHex(values.GetView(0)), "05 61");  // short string "a"
  EXPECT_TRUE(st.IsNull(1));
  EXPECT_EQ(testing::ToHex(values.GetView(4)), "00");  // Variant null element
}

TEST(VariantGetShreddedTest, FullyTypedPathIsZeroCopy) {
  const std::vector<const char*> docs = {R"({"id": 1, "name": "a"})", nullptr,
                                         R"({"name": "b"})", R"({"id": 4})",
                                         R"({"id": 5, "name": "e"})"};
  auto shredded = ShredAs(VariantsFromJson(docs), "struct<id: bigint, name: string>");
  const auto& typed =
      static_cast<const arrow::StructArray&>(*shredded).GetFieldByName("typed_value");
  const auto& id_group =
      static_cast<const arrow::StructArray&>(*typed).GetFieldByName("id");
  const auto leaf =
      static_cast<const arrow::StructArray&>(*id_group).GetFieldByName("typed_value");
  for (int64_t offset : {0, 1, 2}) {
    SCOPED_TRACE(offset);
    auto input = shredded->Slice(offset);
    VS_ASSIGN_OR_FAIL(auto out, VariantGet(*input, P("$.id"), arrow::int64()));
    VS_ASSERT_OK(out->ValidateFull());
    // The leaf's value buffer itself, at the input's offset.
    EXPECT_EQ(out->data()->buffers[1]->data(), leaf->data()->buffers[1]->data());
    EXPECT_EQ(out->offset(), offset);
    auto expected =
        *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, null, null, 4, 5]");
    EXPECT_TRUE(out->Equals(*expected->Slice(offset))) << out->ToString();
  }
  VS_ASSIGN_OR_FAIL(auto names, VariantGet(*shredded, P("$.name"), arrow::utf8()));
  auto expected =
      *arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["a", null, "b", null, "e"])");
  EXPECT_TRUE(names->Equals(*expected)) << names->ToString();
}

TEST(VariantGetShreddedTest, ZeroCopyMatchesUnshreddedWithMissingLevels) {
  // Documents that all fit the schema, with fields and objects missing at random and
  // SQL NULL rows: every value column is empty, so typed paths take the zero-copy
  // path, whose validity must be the AND of every level's.
  std::mt19937_64 rng(5);
  VariantArrayBuilder column;
  std::string md, value;
  for (int i = 0; i < 300; ++i) {
    if (rng() % 10 == 0) {
      VS_ASSERT_OK(column.AppendNull());
      continue;
    }
    VariantBuilder b;
    b.StartObject();
    if (rng() % 4 != 0) {
      b.AddKey("a");
      b.AppendInt64(static_cast<int64_t>(rng() % 1000));
    }
    if (rng() % 4 != 0) {
      b.AddKey("obj");
      b.StartObject();
      if (rng() % 3 != 0) {
        b.AddKey("x");
        b.AppendInt64(static_cast<int64_t>(rng() % 1000));
      }
      if (rng() % 3 != 0) {
        b.AddKey("y");
        b.AppendString("y" + std::to_string(rng() % 100));
      }
      VS_ASSERT_OK(b.EndObject());
    }
    VS_ASSERT_OK(b.EndObject());
    md.clear();
    value.clear();
    VS_ASSERT_OK(b.Finish(&md, &value));
    VS_ASSERT_OK(column.Append(md, value));
  }
  VS_ASSIGN_OR_FAIL(auto variants, column.Finish());
  auto shredded =
      ShredAs(variants, "struct<a: bigint, obj: struct<x: bigint, y: string>>");
  for (bool drop : {false, true}) {
    auto layout = TransformGroup(shredded, Variation{drop, false});
    for (int64_t offset : {0, 37}) {
      auto input = layout->Slice(offset, 250);
      VS_ASSIGN_OR_FAIL(auto unshredded, Unshred(*input));
      const std::pair<const char*, std::shared_ptr<arrow::DataType>> cases[] = {
          {"$.a", arrow::int64()},
          {"$.obj.x", arrow::int64()},
          {"$.obj.y", arrow::utf8()}};
      for (const auto& [path, type] : cases) {
        SCOPED_TRACE(std::string(path) + " offset " + std::to_string(offset) +
                     (drop ? " without value columns" : ""));
        ExpectSameAsUnshredded(input, unshredded, path, type, VariantGetErrors::kRaise,
                               "fully typed");
        VS_ASSIGN_OR_FAIL(auto out, VariantGet(*input, P(path), type));
        EXPECT_GT(out->null_count(), 0);
        EXPECT_LT(out->null_count(), out->length());
        // Zero-copy: the leaf's buffers, at the leaf's offset.
        EXPECT_EQ(out->offset(), offset);
      }
      // Typed objects rebuilt for every row (or SQL NULL).
      for (const char* path : {"$", "$.obj"}) {
        ExpectSameAsUnshredded(input, unshredded, path, nullptr, VariantGetErrors::kNull,
                               "fully typed");
        ExpectSameAsUnshredded(input, unshredded, path, arrow::utf8(),
                               VariantGetErrors::kNull, "fully typed");
      }
    }
  }
}

// ----------------------------------------------------------------------
// Hand-built layouts

// Typed rows between residual ones are appended as array slices when the run is long
// and value by value when it is short: both give what the unshredded rows give.
TEST(VariantGetShreddedTest, ShortAndLongTypedRunsBetweenResidualRows) {
  std::vector<std::string> text;
  for (int i = 0; i < 300; ++i) {
    // Residual rows (a string id) after runs of 3, 100 and 150 typed rows; some nulls.
    const bool residual = i == 3 || i == 104 || i == 255 || i == 256;
    text.push_back(residual     ? "{\"id\": \"" + std::to_string(i) + "\"}"
                   : i % 7 == 0 ? "{\"id\": null}"
                                : "{\"id\": " + std::to_string(i) + "}");
  }
  std::vector<const char*> docs;
  for (const auto& t : text) docs.push_back(t.c_str());
  auto variants = VariantsFromJson(docs);
  auto shredded = ShredAs(variants, "struct<id: bigint>");
  for (const auto& type : {arrow::int64(), arrow::int32(), arrow::utf8()}) {
    for (int64_t offset : {0, 2, 101}) {
      SCOPED_TRACE(type->ToString() + " at " + std::to_string(offset));
      VS_ASSIGN_OR_FAIL(auto got, VariantGet(*shredded->Slice(offset), P("$.id"), type));
      VS_ASSIGN_OR_FAIL(auto want, VariantGet(*variants->Slice(offset), P("$.id"), type));
      VS_ASSERT_OK(got->ValidateFull());
      EXPECT_TRUE(got->Equals(*want)) << got->ToString();
    }
  }
}

// Metadata with the one key "a".
const std::string kMetaA = testing::Hex("01 01 00 01 61");

std::shared_ptr<arrow::Array> Binary(const std::vector<std::optional<std::string>>& v) {
  arrow::BinaryBuilder b;
  for (const auto& s : v) EXPECT_TRUE((s ? b.Append(*s) : b.AppendNull()).ok());
  return *b.Finish();
}

// struct<metadata, value, typed_value: struct<a: struct<value, typed_value: int64>>>
std::shared_ptr<arrow::Array> HandBuilt(
    const std::vector<std::optional<std::string>>& top_value,
    const std::vector<bool>& typed_valid,
    const std::vector<std::optional<std::string>>& a_value, const char* a_typed_json) {
  const auto n = static_cast<int64_t>(top_value.size());
  auto a_typed = *arrow::json::ArrayFromJSONString(arrow::int64(), a_typed_json);
  auto a_group =
      *arrow::StructArray::Make(arrow::ArrayVector{Binary(a_value), a_typed},
                                std::vector<std::string>{"value", "typed_value"});
  arrow::TypedBufferBuilder<bool> valid;
  for (bool b : typed_valid) EXPECT_TRUE(valid.Append(b).ok());
  int64_t nulls = 0;
  for (bool b : typed_valid) nulls += b ? 0 : 1;
  auto typed = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("a", a_group->type(), false)}), n,
      arrow::ArrayVector{a_group}, *valid.Finish(), nulls);
  std::vector<std::optional<std::string>> md(static_cast<size_t>(n), kMetaA);
  return *arrow::StructArray::Make(
      arrow::ArrayVector{Binary(md), Binary(top_value), typed},
      std::vector<std::string>{"metadata", "value", "typed_value"});
}

TEST(VariantGetShreddedTest, HandBuiltLayoutFollowsTheSpecPairs) {
  const std::string int8_7 = testing::Hex("0c 07");
  const std::string hi = testing::Hex("09 68 69");  // short string "hi"
  // Row 3: a partially shredded object whose residual has no "a".
  const std::string empty_object = testing::Hex("02 00 00");
  auto array = HandBuilt({std::nullopt, std::nullopt, std::nullopt, empty_object, int8_7},
                         {true, true, true, true, false},
                         {std::nullopt, hi, std::nullopt, std::nullopt, std::nullopt},
                         "[5, null, null, 6, null]");
  VS_ASSIGN_OR_FAIL(auto a, VariantGet(*array, P("$.a"), arrow::utf8()));
  auto expected =
      *arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["5", "hi", null, "6", null])");
  EXPECT_TRUE(a->Equals(*expected)) << a->ToString();
  // The whole row: typed objects rebuilt, the scalar row from its value bytes.
  VS_ASSIGN_OR_FAIL(auto whole, VariantGet(*array, P("$"), arrow::utf8()));
  expected = *arrow::json::ArrayFromJSONString(
      arrow::utf8(), R"(["{\"a\":5}", "{\"a\":\"hi\"}", "{}", "{\"a\":6}", "7"])");
  EXPECT_TRUE(whole->Equals(*expected)) << whole->ToString();
}

TEST(VariantGetShreddedTest, AWholeObjectHoldingAShreddedFieldIsAnError) {
  // Row 1: {"a": 100} whole in value with typed_value null, invalid by the spec: a
  // filter on $.a, like Spark's scans, trusts a's typed column and would skip the row
  // (it was read as 100). Row 2: an object without shredded fields, as writers that
  // predate the rule wrote, reads fine.
  const std::string a_100 = testing::Hex("02 01 00 00 02 0c 64");
  const std::string empty_object = testing::Hex("02 00 00");
  auto array = HandBuilt({std::nullopt, a_100, empty_object}, {true, false, false},
                         {std::nullopt, std::nullopt, std::nullopt}, "[5, null, null]");
  for (const auto& type : {arrow::int64(), std::shared_ptr<arrow::DataType>()}) {
    auto out = VariantGet(*array, P("$.a"), type);
    ASSERT_TRUE(out.status().IsInvalid()) << out.status().ToString();
    EXPECT_EQ(out.status().message(),
              "row 1, $: value holds shredded field 'a' while typed_value is null");
  }
  auto unshredded = Unshred(*array);
  ASSERT_TRUE(unshredded.status().IsInvalid()) << unshredded.status().ToString();
  EXPECT_EQ(unshredded.status().message(),
            "row 1, $: value holds shredded field 'a' while typed_value is null");
  UnshredOptions lenient;
  lenient.on_conflict = ConflictPolicy::kTypedWins;
  VS_ASSIGN_OR_FAIL(auto read, Unshred(*array, lenient));
  EXPECT_EQ((*VariantArrayView::Make(read)).value(1), a_100);
  VS_ASSIGN_OR_FAIL(auto valid, Unshred(*array->Slice(2)));
  EXPECT_EQ((*VariantArrayView::Make(valid)).value(0), empty_object);
}

TEST(VariantGetShreddedTest, ValueAndTypedValueBothSetAtALeafIsAnError) {
  auto array = HandBuilt({std::nullopt, std::nullopt}, {true, true},
                         {std::nullopt, testing::Hex("0c 01")}, "[5, 6]");
  for (const auto& type :
       {arrow::int64(), arrow::utf8(), std::shared_ptr<arrow::DataType>()}) {
    auto out = VariantGet(*array, P("$.a"), type);
    ASSERT_TRUE(out.status().IsInvalid()) << out.status().ToString();
    EXPECT_EQ(out.status().message(), "row 1, $.a: conflicting value and typed_value");
  }
  // A path that does not reach the conflicting pair reads fine.
  VS_ASSIGN_OR_FAIL(auto other, VariantGet(*array, P("$.b"), arrow::int64()));
  EXPECT_EQ(other->null_count(), 2);
}

TEST(VariantGetShreddedTest, NonObjectResidualWithTypedFieldsIsAnError) {
  auto array = HandBuilt({testing::Hex("0c 07")}, {true}, {std::nullopt}, "[5]");
  auto out = VariantGet(*array, P("$.b"), arrow::int64());
  ASSERT_TRUE(out.status().IsInvalid()) << out.status().ToString();
  EXPECT_EQ(out.status().message(), "row 0, $: non-object value with shredded fields");
}

TEST(VariantGetShreddedTest, ResidualBytesAreCheckedWhereThePathReadsThem) {
  // Row 0 is not an object: its residual is [1, "\xff"], whose second element is not
  // UTF-8.
  auto array = HandBuilt({testing::Hex("03 02 00 02 04 0c 01 05 ff")}, {false},
                         {std::nullopt}, "[null]");
  VS_ASSIGN_OR_FAIL(auto first, VariantGet(*array, P("$[0]"), arrow::int64()));
  EXPECT_TRUE(first->Equals(*arrow::json::ArrayFromJSONString(arrow::int64(), "[1]")))
      << first->ToString();
  auto out = VariantGet(*array, P("$[1]"), arrow::utf8());
  ASSERT_TRUE(out.status().IsInvalid()) << out.status().ToString();
  EXPECT_EQ(out.status().message(), "row 0, $[1]: string is not valid UTF-8");
}

TEST(VariantGetShreddedTest, InvalidResidualBytesAreAnErrorNamingRowAndPath) {
  // The residual value of row 1 claims an object of 5 fields with nothing after it.
  auto array = HandBuilt({std::nullopt, testing::Hex("02 05")}, {true, false},
                         {std::nullopt, std::nullopt}, "[5, null]");
  auto out = VariantGet(*array, P("$.a"), arrow::int64());
  ASSERT_TRUE(out.status().IsInvalid()) << out.status().ToString();
  EXPECT_EQ(out.status().message(),
            "row 1, $: object of 5 fields: ids and offsets run past the end of the "
            "value");
  // In a field group: the path of the group.
  array = HandBuilt({std::nullopt, std::nullopt}, {true, true},
                    {std::nullopt, testing::Hex("02 05")}, "[5, null]");
  out = VariantGet(*array, P("$.a"), arrow::int64());
  ASSERT_TRUE(out.status().IsInvalid()) << out.status().ToString();
  EXPECT_EQ(out.status().message(),
            "row 1, $.a: object of 5 fields: ids and offsets run past the end of the "
            "value");
  // Not validated when asked not to: only the rows read are looked at, and row 0 is
  // typed.
  VariantGetOptions trusted;
  trusted.validate = false;
  VS_ASSIGN_OR_FAIL(auto head,
                    VariantGet(*array->Slice(0, 1), P("$.a"), arrow::int64(), trusted));
  EXPECT_EQ(head->null_count(), 0);
}

std::shared_ptr<arrow::Array> FromJsonLayout(const std::shared_ptr<arrow::DataType>& type,
                                             const char* json) {
  auto out = arrow::json::ArrayFromJSONString(type, json);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  VS_EXPECT_OK((*out)->ValidateFull());
  return *out;
}

std::shared_ptr<arrow::DataType> Layout(const std::shared_ptr<arrow::DataType>& typed) {
  return arrow::struct_({arrow::field("metadata", arrow::binary(), false),
                         arrow::field("value", arrow::binary()),
                         arrow::field("typed_value", typed)});
}

std::shared_ptr<arrow::DataType> Group(const std::shared_ptr<arrow::DataType>& typed) {
  return arrow::struct_(
      {arrow::field("value", arrow::binary()), arrow::field("typed_value", typed)});
}

TEST(VariantGetShreddedTest, MatchesUnshreddedOnDecimal128Columns) {
  // Parquet readers give decimal128 whatever the physical type: the Variant width
  // follows the precision (decimal4 / 8 / 16), as Unshred writes it.
  const std::pair<std::shared_ptr<arrow::DataType>, std::pair<const char*, const char*>>
      cases[] = {{arrow::decimal128(5, 2), {"123.45", "-1.00"}},
                 {arrow::decimal128(12, 3), {"123456789.123", "-1.000"}},
                 {arrow::decimal128(30, 1), {"12345678901234567890123.4", "-1.0"}}};
  for (const auto& [typed, values] : cases) {
    const std::string json =
        std::string(
            R"([{"metadata": "\u0001\u0000\u0000", "value": null, "typed_value": ")") +
        values.first +
        R"("}, {"metadata": "\u0001\u0000\u0000", "value": null, "typed_value": ")" +
        values.second + R"("},
        {"metadata": "\u0001\u0000\u0000", "value": "\u000c\u0007", "typed_value": null},
        {"metadata": "\u0001\u0000\u0000", "value": null, "typed_value": null},
        null])";
    auto array = FromJsonLayout(Layout(typed), json.c_str());
    ExpectSameForAllPathsAndTypes(array, typed->ToString());
    if (HasFatalFailure()) return;
  }
}

TEST(VariantGetShreddedTest, DecimalsBeyondTheirPrecisionAreErrorsNotNarrowed) {
  // A Parquet reader hands DECIMAL(4,0) on INT64 holding 5000000000 on as
  // decimal128(4,0): narrowed to decimal4 it would read 705032704.
  arrow::Decimal128Builder b(arrow::decimal128(4, 0));
  ASSERT_TRUE(b.Append(arrow::Decimal128(12)).ok());
  ASSERT_TRUE(b.Append(arrow::Decimal128(5000000000LL)).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  auto typed = *b.Finish();
  arrow::BinaryBuilder mb;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(mb.Append(std::string(kEmptyMetadata)).ok());
  auto metadata = *mb.Finish();
  auto column = *arrow::StructArray::Make(
      {metadata, *arrow::MakeArrayOfNull(arrow::binary(), 3), typed},
      std::vector<std::string>{"metadata", "value", "typed_value"});
  const std::string expected =
      "row 1, $: decimal value 5000000000 has more than 4 digits, the precision of its "
      "type decimal128(4, 0)";
  auto unshredded = Unshred(*column);
  ASSERT_FALSE(unshredded.ok());
  EXPECT_EQ(unshredded.status().message(), expected);
  for (const auto& type : {std::shared_ptr<arrow::DataType>(), arrow::decimal128(4, 0),
                           arrow::int64(), arrow::utf8()}) {
    for (bool raise : {true, false}) {
      VariantGetOptions options;
      options.errors = raise ? VariantGetErrors::kRaise : VariantGetErrors::kNull;
      auto got = VariantGet(*column, P("$"), type, options);
      ASSERT_FALSE(got.ok()) << (type ? type->ToString() : "variant");
      EXPECT_EQ(got.status().message(), expected);
    }
  }
  // The rows in range read as usual.
  VS_ASSIGN_OR_FAIL(auto head, VariantGet(*column->Slice(0, 1), P("$"), arrow::int64()));
  EXPECT_EQ(head->ToString(),
            (*arrow::json::ArrayFromJSONString(arrow::int64(), "[12]"))->ToString());
}

// As for unshredded rows, a path checks the values it reads, not the column's other
// typed leaves: a bad string or decimal elsewhere fails the paths that read it (and
// reconstruction), not the others.
TEST(VariantGetShreddedTest, ChecksTheLeavesThePathReadsNotTheOthers) {
  auto group = [](const std::shared_ptr<arrow::Array>& typed) {
    return *arrow::StructArray::Make({*arrow::MakeArrayOfNull(arrow::binary(), 2), typed},
                                     std::vector<std::string>{"value", "typed_value"});
  };
  auto ids = *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2]");
  arrow::StringBuilder names;  // row 1 is not UTF-8
  ASSERT_TRUE(names.Append("a").ok());
  ASSERT_TRUE(names.Append("\xff").ok());
  arrow::Decimal128Builder scores(arrow::decimal128(4, 0));  // row 0 has 10 digits
  ASSERT_TRUE(scores.Append(arrow::Decimal128(5000000000LL)).ok());
  ASSERT_TRUE(scores.Append(arrow::Decimal128(7)).ok());
  auto typed = *arrow::StructArray::Make(
      {group(ids), group(*names.Finish()), group(*scores.Finish())},
      std::vector<std::string>{"id", "name", "score"});
  arrow::BinaryBuilder mb;
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(mb.Append(std::string(kEmptyMetadata)).ok());
  auto column = *arrow::StructArray::Make(
      {*mb.Finish(), *arrow::MakeArrayOfNull(arrow::binary(), 2), typed},
      std::vector<std::string>{"metadata", "value", "typed_value"});

  VS_ASSIGN_OR_FAIL(auto id, VariantGet(*column, P("$.id"), arrow::int64()));
  EXPECT_TRUE(id->Equals(*ids)) << id->ToString();
  VS_ASSIGN_OR_FAIL(auto id_text, VariantGet(*column, P("$.id"), arrow::utf8()));
  EXPECT_EQ(
      id_text->ToString(),
      (*arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["1", "2"])"))->ToString());
  const std::pair<const char*, const char*> failing[] = {
      {"$.name", "row 1, $.name: typed string is not valid UTF-8"},
      {"$.score", "row 0, $.score: decimal value 5000000000 has more than 4 digits"}};
  for (const auto& [path, message] : failing) {
    for (const auto& type : {arrow::utf8(), std::shared_ptr<arrow::DataType>()}) {
      auto got = VariantGet(*column, P(path), type);
      ASSERT_FALSE(got.ok()) << path;
      EXPECT_EQ(got.status().message().rfind(message, 0), 0u) << got.status().ToString();
    }
  }
  EXPECT_FALSE(VariantGet(*column, P("$"), nullptr).ok());
  EXPECT_FALSE(Unshred(*column).ok());
}

TEST(VariantGetShreddedTest, TypedLeavesOfEveryTypeAreTheBytesUnshredWrites) {
  // docs/shredding.md#reconstruction: each typed_value type back to its Variant
  // primitive, byte for byte, whether read by VariantGet (Variant output) or rebuilt by
  // Unshred.
  using arrow::TimeUnit;
  const std::string long_text(64, 'x');
  const std::string long_json = "[\"" + long_text + "\"]";
  const std::string long_hex = "40 40 00 00 00 " + testing::ToHex(long_text);
  struct Case {
    std::shared_ptr<arrow::DataType> type;
    std::string json;
    std::string hex;
  };
  const Case cases[] = {
      {arrow::boolean(), "[false]", "08"},
      {arrow::int8(), "[-2]", "0c fe"},
      {arrow::int16(), "[258]", "10 02 01"},
      {arrow::int32(), "[-1]", "14 ff ff ff ff"},
      {arrow::int64(), "[1]", "18 01 00 00 00 00 00 00 00"},
      {arrow::float32(), "[1.5]", "38 00 00 c0 3f"},
      {arrow::float64(), "[1.5]", "1c 00 00 00 00 00 00 f8 3f"},
      {arrow::date32(), "[1]", "2c 01 00 00 00"},
      {arrow::time64(TimeUnit::MICRO), "[1]", "44 01 00 00 00 00 00 00 00"},
      {arrow::timestamp(TimeUnit::MICRO, "UTC"), "[1]", "30 01 00 00 00 00 00 00 00"},
      {arrow::timestamp(TimeUnit::MICRO), "[1]", "34 01 00 00 00 00 00 00 00"},
      {arrow::timestamp(TimeUnit::NANO, "UTC"), "[1]", "48 01 00 00 00 00 00 00 00"},
      {arrow::timestamp(TimeUnit::NANO), "[1]", "4c 01 00 00 00 00 00 00 00"},
      {arrow::decimal32(5, 2), R"(["-1.23"])", "20 02 85 ff ff ff"},
      {arrow::decimal64(12, 3), R"(["1.000"])", "24 03 e8 03 00 00 00 00 00 00"},
      {arrow::decimal128(9, 2), R"(["1.23"])", "20 02 7b 00 00 00"},
      {arrow::decimal128(18, 0), R"(["-1"])", "24 00 ff ff ff ff ff ff ff ff"},
      {arrow::decimal128(19, 0), R"(["1"])",
       "28 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
      {arrow::utf8(), R"(["hi"])", "09 68 69"},
      {arrow::large_utf8(), long_json, long_hex},
      {arrow::utf8_view(), R"(["hi"])", "09 68 69"},
      {arrow::binary(), R"(["hi"])", "3c 02 00 00 00 68 69"},
      {arrow::large_binary(), R"(["hi"])", "3c 02 00 00 00 68 69"},
      {arrow::binary_view(), R"(["hi"])", "3c 02 00 00 00 68 69"},
      {arrow::fixed_size_binary(16), R"(["0123456789abcdef"])",
       "50 30 31 32 33 34 35 36 37 38 39 61 62 63 64 65 66"},
  };
  const std::string kMetaEmpty = testing::Hex("01 00 00");
  for (const auto& c : cases) {
    SCOPED_TRACE(c.type->ToString());
    auto typed = arrow::json::ArrayFromJSONString(c.type, c.json);
    ASSERT_TRUE(typed.ok()) << typed.status().ToString();
    auto array = std::make_shared<arrow::StructArray>(
        arrow::struct_({arrow::field("metadata", arrow::binary(), false),
                        arrow::field("typed_value", c.type)}),
        1, arrow::ArrayVector{Binary({kMetaEmpty}), *typed});
    VS_ASSIGN_OR_FAIL(auto got, VariantGet(*array, P("$"), nullptr));
    VS_ASSIGN_OR_FAIL(auto rebuilt, Unshred(*array));
    for (const auto& out : {got, rebuilt}) {
      const auto& st = static_cast<const arrow::StructArray&>(*out);
      const auto& values =
          static_cast<const arrow::BinaryArray&>(*st.GetFieldByName("value"));
      EXPECT_EQ(testing::ToHex(values.GetView(0)), c.hex);
    }
  }
}

TEST(VariantGetShreddedTest, UnsupportedTypedTypeIsATypeErrorNamingThePath) {
  // uint32 has no Variant equivalent: both readers refuse the column, naming where.
  auto type = Layout(arrow::struct_({arrow::field("a", Group(arrow::uint32()))}));
  auto array = FromJsonLayout(type, R"([{"metadata": "\u0001\u0000\u0000",
      "value": null, "typed_value": {"a": {"value": null, "typed_value": 7}}}])");
  auto got = VariantGet(*array, P("$.a"), arrow::int64());
  ASSERT_TRUE(got.status().IsTypeError()) << got.status().ToString();
  EXPECT_NE(got.status().message().find("unsupported shredded value type uint32 at $.a"),
            std::string::npos)
      << got.status().ToString();
  auto rebuilt = Unshred(*array);
  ASSERT_TRUE(rebuilt.status().IsTypeError()) << rebuilt.status().ToString();
  EXPECT_NE(
      rebuilt.status().message().find("unsupported shredded value type uint32 at $.a"),
      std::string::npos)
      << rebuilt.status().ToString();
}

// Both readers refuse a bad layout anywhere in the column, with the same error, even
// where variant_get's path does not pass (it used to check only the levels it read).
void ExpectBothReject(const std::shared_ptr<arrow::Array>& array, const char* path,
                      const std::string& message) {
  auto got = VariantGet(*array, P(path), arrow::int64());
  ASSERT_FALSE(got.ok()) << path;
  EXPECT_NE(got.status().message().find(message), std::string::npos)
      << got.status().ToString();
  auto rebuilt = Unshred(*array);
  ASSERT_FALSE(rebuilt.ok());
  EXPECT_EQ(rebuilt.status().code(), got.status().code());
  EXPECT_NE(rebuilt.status().message().find(message), std::string::npos)
      << rebuilt.status().ToString();
}

TEST(VariantGetShreddedTest, LayoutRulesAreUnshredsForTheWholeColumn) {
  // A sibling of the path with an unsupported type.
  auto sibling = Layout(arrow::struct_({arrow::field("a", Group(arrow::int64())),
                                        arrow::field("b", Group(arrow::uint32()))}));
  ExpectBothReject(FromJsonLayout(sibling, R"([{"metadata": "\u0001\u0000\u0000",
      "value": null, "typed_value": {"a": {"value": null, "typed_value": 7},
                                     "b": {"value": null, "typed_value": 1}}}])"),
                   "$.a", "unsupported shredded value type uint32 at $.b");
  // A group that is not a struct, away from the path.
  auto not_struct = Layout(arrow::struct_(
      {arrow::field("a", Group(arrow::int64())), arrow::field("b", arrow::int64())}));
  ExpectBothReject(FromJsonLayout(not_struct, R"([{"metadata": "\u0001\u0000\u0000",
      "value": null, "typed_value": {"a": {"value": null, "typed_value": 7}, "b": 1}}])"),
                   "$.a", "shredded group at $.b must be a struct");
}

TEST(VariantGetShreddedTest, DuplicateChildrenAreAnErrorNamingThePath) {
  // Two `value` children in the group of field a.
  auto two_values = Layout(arrow::struct_({arrow::field(
      "a", arrow::struct_({arrow::field("value", arrow::binary()),
                           arrow::field("value", arrow::binary()),
                           arrow::field("typed_value", arrow::int64())}))}));
  auto array = *arrow::MakeArrayOfNull(two_values, 1);
  ExpectBothReject(array, "$.a", "duplicate child 'value' in shredded group at $.a");
  // Two fields named a under typed_value: whatever the path.
  auto two_fields = Layout(arrow::struct_({arrow::field("a", Group(arrow::int64())),
                                           arrow::field("a", Group(arrow::utf8()))}));
  array = *arrow::MakeArrayOfNull(two_fields, 1);
  ExpectBothReject(array, "$.b", "duplicate shredded field 'a' at $");
  // Far apart in a wide object (found by sorting the names, not by comparing pairs).
  arrow::FieldVector wide;
  for (int i = 0; i < 3000; ++i) {
    wide.push_back(arrow::field("f" + std::to_string(i), Group(arrow::int64())));
  }
  wide.push_back(arrow::field("f17", Group(arrow::int64())));
  array = *arrow::MakeArrayOfNull(Layout(arrow::struct_(wide)), 1);
  ExpectBothReject(array, "$.f1", "duplicate shredded field 'f17' at $");
  // Two typed_value children at the top.
  auto top = arrow::struct_({arrow::field("metadata", arrow::binary(), false),
                             arrow::field("typed_value", arrow::int64()),
                             arrow::field("typed_value", arrow::utf8())});
  array = *arrow::MakeArrayOfNull(top, 1);
  ExpectBothReject(array, "$", "duplicate \"typed_value\" child");
}

TEST(VariantGetShreddedTest, NestingPastTheValueLimitIsAnError) {
  // 501 nested arrays: deeper than any value can be (format.h), refused before the
  // readers recurse into it.
  std::shared_ptr<arrow::DataType> typed = arrow::int64();
  for (int i = 0; i < kMaxNestingDepth + 1; ++i) {
    typed = arrow::list(arrow::field("element", Group(typed), false));
  }
  auto array = *arrow::MakeArrayOfNull(Layout(typed), 1);
  ExpectBothReject(array, "$[0]", "shredded column nested deeper than the limit of 500");
}

TEST(VariantGetShreddedTest, MissingArrayElementsReadAsVariantNull) {
  // Element groups null/null, or null themselves (nullable in some writers), are
  // missing elements: Variant null, never SQL NULL.
  auto element = Group(arrow::int64());
  auto array = FromJsonLayout(Layout(arrow::list(arrow::field("element", element))), R"([
      {"metadata": "\u0001\u0000\u0000", "value": null, "typed_value": [
          {"value": null, "typed_value": 1}, {"value": null, "typed_value": null},
          null, {"value": "\u0000", "typed_value": null},
          {"value": "\u0009hi", "typed_value": null}]},
      {"metadata": "\u0001\u0000\u0000", "value": null, "typed_value": []},
      {"metadata": "\u0001\u0000\u0000", "value": null, "typed_value": null},
      {"metadata": "\u0001\u0000\u0000", "value": "\u000c\u0007",
       "typed_value": null},
      null])");
  ExpectSameForAllPathsAndTypes(array, "list with missing elements");
  ExpectSameForAllPathsAndTypes(array->Slice(1), "sliced list with missing elements");
  VS_ASSIGN_OR_FAIL(auto e1, VariantGet(*array, P("$[1]"), nullptr));
  const auto& st = static_cast<const arrow::StructArray&>(*e1);
  const auto& values =
      static_cast<const arrow::BinaryArray&>(*st.GetFieldByName("value"));
  EXPECT_FALSE(st.IsNull(0));
  EXPECT_EQ(testing::ToHex(values.GetView(0)), "00");
  VS_ASSIGN_OR_FAIL(auto e2, VariantGet(*array, P("$[2]"), nullptr));
  EXPECT_EQ(testing::ToHex(static_cast<const arrow::BinaryArray&>(
                               *static_cast<const arrow::StructArray&>(*e2).field(1))
                               .GetView(0)),
            "00");
}

TEST(VariantGetShreddedTest, NullFieldGroupIsAMissingField) {
  // Corpus case 84: a field group declared optional and null.
  auto typed = arrow::struct_({arrow::field("a", Group(arrow::int32()), true)});
  auto array = FromJsonLayout(Layout(typed), R"([
      {"metadata": "\u0001\u0001\u0000\u0001a", "value": null,
       "typed_value": {"a": {"value": null, "typed_value": 4}}},
      {"metadata": "\u0001\u0001\u0000\u0001a", "value": null,
       "typed_value": {"a": null}},
      {"metadata": "\u0001\u0001\u0000\u0001a", "value": null,
       "typed_value": {"a": {"value": "\u0000", "typed_value": null}}}])");
  ExpectSameForAllPathsAndTypes(array, "nullable field group");
  VS_ASSIGN_OR_FAIL(auto a, VariantGet(*array, P("$.a"), arrow::int32()));
  EXPECT_TRUE(a->Equals(
      *arrow::json::ArrayFromJSONString(arrow::int32(), "[4, null, null]").ValueOrDie()))
      << a->ToString();
  VS_ASSIGN_OR_FAIL(auto v, VariantGet(*array, P("$.a"), nullptr));
  EXPECT_TRUE(v->IsNull(1));   // missing
  EXPECT_FALSE(v->IsNull(2));  // Variant null
}

std::shared_ptr<arrow::Buffer> Bits(const std::vector<bool>& bits) {
  auto out = *arrow::AllocateEmptyBitmap(static_cast<int64_t>(bits.size()));
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) arrow::bit_util::SetBit(out->mutable_data(), static_cast<int64_t>(i));
  }
  return out;
}

TEST(VariantGetShreddedTest, NullParentsHideTheirChildrenOnTheZeroCopyPath) {
  // Slots under a null struct slot may hold anything (other writers): a null typed
  // object, a null field group or a null top-level typed_value each make the leaf
  // missing, whatever the leaf column holds there.
  auto leaf = *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2, 3, 4, 5]");
  auto x_group = *arrow::StructArray::Make(arrow::ArrayVector{leaf},
                                           std::vector<std::string>{"typed_value"});
  auto obj_typed = *arrow::StructArray::Make(arrow::ArrayVector{x_group},
                                             {arrow::field("x", x_group->type(), false)},
                                             Bits({true, false, true, true, true}));
  auto obj_group = *arrow::StructArray::Make(
      arrow::ArrayVector{obj_typed}, {arrow::field("typed_value", obj_typed->type())},
      Bits({true, true, false, true, true}));
  auto top_typed = *arrow::StructArray::Make(arrow::ArrayVector{obj_group},
                                             {arrow::field("obj", obj_group->type())},
                                             Bits({true, true, true, false, true}));
  // Keys "obj" and "x", sorted.
  const std::string md = testing::Hex("11 02 00 03 04 6f 62 6a 78");
  auto metadata = Binary({md, md, md, md, md});
  auto array =
      *arrow::StructArray::Make(arrow::ArrayVector{metadata, top_typed},
                                {arrow::field("metadata", arrow::binary(), false),
                                 arrow::field("typed_value", top_typed->type())},
                                Bits({true, true, true, true, false}));
  VS_ASSIGN_OR_FAIL(auto x, VariantGet(*array, P("$.obj.x"), arrow::int64()));
  EXPECT_TRUE(x->Equals(
      *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, null, null, null, null]")
           .ValueOrDie()))
      << x->ToString();
  ExpectSameForAllPathsAndTypes(array, "null parents");
  ExpectSameForAllPathsAndTypes(array->Slice(1), "null parents, sliced");
}

TEST(VariantGetShreddedTest, TopLevelTypedValueOnlyWithoutValueColumn) {
  auto metadata = *arrow::json::ArrayFromJSONString(
      arrow::binary(), R"(["\u0001\u0000\u0000", "\u0001\u0000\u0000", ""])");
  auto typed = *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, null, 3]");
  auto validity = *arrow::AllocateEmptyBitmap(3);
  arrow::bit_util::SetBit(validity->mutable_data(), 0);
  arrow::bit_util::SetBit(validity->mutable_data(), 1);
  auto array = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("metadata", arrow::binary()),
                      arrow::field("typed_value", arrow::int64())}),
      3, arrow::ArrayVector{metadata, typed}, validity, 1);
  VS_ASSIGN_OR_FAIL(auto out, VariantGet(*array, P("$"), arrow::int64()));
  EXPECT_TRUE(out->Equals(
      *arrow::json::ArrayFromJSONString(arrow::int64(), "[1, null, null]").ValueOrDie()))
      << out->ToString();
  // Row 1 is a missing top-level value: Variant null, not SQL NULL.
  VS_ASSIGN_OR_FAIL(auto variant, VariantGet(*array, P("$"), nullptr));
  const auto& st = static_cast<const arrow::StructArray&>(*variant);
  EXPECT_FALSE(st.IsNull(1));
  EXPECT_TRUE(st.IsNull(2));
  const auto& values =
      static_cast<const arrow::BinaryArray&>(*st.GetFieldByName("value"));
  EXPECT_EQ(testing::ToHex(values.GetView(0)), "18 01 00 00 00 00 00 00 00");
  EXPECT_EQ(testing::ToHex(values.GetView(1)), "00");
  VS_ASSIGN_OR_FAIL(auto key, VariantGet(*array, P("$.a"), arrow::int64()));
  EXPECT_EQ(key->null_count(), 3);
}

}  // namespace
}  // namespace varshred
