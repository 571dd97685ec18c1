# Interop with other HdrHistogram implementations, run as whole programs: the .hlog hammer
# writes, read by Java's reference HistogramLogProcessor (tests/interop/hlog_java_test.py).
if(Python3_Interpreter_FOUND AND TARGET test_server)
  add_test(NAME interop.hlog_java
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/hlog_java_test.py)
  set_tests_properties(interop.hlog_java PROPERTIES
    LABELS "e2e;interop" TIMEOUT 180 SKIP_RETURN_CODE 77
    ENVIRONMENT "HAMMER=$<TARGET_FILE:hammer>;TEST_SERVER=$<TARGET_FILE:test_server>")
endif()
