// The parquet-testing shredded_variant corpus (docs/shredding.md#conformance-corpus):
// every case is read with the Arrow Parquet reader, column `var` is unshredded and each
// row compared logically (exact primitive types) with the `.variant.bin` expectation.
//
// Choices for the cases the corpus flags as invalid:
// - 43, 125 (shredded key repeated in the residual): an error by default; with
//   ConflictPolicy::kTypedWins they read as parquet-java does and match the expectation.
// - 84 (optional field groups): read; a null field group is a missing field.
// - 41, 131, 132, 138 (the spec-required `value` column left out): read leniently, the
//   absent column being all-null, as Spark, parquet-java and arrow-rs do.

#include <arrow/io/file.h>
#include <arrow/table.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "variant_equal.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/metadata.h"
#include "varshred/value.h"

namespace varshred {
namespace {

struct CorpusCase {
  int number = 0;
  std::string parquet_file;
  std::vector<std::optional<std::string>> variant_files;  // nullopt: SQL NULL row
  bool is_error = false;
  bool flagged_invalid = false;
};

// A purpose-built scanner for cases.json: an array of flat objects whose fields we need
// are ints, strings and arrays of strings or nulls.
class CasesScanner {
 public:
  explicit CasesScanner(std::string text) : t_(std::move(text)) {}

  std::map<int, CorpusCase> Scan() {
    std::map<int, CorpusCase> out;
    size_t pos = 0;
    while ((pos = t_.find("\"case_number\"", pos)) != std::string::npos) {
      size_t end = t_.find("\"case_number\"", pos + 1);
      if (end == std::string::npos) end = t_.size();
      const std::string seg = t_.substr(pos, end - pos);
      CorpusCase c;
      c.number = std::stoi(seg.substr(seg.find(':') + 1));
      c.parquet_file = StringField(seg, "parquet_file");
      const std::string single = StringField(seg, "variant_file");
      if (!single.empty()) c.variant_files.push_back(single);
      const size_t files = seg.find("\"variant_files\"");
      if (files != std::string::npos) {
        size_t p = seg.find('[', files) + 1;
        const size_t close = seg.find(']', p);
        while (p < close) {
          const size_t q = seg.find_first_of("\"n", p);
          if (q == std::string::npos || q >= close) break;
          if (seg[q] == 'n') {
            c.variant_files.push_back(std::nullopt);
            p = q + 4;
          } else {
            const size_t qe = seg.find('"', q + 1);
            c.variant_files.push_back(seg.substr(q + 1, qe - q - 1));
            p = qe + 1;
          }
        }
      }
      c.is_error = seg.find("\"error_message\"") != std::string::npos;
      c.flagged_invalid = seg.find("\"notes\"") != std::string::npos;
      out[c.number] = std::move(c);
      pos = end;
    }
    return out;
  }

