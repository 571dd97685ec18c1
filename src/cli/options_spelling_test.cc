// SPDX-License-Identifier: MIT
// The shape of the run's command line: the spellings of a flag, a flag given again, "--",
// where the URL may stand, unknown flags and their suggestions (other tools' habits too), and
// the flags that stop parsing (-h, --version, --generate).
#include "cli/options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/options_testing.h"

namespace hammer {
namespace {

using namespace options_testing;

TEST(OptionsTest, AllFourSpellingsOfAValuedFlagAgree) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-c", "10", kUrl}, {"-c10", kUrl}, {"--connections", "10", kUrl},
        {"--connections=10", kUrl}}) {
    EXPECT_EQ(config_of(args).connections, 10) << args[0];
  }
}

TEST(OptionsTest, ARepeatedFlagKeepsItsLastValue) {
  EXPECT_EQ(config_of({"-c", "5", "-c", "7", kUrl}).connections, 7);
}

TEST(OptionsTest, DoubleDashEndsOptions) {
  EXPECT_EQ(config_of({"-c", "5", "--", kUrl}).connections, 5);
  EXPECT_EQ(error_of({"--", "--json"}),
            "bad URL '--json': missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of({kUrl, "--", "-c"}),
            "unexpected argument '-c'; hammer takes exactly one URL (already have '" +
                std::string(kUrl) + "')");
}

TEST(OptionsTest, UrlMayComeAnywhere) {
  const Config config = config_of({"-c", "5", kUrl, "--json", "-t", "2"});
  EXPECT_EQ(config.url, kUrl);
  EXPECT_EQ(config.threads, 2);
  EXPECT_TRUE(config.json);
}

TEST(OptionsTest, UrlMistakesAreNamed) {
  EXPECT_EQ(error_of({}), "missing URL (usage: hammer [options] <url>)");
  EXPECT_EQ(error_of({"-c", "5"}), "missing URL (usage: hammer [options] <url>)");
  EXPECT_EQ(error_of({kUrl, "http://other/"}),
            "unexpected argument 'http://other/'; hammer takes exactly one URL (already have '" +
                std::string(kUrl) + "')");
  // A flag without a value swallows nothing; its stray value shows up as a second argument.
  EXPECT_EQ(error_of({"--latency", "5", kUrl}),
            "unexpected argument 'http://127.0.0.1:8080/'; hammer takes exactly one URL "
            "(already have '5')");
  EXPECT_EQ(error_of({"ftp://x"}),
            "bad URL 'ftp://x': unsupported scheme 'ftp'; only http:// and https:// are "
            "supported");
  EXPECT_EQ(error_of({"localhost:8080"}),
            "bad URL 'localhost:8080': missing scheme; did you mean 'http://localhost:8080'?");
  EXPECT_EQ(error_of({"-"}), "bad URL '-': missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of({"http://h:99999/"}),
            "bad URL 'http://h:99999/': bad port '99999'; expected a number from 1 to 65535");
  // The URL is quoted with its control characters escaped, so the error stays one line.
  EXPECT_EQ(error_of({"http://h/a\r\nX: y"}),
            "bad URL 'http://h/a\\r\\nX: y': contains a control character");
}

TEST(OptionsTest, ErrorsThatRepeatPartOfAValueEscapeItsControlBytesToo) {
  // An SLO's key comes back in the reason as well as in the quoted value: both stay printable.
  const std::string error = error_of({"--slo", "p\x7f" "99=50ms", kUrl});
  EXPECT_EQ(error.find('\x7f'), std::string::npos) << error;
  EXPECT_NE(error.find("p\\x7f99"), std::string::npos) << error;
  EXPECT_EQ(error_of({"--slo", "p9\t9=5ms", kUrl}).find('\t'), std::string::npos);
}

TEST(OptionsTest, UnknownOptionsSuggestTheNearestName) {
  EXPECT_EQ(error_of({"--conections", kUrl}),
            "unknown option '--conections'; did you mean '--connections'?");
  EXPECT_EQ(error_of({"--conections=5", kUrl}),
            "unknown option '--conections=5'; did you mean '--connections'?");
  EXPECT_EQ(error_of({"--thread", "2", kUrl}),
            "unknown option '--thread'; did you mean '--threads'?");
  EXPECT_EQ(error_of({"--durtaion", "2", kUrl}),
            "unknown option '--durtaion'; did you mean '--duration'?");
  EXPECT_EQ(error_of({"--Latency", kUrl}), "unknown option '--Latency'; did you mean '--latency'?");
  EXPECT_EQ(error_of({"--closedloop", kUrl}),
            "unknown option '--closedloop'; did you mean '--closed-loop'?");
  EXPECT_EQ(error_of({"-connections", "5", kUrl}),
            "unknown option '-connections'; did you mean '--connections'?");
  EXPECT_EQ(error_of({"-json", kUrl}), "unknown option '-json'; did you mean '--json'?");
  // Short options in the other case: wrk2's -R is hammer's -r.
  EXPECT_EQ(error_of({"-R", "2000", kUrl}), "unknown option '-R'; did you mean '-r' (--rate)?");
  EXPECT_EQ(error_of({"-R2000", kUrl}), "unknown option '-R2000'; did you mean '-r' (--rate)?");
  EXPECT_EQ(error_of({"-C", "5", kUrl}),
            "unknown option '-C'; did you mean '-c' (--connections)?");
}

