# `cmake --install` puts the binary, the man page and the completions where a distribution
# expects them, and what it installs is what the binary generates.
add_test(NAME install.layout
         COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR}
                 -DPREFIX=${PROJECT_BINARY_DIR}/install-test-prefix
                 -DBINDIR=${CMAKE_INSTALL_BINDIR} -DMANDIR=${CMAKE_INSTALL_MANDIR}
                 -DDATADIR=${CMAKE_INSTALL_DATADIR}
                 -P ${CMAKE_CURRENT_LIST_DIR}/check_install.cmake)
set_tests_properties(install.layout PROPERTIES LABELS "unit;install")
