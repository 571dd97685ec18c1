// SPDX-License-Identifier: MIT
// Written out by hand so it reads well, with every default and bound taken from the code it
// describes; usage_test checks that each long option from the parser's table appears here.
#include "cli/usage.h"

#include "cli/options.h"
#include "cli/units.h"
#include "report/format.h"

namespace hammer {

std::string usage_text() {
  const Config defaults;
  std::string text;
  text += "Usage: hammer [options] <url>\n";
  text += "\n";
  text += "An HTTP/1.1 load generator that reports latency without coordinated omission.\n";
  text += "The URL is http://host[:port][/path]; https is not supported.\n";
  text += "\n";
  text += "Options:\n";
  text += "  -c, --connections N   total connections, 1 to " + std::to_string(kMaxConnections) +
          " (default " + std::to_string(defaults.connections) + ")\n";
  text += "  -t, --threads N       worker threads, 1 to " + std::to_string(kMaxThreads) +
          ", at most --connections\n"
          "                        (default min(4, connections))\n";
  text += "  -d, --duration T      test duration; a bare number is seconds; units are\n"
          "                        ns us ms s m h, e.g. 10, 1.5s, 2m; at most 24h\n"
          "                        (default " + format_duration_ns(defaults.duration_ns) + ")\n";
  text += "  -r, --rate N          target requests/s over all connections, e.g. 2000, 2k,\n"
          "                        1.5k, 1M (k = 1,000, M = 1,000,000; at most 10M);\n"
          "                        turns on open-loop mode (default off: closed loop)\n";
  text += "      --closed-loop     measure latency from the actual send even with --rate\n"
          "                        (default off)\n";
  text += "  -m, --method M        HTTP method (default " + defaults.method + ")\n";
  text += "  -H, --header \"K: V\"   extra request header, repeatable; a Host header replaces\n"
          "                        the one taken from the URL (default none)\n";
  text += "      --body FILE       request body read from FILE, at most 64MB (default none)\n";
  text += "      --timeout T       per-request timeout; a bare number is milliseconds, e.g.\n"
          "                        2000, 2s, 500ms; at most 60s (default " +
          format_duration_ns(defaults.timeout_ns) + ")\n";
  text += "      --latency         print the full percentile spectrum\n";
  text += "      --json            print one machine-readable JSON document on stdout\n";
  text += "  -W, --warmup T        run the same load for T first, reported apart and kept\n"
          "                        out of the figures; bare number = seconds (default none)\n";
  text += "      --timeline        print the per-second table (second, phase, requests,\n"
          "                        req/s, p50, p99, max, errors); always in --json\n";
  text += "      --slow T          count requests slower than T in a note; a bare number is\n"
          "                        milliseconds (default 10x p50, when max > 10x p99.9)\n";
  text += "      --no-keepalive    a new connection for every request (Connection: close)\n";
  text += "      --percentiles LIST\n"
          "                        the percentile rows of the report, e.g. 50,90,99.9,99.99\n"
          "                        (each above 0 and below 100, at most 4 decimals; default\n"
          "                        50,75,90,95,99, with --latency also 99.9,99.99)\n";
  text += "      --slo KEY=LIMIT   a service-level objective, repeatable: any percentile\n"
          "                        (p50, p95, p99.99) or max with a duration (a bare\n"
          "                        number is ms), or errors with a percentage, e.g.\n"
          "                        p99=50ms, p95=20ms, errors=1%;\n"
          "                        a run that misses one exits 3 (default none)\n";
  text += "      --control URL     in a sweep, run the same levels against URL, a route\n"
          "                        that does no work, to show the generator's headroom\n";
  text += "      --precise-dispatch\n"
          "                        open loop: wake early and spin to each request's slot,\n"
          "                        for sub-10us dispatch at the cost of CPU (default:\n"
          "                        sleep, spinning only the host's median oversleep)\n";
  text += "      --version         print the version and exit\n";
  text += "  -h, --help            print this help and exit\n";
  text += "\n";
  text += "Short options take their value as '-c 10' or '-c10', long ones as\n"
          "'--connections 10' or '--connections=10'; '--' ends the options.\n";
  text += "\n";
  text += "Sweeps: a list makes one run of -d per level and reads the curve (knee,\n"
          "collapse, Little's law): -c 1,2,5,10,25 (closed loop), --rate 1k,2k,5k or\n"
          "--rate 1k:20k:1k (start:stop:step, open loop). --rate LOW:HIGH with --slo\n"
          "searches for the highest rate that meets every SLO (at most 8 runs).\n";
  text += "\n";
  text += "Exit status: 0 the run completed; 1 bad input; 2 the run could not do its job;\n"
          "3 an --slo was missed (in a sweep: no level met them all).\n";
  return text;
}

std::string version_text() { return std::string("hammer ") + HAMMER_VERSION + "\n"; }

}  // namespace hammer
