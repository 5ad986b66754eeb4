// A main() for validate_fuzz when libFuzzer is not available (GCC builds): runs every
// file given (or every file in a given directory) through LLVMFuzzerTestOneInput, then
// `-runs=N` seeded random mutations of them (bit flips, byte overwrites, insertions,
// deletions, truncations). Usage: validate_fuzz [-runs=N] [-seed=S] <file|dir>...

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void Run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  long runs = 0;
  unsigned seed = 1;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "-runs=", 6) == 0) {
      runs = std::atol(argv[i] + 6);
    } else if (std::strncmp(argv[i], "-seed=", 6) == 0) {
      seed = static_cast<unsigned>(std::atol(argv[i] + 6));
    } else if (std::filesystem::is_directory(argv[i])) {
      for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
        if (entry.is_regular_file()) inputs.push_back(ReadAll(entry.path()));
      }
    } else {
      inputs.push_back(ReadAll(argv[i]));
    }
  }
  for (const std::string& input : inputs) Run(input);
  if (inputs.empty()) inputs.emplace_back(1, '\0');
  std::mt19937 rng(seed);
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  for (long r = 0; r < runs; ++r) {
    std::string s = inputs[pick(inputs.size())];
    const int edits = 1 + static_cast<int>(pick(4));
    for (int e = 0; e < edits; ++e) {
      switch (pick(5)) {
        case 0:
          if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1 << pick(8));
          break;
        case 1:
          if (!s.empty()) s[pick(s.size())] = static_cast<char>(pick(256));
          break;
        case 2:
          s.insert(s.begin() + static_cast<ptrdiff_t>(pick(s.size() + 1)),
                   static_cast<char>(pick(256)));
          break;
        case 3:
          if (!s.empty()) s.erase(s.begin() + static_cast<ptrdiff_t>(pick(s.size())));
          break;
        case 4:
          s.resize(s.empty() ? 0 : pick(s.size()));
          break;
      }
    }
    Run(s);
  }
  std::printf("validate_fuzz: %zu inputs, %ld mutations, no failure\n", inputs.size(),
              runs);
  return 0;
}
