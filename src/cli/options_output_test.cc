// SPDX-License-Identifier: MIT
// -o/--output: repeated, its format chosen by the extension, and the files it must not be
// (the run's own input, an .hgrm's companion, a path whose directory does not exist), each
// refused before the run in one line.
#include "cli/options.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/options_testing.h"

namespace hammer {
namespace {

using namespace options_testing;

TEST(OptionsTest, OutputRepeatsAndTheExtensionChoosesTheFormat) {
  const Config config =
      config_of({"-o", "run.json", kUrl, "--output", "/tmp/run.HGRM", "-orun.csv", "-o", "x.y.json"});
  ASSERT_EQ(config.outputs.size(), 4u);
  EXPECT_EQ(config.outputs[0].path, "run.json");
  EXPECT_EQ(config.outputs[0].format, OutputFormat::json);
  EXPECT_EQ(config.outputs[1].path, "/tmp/run.HGRM");
  EXPECT_EQ(config.outputs[1].format, OutputFormat::hgrm);
  EXPECT_EQ(config.outputs[2].path, "run.csv");
  EXPECT_EQ(config.outputs[2].format, OutputFormat::csv);
  EXPECT_EQ(config.outputs[3].format, OutputFormat::json);
  EXPECT_FALSE(config.json) << "-o x.json does not turn stdout into JSON";
  EXPECT_TRUE(config_of({kUrl}).outputs.empty());
  // A sweep writes its steps as .json and .csv.
  EXPECT_EQ(config_of({"-c", "1,2", "-o", "s.csv", "-o", "s.json", kUrl}).outputs.size(), 2u);
}

// -o run.hgrm in open loop also writes run.uncorrected.hgrm (run.corrected.hgrm with
// --closed-loop). Naming that file in another -o wrote it twice, the second time with the other
// histogram: run.uncorrected.hgrm held the corrected one.
TEST(OptionsTest, AnOutputThatIsAnHgrmsCompanionIsRefused) {
  EXPECT_EQ(error_of({"-r", "100", "-o", "a.hgrm", "-o", "a.uncorrected.hgrm", kUrl}),
            "--output: -o a.hgrm already writes the uncorrected histogram there; give a.hgrm "
            "alone, got 'a.uncorrected.hgrm'");
  EXPECT_EQ(error_of({"-r", "100", "-o", "a.uncorrected.hgrm", "-o", "a.hgrm", kUrl}),
            "--output: -o a.hgrm already writes the uncorrected histogram there; give a.hgrm "
            "alone, got 'a.uncorrected.hgrm'");
  EXPECT_EQ(error_of({"-r", "100", "--closed-loop", "-o", "d/a.hgrm", "-o", "d/a.corrected.hgrm",
                      kUrl}),
            "--output: -o d/a.hgrm already writes the corrected histogram there; give d/a.hgrm "
            "alone, got 'd/a.corrected.hgrm'");
  // However spelled: "./a.uncorrected.hgrm" is the same file, and it ended up holding the
  // corrected histogram (the second write of it).
  EXPECT_EQ(error_of({"-r", "100", "-o", "a.hgrm", "-o", "./a.uncorrected.hgrm", kUrl}),
            "--output: -o a.hgrm already writes the uncorrected histogram there; give a.hgrm "
            "alone, got './a.uncorrected.hgrm'");
  // Closed loop writes no companion; open loop's other name is free.
  EXPECT_EQ(config_of({"-o", "a.hgrm", "-o", "a.uncorrected.hgrm", kUrl}).outputs.size(), 2u);
  EXPECT_EQ(config_of({"-r", "100", "-o", "a.hgrm", "-o", "a.corrected.hgrm", kUrl})
                .outputs.size(),
            2u);
}

// -o naming the --body or --requests file would overwrite the user's input with the report
// after the run: refused before it, however the path is spelled.
TEST(OptionsTest, AnOutputThatIsTheBodyOrTheRequestsFileIsRefused) {
  char path[] = "/tmp/hammer-options-input-XXXXXX.json";
  const int fd = mkstemps(path, 5);
  ASSERT_GE(fd, 0);
  const std::string line = "{\"path\": \"/a\"}\n";
  ASSERT_EQ(write(fd, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  close(fd);
  const std::string spelled = std::string("/tmp/./") + (path + 5);
  EXPECT_EQ(error_of({"-m", "POST", "--body", path, "-o", spelled, kUrl}),
            "--output: '" + spelled + "' is the --body file; name another file");
  EXPECT_EQ(error_of({"--requests", path, "-o", path, kUrl}),
            std::string("--output: '") + path + "' is the --requests file; name another file");
  std::remove(path);
}

// "-o results/run.json" with no results/ directory (a typo, a fresh checkout) was found only
// after the whole run, when the file could not be written. The directory is checked before
// the run; the file itself is still written atomically after it.
TEST(OptionsTest, AnOutputInADirectoryThatDoesNotExistIsRefusedBeforeTheRun) {
  char file[] = "/tmp/hammer-options-plain-XXXXXX";
  const int fd = mkstemp(file);
  ASSERT_GE(fd, 0);
  close(fd);
  EXPECT_EQ(error_of({"-o", "/tmp/hammer-no-such-dir-7f3a/run.json", kUrl}),
            "--output: cannot write '/tmp/hammer-no-such-dir-7f3a/run.json': no directory "
            "'/tmp/hammer-no-such-dir-7f3a'");
  EXPECT_EQ(error_of({"-o", std::string(file) + "/run.csv", kUrl}),
            "--output: cannot write '" + std::string(file) + "/run.csv': '" + file +
                "' is not a directory");
  std::remove(file);
  EXPECT_EQ(config_of({"-o", "/tmp/run.json", "-o", "run.csv", kUrl}).outputs.size(), 2u)
      << "an existing directory, and the working one, are fine";
}

}  // namespace
}  // namespace hammer
