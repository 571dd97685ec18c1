# Compile through ccache when it is installed, so that a second build of the same sources (the
# next CI run on this machine, another worktree, another preset's unchanged objects) costs a
# cache look-up instead of a compile. Paths are hashed relative to the source tree and the
# working directory is left out of the hash, so two clones in different folders share hits.
# Set HAMMER_CCACHE=OFF to compile directly.
option(HAMMER_CCACHE "Compile through ccache when it is found" ON)
if(HAMMER_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(HAMMER_CCACHE_PROGRAM ccache)
  if(HAMMER_CCACHE_PROGRAM)
    set(launcher ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
                 CCACHE_SLOPPINESS=pch_defines,time_macros ${HAMMER_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
  endif()
endif()
