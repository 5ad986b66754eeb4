// Resolving paths and URIs, and the never-partial publication of the Parquet writer on
// a store without a local rename (Arrow's MockFileSystem: the temporary + Move path that
// HDFS, GCS and Azure take). S3 is tested against a real server in
// tests/python/test_s3.py.

#include <arrow/builder.h>
#include <arrow/filesystem/localfs.h>
#include <arrow/filesystem/mockfs.h>
#include <arrow/table.h>

#include <filesystem>

#include "test_util.h"
#include "varshred/arrow/json_kernels.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/parquet/filesystem.h"
#include "varshred/parquet/reader.h"
#include "varshred/parquet/writer.h"

namespace varshred {
namespace {

namespace stdfs = std::filesystem;

std::shared_ptr<arrow::Table> Documents(const std::vector<const char*>& docs) {
  arrow::StringBuilder b;
  for (const char* d : docs) (void)b.Append(d);
  std::shared_ptr<arrow::Array> strings;
  (void)b.Finish(&strings);
  auto v = *JsonToVariant(*strings);
  return arrow::Table::Make(arrow::schema({arrow::field("v", v->type())}), {v});
}

std::vector<std::string> MockFiles(arrow::fs::internal::MockFileSystem& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs.AllFiles()) out.push_back(f.full_path);
  return out;
}

TEST(ResolveFileTest, LocalPathsStayAsGivenAndFileUrisAreLocal) {
  VS_ASSIGN_OR_FAIL(auto rel, ResolveFile("dir/x.parquet"));
  EXPECT_EQ(rel.fs->type_name(), "local");
  EXPECT_EQ(rel.path, "dir/x.parquet");
  VS_ASSIGN_OR_FAIL(auto uri, ResolveFile("file:///tmp/x.parquet"));
  EXPECT_EQ(uri.fs->type_name(), "local");
  EXPECT_EQ(uri.path, "/tmp/x.parquet");
  // A name with a colon is not a URI.
  VS_ASSIGN_OR_FAIL(auto colon, ResolveFile("a:b.parquet"));
  EXPECT_EQ(colon.path, "a:b.parquet");
}

TEST(ResolveFileTest, GivenFilesystemTakesPathsAndItsOwnUris) {
  auto mock = std::make_shared<arrow::fs::internal::MockFileSystem>(
      arrow::fs::TimePoint(std::chrono::seconds(0)));
  VS_ASSIGN_OR_FAIL(auto plain, ResolveFile("bucket/x.parquet", mock));
  EXPECT_EQ(plain.fs, mock);
  EXPECT_EQ(plain.path, "bucket/x.parquet");
  VS_ASSIGN_OR_FAIL(auto local,
                    ResolveFile("file:///tmp/x.parquet",
                                std::make_shared<arrow::fs::LocalFileSystem>()));
  EXPECT_EQ(local.path, "/tmp/x.parquet");
}

TEST(ResolveFileTest, UnknownSchemesNameTheUri) {
  auto st = ResolveFile("nosuchscheme://bucket/x.parquet").status();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nosuchscheme://bucket/x.parquet"), std::string::npos)
      << st.ToString();
}

TEST(ParquetFilesystemTest, WritesPublishUnderTheFinalNameOnlyWhenClosed) {
  auto mock = std::make_shared<arrow::fs::internal::MockFileSystem>(
      arrow::fs::TimePoint(std::chrono::seconds(0)));
  VS_ASSERT_OK(mock->CreateDir("bucket/out"));
  auto table = Documents({R"({"id": 1})", R"({"id": 2})", R"("text")"});
  ParquetWriteOptions options;
  options.filesystem = mock;
  VS_ASSIGN_OR_FAIL(auto writer, ParquetWriter::Open("bucket/out/x.parquet",
                                                     table->schema(), {}, options));
  VS_ASSERT_OK(writer->Write(**table->CombineChunksToBatch()));
  // Until Close() only a hidden temporary exists, which dataset readers skip.
  auto before = MockFiles(*mock);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].rfind("bucket/out/.x.parquet.varshred-tmp-", 0), 0u) << before[0];
  VS_ASSERT_OK(writer->Close());
  EXPECT_EQ(MockFiles(*mock), std::vector<std::string>{"bucket/out/x.parquet"});

  ParquetReadOptions read;
  read.filesystem = mock;
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet("bucket/out/x.parquet", read));
  EXPECT_EQ(back->num_rows(), 3);
  VS_ASSIGN_OR_FAIL(auto columns, InspectParquet("bucket/out/x.parquet", mock));
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_EQ(columns[0].layout, VariantColumnLayout::kUnshredded);
}

TEST(ParquetFilesystemTest, FailedAndAbortedWritesLeaveNothing) {
  auto mock = std::make_shared<arrow::fs::internal::MockFileSystem>(
      arrow::fs::TimePoint(std::chrono::seconds(0)));
  VS_ASSERT_OK(mock->CreateDir("b"));
  ParquetWriteOptions options;
  options.filesystem = mock;
  // Bytes that are not a Variant in row 1.
  VariantArrayBuilder builder;
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, kNullValue));
  VS_ASSERT_OK(builder.Append(kEmptyMetadata, std::string("\x02\x05", 2)));
  VS_ASSIGN_OR_FAIL(auto bad, builder.Finish());
  auto table = arrow::Table::Make(arrow::schema({arrow::field("v", bad->type())}), {bad});
  auto st = WriteParquet(*table, "b/bad.parquet", {}, options);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.ToString();
  EXPECT_TRUE(MockFiles(*mock).empty());

  auto good = Documents({R"({"id": 1})"});
  VS_ASSIGN_OR_FAIL(auto writer,
                    ParquetWriter::Open("b/x.parquet", good->schema(), {}, options));
  VS_ASSERT_OK(writer->Write(**good->CombineChunksToBatch()));
  writer->Abort();
  writer.reset();
  VS_ASSIGN_OR_FAIL(writer,
                    ParquetWriter::Open("b/y.parquet", good->schema(), {}, options));
  VS_ASSERT_OK(writer->Write(**good->CombineChunksToBatch()));
  writer.reset();  // never closed: dropped
  EXPECT_TRUE(MockFiles(*mock).empty());
}

TEST(ParquetFilesystemTest, FileUrisReadAndWriteLocalFiles) {
  const stdfs::path dir =
      stdfs::temp_directory_path() / ("varshred_fs_" + std::to_string(::getpid()));
  stdfs::remove_all(dir);
  stdfs::create_directories(dir);
  const std::string uri = "file://" + (dir / "x.parquet").string();
  auto table = Documents({R"({"a": [1, 2]})", R"(null)"});
  VS_ASSERT_OK(WriteParquet(*table, uri, {}));
  EXPECT_TRUE(stdfs::exists(dir / "x.parquet"));
  EXPECT_EQ(std::distance(stdfs::directory_iterator(dir), stdfs::directory_iterator()),
            1);
  VS_ASSIGN_OR_FAIL(auto back, ReadParquet(uri));
  EXPECT_EQ(back->num_rows(), 2);
  auto missing = ReadParquet("file://" + (dir / "none.parquet").string()).status();
  EXPECT_TRUE(missing.IsIOError()) << missing.ToString();
  EXPECT_NE(missing.message().find("none.parquet"), std::string::npos)
      << missing.ToString();
  stdfs::remove_all(dir);
}

}  // namespace
}  // namespace varshred
