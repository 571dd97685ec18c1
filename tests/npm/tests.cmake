# The npm package (npm/): its tests run with node's own test runner against the built hammer and
# tools/test_server. Release builds only: install_source builds hammer again from the packed
# source (a minute or two), which a sanitizer build would only slow down. Skipped without node.
find_program(HAMMER_NODE NAMES node nodejs)
find_program(HAMMER_NPM NAMES npm)
if(HAMMER_NODE AND HAMMER_SANITIZE STREQUAL "" AND TARGET test_server)
  set(npm_suites api)
  if(HAMMER_NPM)
    list(APPEND npm_suites install install_source platforms)
  endif()
  # install_source builds hammer again: with this build's -D settings its compile lines are
  # this build's, and ccache serves them.
  set(npm_werror OFF)
  if(HAMMER_WERROR)
    set(npm_werror ON)
  endif()
  set(npm_cmake_args "-DHAMMER_WERROR=${npm_werror} -DHAMMER_TLS=${HAMMER_TLS}")
  foreach(suite IN LISTS npm_suites)
    add_test(NAME npm.${suite}
             COMMAND ${HAMMER_NODE} --test ${PROJECT_SOURCE_DIR}/npm/test/${suite}.test.js
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/npm)
    set_tests_properties(npm.${suite} PROPERTIES
      LABELS "npm" TIMEOUT 600
      ENVIRONMENT "HAMMER_BIN=$<TARGET_FILE:hammer>;TEST_SERVER=$<TARGET_FILE:test_server>;NPM=${HAMMER_NPM};HAMMER_TEST_CMAKE_ARGS=${npm_cmake_args}")
  endforeach()
  # The compile uses both cores: alone, it neither slows the timed e2e tests nor is slowed.
  if(HAMMER_NPM)
    set_tests_properties(npm.install_source PROPERTIES RUN_SERIAL TRUE)
  endif()
endif()
