# Rewrites the ANTLR-generated C++ in place, after generation:
#  - include the project's view of the runtime headers (antlr_runtime.h)
#    instead of the umbrella header clang cannot compile in C++20;
#  - replace the per-rule `finally(std::function)` exit hook with RuleExit;
#  - reach the parser's ATN simulator with a static_cast: getInterpreter<T>()
#    is a dynamic_cast on every prediction, and a parser's interpreter is
#    always a ParserATNSimulator;
#  - downcast a labelled alternative's own context with static_cast: the
#    generated code has just created it with that exact type.
# Usage: cmake -DFILES="a.cpp;a.h;..." -P rewrite_generated.cmake
foreach(file IN LISTS FILES)
  file(READ "${file}" text)
  string(REPLACE "#include \"antlr4-runtime.h\"" "#include \"ptxsim/grammar/rule_exit.h\"" text "${text}")
  string(REPLACE "auto onExit = finally([=] {\n    exitRule();\n  });" "ptxsim::grammar::RuleExit onExit(this);"
         text "${text}")
  string(REPLACE "getInterpreter<atn::ParserATNSimulator>()->adaptivePredict"
         "static_cast<atn::ParserATNSimulator*>(_interpreter)->adaptivePredict" text "${text}")
  string(REGEX REPLACE "dynamic_cast<([A-Za-z]+Context \\*)>\\(_localctx\\)" "static_cast<\\1>(_localctx)"
         text "${text}")
  file(WRITE "${file}" "${text}")
endforeach()
