# The HTML report in a real browser: Debian's chromium, headless, driven over the DevTools
# pipe by tests/browser/check_report.js (node built-ins only). Label `browser` (with `e2e`, so
# scripts/test.sh runs them in the release io_uring pass and the asan pass); skipped (77) where
# chromium or node is missing, except under CI. Short on purpose (runs of 1-3 s, the browser's
# own start the rest); each is bounded by check_report.js's 60 s timer and TIMEOUT below.
foreach(mode IN ITEMS single compare compare3 sweep merge compare_command)
  if(mode STREQUAL "single")
    set(name browser.SingleRunReport)
  elseif(mode STREQUAL "compare")
    set(name browser.ComparedRunsReport)
  elseif(mode STREQUAL "compare3")
    set(name browser.ThreeComparedRunsReport)
  elseif(mode STREQUAL "sweep")
    set(name browser.SweepReport)
  elseif(mode STREQUAL "compare_command")
    set(name browser.CompareCommandPage)
  else()
    set(name browser.MergedShardsReport)
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/browser_test.sh ${mode} $<TARGET_FILE:hammer>
                   $<TARGET_FILE:test_server>)
  set_tests_properties(${name} PROPERTIES LABELS "e2e;browser" TIMEOUT 120 SKIP_RETURN_CODE 77
                       RUN_SERIAL TRUE)
endforeach()
