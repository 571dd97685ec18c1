# The man page and the shell completions: the built hammer writes them from its flag table
# (hammer --generate man|bash|zsh), so they list exactly the flags that binary parses. Built
# with `all`, installed with the binary:
#   bin/hammer, share/man/man1/hammer.1, share/bash-completion/completions/hammer,
#   share/zsh/site-functions/_hammer
include(GNUInstallDirs)

install(TARGETS hammer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  message(STATUS "hammer: cross-compiling without an emulator; no man page or completions")
  return()
endif()

set(HAMMER_DOCS_DIR ${PROJECT_BINARY_DIR}/share)
set(hammer_docs
  "man|${HAMMER_DOCS_DIR}/man/man1/hammer.1"
  "bash|${HAMMER_DOCS_DIR}/bash-completion/completions/hammer"
  "zsh|${HAMMER_DOCS_DIR}/zsh/site-functions/_hammer")
set(outputs "")
foreach(doc IN LISTS hammer_docs)
  string(REPLACE "|" ";" doc "${doc}")
  list(GET doc 0 kind)
  list(GET doc 1 file)
  add_custom_command(
    OUTPUT ${file}
    COMMAND ${CMAKE_COMMAND} -DHAMMER=$<TARGET_FILE:hammer>
            "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}" -DKIND=${kind} -DOUT=${file}
            -P ${PROJECT_SOURCE_DIR}/cmake/generate_doc.cmake
    DEPENDS hammer ${PROJECT_SOURCE_DIR}/cmake/generate_doc.cmake
    COMMENT "hammer --generate ${kind}"
    VERBATIM)
  list(APPEND outputs ${file})
endforeach()
add_custom_target(hammer_docs ALL DEPENDS ${outputs})

install(FILES ${HAMMER_DOCS_DIR}/man/man1/hammer.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${HAMMER_DOCS_DIR}/bash-completion/completions/hammer
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${HAMMER_DOCS_DIR}/zsh/site-functions/_hammer
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
