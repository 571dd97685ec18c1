// SPDX-License-Identifier: MIT
// A saved run (hammer --shard 1/1 -o RUN.json) read back by `hammer merge` and `hammer report` goes through
// hammer's one strict JSON reader. A file edited by hand into something that is not JSON to the
// letter — here, a member pasted in twice — is bad input: one line naming the key, its line
// and its column, exit 1, nothing written; never a silent pick of one of the two.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

class SavedRunsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hammer_saved_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const char* name : {"run.json", "edited.json", "merged.json", "run.html", "edited.html"}) {
      ::unlink((dir_ + "/" + name).c_str());
    }
    ::rmdir(dir_.c_str());
  }
  std::string dir_;
};

TEST_F(SavedRunsTest, AKeyGivenTwiceIsRefusedByMergeAndReportInOneLineNamingItAndWhere) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string saved = dir_ + "/run.json";
  const Finished run =
      run_hammer({"--shard", "1/1", "-r", "50", "-c", "2", "-d", "1", "-o", saved, server.url()},
                 20);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // The untouched file is read by both: what follows fails for the edit alone.
  const Finished merged = run_hammer({"merge", saved, "-o", dir_ + "/merged.json"});
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  const Finished rendered = run_hammer({"report", saved, "-o", dir_ + "/run.html"});
  EXPECT_EQ(rendered.exit_code, 0) << rendered.err;

  // A "requests" member pasted in again, a line of its own before "connections".
  std::string text = read_file(saved);
  const std::string anchor = "\n  \"connections\": {";
  const size_t at = text.find(anchor);
  ASSERT_NE(at, std::string::npos) << text;
  ASSERT_NE(text.find("\n  \"requests\": {"), std::string::npos) << text;
  text.insert(at, "\n  \"requests\": {\"sent\": 1},");
  const std::string edited = dir_ + "/edited.json";
  std::ofstream(edited) << text;
  const long line = std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 2;
  const std::string where = "duplicate key \"requests\" at line " + std::to_string(line) +
                            ", column 3\n";

  const Finished merge = run_hammer({"merge", edited, "-o", dir_ + "/merged.json"});
  EXPECT_EQ(merge.exit_code, 1);
  EXPECT_EQ(merge.err, "hammer: merge: " + edited + ": not a JSON document: " + where);
  EXPECT_EQ(merge.out, "");

  const Finished report = run_hammer({"report", edited, "-o", dir_ + "/edited.html"});
  EXPECT_EQ(report.exit_code, 1);
  EXPECT_EQ(report.err, "hammer: report: '" + edited + "': not JSON: " + where);
  EXPECT_FALSE(exists(dir_ + "/edited.html")) << "nothing is written from a file not read";
}

}  // namespace
}  // namespace hammer::test
