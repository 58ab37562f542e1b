// Front-end throughput on a large nvcc-generated PTX module: lexing alone,
// parsing alone, and parse plus lowering (what `ptxsim check` and module
// loading pay), reported as bytes per second; then checking that every
// function of the lowered module prepares for execution (each instruction
// bound to its handler: what loading a module for a run and `ptxsim check
// --executable` pay), as instructions per second.

#include <benchmark/benchmark.h>

#include "ptxsim/grammar/antlr_runtime.h"

#include <fstream>
#include <sstream>

#include "ptxsim/grammar/fast_lexer.h"
#include "ptxsim/grammar/module_reader.h"
#include "ptxsim/isa/lower.h"
#include "ptxsim/sim/gpu.h"

namespace {

const std::string& largeModule() {
  static const std::string text = [] {
    std::ifstream in(PTXSIM_LARGE_PTX, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  return text;
}

void lexOnly(benchmark::State& state) {
  const std::string& text = largeModule();
  for (auto _ : state) {
    ptxsim::grammar::FastLexer lexer(text);
    size_t tokens = 0;
    while (lexer.nextToken()->getType() != antlr4::Token::EOF) ++tokens;
    benchmark::DoNotOptimize(tokens);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

// The streaming parse that compilePtx uses, without lowering.
void parseOnly(benchmark::State& state) {
  const std::string& text = largeModule();
  for (auto _ : state) {
    ptxsim::grammar::ModuleItemReader reader(text);
    size_t items = 0;
    while (reader.next() != nullptr) ++items;
    if (reader.failed()) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(items);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void parseAndLower(benchmark::State& state) {
  const std::string& text = largeModule();
  size_t instructions = 0;
  for (auto _ : state) {
    auto result = ptxsim::isa::compilePtx(text);
    if (!result.ok()) {
      state.SkipWithError(result.errors.front().message.c_str());
      break;
    }
    instructions = result.module->instructionCount();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

void prepareAll(benchmark::State& state) {
  auto compiled = ptxsim::isa::compilePtx(largeModule());
  if (!compiled.ok()) {
    state.SkipWithError(compiled.errors.front().message.c_str());
    return;
  }
  for (auto _ : state) {
    std::vector<std::string> unsupported = ptxsim::sim::unsupportedInstructions(*compiled.module);
    if (!unsupported.empty()) state.SkipWithError(unsupported.front().c_str());
  }
  state.counters["instructions/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * compiled.module->instructionCount()),
                         benchmark::Counter::kIsRate);
}

BENCHMARK(lexOnly)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(parseOnly)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(parseAndLower)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(prepareAll)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
