#pragma once

// Test support: the executor's contexts for a one-CTA launch of a PTX
// module's first kernel, set up as the functional driver sets them up,
// so a test can peek and step one warp at a time.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../../sim/src/exec/cta_runner.h"
#include "../../sim/src/exec/executor.h"
#include "../../sim/src/exec/preparer.h"
#include "ptxsim/isa/lower.h"
#include "ptxsim/memory/allocation_table.h"
#include "ptxsim/memory/page_store.h"
#include "ptxsim/sim/device_heap.h"

namespace ptxsim::test {

struct OneWarpGrid {
  sim::GpuConfig config;
  memory::PageStore store;
  memory::AllocationTable allocations;
  sim::DeviceHeap heap;
  sim::LaunchConfig launch;
  sim::LaunchOptions options;
  std::shared_ptr<const isa::Module> module;
  std::unique_ptr<sim::exec::PreparedKernel> kernel;
  std::unique_ptr<sim::exec::GridContext> grid;
  std::unique_ptr<sim::exec::ExecContext> ctx;
  sim::exec::CtaState cta;

  // Compiles and prepares `ptx` (a kernel without parameters) and sets up
  // CTA 0 of a launch of `threads` threads; ctx's warp is warp 0. Fails the
  // test (and leaves ctx null) when the PTX does not load.
  void start(const std::string& ptx, uint32_t threads = 32) {
    isa::CompileResult compiled = isa::compilePtx(ptx);
    ASSERT_TRUE(compiled.ok()) << compiled.errors[0].message;
    module = compiled.module;
    std::vector<std::string> errors;
    kernel = sim::exec::prepareKernel(*module, 0, sim::exec::ModulePlacement{}, errors);
    ASSERT_NE(kernel, nullptr) << errors[0];
    launch.grid = {1, 1, 1};
    launch.block = {threads, 1, 1};
    grid = std::make_unique<sim::exec::GridContext>(config, store, allocations, *kernel, launch, options, heap);
    ctx = std::make_unique<sim::exec::ExecContext>(*grid);
    sim::exec::initCta(*ctx, cta, 0);
    ctx->cta = &cta;
    ctx->warp = &cta.warps[0];
  }

  // Lane `lane`'s value of the kernel's register `reg` (its index as
  // declared), from the row it is given (register_compaction.h).
  uint64_t registerValue(uint32_t reg, unsigned lane) const {
    const uint32_t row = kernel->kernel().registerRows.at(reg);
    return ctx->warp->groups[0].frame->registers[uint64_t{row} * sim::exec::kWarpSize + lane];
  }
};

}  // namespace ptxsim::test
