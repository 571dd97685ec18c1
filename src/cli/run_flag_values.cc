// SPDX-License-Identifier: MIT
// Each value is checked where it is read and a failure becomes one line naming the flag (by
// its long name, whichever spelling was typed) and the value exactly as given, quoted, with
// control characters escaped so the line stays one line.
#include "cli/run_flag_values.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "cli/options.h"
#include "cli/units.h"
#include "core/escaped.h"
#include "http/request.h"
#include "platform/files.h"
#include "platform/system.h"

namespace hammer {
namespace {

using Failure = std::optional<UsageError>;

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

Failure parse_seed(std::string_view flag, std::string_view value, uint64_t& out) {
  uint64_t number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec == std::errc::result_out_of_range && all_digits(value)) {
    return flag_error(flag, "must be at most " + std::to_string(UINT64_MAX), value);
  }
  if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
    return flag_error(flag, "expected a whole number >= 0", value);
  }
  out = number;
  return std::nullopt;
}

Failure parse_whole(std::string_view flag, std::string_view value, int64_t max, int64_t& out) {
  int64_t number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  const bool used_all = end == value.data() + value.size();
  if ((ec == std::errc::result_out_of_range && all_digits(value)) ||
      (ec == std::errc() && used_all && number > max)) {
    return flag_error(flag, "must be at most " + std::to_string(max), value);
  }
  if (ec != std::errc() || !used_all || number < 1) {
    return flag_error(flag, "expected a whole number >= 1", value);
  }
  out = number;
  return std::nullopt;
}

Failure parse_duration_flag(std::string_view flag, std::string_view value, int64_t default_unit,
                            std::string_view examples, int64_t max_ns, std::string_view max_text,
                            int64_t& out) {
  auto ns = parse_duration_ns(value, default_unit);
  if ((!ns && ns.error() == UnitError::too_large) || (ns && *ns > max_ns)) {
    return flag_error(flag, "must be at most " + std::string(max_text), value);
  }
  if (!ns || *ns <= 0) {
    return flag_error(flag, "expected a duration > 0 (e.g. " + std::string(examples) + ")", value);
  }
  out = *ns;
  return std::nullopt;
}

Failure parse_rate_flag(std::string_view value, double& out) {
  auto rate = parse_rate(value);
  if ((!rate && rate.error() == UnitError::too_large) || (rate && *rate > kMaxRate)) {
    return flag_error("--rate", "must be at most 10M req/s", value);
  }
  if (!rate || *rate <= 0) {
    return flag_error("--rate", "expected a number > 0 (e.g. 2000 or 2k)", value);
  }
  if (*rate < kMinRate) return flag_error("--rate", "must be at least 0.001 req/s", value);
  out = *rate;
  return std::nullopt;
}

// --shard I/N: 1 <= I <= N, both whole numbers.
Failure parse_shard(std::string_view value, ShardSpec& shard) {
  const size_t slash = value.find('/');
  const UsageError shape =
      flag_error("--shard", "expected I/N with 1 <= I <= N (e.g. 2/3: shard 2 of 3)", value);
  if (slash == std::string_view::npos) return shape;
  int64_t index = 0;
  int64_t count = 0;
  const std::string_view index_text = value.substr(0, slash);
  const std::string_view count_text = value.substr(slash + 1);
  auto read = [](std::string_view text, int64_t& out) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && all_digits(text);
  };
  if (!read(index_text, index) || !read(count_text, count) || index < 1 || count < 1) {
    return shape;
  }
  if (count > kMaxShards) {
    return flag_error("--shard", "at most " + std::to_string(kMaxShards) + " shards", value);
  }
  if (index > count) {
    return flag_error("--shard", "shard " + std::to_string(index) + " of " +
                                     std::to_string(count) + " does not exist (1 <= I <= N)",
                      value);
  }
  shard = ShardSpec{index, count, true};
  return std::nullopt;
}

// The checks themselves live in http/request and http/url, beside the code that sends what
// they accept; here they only gain the flag's name and the value.
Failure parse_header(std::string_view value, std::vector<std::string>& headers) {
  auto field = validate_header(value);
  if (!field) return flag_error("--header", field.error(), value);
  headers.push_back(normalised_header(*field));
  return std::nullopt;
}

