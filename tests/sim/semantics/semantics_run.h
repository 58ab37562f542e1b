#pragma once

// Test support for the half-precision and conversion tests: runs a PTX
// body once per input word, 32 inputs per launch. The body finds its input
// in %a (.b64) and leaves its result in %r (.b64).

#include <string>
#include <string_view>
#include <vector>

#include "../../support/ptx_kernel.h"

namespace ptxsim::test {

inline std::vector<uint64_t> runPerInput(std::string_view declarations, std::string_view body,
                                         const std::vector<uint64_t>& inputs) {
  std::string decls = ".reg .b64 %a, %r, %pin, %pout;\n" + std::string(declarations);
  std::string text = "add.u64 %pin, %in, %tx8;\nadd.u64 %pout, %out, %tx8;\nld.global.b64 %a, [%pin];\n" +
                     std::string(body) + "\nst.global.b64 [%pout], %r;";
  std::string ptx = ptxKernel(decls, text);
  std::vector<uint64_t> results;
  for (size_t first = 0; first < inputs.size(); first += 32) {
    std::vector<uint64_t> chunk(inputs.begin() + first, inputs.begin() + std::min(inputs.size(), first + 32));
    KernelRun run = runKernel(ptx, chunk, chunk.size(), static_cast<unsigned>(chunk.size()));
    EXPECT_FALSE(run.result.error) << run.result.error.message;
    results.insert(results.end(), run.out.begin(), run.out.end());
  }
  return results;
}

}  // namespace ptxsim::test
