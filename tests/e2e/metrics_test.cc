// SPDX-License-Identifier: MIT
// --metrics-listen against Debian's Prometheus (scripts/deps.sh): Prometheus scrapes hammer
// every second on loopback during a 10 s open-loop run, and its HTTP API then answers with the
// run's own figures: the scraped request count within one scrape interval of the run's count,
// a scrape each second of the run, both stopwatches' histograms, and every query of the
// Grafana dashboard in deploy/ evaluating to data.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "e2e.h"
#include "support/nginx_tls.h"

namespace hammer::test {
namespace {

constexpr const char* kPrometheus = "/usr/bin/prometheus";
constexpr double kRate = 200;
constexpr double kSeconds = 10;

/// GET http://127.0.0.1:PORT/api/v1/query?query=QUERY&time=AT (Unix seconds) through Python's
/// urllib: the JSON answer, or empty when Prometheus did not answer.
std::string prometheus_query(int port, const std::string& query, double at) {
  const std::string script =
      "import sys, urllib.parse, urllib.request\n"
      "url = 'http://127.0.0.1:' + sys.argv[1] + '/api/v1/query?' + "
      "urllib.parse.urlencode({'query': sys.argv[2], 'time': sys.argv[3]})\n"
      "print(urllib.request.urlopen(url, timeout=10).read().decode())\n";
  char time_text[32];
  std::snprintf(time_text, sizeof time_text, "%.3f", at);
  const Finished done =
      run_process({python_binary(), "-c", script, std::to_string(port), query, time_text}, 30);
  EXPECT_EQ(done.exit_code, 0) << query << "\n" << done.err;
  return done.out;
}

/// The value of the first sample of an instant query's answer; NaN when it has none.
double first_value(const std::string& answer) {
  std::string error;
  const auto document = parse_json(answer, &error);
  if (!document) return std::nan("");
  const JsonValue* result = document->find("data") ? document->find("data")->find("result") : nullptr;
  if (result == nullptr || result->items.empty()) return std::nan("");
  const JsonValue* value = result->items[0].find("value");
  if (value == nullptr || value->items.size() != 2) return std::nan("");
  return std::stod(value->items[1].text);
}

void replace_all(std::string& text, std::string_view what, std::string_view with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
}

double unix_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Prometheus is up and scraping `metrics_port` already (failing: hammer is not there yet).
/// Ready is not enough: its service discovery hands the scrape loops their targets only after
/// a throttle of about 5 s, which would leave half the run unscraped.
bool prometheus_scraping(int port, int metrics_port) {
  const Finished done = run_process(
      {python_binary(), "-c",
       "import json, sys, urllib.request\n"
       "answer = urllib.request.urlopen('http://127.0.0.1:' + sys.argv[1] + "
       "'/api/v1/targets?state=active', timeout=2).read()\n"
       "targets = json.loads(answer)['data']['activeTargets']\n"
       "sys.exit(0 if any(t['labels'].get('instance') == '127.0.0.1:' + sys.argv[2] and "
       "not t['lastScrape'].startswith('0001') for t in targets) else 1)\n",
       std::to_string(port), std::to_string(metrics_port)},
      10);
  return done.exit_code == 0;
}

TEST(MetricsPrometheusTest, PrometheusScrapesTheRunsCountsAndHistogramsAsItGoes) {
  if (access(kPrometheus, X_OK) != 0) {
    GTEST_SKIP() << kPrometheus << " is not installed (scripts/deps.sh)";
  }
  ServerProcess target({test_server_binary(), "--port", "0"});
  ASSERT_TRUE(target.ready());
  const std::string dir = private_directory() + "prometheus";
  std::filesystem::create_directories(dir);
  const int metrics_port = unused_port();
  const int prometheus_port = unused_port();
  std::ofstream(dir + "/prometheus.yml")
      << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
      << "scrape_configs:\n  - job_name: hammer\n    static_configs:\n"
      << "      - targets: ['127.0.0.1:" << metrics_port << "']\n";
  ServerProcess prometheus(
      {"/bin/sh", "-c",
       "echo listening on 127.0.0.1:" + std::to_string(prometheus_port) + "; exec " + kPrometheus +
           " --config.file=" + dir + "/prometheus.yml --storage.tsdb.path=" + dir +
           "/data --web.listen-address=127.0.0.1:" + std::to_string(prometheus_port) +
           " --log.level=warn > " + dir + "/prometheus.log 2>&1"});
  ASSERT_TRUE(prometheus.ready());
  bool scraping = false;
  for (int i = 0; i < 60 && !(scraping = prometheus_scraping(prometheus_port, metrics_port)); ++i) {
    usleep(500'000);
  }
  ASSERT_TRUE(scraping) << "Prometheus never scraped; see " << dir << "/prometheus.log";

  const double started_at = unix_now_s();
  const Finished run = run_hammer(
      {"-r", "200", "-d", "10", "-c", "4", "--metrics-listen",
       "127.0.0.1:" + std::to_string(metrics_port), "--json", target.url()},
      60);
  // The first scrape to fail after hammer's exit marks its series stale: the figures are read
  // with last_over_time (a range, which skips the stale markers), the rates of the dashboard at
  // 8 s into the 10 s run.
  const double now = unix_now_s();
  const double during_run = started_at + 8;
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("hammer: metrics at http://127.0.0.1:" + std::to_string(metrics_port) +
                         "/metrics"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("nothing scraped"), std::string::npos) << run.err;
  const JsonValue report = parse_report(run);
  const double completed = number_at(report, "requests.completed");
  ASSERT_GT(completed, kRate * kSeconds * 0.9);

  // The last scrape came within a scrape interval of the end: the count it read is the run's,
  // less what one interval (and the workers' 100 ms publishing) answered, on a busy machine
  // given another second.
  const double scraped = first_value(prometheus_query(prometheus_port, "sum(last_over_time(hammer_requests_total[1m]))", now));
  ASSERT_FALSE(std::isnan(scraped)) << "Prometheus has no hammer_requests_total";
  EXPECT_LE(scraped, completed);
  EXPECT_GE(scraped, completed - kRate * 2.1) << "run " << completed << ", scraped " << scraped;
  std::printf("hammer_requests_total: Prometheus %.0f, the run %.0f\n", scraped, completed);
  const double two_xx = first_value(
      prometheus_query(prometheus_port, "last_over_time(hammer_requests_total{phase=\"measured\",status=\"2xx\"}[1m])", now));
  EXPECT_EQ(two_xx, scraped);
  const double sent = first_value(prometheus_query(prometheus_port, "sum(last_over_time(hammer_requests_sent_total[1m]))", now));
  EXPECT_GE(sent, scraped);

  // Scraped as it went: about one sample a second over the 10 s.
  const double samples = first_value(prometheus_query(
      prometheus_port, "count_over_time(hammer_requests_total{status=\"2xx\"}[5m])", now));
  EXPECT_GE(samples, 6) << "scrapes during a 10 s run at 1 s";

  // Both stopwatches, as histograms a quantile can be read from (the test server answers in
  // well under 100 ms on loopback).
  for (const char* stopwatch : {"corrected", "uncorrected"}) {
    const double count = first_value(prometheus_query(
        prometheus_port, std::string("last_over_time(hammer_latency_seconds_count{stopwatch=\"") + stopwatch +
                             "\"}[1m])",
        now));
    EXPECT_EQ(count, scraped) << stopwatch;
    const double p50 = first_value(prometheus_query(
        prometheus_port, std::string("histogram_quantile(0.5, last_over_time(hammer_latency_seconds_bucket{stopwatch=\"") +
                             stopwatch + "\"}[1m]))",
        now));
    EXPECT_GT(p50, 0) << stopwatch;
    EXPECT_LT(p50, 0.1) << stopwatch;
  }

  // Every query of the Grafana dashboard parses and finds series ($phase = measured, Grafana's
  // $__rate_interval as a window four scrapes long).
  std::ifstream in(std::string(HAMMER_SOURCE_DIR) + "/deploy/grafana/hammer-dashboard.json");
  const std::string dashboard{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string error;
  const auto parsed = parse_json(dashboard, &error);
  ASSERT_TRUE(parsed) << error;
  int queries = 0;
  for (const JsonValue& panel : parsed->find("panels")->items) {
    for (const JsonValue& query : panel.find("targets")->items) {
      std::string expr = query.find("expr")->text;
      replace_all(expr, "$__rate_interval", "4s");
      replace_all(expr, "$phase", "measured");
      const std::string answer = prometheus_query(prometheus_port, expr, during_run);
      EXPECT_NE(answer.find("\"status\":\"success\""), std::string::npos) << expr << "\n" << answer;
      EXPECT_NE(answer.find("\"result\":[{"), std::string::npos) << expr << "\n" << answer;
      ++queries;
    }
  }
  EXPECT_GE(queries, 10);
}

}  // namespace
}  // namespace hammer::test
