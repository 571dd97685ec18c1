// SPDX-License-Identifier: MIT
#pragma once
// The .csv file: one header line, then one row per timeline second (single run) or per step
// (sweep; --control steps follow, marked in the `series` column). Figures are the JSON's:
// latencies in integer ns, rates per second, an empty cell where the JSON has null. RFC 4180:
// comma separated, CRLF-free ("\n" lines), no field needs quoting because none holds text
// beyond fixed words.
#include <string>

#include "core/config.h"
#include "report/report_input.h"
#include "sweep/sweep.h"

namespace hammer {

/// second,start_s,length_s,phase,requests,per_second,p50_ns,p99_ns,max_ns,errors,slow
std::string render_timeline_csv(const ReportInput& input);

/// series,level,connections,threads,rate,completed,per_second,errors,non_2xx_3xx,p50_ns,
/// p90_ns,p99_ns,p99.9_ns,max_ns,mean_ns,behind_schedule,behind_server,behind_generator,
/// cpu_cores,meets
std::string render_sweep_csv(const Config& config, const SweepResult& result);

}  // namespace hammer
