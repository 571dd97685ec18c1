// SPDX-License-Identifier: MIT
#include "cli/merge_options.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

namespace hammer {
namespace {

std::vector<std::string> paths_of(const std::vector<OutputFile>& outputs) {
  std::vector<std::string> paths;
  for (const OutputFile& output : outputs) paths.push_back(output.path);
  return paths;
}

std::string error_of(const std::vector<std::string>& args) {
  auto parsed = parse_merge_options(args);
  EXPECT_FALSE(parsed.has_value());
  return parsed ? std::string() : parsed.error().message;
}

TEST(MergeOptionsTest, ReadsInputsOutputsAndTolerance) {
  auto parsed = parse_merge_options({"a.json", "-o", "m.json", "b.json", "--output=m.hlog",
                                     "--start-tolerance", "250ms", "--json"});
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed->inputs, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_EQ(paths_of(parsed->outputs), (std::vector<std::string>{"m.json", "m.hlog"}));
  EXPECT_EQ(parsed->start_tolerance_ns, 250'000'000);
  EXPECT_TRUE(parsed->json);
  EXPECT_FALSE(parsed->interval_logs);
  auto logs = parse_merge_options({"a.hlog", "b.HLOG", "-om.hlog"});
  ASSERT_TRUE(logs.has_value()) << logs.error().message;
  EXPECT_TRUE(logs->interval_logs);
  EXPECT_EQ(parse_merge_options({"a.json"})->start_tolerance_ns, 1'000'000'000);
}

// -o naming one of the inputs would overwrite a shard's document (or log) with the merged
// one: refused, however the path is spelled. It was written over silently.
TEST(MergeOptionsTest, AnOutputThatIsAnInputIsRefused) {
  char pattern[] = "/tmp/hammer-merge-options-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  const std::string a = dir + "/a.json";
  std::FILE* file = std::fopen(a.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fclose(file);
  EXPECT_EQ(error_of({a, dir + "/b.json", "-o", dir + "/./a.json"}),
            "merge: --output: '" + dir + "/./a.json' is one of the files being merged; name "
            "another file");
  EXPECT_EQ(error_of({dir + "/b.hlog", dir + "/c.hlog", "-o" + dir + "/sub/../c.hlog"}),
            "merge: --output: '" + dir + "/sub/../c.hlog' is one of the files being merged; "
            "name another file");
  EXPECT_TRUE(parse_merge_options({a, dir + "/b.json", "-o", dir + "/m.json"}).has_value());
  std::remove(a.c_str());
  ::rmdir(dir.c_str());
}

// One file named twice would be added twice: interval logs carry no shard index to refuse it
// by (documents do), so it is refused by name, however spelled.
TEST(MergeOptionsTest, AnInputGivenTwiceIsRefused) {
  EXPECT_EQ(error_of({"a.hlog", "./a.hlog", "-o", "m.hlog"}),
            "merge: './a.hlog' is given twice (as 'a.hlog'); each shard once");
  EXPECT_EQ(error_of({"a.json", "b.json", "a.json"}),
            "merge: 'a.json' is given twice (as 'a.json'); each shard once");
}

// '--' ends the options, as on a run's command line and in hammer report: a shard file whose
// name starts with '-' can still be named. It was refused as an unknown option '--'.
TEST(MergeOptionsTest, DoubleDashEndsTheOptions) {
  auto parsed = parse_merge_options({"-o", "m.json", "--", "-a.json", "--json"});
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed->inputs, (std::vector<std::string>{"-a.json", "--json"}));
  EXPECT_EQ(paths_of(parsed->outputs), (std::vector<std::string>{"m.json"}));
  EXPECT_FALSE(parsed->json);
}

// The fleet's gate: a shard's --slo judges only its share; hammer merge --slo judges the sum.
TEST(MergeOptionsTest, ReadsTheFleetsSlosAsARunDoes) {
  auto parsed = parse_merge_options({"a.json", "b.json", "--slo", "p99=50ms", "--slo=errors=1%"});
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->slos.size(), 2u);
  EXPECT_EQ(parsed->slos[0].key, "p99");
  EXPECT_EQ(parsed->slos[0].limit_ns, 50'000'000);
  EXPECT_EQ(parsed->slos[1].key, "errors");
  EXPECT_DOUBLE_EQ(parsed->slos[1].error_rate, 0.01);
  EXPECT_EQ(error_of({"a.json", "--slo", "p99<50ms"}).rfind("merge: --slo: expected KEY=LIMIT", 0),
            0u);
  EXPECT_EQ(error_of({"a.json", "--slo", "p99=50ms", "--slo", "p99=20ms"}),
            "merge: --slo: p99 is given twice, got 'p99=20ms'");
  EXPECT_EQ(error_of({"a.json", "--slo"}), "merge: --slo: missing value");
  auto listed = parse_merge_options({"a.json", "--slo", "p95=20ms,max=1s"});
  ASSERT_TRUE(listed.has_value()) << listed.error().message;
  ASSERT_EQ(listed->slos.size(), 2u);
  EXPECT_EQ(listed->slos[1].key, "max");
  EXPECT_EQ(error_of({"a.hlog", "-o", "m.hlog", "--slo", "p99=1s"}),
            "merge: --slo: interval logs carry no error counts to judge; merge the .json "
            "documents");
}

TEST(MergeOptionsTest, RefusesWhatCannotBeMerged) {
  EXPECT_EQ(error_of({}), "merge: no shards given (usage: hammer merge A.json B.json ... [-o "
                          "merged.json])");
  EXPECT_EQ(error_of({"a.json", "b.hlog"}),
            "merge: cannot mix .hlog interval logs and .json documents ('a.json', 'b.hlog')");
  EXPECT_EQ(error_of({"a.hlog", "-o", "m.json"}),
            "merge: --output: interval logs merge into a .hlog file, got 'm.json'");
  EXPECT_EQ(error_of({"a.hlog"}), "merge: --output: merging interval logs needs -o merged.hlog");
  EXPECT_EQ(error_of({"a.json", "-o", "m.txt"}),
            "merge: --output: unknown file type; the extension chooses the format: "
            ".json .html .hgrm .csv .hlog, got 'm.txt'");
  EXPECT_EQ(error_of({"a.hlog", "-o", "m.html"}),
            "merge: --output: interval logs merge into a .hlog file, got 'm.html'");
  EXPECT_EQ(error_of({"a.json", "-o"}), "merge: --output: missing value");
  // As a run reads it (cli/shared_flags.h): the 24h cap a run had and merge lacked.
  EXPECT_EQ(error_of({"a.json", "--start-tolerance", "soon"}),
            "merge: --start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, "
            "500ms), got 'soon'");
  EXPECT_EQ(error_of({"a.json", "--start-tolerance", "25h"}),
            "merge: --start-tolerance: expected a duration >= 0, at most 24h (e.g. 0, 2s, "
            "500ms), got '25h'");
  EXPECT_EQ(error_of({"a.json", "--average"}),
            "merge: unknown option '--average'; see hammer merge --help");
}

}  // namespace
}  // namespace hammer
