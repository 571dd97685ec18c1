// SPDX-License-Identifier: MIT
#pragma once
// hammer's exit statuses (design.md §2), named once: what run/ and sweep/ report a failure
// as, and what cli/main.cc exits with. A failure's kind is this enum, never a bare number.
namespace hammer {

enum class ExitCode : int {
  ok = 0,
  bad_input = 1,   // a flag, a file or a document that cannot be used; nothing was run
  run_failed = 2,  // the environment failed (cannot connect, cannot write) or the run did not work
  slo_missed = 3,  // the run worked and missed a --slo limit
};

}  // namespace hammer