 private:
  static std::string StringField(const std::string& seg, const std::string& name) {
    const size_t k = seg.find("\"" + name + "\"");
    if (k == std::string::npos) return "";
    const size_t q = seg.find('"', seg.find(':', k) + 1);
    return seg.substr(q + 1, seg.find('"', q + 1) - q - 1);
  }
  std::string t_;
};

std::string CorpusShredded() { return testing::CorpusDir() + "/shredded_variant"; }

const std::map<int, CorpusCase>& Cases() {
  static const auto cases =
      CasesScanner(testing::ReadFile(CorpusShredded() + "/cases.json")).Scan();
  return cases;
}

arrow::Result<std::shared_ptr<arrow::Array>> ReadVar(const std::string& file) {
  ARROW_ASSIGN_OR_RAISE(auto in, arrow::io::ReadableFile::Open(file));
  ARROW_ASSIGN_OR_RAISE(auto reader,
                        parquet::arrow::OpenFile(in, arrow::default_memory_pool()));
  ARROW_ASSIGN_OR_RAISE(auto table, reader->ReadTable());
  auto column = table->GetColumnByName("var");
  if (!column) return arrow::Status::Invalid("no column var");
  // Each file holds 1-4 rows: one chunk.
  if (column->num_chunks() != 1) return arrow::Status::Invalid("expected one chunk");
  return column->chunk(0);
}

class ShreddedCorpusTest : public ::testing::TestWithParam<int> {};

TEST_P(ShreddedCorpusTest, UnshredsToExpectation) {
  const int number = GetParam();
  if (!std::ifstream(CorpusShredded() + "/cases.json")) {
    if (testing::InCi()) FAIL() << "corpus missing under CI";
    GTEST_SKIP() << "corpus not found";
  }
  const auto it = Cases().find(number);
  ASSERT_NE(it, Cases().end());
  const CorpusCase& c = it->second;
  if (c.parquet_file.empty()) GTEST_SKIP() << "case " << number << " has no file";
  VS_ASSIGN_OR_FAIL(auto var, ReadVar(CorpusShredded() + "/" + c.parquet_file));
  ASSERT_NE(var, nullptr);
  auto result = Unshred(*var);
  if (c.is_error) {
    ASSERT_FALSE(result.ok()) << "case " << number << " must fail";
    EXPECT_TRUE(result.status().IsInvalid() || result.status().IsTypeError())
        << result.status().ToString();
    return;
  }
  if (number == 43 || number == 125) {
    // Shredded key repeated in the residual: invalid, an error by default...
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.status().IsInvalid()) << result.status().ToString();
    EXPECT_NE(result.status().message().find("repeats shredded field 'b'"),
              std::string::npos)
        << result.status().ToString();
    // ...and read as parquet-java does on request.
    UnshredOptions typed_wins;
    typed_wins.on_conflict = ConflictPolicy::kTypedWins;
    result = Unshred(*var, typed_wins);
  }
  ASSERT_TRUE(result.ok()) << "case " << number << ": " << result.status().ToString();
  VS_ASSIGN_OR_FAIL(auto view, VariantArrayView::Make(*result));
  ASSERT_EQ(view.length(), static_cast<int64_t>(c.variant_files.size()));
  for (int64_t row = 0; row < view.length(); ++row) {
    const auto& file = c.variant_files[row];
    ASSERT_EQ(view.IsNull(row), !file.has_value()) << "case " << number << " row " << row;
    if (!file) continue;
    const std::string expected = testing::ReadFile(CorpusShredded() + "/" + *file);
    VS_ASSIGN_OR_FAIL(size_t meta_size, MetadataView::MeasureSize(expected));
    const std::string_view exp(expected);
    VS_ASSIGN_OR_FAIL(auto em, MetadataView::Make(exp.substr(0, meta_size)));
    VS_ASSIGN_OR_FAIL(auto ev, VariantView::Make(em, exp.substr(meta_size)));
    VS_ASSIGN_OR_FAIL(auto am, MetadataView::Make(view.metadata(row)));
    // Output must be a fully valid Variant (sorted keys included).
    VS_ASSIGN_OR_FAIL(auto av, VariantView::Make(am, view.value(row)));
    EXPECT_TRUE(testing::LogicalEqual(av, ev)) << "case " << number << " row " << row;
  }
}

// VariantToJson prints shredded columns straight from their typed columns: the text
// of every case, or its error, is that of its unshredded values, under both policies.
// The one leniency: text needs no field ids, so a shredded field name absent from the
// row's metadata prints.
TEST_P(ShreddedCorpusTest, PrintsAsItsUnshreddedValues) {
  const auto it = Cases().find(GetParam());
  if (it == Cases().end() || it->second.parquet_file.empty()) GTEST_SKIP();
  VS_ASSIGN_OR_FAIL(auto var, ReadVar(CorpusShredded() + "/" + it->second.parquet_file));
  for (auto policy : {ConflictPolicy::kRaise, ConflictPolicy::kTypedWins}) {
    UnshredOptions unshred;
    unshred.on_conflict = policy;
    VariantToJsonOptions print;
    print.on_conflict = policy;
    auto direct = VariantToJson(*var, print);
    auto plain = Unshred(*var, unshred);
    if (!plain.ok()) {
      if (plain.status().message().find("not in the row's metadata") !=
          std::string::npos) {
        continue;
      }
      ASSERT_FALSE(direct.ok()) << "case " << GetParam()
                                << " must fail as Unshred: " << plain.status().ToString();
      EXPECT_EQ(direct.status().ToString(), plain.status().ToString());
      continue;
    }
    ASSERT_TRUE(direct.ok()) << direct.status().ToString();
    VS_ASSIGN_OR_FAIL(auto expected, VariantToJson(**plain));
    EXPECT_TRUE((*direct)->Equals(*expected)) << "case " << GetParam() << "\n"
                                              << (*direct)->ToString() << "\n"
                                              << expected->ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ShreddedCorpusTest, ::testing::Range(1, 139),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "Case" + std::to_string(info.param);
                         });

TEST(ShreddedCorpusScannerTest, FindsEveryCase) {
  if (!std::ifstream(CorpusShredded() + "/cases.json")) GTEST_SKIP();
  EXPECT_EQ(Cases().size(), 138u);
  EXPECT_TRUE(Cases().at(40).is_error);
  EXPECT_TRUE(Cases().at(43).flagged_invalid);
  EXPECT_EQ(Cases().at(83).variant_files.size(), 4u);
  EXPECT_FALSE(Cases().at(83).variant_files[0].has_value());
  EXPECT_TRUE(Cases().at(3).parquet_file.empty());
}

}  // namespace
}  // namespace varshred
