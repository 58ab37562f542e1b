# Rewrites the ANTLR-generated C++ in place, after generation:
#  - include the project's view of the runtime headers (antlr_runtime.h)
#    instead of the umbrella header clang cannot compile in C++20;
#  - replace the per-rule `finally(std::function)` exit hook with RuleExit.
# Usage: cmake -DFILES="a.cpp;a.h;..." -P rewrite_generated.cmake
foreach(file IN LISTS FILES)
  file(READ "${file}" text)
  string(REPLACE "#include \"antlr4-runtime.h\"" "#include \"ptxsim/grammar/rule_exit.h\"" text "${text}")
  string(REPLACE "auto onExit = finally([=] {\n    exitRule();\n  });" "ptxsim::grammar::RuleExit onExit(this);"
         text "${text}")
  file(WRITE "${file}" "${text}")
endforeach()
