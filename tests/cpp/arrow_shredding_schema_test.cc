#include <arrow/extension/uuid.h>
#include <arrow/type.h>
#include <gtest/gtest.h>
#include <parquet/schema.h>

#include "test_util.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/parquet/schema.h"

namespace varshred {
namespace {

TEST(ShreddingSchemaTest, ParsesStructDdlAndRoundTrips) {
  VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::Parse(
                                "struct<id: bigint, name: string, tags: array<string>, "
                                "nested: struct<x: int, flag: boolean>>"));
  ASSERT_EQ(s.kind(), ShreddingSchema::Kind::kObject);
  ASSERT_EQ(s.fields().size(), 4u);
  EXPECT_EQ(s.fields()[0].first, "id");
  EXPECT_EQ(s.fields()[0].second.type(), VariantType::kInt64);
  EXPECT_EQ(s.fields()[2].second.kind(), ShreddingSchema::Kind::kArray);
  EXPECT_EQ(s.fields()[2].second.element().type(), VariantType::kString);
  EXPECT_EQ(s.fields()[3].second.fields()[1].second.type(), VariantType::kBoolean);
  EXPECT_EQ(
      s.ToDdl(),
      "struct<id: bigint, name: string, tags: array<string>, nested: struct<x: int, "
      "flag: boolean>>");
  VS_ASSIGN_OR_FAIL(auto again, ShreddingSchema::Parse(s.ToDdl()));
  EXPECT_TRUE(again.Equals(s));
}

TEST(ShreddingSchemaTest, ParsesBareFormAliasesAndBackquotes) {
  VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::Parse(
                                "id BIGINT, `odd name` Long, d DECIMAL(20, 3), b byte, "
                                "t timestamp_ntz, n timestamp_ns, v variant, x numeric"));
  ASSERT_EQ(s.fields().size(), 8u);
  EXPECT_EQ(s.fields()[1].first, "odd name");
  EXPECT_EQ(s.fields()[1].second.type(), VariantType::kInt64);
  EXPECT_EQ(s.fields()[2].second.type(), VariantType::kDecimal16);
  EXPECT_EQ(s.fields()[2].second.precision(), 20);
  EXPECT_EQ(s.fields()[2].second.scale(), 3);
  EXPECT_EQ(s.fields()[3].second.type(), VariantType::kInt8);
  EXPECT_EQ(s.fields()[4].second.type(), VariantType::kTimestampNtzMicros);
  EXPECT_EQ(s.fields()[5].second.type(), VariantType::kTimestampNanos);
  EXPECT_EQ(s.fields()[6].second.kind(), ShreddingSchema::Kind::kValueOnly);
  EXPECT_EQ(s.fields()[7].second.type(), VariantType::kDecimal8);  // decimal(10,0)
  VS_ASSIGN_OR_FAIL(auto again, ShreddingSchema::Parse(s.ToDdl()));
  EXPECT_TRUE(again.Equals(s)) << s.ToDdl();
  VS_ASSIGN_OR_FAIL(auto scalar, ShreddingSchema::Parse("array<decimal(9,2)>"));
  EXPECT_EQ(scalar.element().type(), VariantType::kDecimal4);
}

TEST(ShreddingSchemaTest, ReportsErrorsWithColumn) {
  auto r = ShreddingSchema::Parse("struct<id: bigintt>");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalid());
  EXPECT_NE(r.status().message().find("unknown type 'bigintt' at column 12"),
            std::string::npos)
      << r.status().ToString();
  EXPECT_FALSE(ShreddingSchema::Parse("struct<a: int").ok());
  EXPECT_FALSE(ShreddingSchema::Parse("struct<a: int, a: string>").ok());
  EXPECT_FALSE(ShreddingSchema::Parse("decimal(40,2)").ok());
  EXPECT_FALSE(ShreddingSchema::Parse("array<int> junk").ok());
}

