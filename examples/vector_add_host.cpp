// The bundled example on the C++ host API: loads the PTX nvcc made from
// examples/vector_add.cu, adds two vectors on the simulated GPU, checks the
// result against the host and prints the launch's statistics, timed on
// the cycle-approximate model as `ptxsim run --timing` would.
//
// Usage: vector_add_example [PTX_FILE] [ELEMENTS] [HOST_THREADS]

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ptxsim/runtime/device.h"

int main(int argc, char** argv) {
  std::string ptx = argc > 1 ? argv[1] : PTXSIM_EXAMPLE_PTX;
  int n = argc > 2 ? std::atoi(argv[2]) : 1 << 20;
  unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0;
  try {
    ptxsim::Device device(ptxsim::sim::GpuConfig{}, ptxsim::DeviceOptions{threads});
    device.launchOptions().timing = true;
    auto module = device.loadModuleFile(ptx);
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i) * 0.5f;
      b[i] = static_cast<float>(n - i) * 0.25f;
    }
    uint64_t da = device.upload(a), db = device.upload(b), dc = device.malloc(uint64_t(n) * sizeof(float));
    unsigned block = 256, grid = static_cast<unsigned>((n + block - 1) / block);
    ptxsim::sim::LaunchResult r = device.launch(*module, "_Z9vectorAddPKfS0_Pfi", {grid}, {block}, 0,
                                                ptxsim::KernelArgs().add(da).add(db).add(dc).add(n));
    device.synchronize();
    if (r.error) {
      std::fprintf(stderr, "ptxsim: error: %s\n", r.error.message.c_str());
      return 1;
    }
    std::vector<float> c = device.read<float>(dc, static_cast<size_t>(n));
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
    std::printf("vectorAdd on %s: %d elements, %u blocks of %u threads\n", device.config().name.c_str(), n, grid,
                block);
    std::printf("c[0] = %g, c[%d] = %g, c[%d] = %g\n", c[0], n / 2, c[n / 2], n - 1, c[n - 1]);
    std::printf("%s: %d of %d elements differ from the host sum\n", wrong == 0 ? "PASSED" : "FAILED", wrong, n);
    const ptxsim::sim::KernelStats& s = r.stats;
    std::printf("statistics: %llu warp instructions, %llu thread instructions, %.3f s on %u host threads (%.1f M "
                "thread instructions/s)\n",
                static_cast<unsigned long long>(s.warpInstructions),
                static_cast<unsigned long long>(s.threadInstructions), s.simulationSeconds, s.hostThreads,
                static_cast<double>(s.threadInstructions) / s.simulationSeconds / 1e6);
    std::printf("timing: %llu cycles (gpc__cycles_elapsed.max)\n",
                static_cast<unsigned long long>(s.timing.cyclesElapsed));
    std::printf("%s\n", s.toJson().c_str());
    return wrong == 0 ? 0 : 1;
  } catch (const ptxsim::Error& e) {
    std::fprintf(stderr, "%s", e.what());
    return 1;
  }
}
