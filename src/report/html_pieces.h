// SPDX-License-Identifier: MIT
#pragma once
// Small pieces of the HTML report shared by its sections: the colours, table cells for a
// latency and a ratio, whole numbers, and the percentile spectrum chart that a single run and a
// comparison both draw. Internal to the html_* files.
#include <cstdint>
#include <string>
#include <vector>

#include "report/html_reading.h"
#include "stats/censored_tail.h"
#include "stats/histogram.h"

namespace hammer::html {

// Okabe-Ito: distinguishable with every common colour-vision deficiency.
inline constexpr const char* kVermillion = "#D55E00";
inline constexpr const char* kBlue = "#0072B2";
inline constexpr const char* kGreen = "#009E73";
inline constexpr const char* kPurple = "#CC79A7";
inline constexpr const char* kOrange = "#E69F00";
inline constexpr const char* kSky = "#56B4E9";
inline constexpr const char* kBlack = "#000000";

/// A latency cell at quantile `q` (or the max): a censored figure is shown as its bound,
/// marked (data-censored), never as a value; an exact one carries its nanoseconds (data-ns).
std::string latency_cell(const Histogram* histogram, const CensoredTail& tail, double q,
                         bool max = false);
/// corrected / uncorrected at `q` with one decimal, as the text prints it ("2.2&times;"), or
/// "-" when either is censored or empty.
std::string ratio_cell(const Histogram* corrected, const CensoredTail& corrected_tail,
                       const Histogram* uncorrected, const CensoredTail& uncorrected_tail,
                       double q, bool max = false);
std::string whole(double value);
/// A document's nanoseconds as an integer, clamped into int64's range.
int64_t whole_ns(double ns);
/// "1 thread", "4 threads".
std::string counted(double count, const char* noun);
/// 0.999 -> "99.9%".
std::string percent_label(double q);

/// The report's stylesheet (html_report.cc), for another page in the same frame.
const char* page_style();

/// Latency by percentile on HdrHistogram's 1/(1-q) axis, corrected and uncorrected, for one
/// run or several overlaid.
std::string spectrum_chart(const std::vector<const RunView*>& runs, const std::string& id);
/// The comparison's caption: each curve spectrum_chart draws for `runs`, named with the line
/// style it is drawn in (from the same table, so the words cannot drift from the drawing).
/// Each is a <span data-series data-dash>, which the browser test checks against the curve.
std::string spectrum_styles_caption(const std::vector<const RunView*>& runs);

}  // namespace hammer::html
