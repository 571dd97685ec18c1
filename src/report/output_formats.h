// SPDX-License-Identifier: MIT
#pragma once
// The file formats of -o/--output, one row per extension. The extension alone chooses the
// format, so adding a format is one row here, one writer in output_files.cc, and its docs.
#include <span>
#include <string>
#include <string_view>

#include "core/config.h"

namespace hammer {

struct OutputFormatSpec {
  std::string_view extension;  // ".json", matched case-insensitively
  OutputFormat format;
  bool sweep_writes_it;        // a sweep has this to write (it keeps no histograms)
  std::string_view contents;   // what the file holds, for --help and docs
};

/// Every format, in --help order.
std::span<const OutputFormatSpec> output_formats();

/// The format of `path` by its extension; nullptr when no row matches.
const OutputFormatSpec* output_format_for_path(std::string_view path);

/// The extensions as one list for messages: ".json .html .hgrm .csv".
std::string output_extensions_text();

}  // namespace hammer
