# deploy/kubernetes/ checked without a cluster (tests/deploy/k8s_manifest_check.py): fields,
# cross-references, and the Job's command line through the real parser.
if(Python3_Interpreter_FOUND)
  add_test(NAME deploy.kubernetes_manifest
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/k8s_manifest_check.py
                   ${PROJECT_SOURCE_DIR}/deploy/kubernetes $<TARGET_FILE:hammer>)
  set_tests_properties(deploy.kubernetes_manifest PROPERTIES LABELS "unit;deploy" TIMEOUT 60)
endif()
