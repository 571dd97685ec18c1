# The .hgrm writer against HdrHistogram's Java reference (Debian's libhdrhistogram-java), run
# live on a fresh run's histograms. Skipped (77) where java or the jar is missing.
add_test(NAME interop.HgrmMatchesJavaReference
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/hgrm_reference_test.sh $<TARGET_FILE:hammer>
                 $<TARGET_FILE:test_server>)
set_tests_properties(interop.HgrmMatchesJavaReference PROPERTIES
  LABELS "e2e;interop" TIMEOUT 120 SKIP_RETURN_CODE 77)
