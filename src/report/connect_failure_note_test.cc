// SPDX-License-Identifier: MIT
// Local port exhaustion (issue 6): connects that fail with EADDRNOTAVAIL are the client's
// problem (TIME_WAIT), not the server's, and get one note naming the cause instead of a wall
// of identical errors. Exhausting ~28,000 ports for real would need the whole machine's port
// range changed, so the errno is injected where the worker hands it over.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "report/report_input.h"
#include "report/report_test_support.h"
#include "report/text_report.h"
#include "run/connect_errors.h"

namespace hammer {
namespace {

testing::FabricatedRun run_with_connect_errors(int error_number, int64_t count) {
  testing::FabricatedRun run = testing::open_loop_run();
  run.result.first_socket_error.clear();
  for (int64_t i = 0; i < count; ++i) {
    ++run.result.errors[static_cast<int>(ErrorKind::connect)];
    note_connect_failure(run.result, "connect", error_number);
  }
  return run;
}

int count_containing(const std::vector<std::string>& notes, const std::string& text) {
  int count = 0;
  for (const std::string& note : notes) count += note.find(text) != std::string::npos;
  return count;
}

TEST(ConnectFailureNoteTest, PortExhaustionIsOneNoteNamingTheCauseAndTheCount) {
  const testing::FabricatedRun run = run_with_connect_errors(EADDRNOTAVAIL, 12345);
  EXPECT_EQ(run.result.connects_out_of_ports, 12345);
  EXPECT_TRUE(run.result.first_socket_error.empty());  // the note replaces it
  const std::vector<std::string> notes = report_notes(run.input());
  EXPECT_EQ(count_containing(notes, "EADDRNOTAVAIL"), 1);
  EXPECT_EQ(count_containing(notes, "first socket error"), 0);
  EXPECT_EQ(count_containing(notes,
                             "local ports ran out (EADDRNOTAVAIL): 12345 connects failed; "
                             "TIME_WAIT holds each closed connection's port for 60 s: use "
                             "keep-alive or fewer new connections per second"),
            1);
  // In the text report it is one "note:" line.
  const std::string text = render_text_report(run.input());
  size_t lines = 0;
  for (size_t at = text.find("EADDRNOTAVAIL"); at != std::string::npos;
       at = text.find("EADDRNOTAVAIL", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 1u) << text;
  EXPECT_NE(text.find("note: local ports ran out (EADDRNOTAVAIL): 12345 connects failed"),
            std::string::npos)
      << text;
}

TEST(ConnectFailureNoteTest, OneFailedConnectIsSingular) {
  EXPECT_EQ(ports_ran_out_note(1).rfind("local ports ran out (EADDRNOTAVAIL): 1 connect failed;", 0),
            0u);
}

TEST(ConnectFailureNoteTest, OtherConnectErrorsKeepTheFirstAsTheSocketErrorNote) {
  testing::FabricatedRun run = run_with_connect_errors(ECONNREFUSED, 3);
  note_connect_failure(run.result, "connect", ETIMEDOUT);  // not the first: not kept
  EXPECT_EQ(run.result.connects_out_of_ports, 0);
  EXPECT_EQ(run.result.first_socket_error, "connect: Connection refused");
  const std::vector<std::string> notes = report_notes(run.input());
  EXPECT_EQ(count_containing(notes, "EADDRNOTAVAIL"), 0);
  EXPECT_EQ(count_containing(notes, "first socket error: connect: Connection refused"), 1);
}

TEST(ConnectFailureNoteTest, PortExhaustionAndOtherErrorsGetTheirOwnNotes) {
  testing::FabricatedRun run = run_with_connect_errors(ECONNREFUSED, 1);
  note_connect_failure(run.result, "connect", EADDRNOTAVAIL);
  const std::vector<std::string> notes = report_notes(run.input());
  EXPECT_EQ(count_containing(notes, "local ports ran out (EADDRNOTAVAIL): 1 connect failed"), 1);
  EXPECT_EQ(count_containing(notes, "first socket error: connect: Connection refused"), 1);
}

}  // namespace
}  // namespace hammer
