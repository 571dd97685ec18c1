# cmake -DHAMMER=<hammer> [-DEMULATOR=<runner>] -DKIND=man|bash|zsh -DOUT=<file> -P this:
# writes `hammer --generate KIND` to OUT, failing the build when hammer does.
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND ${EMULATOR} "${HAMMER}" --generate "${KIND}"
                OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE status ERROR_VARIABLE error)
if(NOT status EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "hammer --generate ${KIND} failed (${status}): ${error}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
