// SPDX-License-Identifier: MIT
// Issue 14: -o/--output. The files of one run agree with its stdout (--json is the same
// document), a file that cannot be written costs only itself (exit 2, a line naming it, the
// others still written), an unknown extension is refused before any load is sent, and a saved
// document edited into bad JSON is refused when read back.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "e2e/e2e.h"

namespace hammer::test {
namespace {

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

class OutputFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hammer_output_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const char* name : {"run.json", "run.csv", "run.hgrm", "run.uncorrected.hgrm",
                             "run.hlog", "kept.json", "kept.csv", "edited.json", "merged.json",
                             "run.html", "edited.html", "sweep.json", "report.html"}) {
      ::unlink((dir_ + "/" + name).c_str());
    }
    ::rmdir(dir_.c_str());
  }
  std::string dir_;
};

TEST_F(OutputFilesTest, EveryFormatFromOneRunAgreesWithStdout) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer({"-c", "2", "-t", "1", "-d", "2", "-r", "200", "--json", "-o",
                                   dir_ + "/run.json", "-o", dir_ + "/run.csv", "--output",
                                   dir_ + "/run.hgrm", "-o", dir_ + "/run.hlog", server.url()},
                                  20);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(read_file(dir_ + "/run.json"), run.out) << "-o x.json is the --json document";

  const JsonValue report = parse_report(run);
  const JsonValue* rows = report.find("timeline.rows");
  ASSERT_NE(rows, nullptr);
  std::stringstream csv(read_file(dir_ + "/run.csv"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), rows->items.size() + 1) << "a header, then one line per second";
  EXPECT_TRUE(lines[0].starts_with("second,start_s,")) << lines[0];
  const std::string first_requests = std::to_string(static_cast<int64_t>(
      number_at(rows->items[0], "requests")));
  EXPECT_TRUE(lines[1].starts_with("1,0,1,measured," + first_requests + ",")) << lines[1];

  const std::string corrected = read_file(dir_ + "/run.hgrm");
  const std::string uncorrected = read_file(dir_ + "/run.uncorrected.hgrm");
  const std::string total = std::to_string(static_cast<int64_t>(
      number_at(report, "latency.corrected.count")));
  for (const std::string* hgrm : {&corrected, &uncorrected}) {
    EXPECT_TRUE(hgrm->starts_with("       Value     Percentile TotalCount 1/(1-Percentile)\n\n"))
        << *hgrm;
    EXPECT_NE(hgrm->find("Total count    = " + std::string(12 - total.size(), ' ') + total),
              std::string::npos)
        << *hgrm;
  }

  // The interval log: one line per measured second per stopwatch (tests/interop reads it with
  // Java's HistogramLogProcessor).
  const std::string hlog = read_file(dir_ + "/run.hlog");
  EXPECT_TRUE(hlog.starts_with("#[Histogram log format version 1.3]\n")) << hlog;
  EXPECT_NE(hlog.find("\n#[StartTime: "), std::string::npos) << hlog;
  EXPECT_NE(hlog.find("\n#[BaseTime: "), std::string::npos) << hlog;
  size_t corrected_lines = 0;
  size_t uncorrected_lines = 0;
  std::stringstream log_lines(hlog);
  for (std::string line; std::getline(log_lines, line);) {
    corrected_lines += line.starts_with("Tag=corrected,") ? 1 : 0;
    uncorrected_lines += line.starts_with("Tag=uncorrected,") ? 1 : 0;
  }
  EXPECT_EQ(corrected_lines, rows->items.size()) << hlog;
  EXPECT_EQ(uncorrected_lines, rows->items.size()) << hlog;
}

TEST_F(OutputFilesTest, AnUnwritableFileExitsTwoNamingItAndTheOthersAreStillWritten) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  // A directory where the file should go: found only when the file is renamed into place.
  const std::string taken = dir_ + "/taken.json";
  ASSERT_EQ(::mkdir(taken.c_str(), 0700), 0);
  const Finished run = run_hammer({"-c", "1", "-d", "1", "-o", taken, "-o", dir_ + "/kept.json",
                                   "-o", dir_ + "/kept.csv", server.url()},
                                  20);
  ::rmdir(taken.c_str());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(run.err.starts_with("hammer: --output: cannot write '" + taken + "': "))
      << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.out.find("Requests/sec"), std::string::npos) << "the text report still prints";
  EXPECT_TRUE(exists(dir_ + "/kept.json"));
  EXPECT_TRUE(exists(dir_ + "/kept.csv"));
  std::string error;
  EXPECT_TRUE(parse_json(read_file(dir_ + "/kept.json"), &error).has_value()) << error;
}

// "-o results/run.json" with no results/ directory used to cost the whole run: the file was
// found unwritable only after it. It is refused before any connection, exit 1.
TEST_F(OutputFilesTest, AMissingOutputDirectoryIsRefusedBeforeTheRun) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string missing = dir_ + "/no/such/dir/run.json";
  const Finished run = run_hammer({"-c", "1", "-d", "5", "-o", dir_ + "/kept.json", "-o",
                                   missing, server.url()},
                                  20);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "hammer: --output: cannot write '" + missing + "': no directory '" + dir_ +
                         "/no/such/dir'\n");
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(exists(dir_ + "/kept.json"));
}

