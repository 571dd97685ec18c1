# Whole-binary tests: the built `hammer` against tools/ servers on 127.0.0.1, each bounded in
# time. Servers listen on ephemeral ports (--port 0), so tests never collide on a port.
file(GLOB e2e_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_test.cc)
add_executable(hammer_e2e_tests ${e2e_sources})
target_link_libraries(hammer_e2e_tests PRIVATE hammer_test_json GTest::gtest GTest::gtest_main)
add_dependencies(hammer_e2e_tests hammer test_server hostile_server)
target_compile_definitions(hammer_e2e_tests PRIVATE
  HAMMER_HOSTILE_SERVER="$<TARGET_FILE:hostile_server>"
  HAMMER_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
if(HAMMER_HAVE_TLS)
  add_dependencies(hammer_e2e_tests tls_rekey_server)
  target_compile_definitions(hammer_e2e_tests PRIVATE
    HAMMER_TLS_REKEY_SERVER="$<TARGET_FILE:tls_rekey_server>")
endif()
gtest_discover_tests(hammer_e2e_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "e2e" TIMEOUT 120)
