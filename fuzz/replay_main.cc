// SPDX-License-Identifier: MIT
// A main() for builds without libFuzzer: runs LLVMFuzzerTestOneInput over every file of one
// corpus directory, in name order, so the committed corpus is exercised under CTest by gcc and
// sanitizer builds too. A missing or empty directory fails: a replay that ran nothing must not
// pass.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  if (error) {
    std::fprintf(stderr, "%s: cannot read %s: %s\n", argv[0], dir.c_str(), error.message().c_str());
    return 1;
  }
  if (files.empty()) {
    std::fprintf(stderr, "%s: no corpus files in %s\n", argv[0], dir.c_str());
    return 1;
  }
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot open %s\n", argv[0], file.c_str());
      return 1;
    }
    // A fresh exact-size vector, so sanitizers catch a read past the end of the input.
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs from %s\n", files.size(), dir.c_str());
  return 0;
}
