# cmake -DBUILD=<build dir> -DPREFIX=<scratch prefix> -DBINDIR=.. -DMANDIR=.. -DDATADIR=..
#       -P check_install.cmake
cmake_minimum_required(VERSION 3.21)
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${status}):\n${output}")
endif()
set(expected
  "${BINDIR}/hammer|-"
  "${MANDIR}/man1/hammer.1|man"
  "${DATADIR}/bash-completion/completions/hammer|bash"
  "${DATADIR}/zsh/site-functions/_hammer|zsh")
foreach(entry IN LISTS expected)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 file)
  if(NOT EXISTS "${PREFIX}/${file}")
    message(FATAL_ERROR "cmake --install did not install ${file}:\n${output}")
  endif()
  list(GET entry 1 kind)
  if(NOT kind STREQUAL "-")
    execute_process(COMMAND "${PREFIX}/${BINDIR}/hammer" --generate ${kind}
                    OUTPUT_VARIABLE generated RESULT_VARIABLE status)
    file(READ "${PREFIX}/${file}" installed)
    if(NOT status EQUAL 0 OR NOT installed STREQUAL generated)
      message(FATAL_ERROR "${file} differs from `hammer --generate ${kind}` (${status})")
    endif()
  endif()
  message(STATUS "installed ${file}")
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