// `hammer ... -o run.json | head -0` (or a reader that died): standard output is a pipe with
// no reader. The report cannot be written, which is exit 2 with its reason, like a full disk;
// the -o files are still written. SIGPIPE used to kill hammer (exit 141 in a shell) before it
// wrote them, so a long run's files were lost to a closed pipe.
TEST_F(OutputFilesTest, AStdoutWithNoReaderIsExitTwoAndTheFilesAreStillWritten) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  // `true` exits at once, long before the half-second run prints anything.
  const Finished run = run_process(
      {"/bin/bash", "-c", "\"$@\" | true; exit \"${PIPESTATUS[0]}\"", "hammer",
       hammer_binary(), "-c", "1", "-d", "0.5", "-o", dir_ + "/kept.json", server.url()},
      20);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err, "hammer: cannot write to standard output: Broken pipe\n");
  EXPECT_TRUE(exists(dir_ + "/kept.json"));
  std::string error;
  EXPECT_TRUE(parse_json(read_file(dir_ + "/kept.json"), &error).has_value()) << error;
}

TEST_F(OutputFilesTest, AnUnknownExtensionExitsOneBeforeTheRun) {
  // Nothing listens on the port: a run that started would exit 2 for the refused connection.
  const Finished run = run_hammer({"-d", "30", "-o", dir_ + "/run.json", "-o",
                                   dir_ + "/run.xml",
                                   "http://127.0.0.1:" + std::to_string(unused_port()) + "/"},
                                  10);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_LT(run.wall_s, 5.0);
  EXPECT_TRUE(run.err.starts_with("hammer: --output: unknown file type; the extension chooses "
                                  "the format: .json "))
      << run.err;
  EXPECT_FALSE(exists(dir_ + "/run.json")) << "nothing is written for a run that never ran";
}

// A saved run (--shard 1/1 -o RUN.json, so that `hammer merge` takes it too) read back by
// `hammer merge` and `hammer report` goes through hammer's one strict JSON reader. A file edited
// by hand into something that is not JSON to the letter, here a member pasted in twice, is bad
// input: one line naming the key, its line and its column, exit 1, nothing written; never a
// silent pick of one of the two.
TEST_F(OutputFilesTest, AKeyGivenTwiceIsRefusedByMergeAndReportInOneLineNamingItAndWhere) {
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

// `hammer report RUN.json` without -o is what vegeta's `report` is: the saved run's text report,
// here letter for letter what the run printed (warm-up, verdicts and SLO lines included), read
// back from the document's histograms; a sweep's document, the sweep's table and readings.
TEST_F(OutputFilesTest, ReportWithoutAnOutputPrintsTheSavedRunsTextAsTheRunDid) {
  ServerProcess server({test_server_binary(), "--port", "0", "--mode", "status", "--status",
                        "503"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const std::string saved = dir_ + "/run.json";
  const Finished run = run_hammer({"-r", "100", "-c", "2", "-t", "1", "-W", "0.3", "-d", "0.5",
                                   "--slo", "p99=1s", "--slo", "errors=1%", "-o", saved,
                                   server.url()},
                                  20);
  ASSERT_EQ(run.exit_code, 2) << run.err;  // every answer a 503: the run did not work
  const Finished report = run_hammer({"report", saved});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.out, run.out);
  EXPECT_NE(report.out.find("non-2xx or 3xx responses"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("SLO p99 <= 1.00s"), std::string::npos) << report.out;

  const std::string sweep = dir_ + "/sweep.json";
  const Finished swept = run_hammer(
      {"-r", "50,100", "-c", "2", "-t", "1", "-d", "0.3", "-o", sweep, server.url()}, 20);
  ASSERT_NE(swept.exit_code, 1) << swept.err;
  // A sweep's document prints the sweep's table and readings, as the sweep printed them (it
  // was refused: "renders as HTML only").
  const Finished reported = run_hammer({"report", sweep});
  EXPECT_EQ(reported.exit_code, 0) << reported.err;
  EXPECT_EQ(reported.out, swept.out);
  EXPECT_NE(reported.out.find("Sweep @ "), std::string::npos) << reported.out;
}

// Issue 24: a run's own -o page and `hammer report` of its -o .json are one page, byte for byte
// (the page names the run by that file, "run.json", in both). They differed: the run's page
// called it "this run".
TEST_F(OutputFilesTest, ReportOfASavedRunWritesTheRunsOwnPageByteForByte) {
  ServerProcess server({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(server.ready()) << server.startup_output();
  const Finished run = run_hammer({"-r", "100", "-c", "2", "-t", "1", "-W", "0.3", "-d", "0.5",
                                   "--slo", "p99=1s", "-o", dir_ + "/run.json", "-o",
                                   dir_ + "/run.html", server.url()},
                                  20);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Finished report =
      run_hammer({"report", dir_ + "/run.json", "-o", dir_ + "/report.html"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string page = read_file(dir_ + "/run.html");
  EXPECT_NE(page.find("run.json"), std::string::npos) << "the page names its document";
  EXPECT_TRUE(page == read_file(dir_ + "/report.html")) << "the two pages differ";
}

}  // namespace
}  // namespace hammer::test