// Spark's DDL as StructType.toDDL writes it: a field's NOT NULL and COMMENT, and a
// string's collation. None changes a value, so both parsers drop them; only a cast's
// target type takes NOT NULL (Spark's variant_get result is nullable anyway).
TEST(ShreddingSchemaTest, SparkFieldOptionsAreDropped) {
  VS_ASSIGN_OR_FAIL(auto expected,
                    ShreddingSchema::Parse("struct<a: int, b: string, c: string>"));
  for (const char* ddl : {
           "struct<a: int COMMENT 'x, y>', b: string collate UTF8_LCASE, c string>",
           "a INT comment \"it's\", b STRING COLLATE SYSTEM.BUILTIN.UNICODE_CI, c STRING",
           "a int comment 'a \\' quote', b string collate utf8_binary comment '', c "
           "string",
       }) {
    VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::Parse(ddl));
    EXPECT_TRUE(s.Equals(expected)) << ddl << " -> " << s.ToDdl();
    VS_ASSIGN_OR_FAIL(auto cast, ShreddingSchema::ParseSqlType(ddl));
    EXPECT_TRUE(cast.Equals(expected)) << ddl;
  }
  VS_ASSIGN_OR_FAIL(auto top, ShreddingSchema::ParseSqlType("string collate UTF8_LCASE"));
  EXPECT_EQ(top.type(), VariantType::kString);

  const char* not_null = "struct<a: int NOT NULL COMMENT 'id', b: string, c: string>";
  VS_ASSIGN_OR_FAIL(auto cast, ShreddingSchema::ParseSqlType(not_null));
  EXPECT_TRUE(cast.Equals(expected)) << cast.ToDdl();
  auto refused = ShreddingSchema::Parse(not_null);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "NOT NULL: a shredded field is always nullable (a row may lack it or "
                "hold another type) at column 15"),
            std::string::npos)
      << refused.status().ToString();

  for (const char* bad :
       {"struct<a: int not>", "struct<a: int comment>", "struct<a: int comment 'open>",
        "int collate x", "string collate", "struct<a: int null>"}) {
    EXPECT_FALSE(ShreddingSchema::ParseSqlType(bad).ok()) << bad;
  }
}

// Spark 4.3 takes TIME(6) and SQL's spellings of its timestamps as type names.
TEST(ShreddingSchemaTest, SqlSpellingsOfTimeTypes) {
  for (const auto& [ddl, type] : std::vector<std::pair<std::string, VariantType>>{
           {"time(6)", VariantType::kTimeNtzMicros},
           {"TIME ( 6 )", VariantType::kTimeNtzMicros},
           {"timestamp with local time zone", VariantType::kTimestampMicros},
           {"TIMESTAMP  WITHOUT TIME ZONE", VariantType::kTimestampNtzMicros},
       }) {
    VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::ParseSqlType(ddl));
    EXPECT_EQ(s.type(), type) << ddl;
  }
  VS_ASSIGN_OR_FAIL(
      auto fields,
      ShreddingSchema::Parse("struct<a: timestamp without time zone, b: time(6)>"));
  VS_ASSIGN_OR_FAIL(auto expected,
                    ShreddingSchema::Parse("struct<a: timestamp_ntz, b: time>"));
  EXPECT_TRUE(fields.Equals(expected)) << fields.ToDdl();
  for (const char* bad : {"time(3)", "time(", "timestamp with time zone",
                          "timestamp without zone", "timestamp with local"}) {
    EXPECT_FALSE(ShreddingSchema::ParseSqlType(bad).ok()) << bad;
  }
}

TEST(ShreddingSchemaTest, NestingStopsAtTheShreddingLimit) {
  // Schemas type at most kMaxShreddingDepth levels (readers stop beyond): deeper DDL,
  // paths and Arrow types are errors before the recursion that would overflow the stack.
  auto nested = [](const std::string& open, int n, const std::string& leaf) {
    std::string out;
    for (int i = 0; i < n; ++i) out += open;
    return out + leaf + std::string(n, '>');
  };
  VS_EXPECT_OK(ShreddingSchema::Parse(nested("array<", 30, "int")).status());
  for (const auto& ddl :
       {nested("array<", 31, "int"), nested("array<", 30000, "int"),
        nested("struct<a: ", 10000, "int"), "a " + nested("array<", 30000, "int")}) {
    auto r = ShreddingSchema::Parse(ddl);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("nesting deeper than the limit of 30 at column"),
              std::string::npos)
        << r.status().ToString();
  }
  std::string deep_path = "a";
  for (int i = 0; i < 30000; ++i) deep_path += ".a";
  auto paths = ShreddingSchema::FromPaths({{deep_path, "int"}});
  ASSERT_FALSE(paths.ok());
  EXPECT_NE(paths.status().message().find("nesting deeper than the limit of 30"),
            std::string::npos)
      << paths.status().ToString();
  // The path's own segments count: 2 segments + 29 arrays is 31 levels.
  EXPECT_FALSE(ShreddingSchema::FromPaths({{"a.b", nested("array<", 29, "int")}}).ok());
  VS_EXPECT_OK(
      ShreddingSchema::FromPaths({{"a.b", nested("array<", 28, "int")}}).status());

  std::shared_ptr<arrow::DataType> typed = arrow::int32();
  for (int i = 0; i < 30000; ++i) {
    typed = arrow::list(arrow::field(
        "element", arrow::struct_({arrow::field("typed_value", typed)}), false));
  }
  auto from_arrow = ShreddingSchema::FromArrow(*typed);
  ASSERT_FALSE(from_arrow.ok());
  EXPECT_NE(from_arrow.status().message().find("nested deeper than the limit of 30"),
            std::string::npos)
      << from_arrow.status().ToString();
}

