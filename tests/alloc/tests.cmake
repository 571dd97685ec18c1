# The allocation test replaces the global operator new, so it gets a binary of its own.
add_executable(hammer_alloc_tests ${CMAKE_CURRENT_LIST_DIR}/alloc_counter.cc
               ${CMAKE_CURRENT_LIST_DIR}/hot_path_alloc_test.cc
               ${CMAKE_CURRENT_LIST_DIR}/http2_alloc_test.cc)
# Over TLS too, where OpenSSL is (it needs OpenSSL's allocator hook, and nginx at run time).
if(HAMMER_HAVE_TLS)
  target_sources(hammer_alloc_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tls_alloc_test.cc)
endif()
target_link_libraries(hammer_alloc_tests PRIVATE libhammer hammer_test_support GTest::gtest
                      GTest::gtest_main)
add_dependencies(hammer_alloc_tests test_server)
gtest_discover_tests(hammer_alloc_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "e2e;alloc" TIMEOUT 120)
