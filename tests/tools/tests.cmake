# The tools/ servers checked with raw sockets (tests/tools/servers_test.py): the e2e tests trust
# their framing and their pauses, so those are tested before hammer is tested against them.
if(Python3_Interpreter_FOUND AND TARGET test_server)
  foreach(suite IN ITEMS TestServerTest PausingServerTest)
    add_test(NAME tools.${suite}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/servers_test.py -v ${suite})
    set_tests_properties(tools.${suite} PROPERTIES
      LABELS "e2e;tools" TIMEOUT 120
      ENVIRONMENT "TEST_SERVER=$<TARGET_FILE:test_server>;PAUSING_SERVER=${PROJECT_SOURCE_DIR}/tools/pausing_server.py")
  endforeach()
endif()

# The HTTP/2 hostile server needs no build: its suite runs wherever Python 3 does.
if(Python3_Interpreter_FOUND)
  add_test(NAME tools.H2HostileServerTest
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/servers_test.py -v H2HostileServerTest)
  set_tests_properties(tools.H2HostileServerTest PROPERTIES
    LABELS "e2e;tools" TIMEOUT 120
    ENVIRONMENT "H2_HOSTILE_SERVER=${PROJECT_SOURCE_DIR}/tools/h2_hostile_server.py")
endif()
