// SPDX-License-Identifier: MIT
// Histogram costs on the hot path (record) and at report time (percentile, encode). Values are
// pre-generated so the benchmark measures the histogram, not the random number generator:
// log-normal around 1 ms with a long tail, the shape of real latencies, which spreads records
// over many buckets as a run does.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "stats/histogram.h"
#include "stats/histogram_v2.h"

namespace {

std::vector<int64_t> latency_values(size_t n) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> lognormal(std::log(1e6), 1.5);
  std::vector<int64_t> values(n);
  for (int64_t& v : values) v = static_cast<int64_t>(lognormal(rng));
  return values;
}

void BM_Record(benchmark::State& state) {
  const std::vector<int64_t> values = latency_values(1 << 16);
  hammer::Histogram histogram;
  size_t i = 0;
  for (auto _ : state) {
    histogram.record(values[i]);
    i = (i + 1) & (values.size() - 1);
  }
  benchmark::DoNotOptimize(histogram.total_count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Record);

void BM_ValueAtPercentile(benchmark::State& state) {
  hammer::Histogram histogram;
  for (int64_t v : latency_values(1'000'000)) histogram.record(v);
  const double q = static_cast<double>(state.range(0)) / 1000.0;
  for (auto _ : state) benchmark::DoNotOptimize(histogram.value_at_percentile(q));
  char label[32];
  std::snprintf(label, sizeof label, "p%g", q);
  state.SetLabel(label);
}
BENCHMARK(BM_ValueAtPercentile)->Arg(50'000)->Arg(99'000)->Arg(99'990);

void BM_MeanAndStdev(benchmark::State& state) {
  hammer::Histogram histogram;
  for (int64_t v : latency_values(1'000'000)) histogram.record(v);
  for (auto _ : state) benchmark::DoNotOptimize(histogram.stdev());  // stdev() computes mean()
}
BENCHMARK(BM_MeanAndStdev);

void BM_EncodeV2(benchmark::State& state) {
  hammer::Histogram histogram;
  for (int64_t v : latency_values(1'000'000)) histogram.record(v);
  for (auto _ : state) benchmark::DoNotOptimize(hammer::encode_v2_base64(histogram));
}
BENCHMARK(BM_EncodeV2);

void BM_DecodeV2(benchmark::State& state) {
  hammer::Histogram histogram;
  for (int64_t v : latency_values(1'000'000)) histogram.record(v);
  const std::string text = hammer::encode_v2_base64(histogram);
  for (auto _ : state) benchmark::DoNotOptimize(hammer::decode_v2_base64(text).has_value());
  state.SetLabel(std::to_string(text.size()) + " chars");
}
BENCHMARK(BM_DecodeV2);

}  // namespace
