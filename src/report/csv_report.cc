// SPDX-License-Identifier: MIT
#include "report/csv_report.h"

#include <cmath>

#include "report/format.h"
#include "report/timeline_report.h"

namespace hammer {
namespace {

class CsvRow {
 public:
  CsvRow& add(std::string_view cell) {
    if (cells_ > 0) line_ += ',';
    line_ += cell;
    ++cells_;
    return *this;
  }
  CsvRow& add(int64_t number) { return add(std::to_string(number)); }
  CsvRow& add(double number) { return add(format_number(number)); }
  CsvRow& add_if(bool exists, int64_t number) { return exists ? add(number) : add(""); }
  std::string end() { return line_ + "\n"; }

 private:
  std::string line_;
  int cells_ = 0;
};

void append_step(const std::string& series, const StepSummary& step, std::string& out) {
  CsvRow row;
  row.add(series).add(step.level).add(step.connections).add(step.threads);
  if (step.rate > 0) {
    row.add(step.rate);
  } else {
    row.add("");
  }
  row.add(step.completed).add(step.per_second).add(step.errors).add(step.non_2xx_3xx);
  for (int64_t figure : {step.p50_ns, step.p90_ns, step.p99_ns, step.p999_ns, step.max_ns,
                         static_cast<int64_t>(std::llround(step.mean_ns))}) {
    row.add_if(step.has_latency, figure);
  }
  row.add_if(step.rate > 0, step.behind_schedule)
      .add_if(step.rate > 0, step.behind_server)
      .add_if(step.rate > 0, step.behind_generator);
  if (step.cpu_cores >= 0) {
    row.add(step.cpu_cores);
  } else {
    row.add("");
  }
  row.add(step.meets() ? "yes" : "no");
  out += row.end();
}

}  // namespace

std::string render_timeline_csv(const ReportInput& input) {
  std::string out =
      "second,start_s,length_s,phase,requests,per_second,p50_ns,p99_ns,max_ns,errors,slow,"
      "host_stall_max_ns\n";
  for (const TimelineRowSummary& summary : summarize_timeline(input)) {
    const bool any = summary.figures.completed > 0;
    CsvRow row;
    row.add(static_cast<int64_t>(summary.figures.second))
        .add(static_cast<double>(summary.figures.start_ns) / 1e9)
        .add(static_cast<double>(summary.figures.length_ns) / 1e9)
        .add(timeline_phase_name(summary))
        .add(summary.figures.completed)
        .add(summary.per_second)
        .add_if(any, summary.p50_ns)
        .add_if(any, summary.p99_ns)
        .add_if(any, summary.max_ns)
        .add(summary.errors)
        .add(summary.figures.slow)
        .add_if(input.result.host.measured(), summary.host_stall_max_ns);
    out += row.end();
  }
  return out;
}

std::string render_sweep_csv(const Config& /*config*/, const SweepResult& result) {
  std::string out =
      "series,level,connections,threads,rate,completed,per_second,errors,non_2xx_3xx,p50_ns,"
      "p90_ns,p99_ns,p99.9_ns,max_ns,mean_ns,behind_schedule,behind_server,behind_generator,"
      "cpu_cores,meets\n";
  for (const StepSummary& step : result.steps) append_step("sweep", step, out);
  for (const StepSummary& step : result.control_steps) append_step("control", step, out);
  return out;
}

}  // namespace hammer
