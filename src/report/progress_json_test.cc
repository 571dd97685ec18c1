// SPDX-License-Identifier: MIT
#include "report/progress_json.h"

#include <gtest/gtest.h>

#include "json/json_value.h"

namespace hammer {
namespace {

// One line: valid JSON, one object, ending in exactly one newline.
JsonValue parse_line(const std::string& line) {
  EXPECT_TRUE(line.ends_with("}\n")) << line;
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  auto value = parse_json(line);
  EXPECT_TRUE(value) << (value ? "" : value.error()) << ": " << line;
  return value ? std::move(*value) : JsonValue{};
}

// --ramp 2 -W 1: the ramp's lines said "warmup", so a dashboard fed by --progress-fd could not
// tell the climbing load from the warm-up's steady one (the JSON timeline names it "ramp").
TEST(ProgressJsonTest, TheRampsLinesSayRampThenTheWarmupsSayWarmup) {
  Progress progress;
  progress.total_ns = 5'000'000'000;
  progress.ramp_ns = 2'000'000'000;
  progress.warmup_ns = 3'000'000'000;  // ramp + warm-up
  const auto phase_at = [&](int64_t elapsed_ns) {
    progress.elapsed_ns = elapsed_ns;
    return parse_line(render_progress_line(progress, nullptr)).find("phase")->text;
  };
  EXPECT_EQ(phase_at(1'000'000'000), "ramp");
  EXPECT_EQ(phase_at(2'500'000'000), "warmup");
  EXPECT_EQ(phase_at(3'500'000'000), "measured");
}

TEST(ProgressJsonTest, AProgressLineSaysWhereTheRunStands) {
  Progress progress;
  progress.elapsed_ns = 1'500'000'000;
  progress.total_ns = 12'000'000'000;
  progress.warmup_ns = 2'000'000'000;
  progress.completed = 300;
  progress.errors = 2;
  progress.per_second = 199.5;
  const JsonValue line = parse_line(render_progress_line(progress, nullptr));
  EXPECT_EQ(line.find("type")->text, "progress");
  EXPECT_EQ(line.find("phase")->text, "warmup");
  EXPECT_EQ(line.find("step"), nullptr);
  EXPECT_EQ(line.find("elapsed_ns")->as_int(), 1'500'000'000);
  EXPECT_EQ(line.find("total_ns")->as_int(), 12'000'000'000);
  EXPECT_EQ(line.find("completed")->as_int(), 300);
  EXPECT_EQ(line.find("errors")->as_int(), 2);
  EXPECT_DOUBLE_EQ(line.find("per_second")->as_double().value_or(-1), 199.5);

  progress.elapsed_ns = 2'000'000'000;
  const StepPosition step{3, 2000, true};
  const JsonValue in_sweep = parse_line(render_progress_line(progress, &step));
  EXPECT_EQ(in_sweep.find("phase")->text, "measured");
  EXPECT_EQ(in_sweep.at({"step", "index"})->as_int(), 3);
  EXPECT_EQ(in_sweep.at({"step", "level"})->as_double(), 2000);
  EXPECT_TRUE(in_sweep.at({"step", "control"})->boolean);
}

TEST(ProgressJsonTest, AStepLineCarriesTheStepsHeadline) {
  StepSummary step;
  step.completed = 900;
  step.errors = 1;
  step.per_second = 450;
  step.p99_ns = 1'234'000;
  step.has_latency = true;
  step.slo_passed = false;
  const JsonValue line = parse_line(render_step_line(step, StepPosition{1, 4, false}));
  EXPECT_EQ(line.find("type")->text, "step");
  EXPECT_EQ(line.at({"step", "level"})->as_double(), 4);
  EXPECT_EQ(line.find("completed")->as_int(), 900);
  EXPECT_EQ(line.find("p99_ns")->as_int(), 1'234'000);
  EXPECT_FALSE(line.find("failed")->boolean);
  EXPECT_FALSE(line.find("slo_passed")->boolean);
  EXPECT_EQ(line.find("runs")->as_int(), 1);
  EXPECT_FALSE(line.find("noisy")->boolean);
  step.runs = 3;
  step.noisy = true;
  const JsonValue noisy = parse_line(render_step_line(step, StepPosition{1, 4, false}));
  EXPECT_EQ(noisy.find("runs")->as_int(), 3);
  EXPECT_TRUE(noisy.find("noisy")->boolean);

  step.has_latency = false;
  EXPECT_TRUE(parse_line(render_step_line(step, StepPosition{})).find("p99_ns")->is_null());
}

}  // namespace
}  // namespace hammer
