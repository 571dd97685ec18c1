// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>

namespace hammer::test {

/// Counts calls to the global operator new (every form) and malloc-family calls made through
/// it, from every thread, while counting is on.
void start_counting_allocations();
int64_t stop_counting_allocations();

}  // namespace hammer::test
