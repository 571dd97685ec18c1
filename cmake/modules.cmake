# hammer_module(<dir> [DEPS ...]): src/<dir>/*.cc (less *_test.cc and main.cc) become the
# static library hammer_<dir>; src/<dir>/*_test.cc become the test binary hammer_<dir>_tests,
# registered with CTest case by case. A header-only directory becomes an INTERFACE library.
# A source named *_tls.cc is built only with TLS (HAMMER_HAVE_TLS), one named *_no_tls.cc only
# without: the two halves of one choice that needs OpenSSL's headers (run/connection_transport).
include(GoogleTest OPTIONAL)
find_package(GTest)

function(hammer_module dir)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB all_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.cc)
  set(lib_sources "")
  set(test_sources "")
  foreach(source IN LISTS all_sources)
    if(source MATCHES "_no_tls\\.cc$" AND HAMMER_HAVE_TLS)
    elseif(source MATCHES "_tls\\.cc$" AND NOT source MATCHES "_no_tls\\.cc$" AND NOT HAMMER_HAVE_TLS)
    elseif(source MATCHES "_test\\.cc$")
      list(APPEND test_sources ${source})
    elseif(NOT source MATCHES "/main\\.cc$")
      list(APPEND lib_sources ${source})
    endif()
  endforeach()

  set(deps "")
  foreach(dep IN LISTS ARG_DEPS)
    if(dep MATCHES "::")
      list(APPEND deps ${dep})
    else()
      list(APPEND deps hammer_${dep})
    endif()
  endforeach()

  if(lib_sources)
    add_library(hammer_${dir} STATIC ${lib_sources})
    target_include_directories(hammer_${dir} PUBLIC ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(hammer_${dir} PUBLIC ${deps})
    target_compile_definitions(hammer_${dir} PUBLIC
      HAMMER_VERSION="${PROJECT_VERSION}")
  else()
    add_library(hammer_${dir} INTERFACE)
    target_include_directories(hammer_${dir} INTERFACE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(hammer_${dir} INTERFACE ${deps})
    target_compile_definitions(hammer_${dir} INTERFACE
      HAMMER_VERSION="${PROJECT_VERSION}")
  endif()

  if(test_sources AND HAMMER_BUILD_TESTS)
    add_executable(hammer_${dir}_tests ${test_sources})
    target_link_libraries(hammer_${dir}_tests PRIVATE hammer_${dir} hammer_test_support
                          GTest::gtest GTest::gtest_main)
    target_compile_definitions(hammer_${dir}_tests PRIVATE
      HAMMER_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
      HAMMER_BINARY_DIR="${PROJECT_BINARY_DIR}")
    gtest_discover_tests(hammer_${dir}_tests DISCOVERY_TIMEOUT 60
                         PROPERTIES LABELS "unit;${dir}")
  endif()
endfunction()
