// Device-side launches (CDP2) for tests/sim/device_launch_test.cpp: grids
// that log the order they ran in, a pending-launch-count probe, a recursion
// past the nesting limit, and a child that faults. Built with -rdc=true.

// Appends `value` to the log (one entry per grid: its first thread).
__global__ void logValue(int* log, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) log[1 + atomicAdd(&log[0], 1)] = value;
}

// Logs `value`, then launches a grandchild logging value + 1 into the
// per-block stream.
__global__ void logThenLaunch(int* log, int value) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  log[1 + atomicAdd(&log[0], 1)] = value;
  logValue<<<1, 1>>>(log, value + 1);
}

// Thread 0 of each block launches, with v = 100 * (block + 1):
//   v + 1 (per-block stream), a tail launch of v + 90, v + 10 then v + 11
//   (which launches v + 12) into a named stream, v + 20 fire-and-forget,
//   v + 2 into the per-block stream again.
// Every launch's cudaGetLastError goes to errors[block * 8 + k].
__global__ void launchMany(int* log, int* errors) {
  if (threadIdx.x != 0) return;
  int v = 100 * (blockIdx.x + 1);
  int* e = errors + blockIdx.x * 8;
  logValue<<<1, 32>>>(log, v + 1);
  e[0] = cudaGetLastError();
  logValue<<<2, 32, 0, cudaStreamTailLaunch>>>(log, v + 90);
  e[1] = cudaGetLastError();
  cudaStream_t s;
  e[2] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  logValue<<<1, 1, 0, s>>>(log, v + 10);
  logThenLaunch<<<1, 1, 0, s>>>(log, v + 11);
  e[3] = cudaGetLastError();
  e[4] = cudaStreamDestroy(s);
  logValue<<<1, 1, 0, cudaStreamFireAndForget>>>(log, v + 20);
  e[5] = cudaGetLastError();
  logValue<<<1, 1>>>(log, v + 2);
  e[6] = cudaGetLastError();
}

// Each block's thread 0 launches `perBlock` grids and records each
// launch's error.
__global__ void launchBurst(int* log, int* errors, int perBlock) {
  if (threadIdx.x != 0) return;
  for (int k = 0; k < perBlock; ++k) {
    logValue<<<1, 1>>>(log, 100 * blockIdx.x + k);
    errors[blockIdx.x * perBlock + k] = cudaGetLastError();
  }
}

// Recurses one level per grid: records the depth reached and the error of
// the launch that failed.
__global__ void recurse(int* deepest, int* error, int depth) {
  atomicMax(deepest, depth);
  recurse<<<1, 1>>>(deepest, error, depth + 1);
  int e = cudaGetLastError();
  if (e != cudaSuccess) *error = e;
}

// A block of 2048 threads is no valid configuration.
__global__ void launchInvalid(int* log, int* error) {
  logValue<<<1, 2048>>>(log, 1);
  *error = cudaGetLastError();
  *(error + 1) = cudaPeekAtLastError();  // cleared by the call before
}

__global__ void writeAt(int* p, int index) { p[index] = 1; }

// The child writes far outside the allocation.
__global__ void launchFaulty(int* p) { writeAt<<<1, 1>>>(p, 1 << 26); }
