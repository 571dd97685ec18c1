// SPDX-License-Identifier: MIT
#include "report/csv_report.h"

#include <cmath>
#include <utility>

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

// The `censored` cell: column names, space-separated.
void add_name(std::string& names, std::string_view column) {
  if (!names.empty()) names += ' ';
  names += column;
}

void append_step(const std::string& series, const StepSummary& step, std::string& out) {
  CsvRow row;
  row.add(series).add(step.level).add(step.connections).add(step.threads);
  if (step.rate > 0) {
    row.add(step.rate);
  } else {
    row.add("");
  }
  row.add(step.completed).add(step.per_second).add(step.errors).add(step.non_2xx_3xx);
  // A figure that timeouts censor has no value, only a bound: its cell is empty, as for a
  // figure that does not exist, and the `censored` column names it (the bound is --timeout).
  struct Figure {
    const char* column;
    int64_t value;
    bool censored;
  };
  const Figure figures[] = {{"p50_ns", step.p50_ns, step.tail.censors(50)},
                            {"p90_ns", step.p90_ns, step.tail.censors(90)},
                            {"p99_ns", step.p99_ns, step.tail.censors(99)},
                            {"p99.9_ns", step.p999_ns, step.tail.censors(99.9)},
                            {"max_ns", step.max_ns, step.tail.any()},
                            {"mean_ns", static_cast<int64_t>(std::llround(step.mean_ns)), false}};
  std::string censored;
  for (const Figure& figure : figures) {
    row.add_if(step.has_latency && !figure.censored, figure.value);
    if (step.has_latency && figure.censored) add_name(censored, figure.column);
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
  row.add(step.tail.timed_out).add(censored);
  // The level over its runs (sweep/noise.h); last, so readers by position keep theirs.
  row.add(static_cast<int64_t>(step.runs)).add(step.noisy ? "yes" : "no");
  out += row.end();
}

}  // namespace

std::string render_timeline_csv(const ReportInput& input) {
  std::string out =
      "second,start_s,length_s,phase,requests,per_second,p50_ns,p99_ns,max_ns,errors,slow,"
      "timed_out,censored,host_stall_max_ns\n";
  for (const TimelineRowSummary& summary : summarize_timeline(input)) {
    const bool any = summary.figures.completed > 0;
    // As in the sweep's file: a censored figure's cell is empty, named in `censored`.
    std::string censored;
    for (const auto& [column, is_censored] :
         {std::pair<const char*, bool>{"p50_ns", summary.p50_censored},
          {"p99_ns", summary.p99_censored},
          {"max_ns", summary.max_censored}}) {
      if (any && is_censored) add_name(censored, column);
    }
    CsvRow row;
    row.add(static_cast<int64_t>(summary.figures.second))
        .add(static_cast<double>(summary.figures.start_ns) / 1e9)
        .add(static_cast<double>(summary.figures.length_ns) / 1e9)
        .add(timeline_phase_name(summary))
        .add(summary.figures.completed)
        .add(summary.per_second)
        .add_if(any && !summary.p50_censored, summary.p50_ns)
        .add_if(any && !summary.p99_censored, summary.p99_ns)
        .add_if(any && !summary.max_censored, summary.max_ns)
        .add(summary.errors)
        .add(summary.figures.slow)
        .add(summary.timed_out)
        .add(censored)
        .add_if(input.result.host.measured(), summary.host_stall_max_ns);
    out += row.end();
  }
  return out;
}

std::string render_sweep_csv(const Config& /*config*/, const SweepResult& result) {
  std::string out =
      "series,level,connections,threads,rate,completed,per_second,errors,non_2xx_3xx,p50_ns,"
      "p90_ns,p99_ns,p99.9_ns,max_ns,mean_ns,behind_schedule,behind_server,behind_generator,"
      "cpu_cores,meets,timed_out,censored,runs,noisy\n";
  for (const StepSummary& step : result.steps) append_step("sweep", step, out);
  for (const StepSummary& step : result.control_steps) append_step("control", step, out);
  return out;
}

}  // namespace hammer
