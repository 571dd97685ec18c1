// SPDX-License-Identifier: MIT
#include "report/prometheus_text.h"

#include <gtest/gtest.h>
#include <gtest/gtest-spi.h>

#include <cctype>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

namespace hammer {
namespace {

Config open_loop_config() {
  Config config;
  config.url = "http://127.0.0.1:8080/a\"b";
  config.rate = 500;
  config.engine = EngineKind::epoll;
  return config;
}

LiveFigures figures_with(bool warmup) {
  LiveFigures figures;
  figures.open_loop = true;
  RunResult measured;
  measured.sent = 12;
  measured.completed = 10;
  measured.status_classes[1] = 9;
  measured.status_classes[4] = 1;
  measured.errors[static_cast<int>(ErrorKind::timeout)] = 2;
  measured.corrected.record_n(3'000'000, 10);
  measured.uncorrected.record_n(1'000'000, 10);
  figures.phases[static_cast<int>(Phase::measured)].take(measured);
  if (warmup) {
    RunResult early;
    early.sent = 4;
    early.completed = 4;
    early.status_classes[1] = 4;
    figures.phases[static_cast<int>(Phase::warmup)].take(early);
  }
  figures.scheduled = 13;
  figures.in_flight = 2;
  figures.connections = 4;
  Histogram lag(1, Histogram::kDefaultHighestTrackableValue, 2);
  lag.record_n(50'000, 12);
  figures.dispatch_lag.count_from(lag);
  figures.lag_threshold_ns = 1'000'000;
  return figures;
}

bool is_name_char(char c, bool first) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':' ||
         (!first && std::isdigit(static_cast<unsigned char>(c)));
}

/// The metric or label name at the start of `text` (may be empty), taken off it.
std::string take_name(std::string_view& text) {
  size_t length = 0;
  while (length < text.size() && is_name_char(text[length], length == 0)) ++length;
  std::string name(text.substr(0, length));
  text.remove_prefix(length);
  return name;
}

/// `{name="value",...}` at the start of `text`, escapes included, taken off it; false when it
/// is not well formed. (Hand-written: std::regex trips GCC 12's -Wmaybe-uninitialized under
/// the sanitizers.)
bool take_labels(std::string_view& text) {
  if (text.empty() || text.front() != '{') return true;
  text.remove_prefix(1);
  while (!text.empty() && text.front() != '}') {
    if (take_name(text).empty() || text.substr(0, 2) != "=\"") return false;
    text.remove_prefix(2);
    while (!text.empty() && text.front() != '"') {
      if (text.front() == '\\') {
        if (text.size() < 2 || std::string_view("\\\"n").find(text[1]) == std::string_view::npos) {
          return false;
        }
        text.remove_prefix(1);
      }
      text.remove_prefix(1);
    }
    if (text.empty()) return false;
    text.remove_prefix(1);  // the closing quote
    if (!text.empty() && text.front() == ',') text.remove_prefix(1);
  }
  if (text.empty()) return false;
  text.remove_prefix(1);  // '}'
  return true;
}

bool is_sample_value(std::string_view value) {
  if (value == "+Inf" || value == "-Inf" || value == "NaN") return true;
  return !value.empty() && value.find_first_not_of("0123456789.e+-") == std::string_view::npos;
}

/// name{labels} -> value for every sample line; fails the test on a line that is none of a
/// sample, a # HELP or a # TYPE (the exposition format's three kinds), or a sample whose
/// family has no # TYPE before it.
std::map<std::string, std::string> samples_of(const std::string& page) {
  std::map<std::string, std::string> samples;
  std::set<std::string> typed;
  std::istringstream lines(page);
  std::string line;
  while (std::getline(lines, line)) {
    std::string_view rest = line;
    if (rest.starts_with("# HELP ") || rest.starts_with("# TYPE ")) {
      const bool type = rest.starts_with("# TYPE ");
      rest.remove_prefix(7);
      const std::string name = take_name(rest);
      EXPECT_FALSE(name.empty()) << line;
      EXPECT_TRUE(rest.size() > 1 && rest.front() == ' ') << line;
      if (type) typed.insert(name);
      continue;
    }
    const std::string name = take_name(rest);
    const bool labels_ok = take_labels(rest);
    if (name.empty() || !labels_ok || rest.empty() || rest.front() != ' ' ||
        !is_sample_value(rest.substr(1))) {
      ADD_FAILURE() << "not a sample: " << line;
      continue;
    }
    std::string family = name;
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string tail = suffix;
      if (!typed.contains(family) && family.ends_with(tail)) {
        family.resize(family.size() - tail.size());
      }
    }
    EXPECT_TRUE(typed.contains(family)) << "no # TYPE before " << line;
    const size_t space = line.rfind(' ');
    EXPECT_FALSE(samples.contains(line.substr(0, space))) << "twice: " << line;
    samples[line.substr(0, space)] = line.substr(space + 1);
  }
  return samples;
}

TEST(PrometheusTextTest, TheLineCheckerRefusesWhatIsNotTheFormat) {
  EXPECT_NONFATAL_FAILURE(samples_of("hammer_x{a=\"1\" 2\n"), "not a sample");
  EXPECT_NONFATAL_FAILURE(samples_of("hammer x\n"), "not a sample");
  EXPECT_NONFATAL_FAILURE(samples_of("hammer_x 1\n"), "no # TYPE");
}

TEST(PrometheusTextTest, EveryLineIsASampleOrItsHelpAndTypeAndTheCountsAreWhole) {
  const std::string page = render_prometheus_text(open_loop_config(), figures_with(true));
  const auto samples = samples_of(page);
  EXPECT_EQ(samples.at(R"(hammer_requests_total{phase="measured",status="2xx"})"), "9");
  EXPECT_EQ(samples.at(R"(hammer_requests_total{phase="measured",status="5xx"})"), "1");
  EXPECT_EQ(samples.at(R"(hammer_requests_total{phase="measured",status="1xx"})"), "0");
  EXPECT_EQ(samples.at(R"(hammer_requests_total{phase="warmup",status="2xx"})"), "4");
  EXPECT_EQ(samples.at(R"(hammer_errors_total{phase="measured",kind="timeout"})"), "2");
  EXPECT_EQ(samples.at(R"(hammer_errors_total{phase="measured",kind="tls"})"), "0");
  EXPECT_EQ(samples.at(R"(hammer_requests_sent_total{phase="measured"})"), "12");
  EXPECT_EQ(samples.at("hammer_requests_scheduled_total"), "13");
  EXPECT_EQ(samples.at("hammer_requests_in_flight"), "2");
  EXPECT_EQ(samples.at("hammer_connections_open"), "4");
  EXPECT_EQ(samples.at("hammer_target_rate"), "500");
  EXPECT_EQ(samples.at("hammer_dispatch_lag_threshold_seconds"), "0.001");
  EXPECT_FALSE(samples.contains(R"(hammer_requests_total{phase="ramp",status="2xx"})"));
  // The URL's double quote is escaped, so the label still parses.
  EXPECT_NE(page.find(R"(url="http://127.0.0.1:8080/a\"b")"), std::string::npos);
}

TEST(PrometheusTextTest, LatencyIsAHistogramPerStopwatchInSecondsWithInfEqualToTheCount) {
  const auto samples = samples_of(render_prometheus_text(open_loop_config(), figures_with(false)));
  const std::string corrected = R"(hammer_latency_seconds_bucket{phase="measured",stopwatch="corrected",le=)";
  EXPECT_EQ(samples.at(corrected + R"("0.0025"})"), "0");
  EXPECT_EQ(samples.at(corrected + R"("0.005"})"), "10");
  EXPECT_EQ(samples.at(corrected + R"("+Inf"})"), "10");
  EXPECT_EQ(samples.at(R"(hammer_latency_seconds_count{phase="measured",stopwatch="corrected"})"), "10");
  const double sum = std::stod(
      samples.at(R"(hammer_latency_seconds_sum{phase="measured",stopwatch="uncorrected"})"));
  EXPECT_NEAR(sum, 0.010, 0.010 * 1e-3);
  EXPECT_EQ(samples.at(R"(hammer_latency_seconds_bucket{phase="measured",stopwatch="uncorrected",le="0.001"})"),
            "10");
  EXPECT_EQ(samples.at(R"(hammer_dispatch_lag_seconds_bucket{le="0.0001"})"), "12");
  // Buckets rise with le, each family's +Inf last.
  int64_t previous = -1;
  for (const int64_t bound : kLiveBucketBoundsNs) {
    char le[32];
    std::snprintf(le, sizeof le, "\"%g\"}", static_cast<double>(bound) / 1e9);
    const int64_t count = std::stoll(samples.at(corrected + le));
    EXPECT_GE(count, previous) << le;
    previous = count;
  }
}

TEST(PrometheusTextTest, ClosedLoopHasNeitherTheCorrectedStopwatchNorDispatchLag) {
  Config config;
  config.url = "http://127.0.0.1:8080/";
  LiveFigures figures;
  RunResult measured;
  measured.uncorrected.record(1'000'000);
  figures.phases[static_cast<int>(Phase::measured)].take(measured);
  const std::string page = render_prometheus_text(config, figures);
  samples_of(page);
  EXPECT_EQ(page.find("stopwatch=\"corrected\""), std::string::npos);
  EXPECT_EQ(page.find("hammer_dispatch_lag"), std::string::npos);
  EXPECT_EQ(page.find("hammer_requests_scheduled_total"), std::string::npos);
  EXPECT_NE(page.find("mode=\"closed\""), std::string::npos);
  EXPECT_NE(page.find("stopwatch=\"uncorrected\""), std::string::npos);
}

TEST(PrometheusTextTest, EverySeriesTheGrafanaDashboardReadsIsServed) {
  std::ifstream in(std::string(HAMMER_SOURCE_DIR) + "/deploy/grafana/hammer-dashboard.json");
  ASSERT_TRUE(in) << "deploy/grafana/hammer-dashboard.json";
  const std::string dashboard{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string page = render_prometheus_text(open_loop_config(), figures_with(true));
  const auto samples = samples_of(page);
  std::set<std::string> names;
  for (const auto& [series, value] : samples) names.insert(series.substr(0, series.find('{')));
  int read = 0;
  for (size_t at = dashboard.find("hammer_"); at != std::string::npos;
       at = dashboard.find("hammer_", at + 1)) {
    size_t end = at + 7;
    while (end < dashboard.size() && (std::islower(static_cast<unsigned char>(dashboard[end])) ||
                                      dashboard[end] == '_')) {
      ++end;
    }
    const std::string name = dashboard.substr(at, end - at);
    EXPECT_TRUE(names.contains(name)) << name << " is read by the dashboard, not served";
    at = end;
    ++read;
  }
  EXPECT_GE(read, 10);
}

}  // namespace
}  // namespace hammer