TEST(ShreddingSchemaTest, MergesPathsIntoOneTree) {
  VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::FromPaths({{"id", "bigint"},
                                                        {"nested.x", "int"},
                                                        {"tags[]", "string"},
                                                        {"events[].kind", "string"},
                                                        {"nested.flag", "boolean"}}));
  EXPECT_EQ(s.ToDdl(),
            "struct<id: bigint, nested: struct<x: int, flag: boolean>, tags: "
            "array<string>, events: array<struct<kind: string>>>");
  EXPECT_FALSE(ShreddingSchema::FromPaths({{"a", "int"}, {"a.b", "int"}}).ok());
  EXPECT_FALSE(ShreddingSchema::FromPaths({{"a", "int"}, {"a", "string"}}).ok());
  EXPECT_FALSE(ShreddingSchema::FromPaths({{"a[]", "int"}, {"a.b", "int"}}).ok());
  EXPECT_FALSE(ShreddingSchema::FromPaths({{"a..b", "int"}}).ok());
}

TEST(ShreddingSchemaTest, EmptyAndOddNamesAreBackquoted) {
  // "" is a valid JSON and Variant key: `` in DDL and paths, as Spark quotes it.
  const std::string ddl =
      "struct<``: bigint, a: struct<``: string, `b c`: int, `q``q`: int, `x.y`: int>>";
  VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::Parse(ddl));
  EXPECT_EQ(s.fields()[0].first, "");
  EXPECT_EQ(s.fields()[1].second.fields()[2].first, "q`q");
  EXPECT_EQ(s.ToDdl(), ddl);
  VS_ASSIGN_OR_FAIL(auto from_arrow,
                    ShreddingSchema::FromArrow(*s.TypedValueArrowType()));
  EXPECT_TRUE(from_arrow.Equals(s));
  VS_ASSIGN_OR_FAIL(auto paths, ShreddingSchema::FromPaths({{"``", "bigint"},
                                                            {"a.``", "string"},
                                                            {"a.`b c`", "int"},
                                                            {"a.`q``q`", "int"},
                                                            {"a.`x.y`", "int"}}));
  EXPECT_TRUE(paths.Equals(s)) << paths.ToDdl();
  EXPECT_FALSE(ShreddingSchema::Parse("struct<``: int, ``: string>").ok());
  EXPECT_FALSE(ShreddingSchema::FromPaths({{"a.", "int"}}).ok());
}

TEST(ShreddingSchemaTest, BackquotedBracketsAreAFieldName) {
  // `[]` names a field called "[]"; only the bare [] means every element.
  VS_ASSIGN_OR_FAIL(auto s,
                    ShreddingSchema::FromPaths({{"`[]`", "int"}, {"a.`[]`", "int"}}));
  VS_ASSIGN_OR_FAIL(auto ddl,
                    ShreddingSchema::Parse("struct<`[]`: int, a: struct<`[]`: int>>"));
  EXPECT_TRUE(s.Equals(ddl)) << s.ToDdl();
  VS_ASSIGN_OR_FAIL(auto element, ShreddingSchema::FromPaths({{"a[]", "int"}}));
  VS_ASSIGN_OR_FAIL(auto array, ShreddingSchema::Parse("struct<a: array<int>>"));
  EXPECT_TRUE(element.Equals(array)) << element.ToDdl();
}

