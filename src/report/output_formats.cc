// SPDX-License-Identifier: MIT
#include "report/output_formats.h"

#include <array>
#include <cctype>

namespace hammer {
namespace {

constexpr std::array<OutputFormatSpec, 5> kFormats = {{
    {".json", OutputFormat::json, true, "the --json document"},
    {".html", OutputFormat::html, true, "a self-contained report with charts"},
    {".hgrm", OutputFormat::hgrm, false,
     "HdrHistogram percentile distributions"},
    {".csv", OutputFormat::csv, true, "the per-second timeline, or a sweep's steps"},
    {".hlog", OutputFormat::hlog, false, "HdrHistogram interval log, one interval per second"},
}};

bool ends_with_ignoring_case(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  const std::string_view tail = text.substr(text.size() - suffix.size());
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(tail[i])) != suffix[i]) return false;
  }
  return true;
}

}  // namespace

std::span<const OutputFormatSpec> output_formats() { return kFormats; }

const OutputFormatSpec* output_format_for_path(std::string_view path) {
  // "x/.json" is a hidden file without a name before the extension: no format.
  const size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (const OutputFormatSpec& spec : kFormats) {
    if (name.size() > spec.extension.size() && ends_with_ignoring_case(name, spec.extension)) {
      return &spec;
    }
  }
  return nullptr;
}

std::string output_extensions_text() {
  std::string text;
  for (const OutputFormatSpec& spec : kFormats) {
    if (!text.empty()) text += ' ';
    text += spec.extension;
  }
  return text;
}

}  // namespace hammer
