// SPDX-License-Identifier: MIT
#pragma once
// --data-order: which row of --data each request's {{csv}} fields take.
#include <cstdint>

namespace hammer {

enum class DataOrder : uint8_t {
  sequential,  // request k takes row k mod rows (the default: every row before any repeats)
  random,      // a row drawn from --seed for each request (the same draw on every run)
};

}  // namespace hammer
