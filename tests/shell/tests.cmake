# The shell's view of hammer, run for real: the completion scripts the binary generates, sourced
# in bash and checked by zsh (completions_test.sh); every `hammer ...` example of README.md,
# run against a local tools/test_server (readme_examples_test.py); and the GitHub Action's
# script (scripts/action-run.sh) with the environment a runner gives it (action_run_test.sh).
add_test(NAME shell.completions
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/completions_test.sh $<TARGET_FILE:hammer>)
set_tests_properties(shell.completions PROPERTIES LABELS "unit;shell" TIMEOUT 120)

# A minute: its sweeps run one second per level. Not under the sanitizers, whose 2-3x slower
# hammer would only slow it.
if(Python3_Interpreter_FOUND AND TARGET test_server AND HAMMER_SANITIZE STREQUAL "" AND NOT HAMMER_PORTABLE)
  add_test(NAME shell.readme_examples
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/readme_examples_test.py
                   ${PROJECT_SOURCE_DIR}/README.md)
  set_tests_properties(shell.readme_examples PROPERTIES
    LABELS "e2e;shell" TIMEOUT 600
    ENVIRONMENT "HAMMER_BIN=$<TARGET_FILE:hammer>;TEST_SERVER=$<TARGET_FILE:test_server>")
endif()

# The action's script installs hammer from this build's `cmake --install` (the man page and
# completions included: the hammer_docs target, built by every full build). Not under the
# sanitizers nor in the portable build: their stages build only what their tests run, not the docs, and the script's
# checks are the same with any hammer.
if(Python3_Interpreter_FOUND AND TARGET test_server AND HAMMER_SANITIZE STREQUAL "" AND NOT HAMMER_PORTABLE)
  add_test(NAME shell.action_run
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/action_run_test.sh ${PROJECT_BINARY_DIR}
                   $<TARGET_FILE:test_server> ${PROJECT_SOURCE_DIR})
  set_tests_properties(shell.action_run PROPERTIES
    LABELS "e2e;shell" TIMEOUT 300 ENVIRONMENT "CMAKE=${CMAKE_COMMAND}")
endif()
