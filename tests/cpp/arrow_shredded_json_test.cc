// VariantToJson on shredded columns prints straight from the typed columns: every test
// holds it to the text of the unshredded values (VariantToJson after Unshred).

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "random_variants.h"
#include "test_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/shred.h"
#include "varshred/arrow/unshred.h"

namespace varshred {
namespace {

using testing::Hex;
using Opt = std::optional<std::string>;

std::shared_ptr<arrow::Array> Bin(const std::vector<Opt>& cells) {
  arrow::BinaryBuilder b;
  for (const auto& c : cells) EXPECT_TRUE((c ? b.Append(*c) : b.AppendNull()).ok());
  return *b.Finish();
}

std::shared_ptr<arrow::Array> Struct(const std::vector<std::string>& names,
                                     const arrow::ArrayVector& children) {
  return *arrow::StructArray::Make(children, names);
}

std::vector<Opt> Texts(const arrow::Array& strings) {
  const auto& s = static_cast<const arrow::StringArray&>(strings);
  std::vector<Opt> out;
  for (int64_t i = 0; i < s.length(); ++i) {
    out.push_back(s.IsNull(i) ? Opt() : Opt(std::string(s.GetView(i))));
  }
  return out;
}

// The text of the unshredded values: what the direct path must print.
arrow::Result<std::vector<Opt>> ViaUnshred(const arrow::Array& shredded,
                                           ConflictPolicy policy) {
  UnshredOptions unshred;
  unshred.on_conflict = policy;
  ARROW_ASSIGN_OR_RAISE(auto plain, Unshred(shredded, unshred));
  ARROW_ASSIGN_OR_RAISE(auto text, VariantToJson(*plain));
  return Texts(*text);
}

arrow::Result<std::vector<Opt>> Direct(const arrow::Array& shredded,
                                       ConflictPolicy policy) {
  VariantToJsonOptions options;
  options.on_conflict = policy;
  ARROW_ASSIGN_OR_RAISE(auto text, VariantToJson(shredded, options));
  return Texts(*text);
}

// `data` with every binary and string array replaced by a dictionary array of the same
// values, as Parquet readers decode dictionary-encoded leaves: the dictionary holds the
// values in reverse order (so an index is not its row), and null rows point outside it
// (a null row's index must not be read).
std::shared_ptr<arrow::ArrayData> WithDictionaries(
    const std::shared_ptr<arrow::ArrayData>& data) {
  auto out = data->Copy();
  const arrow::Type::type id = data->type->id();
  if (id == arrow::Type::BINARY || id == arrow::Type::STRING) {
    const auto values = arrow::MakeArray(data);
    const auto& binary = static_cast<const arrow::BinaryArray&>(*values);
    const int64_t n = data->length;
    arrow::BinaryBuilder reversed;
    std::vector<int32_t> indices(static_cast<size_t>(n));
    auto validity = *arrow::AllocateEmptyBitmap(n);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = n - 1 - i;
      EXPECT_TRUE(reversed.Append(binary.IsNull(row) ? "" : binary.GetView(row)).ok());
      indices[static_cast<size_t>(i)] =
          binary.IsNull(i) ? (1 << 30) : static_cast<int32_t>(row);
      if (!binary.IsNull(i)) arrow::bit_util::SetBit(validity->mutable_data(), i);
    }
    auto dictionary = *reversed.Finish();
    auto dictionary_data = dictionary->data()->Copy();
    dictionary_data->type = data->type;
    out = arrow::ArrayData::Make(arrow::dictionary(arrow::int32(), data->type), n,
                                 {validity, arrow::Buffer::FromVector(indices)},
                                 binary.null_count());
    out->dictionary = dictionary_data;
    return out;
  }
  if (id == arrow::Type::STRUCT) {
    arrow::FieldVector fields;
    for (int k = 0; k < data->type->num_fields(); ++k) {
      out->child_data[k] = WithDictionaries(data->child_data[k]);
      fields.push_back(data->type->field(k)->WithType(out->child_data[k]->type));
    }
    out->type = arrow::struct_(fields);
  } else if (id == arrow::Type::LIST || id == arrow::Type::LARGE_LIST) {
    out->child_data[0] = WithDictionaries(data->child_data[0]);
    auto element = data->type->field(0)->WithType(out->child_data[0]->type);
    out->type =
        id == arrow::Type::LIST ? arrow::list(element) : arrow::large_list(element);
  }
  return out;
}

TEST(ShreddedJsonTest, MergesTypedAndUnsortedResidualFieldsInKeyOrder) {
  // Metadata ["a","b","c","z"]; typed fields b before a; residual {z:1, c:2} with
  // unsorted ids; a field "b" missing in row 1; row 2 a SQL NULL.
  const std::string meta = Hex("01 04 00 01 02 03 04 61 62 63 7a");
  auto metadata = Bin({meta, meta, meta});
  auto residual = Bin({Hex("02 02 03 02 00 02 04 0c 01 0c 02"), std::nullopt, ""});
  arrow::Int32Builder ib;
  ASSERT_TRUE(ib.AppendValues({5, 6, 0}).ok());
  auto a = Struct({"typed_value"}, {*ib.Finish()});
  auto b = Struct({"value"}, {Bin({Hex("05 78"), std::nullopt, ""})});
  auto typed = Struct({"b", "a"}, {b, a});
  VS_ASSIGN_OR_FAIL(std::shared_ptr<arrow::Buffer> valid, arrow::AllocateEmptyBitmap(3));
  arrow::bit_util::SetBit(valid->mutable_data(), 0);
  arrow::bit_util::SetBit(valid->mutable_data(), 1);
  auto column = std::make_shared<arrow::StructArray>(
      arrow::struct_({arrow::field("value", arrow::binary()),
                      arrow::field("typed_value", typed->type()),
                      arrow::field("metadata", arrow::binary())}),
      3, arrow::ArrayVector{residual, typed, metadata}, valid, 1);
  VS_ASSIGN_OR_FAIL(auto direct, Direct(*column, ConflictPolicy::kRaise));
  EXPECT_EQ(direct, (std::vector<Opt>{R"({"a":5,"b":"x","c":2,"z":1})", R"({"a":6})",
                                      std::nullopt}));
  VS_ASSIGN_OR_FAIL(auto unshredded, ViaUnshred(*column, ConflictPolicy::kRaise));
  EXPECT_EQ(direct, unshredded);

  VS_ASSIGN_OR_FAIL(auto lines, VariantToJsonLines(*column));
  EXPECT_EQ(lines->ToString(),
            "{\"a\":5,\"b\":\"x\",\"c\":2,\"z\":1}\n{\"a\":6}\nnull\n");
}

TEST(ShreddedJsonTest, ResidualsOfRowsSharingADictionaryAreCheckedAlike) {
  // Rows after the first of one dictionary have their residual objects' key order
  // checked on the dictionary's key ranks: the same output, sorted, and the same error
  // for a repeated key, as in a first row. Metadata ["a","b","c","z"]; typed "a".
  const std::string meta = Hex("01 04 00 01 02 03 04 61 62 63 7a");
  const std::string unsorted = Hex("02 02 03 02 00 02 04 0c 01 0c 02");  // {z:1, c:2}
  const std::string repeated = Hex("02 02 02 02 00 02 04 0c 01 0c 02");  // {c:1, c:2}
  arrow::Int32Builder ib;
  ASSERT_TRUE(ib.AppendValues({5, 6, 7}).ok());
  auto typed = Struct({"a"}, {Struct({"typed_value"}, {*ib.Finish()})});
  auto column = [&](const std::vector<Opt>& residuals) {
    return Struct({"metadata", "value", "typed_value"},
                  {Bin({meta, meta, meta}), Bin(residuals), typed});
  };
  auto good = column({unsorted, unsorted, unsorted});
  VS_ASSIGN_OR_FAIL(auto direct, Direct(*good, ConflictPolicy::kRaise));
  EXPECT_EQ(direct, (std::vector<Opt>{R"({"a":5,"c":2,"z":1})", R"({"a":6,"c":2,"z":1})",
                                      R"({"a":7,"c":2,"z":1})"}));
  VS_ASSIGN_OR_FAIL(auto unshredded, ViaUnshred(*good, ConflictPolicy::kRaise));
  EXPECT_EQ(direct, unshredded);
  for (int row = 0; row < 3; ++row) {
    std::vector<Opt> residuals = {unsorted, unsorted, unsorted};
    residuals[row] = repeated;
    auto bad = column(residuals);
    auto printed = Direct(*bad, ConflictPolicy::kRaise);
    ASSERT_FALSE(printed.ok()) << row;
    EXPECT_NE(printed.status().message().find("duplicate key \"c\""), std::string::npos)
        << printed.status().message();
    EXPECT_EQ(printed.status().message().rfind("row " + std::to_string(row), 0), 0u)
        << printed.status().message();
    EXPECT_EQ(printed.status().message(),
              ViaUnshred(*bad, ConflictPolicy::kRaise).status().message());
  }
}

TEST(ShreddedJsonTest, WholeResidualValuesAreCheckedAndPrintedInKeyOrder) {
  // Typed int64 at the top; rows 1 and 2 hold residual objects, row 1's ids unsorted,
  // row 3 a residual that is not valid. Residuals are checked as they print: a bad one
  // fails with its row, an unsorted one prints in key order, and the rows around them
  // keep their text.
  const std::string meta = Hex("01 02 00 01 02 61 62");                  // ["a", "b"]
  const std::string unsorted = Hex("02 02 01 00 00 02 04 0c 02 0c 01");  // {b:2, a:1}
  const std::string sorted = Hex("02 02 00 01 00 02 04 0c 01 0c 02");    // {a:1, b:2}
  arrow::Int64Builder ib;
  ASSERT_TRUE(ib.AppendValues({1, 0, 0, 4}, {true, false, false, true}).ok());
  auto typed = *ib.Finish();
  auto column = [&](const Opt& last) {
    return Struct({"metadata", "value", "typed_value"},
                  {Bin({meta, meta, meta, meta}),
                   Bin({std::nullopt, unsorted, sorted, last}), typed});
  };
  auto good = column(std::nullopt);
  VS_ASSIGN_OR_FAIL(auto direct, Direct(*good, ConflictPolicy::kRaise));
  EXPECT_EQ(direct, (std::vector<Opt>{"1", R"({"a":1,"b":2})", R"({"a":1,"b":2})", "4"}));
  EXPECT_EQ(direct, *ViaUnshred(*good, ConflictPolicy::kRaise));
  auto bad = Struct({"metadata", "value", "typed_value"},
                    {Bin({meta, meta, meta, meta}),
                     Bin({std::nullopt, unsorted, Hex("02 02 00 01 00 02 09 0c 01 0c 02"),
                          std::nullopt}),
                     typed});
  auto printed = Direct(*bad, ConflictPolicy::kRaise);
  ASSERT_FALSE(printed.ok());
  EXPECT_EQ(printed.status().message().rfind("row 2", 0), 0u)
      << printed.status().message();
  EXPECT_EQ(printed.status().message(),
            ViaUnshred(*bad, ConflictPolicy::kRaise).status().message());
}

TEST(ShreddedJsonTest, MissingValuesPrintAsNullAndConflictsFollowThePolicy) {
  // Row 0: typed 1; row 1: missing (null); row 2: value and typed both set.
  arrow::Int64Builder ib;
  ASSERT_TRUE(ib.AppendValues({1, 0, 2}, {true, false, true}).ok());
  const std::string empty(kEmptyMetadata);
  auto column = Struct({"metadata", "value", "typed_value"},
                       {Bin({empty, empty, empty}),
                        Bin({std::nullopt, std::nullopt, Hex("0c 07")}), *ib.Finish()});
  auto raised = Direct(*column, ConflictPolicy::kRaise);
  ASSERT_FALSE(raised.ok());
  EXPECT_EQ(raised.status().message(), "row 2, $: conflicting value and typed_value");
  EXPECT_EQ(raised.status().message(),
            ViaUnshred(*column, ConflictPolicy::kRaise).status().message());
  VS_ASSIGN_OR_FAIL(auto typed_wins, Direct(*column, ConflictPolicy::kTypedWins));
  EXPECT_EQ(typed_wins, (std::vector<Opt>{"1", "null", "2"}));
}

TEST(ShreddedJsonTest, BadResidualBytesNameTheRowAndPath) {
  // typed_value.a is a value-only pair holding a truncated string in row 0.
  auto a = Struct({"value"}, {Bin({Hex("09 61")})});
  auto column = Struct({"metadata", "typed_value"},
                       {Bin({Hex("01 01 00 01 61")}), Struct({"a"}, {a})});
  auto direct = Direct(*column, ConflictPolicy::kRaise);
  ASSERT_FALSE(direct.ok());
  EXPECT_TRUE(direct.status().IsInvalid());
  EXPECT_EQ(direct.status().message().rfind("row 0, $.a", 0), 0u)
      << direct.status().message();
  EXPECT_EQ(direct.status().message(),
            ViaUnshred(*column, ConflictPolicy::kRaise).status().message());
}

TEST(ShreddedJsonPropertyTest, PrintsAsItsUnshreddedValues) {
  constexpr uint64_t kSeed = 0x7E47;
  testing::RandomVariants gen(kSeed);
  for (int trial = 0; trial < 200; ++trial) {
    auto input = gen.Column(20);
    const ShreddingSchema schema = gen.Schema(0);
    for (auto numeric : {NumericShredding::kStrict, NumericShredding::kLenient}) {
      ShredOptions opts;
      opts.numeric = numeric;
      VS_ASSIGN_OR_FAIL(auto shredded, Shred(*input, schema, opts));
      VS_ASSIGN_OR_FAIL(auto direct, Direct(*shredded, ConflictPolicy::kRaise));
      VS_ASSIGN_OR_FAIL(auto unshredded, ViaUnshred(*shredded, ConflictPolicy::kRaise));
      ASSERT_EQ(direct, unshredded) << "trial " << trial << " schema " << schema.ToDdl();
      if (numeric == NumericShredding::kStrict) {
        // Strict shredding is lossless: the text is the input's own.
        VS_ASSIGN_OR_FAIL(auto original, VariantToJson(*input));
        ASSERT_EQ(direct, Texts(*original)) << "trial " << trial;
      }
    }
  }
}

// Parquet readers asked for dictionaries (to-json) hand every binary leaf (metadata,
// residual values, typed strings) as a dictionary array: the text is the same.
TEST(ShreddedJsonPropertyTest, DictionaryLeavesPrintAsTheirPlainValues) {
  constexpr uint64_t kSeed = 0xD1C7;
  testing::RandomVariants gen(kSeed);
  int dictionary_strings = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto input = gen.Column(20);
    const ShreddingSchema schema = gen.Schema(0);
    VS_ASSIGN_OR_FAIL(auto shredded, Shred(*input, schema));
    auto dictionaries = arrow::MakeArray(WithDictionaries(shredded->data()));
    ASSERT_TRUE(dictionaries->ValidateFull().ok()) << dictionaries->type()->ToString();
    dictionary_strings +=
        dictionaries->type()->ToString().find("values=string") != std::string::npos;
    VS_ASSIGN_OR_FAIL(auto plain, Direct(*shredded, ConflictPolicy::kRaise));
    VS_ASSIGN_OR_FAIL(auto direct, Direct(*dictionaries, ConflictPolicy::kRaise));
    ASSERT_EQ(direct, plain) << "trial " << trial << " schema " << schema.ToDdl();
    VS_ASSIGN_OR_FAIL(auto plain_lines, VariantToJsonLines(*shredded));
    VS_ASSIGN_OR_FAIL(auto lines, VariantToJsonLines(*dictionaries));
    ASSERT_TRUE(lines->Equals(*plain_lines)) << "trial " << trial;
  }
  EXPECT_GT(dictionary_strings, 10);  // typed strings were among the leaves
}

TEST(ShreddedJsonTest, DictionaryIndexOutsideItsDictionaryIsAnError) {
  const std::string meta = Hex("01 00 00");
  auto dictionary = Bin({meta});
  std::vector<int32_t> bad = {0, 0, 5};
  auto md = std::make_shared<arrow::DictionaryArray>(
      arrow::dictionary(arrow::int32(), arrow::binary()),
      arrow::MakeArray(arrow::ArrayData::Make(arrow::int32(), 3,
                                              {nullptr, arrow::Buffer::FromVector(bad)})),
      dictionary);
  auto column = Struct({"metadata", "value"},
                       {md, Bin({Hex("0c 01"), Hex("0c 02"), Hex("0c 03")})});
  auto printed = Direct(*column, ConflictPolicy::kRaise);
  ASSERT_FALSE(printed.ok());
  EXPECT_NE(printed.status().message().find("row 2: dictionary index 5 outside"),
            std::string::npos)
      << printed.status().message();
}

}  // namespace
}  // namespace varshred
