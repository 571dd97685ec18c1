// SPDX-License-Identifier: MIT
#include "stats/interval_log.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kStart = 1'796'083'200LL * kSecond;  // 2026-12-01T00:00:00Z

IntervalLog two_tagged_intervals() {
  IntervalLog log;
  log.start_unix_ns = kStart;
  log.base_unix_ns = kStart;
  for (int second = 0; second < 2; ++second) {
    for (const char* tag : {"corrected", "uncorrected"}) {
      IntervalHistogram interval;
      interval.tag = tag;
      interval.start_ns = second * kSecond;
      interval.length_ns = kSecond;
      interval.histogram.record(182'452'000 + second);
      interval.histogram.record(1'000);
      log.intervals.push_back(interval);
    }
  }
  return log;
}

TEST(IntervalLogTest, WritesTheFormatHeadersLegendAndTaggedLines) {
  const std::string text = write_interval_log(two_tagged_intervals());
  EXPECT_TRUE(text.starts_with("#[Histogram log format version 1.3]\n"
                               "#[StartTime: 1796083200.000 (seconds since epoch), Tue Dec 01 "
                               "00:00:00 UTC 2026]\n"
                               "#[BaseTime: 1796083200.000 (seconds since epoch)]\n"
                               "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                               "\"Interval_Compressed_Histogram\"\n"
                               "Tag=corrected,0.000,1.000,182.452,HISTF"))
      << text;
  // Column 2 is the interval's length, not its end (design.md §8): the second interval too.
  EXPECT_NE(text.find("\nTag=uncorrected,1.000,1.000,"), std::string::npos) << text;
}

TEST(IntervalLogTest, ReadsBackWhatItWrites) {
  const IntervalLog written = two_tagged_intervals();
  auto read = read_interval_log(write_interval_log(written));
  ASSERT_TRUE(read.has_value()) << read.error();
  EXPECT_EQ(read->start_unix_ns, kStart);
  EXPECT_EQ(read->base_unix_ns, kStart);
  ASSERT_EQ(read->intervals.size(), 4u);
  EXPECT_EQ(read->intervals[3].tag, "uncorrected");
  EXPECT_EQ(read->intervals[3].start_ns, kSecond);
  EXPECT_EQ(read->intervals[3].length_ns, kSecond);
  EXPECT_EQ(read->intervals[3].histogram.total_count(), 2);
  EXPECT_EQ(read->intervals[3].histogram.max(),
            written.intervals[3].histogram.max());
}

TEST(IntervalLogTest, WithoutBaseTimeSmallStartTimesAreRelativeToStartTime) {
  // jHiccup's shape: untagged lines, no BaseTime, start times in seconds since StartTime.
  std::string text = "#[StartTime: 1796083200.000 (seconds since epoch), x]\n";
  IntervalHistogram interval;
  interval.start_ns = 0;
  interval.length_ns = kSecond;
  interval.histogram.record(5);
  IntervalLog log;
  log.intervals.push_back(interval);
  const std::string body = write_interval_log(log);
  text += body.substr(body.find("\"StartTimestamp\""));
  auto read = read_interval_log(text);
  ASSERT_TRUE(read.has_value()) << read.error();
  EXPECT_EQ(read->base_unix_ns, kStart);
  EXPECT_EQ(read->intervals.front().tag, "");
}

TEST(IntervalLogTest, LoadingADirectoryNamesItInsteadOfReadingNothing) {
  const auto log = load_interval_log("/tmp");
  ASSERT_FALSE(log.has_value());
  EXPECT_EQ(log.error(), "/tmp: cannot read: Is a directory");
}

TEST(IntervalLogTest, RefusesBrokenLinesNamingTheLine) {
  auto read = read_interval_log("#[StartTime: 1796083200.000 (seconds since epoch)]\n"
                                "Tag=corrected,0.000,1.000\n");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error(), "line 2: expected start,length,max,histogram");
  read = read_interval_log("0.000,1.000,1.0,HISTFnotbase64!!\n");
  ASSERT_FALSE(read.has_value());
  EXPECT_TRUE(read.error().starts_with("line 1: bad histogram: ")) << read.error();
  EXPECT_FALSE(read_interval_log("hello\n").has_value());
  EXPECT_FALSE(read_interval_log("").has_value());
}

}  // namespace
}  // namespace hammer
