// Dynamic parallelism (CDP2): kernels that launch kernels, built with
// -rdc=true. Every result is checked against the host; the output does not
// depend on how the GPU schedules the child grids.

#include "cdp.h"

int main() {
  if (int failed = runQuicksort()) return failed;
  if (int failed = runTreeSum()) return failed;
  return runStreams();
}