TEST(ShreddingSchemaTest, ArrowTypeRoundTrips) {
  VS_ASSIGN_OR_FAIL(
      auto s, ShreddingSchema::Parse("struct<a: decimal(9,2), b: array<struct<c: uuid>>, "
                                     "t: timestamp, v: variant>"));
  const auto type = s.ToArrow();
  EXPECT_EQ(type->ToString(),
            "struct<metadata: binary not null, value: binary, typed_value: struct<a: "
            "struct<value: binary, typed_value: decimal32(9, 2)> not null, b: "
            "struct<value: binary, typed_value: list<element: struct<value: binary, "
            "typed_value: struct<c: struct<value: binary, typed_value: "
            "fixed_size_binary[16]> not null>> not null>> not null, t: struct<value: "
            "binary, typed_value: timestamp[us, tz=UTC]> not null, v: struct<value: "
            "binary> not null>>");
  VS_ASSIGN_OR_FAIL(auto back, ShreddingSchema::FromArrow(*type->field(2)->type()));
  EXPECT_TRUE(back.Equals(s)) << back.ToDdl();
}

// The type variant_get and to_arrow cast to when the DDL names the target.
TEST(ShreddingSchemaTest, SqlArrowTypeIsWhatSparkHandsToArrow) {
  VS_ASSIGN_OR_FAIL(
      auto s, ShreddingSchema::Parse("struct<a: decimal(9,2), b: array<struct<c: int>>, "
                                     "t: timestamp_ntz, v: variant>"));
  EXPECT_EQ(s.SqlArrowType()->ToString(),
            "struct<a: decimal128(9, 2), b: list<item: struct<c: int32>>, t: "
            "timestamp[us], v: struct<metadata: binary not null, value: binary not "
            "null>>");
}

TEST(ShreddingSchemaTest, FromArrowRejectsDisallowedTypes) {
  for (const auto& t : {arrow::uint32(), arrow::fixed_size_binary(4),
                        arrow::timestamp(arrow::TimeUnit::MILLI),
                        arrow::time32(arrow::TimeUnit::MILLI), arrow::float16()}) {
    auto r = ShreddingSchema::FromArrow(*t);
    EXPECT_FALSE(r.ok()) << t->ToString();
  }
  VS_ASSIGN_OR_FAIL(auto u, ShreddingSchema::FromArrow(*arrow::extension::uuid()));
  EXPECT_EQ(u.type(), VariantType::kUuid);
  VS_ASSIGN_OR_FAIL(auto d, ShreddingSchema::FromArrow(*arrow::decimal128(18, 3)));
  EXPECT_EQ(d.type(), VariantType::kDecimal8);
  VS_ASSIGN_OR_FAIL(
      auto l,
      ShreddingSchema::FromArrow(*arrow::large_list(arrow::field(
          "element", arrow::struct_({arrow::field("typed_value", arrow::int16())}),
          false))));
  EXPECT_EQ(l.ToDdl(), "array<smallint>");
}

TEST(ShreddingSchemaTest, ParquetSchemaFollowsSpecTypes) {
  VS_ASSIGN_OR_FAIL(auto s, ShreddingSchema::Parse(
                                "struct<a: tinyint, b: decimal(20,2), c: array<time>>"));
  VS_ASSIGN_OR_FAIL(auto node, ToParquetSchema(s, "var"));
  std::ostringstream os;
  parquet::schema::PrintSchema(node.get(), os);
  const std::string text = os.str();
  EXPECT_NE(text.find("optional group field_id=-1 var (Variant"), std::string::npos)
      << text;
  EXPECT_NE(text.find("required binary field_id=-1 metadata"), std::string::npos);
  EXPECT_NE(text.find("optional int32 field_id=-1 typed_value (Int(bitWidth=8, "
                      "isSigned=true))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("optional fixed_len_byte_array(16) field_id=-1 typed_value "
                      "(Decimal(precision=20, scale=2))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("required group field_id=-1 element"), std::string::npos);
  EXPECT_NE(text.find("required group field_id=-1 a"), std::string::npos);
  EXPECT_NE(text.find("Time(isAdjustedToUTC=false, timeUnit=microseconds)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace varshred