// Flags that wrk, wrk2, oha, hey, k6 and autocannon users type by habit: each names hammer's way
// to do the same, or says plainly that there is none. "-T" (a content type in hey and oha) and
// "-w" (autocannon's workers) must not suggest -t (threads) and -W (warm-up) by their case.
TEST(OptionsTest, OtherToolsFlagsNameHammersAlternative) {
  const auto says = [](std::vector<std::string> args, std::string_view hint) {
    args.push_back(kUrl);
    const std::string error = error_of(args);
    EXPECT_EQ(error.rfind("unknown option '" + args[0] + "'; ", 0), 0u) << error;
    EXPECT_NE(error.find(hint), std::string::npos) << args[0] << ": " << error;
  };
  says({"-s", "post.lua"}, "--requests FILE");
  says({"-s", "post.lua"}, "-m, -H and --body FILE");
  says({"--script", "post.lua"}, "--requests FILE");
  says({"--iterations", "1000"}, "-n (--requests-count)");
  says({"--amount", "1000"}, "-n (--requests-count)");
  says({"-a", "1000"}, "-n (--requests-count)");
  says({"-z", "10s"}, "-d (--duration)");
  says({"-q", "100"}, "-r (--rate)");
  says({"--rps", "100"}, "-r (--rate)");
  says({"--vus", "10"}, "-c (--connections)");
  says({"-u", "10"}, "-c (--connections)");
  says({"-L"}, "--latency");
  says({"-l"}, "--latency");
  says({"-U"}, "uncorrected");
  says({"--u_latency"}, "uncorrected");
  says({"--latency-correction"}, "-r");
  says({"--disable-keepalive"}, "--no-keepalive");
  says({"-T", "application/json"}, "-H 'Content-Type:");
  says({"-D", "body.json"}, "--body FILE");
  says({"-b", "{}"}, "--body FILE");
  says({"-w", "4"}, "-t (--threads)");
  says({"-j"}, "--json");
  says({"-h2"}, "--http2");
  // Glued values are the same habit: -q100, --rps=100.
  says({"-q100"}, "-r (--rate)");
  says({"--rps=100"}, "-r (--rate)");
}

TEST(OptionsTest, UnknownOptionsFarFromAnyNameGetNoSuggestion) {
  EXPECT_EQ(error_of({"--frobnicate", kUrl}), "unknown option '--frobnicate'; see hammer --help");
  EXPECT_EQ(error_of({"-x", kUrl}), "unknown option '-x'; see hammer --help");
  EXPECT_EQ(error_of({"-hx", kUrl}), "unknown option '-hx'; see hammer --help");
  EXPECT_EQ(error_of({"--", kUrl, "--"}),
            "unexpected argument '--'; hammer takes exactly one URL (already have '" +
                std::string(kUrl) + "')");
}

TEST(OptionsTest, HelpAndVersionNeedNoUrlAndStopParsing) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"-h"}, {"-c", "5", "--help", "--bogus"},
        {kUrl, "-h", "extra"}}) {
    auto parsed = parse_options(args);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(parsed->command, Command::help);
  }
  auto version = parse_options({"--version", "-c", "abc"});
  ASSERT_TRUE(version);
  EXPECT_EQ(version->command, Command::version);
}

TEST(OptionsTest, GenerateStopsParsingAndSaysWhat) {
  for (auto [word, kind] : {std::pair{"man", DocKind::man}, std::pair{"bash", DocKind::bash},
                            std::pair{"zsh", DocKind::zsh}}) {
    auto parsed = parse_options({"--generate", word, "-c", "abc"});
    ASSERT_TRUE(parsed) << word;
    EXPECT_EQ(parsed->command, Command::generate);
    EXPECT_EQ(parsed->generate, kind);
  }
}

TEST(OptionsTest, AnErrorBeforeHelpStillWins) {
  EXPECT_EQ(error_of({"--bogus", "--help"}), "unknown option '--bogus'; see hammer --help");
  EXPECT_EQ(error_of({"-c", "abc", "--version"}),
            "--connections: expected a whole number >= 1, got 'abc'");
}

}  // namespace
}  // namespace hammer