Failure read_body(std::string_view path, SharedText& body) {
  auto contents = read_whole_file(std::string(path), kMaxBodyBytes);
  if (contents) {
    body = std::move(*contents);
    return std::nullopt;
  }
  if (contents.error() == EFBIG) {
    return UsageError{"--body: " + quoted(path) + " is larger than the 64MB limit"};
  }
  std::string hint;
  if (contents.error() == ENOENT && (path.starts_with('{') || path.starts_with('['))) {
    hint = "; --body takes a FILE that holds the body, not the body itself";
  } else if (contents.error() == ENOENT && path.starts_with('@')) {
    hint = "; --body takes the file's name without curl's '@'";
  }
  return UsageError{"--body: cannot read " + quoted(path) + ": " +
                    std::strerror(contents.error()) + hint};
}

// --progress-fd: a descriptor this process already has open (a pipe the caller made, or 2 for
// stderr); stdout (1) carries the report, so progress there would corrupt --json.
Failure parse_progress_fd(std::string_view value, int& out) {
  int64_t fd = 0;
  if (value == "0") return flag_error("--progress-fd", "0 is stdin, not writable progress", value);
  if (Failure failure = parse_whole("--progress-fd", value, 1'000'000, fd)) return failure;
  if (fd == 1) {
    return flag_error("--progress-fd",
                      "1 is stdout, which carries the report; use 2 (stderr) or 3 and up", value);
  }
  if (!descriptor_is_open(static_cast<int>(fd))) {
    return flag_error("--progress-fd", "not an open file descriptor", value);
  }
  out = static_cast<int>(fd);
  return std::nullopt;
}

// --metrics-listen: the host is resolved when the server starts (a name such as localhost
// works); here only the shape and the port are checked.
Failure parse_metrics_listen(std::string_view value, Target& out) {
  constexpr std::string_view kShape = "expected HOST:PORT, [IPv6]:PORT or :PORT (127.0.0.1:9464)";
  if (value.find("://") != std::string_view::npos) {
    return flag_error("--metrics-listen",
                      "an address to listen on, not a URL: HOST:PORT (127.0.0.1:9464 serves "
                      "http://127.0.0.1:9464/metrics)",
                      value);
  }
  const size_t colon = value.rfind(':');
  if (colon == std::string_view::npos) return flag_error("--metrics-listen", kShape, value);
  std::string_view host = value.substr(0, colon);
  const std::string_view port = value.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
    if (host.empty()) return flag_error("--metrics-listen", kShape, value);
  } else if (host.find(':') != std::string_view::npos || host.find('[') != std::string_view::npos ||
             host.find(']') != std::string_view::npos) {
    return flag_error("--metrics-listen", "an IPv6 address goes in brackets: [::1]:9464", value);
  }
  if (port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string_view::npos ||
      std::stoi(std::string(port)) > 65535) {
    return flag_error("--metrics-listen", "the port must be a number from 0 to 65535", value);
  }
  out.host = std::string(host);
  out.port_text = std::string(port);
  out.port = std::stoi(out.port_text);
  return std::nullopt;
}

// --cacert, --cert, --key: read now, so a typo is this line and not a run of failed handshakes
// (what the PEM holds is TLS's to check when the run builds its context).
Failure check_readable(std::string_view flag, std::string_view path, std::string& out) {
  auto contents = read_whole_file(std::string(path), kMaxBodyBytes);
  if (!contents) {
    if (contents.error() == EFBIG) {
      return UsageError{std::string(flag) + ": " + quoted(path) + " is larger than 64MB"};
    }
    return UsageError{std::string(flag) + ": cannot read " + quoted(path) + ": " +
                      std::strerror(contents.error())};
  }
  out = std::string(path);
  return std::nullopt;
}

Failure parse_tls_version(std::string_view flag, std::string_view value, TlsVersion& out) {
  if (value == "1.2") {
    out = TlsVersion::tls1_2;
  } else if (value == "1.3") {
    out = TlsVersion::tls1_3;
  } else {
    return flag_error(flag, "expected 1.2 or 1.3", value);
  }
  return std::nullopt;
}


}  // namespace hammer
