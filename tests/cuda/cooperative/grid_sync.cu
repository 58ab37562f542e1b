// Kernels for the cooperative launch tests (tests/sim/cooperative_launch_test.cpp):
// grid.sync() and the grid group's queries as cooperative_groups users
// write them.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// What this_grid() reports to each thread: 6 values per thread.
extern "C" __global__ void grid_queries(unsigned long long* out) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long* mine = out + 6 * grid.thread_rank();
  mine[0] = grid.is_valid();
  mine[1] = grid.size();
  mine[2] = grid.thread_rank();
  mine[3] = grid.block_rank();
  mine[4] = grid.num_blocks();
  mine[5] = grid.num_threads();
}

// Two passes: every thread stores, the grid synchronises, then every thread
// reads the value another block stored (the next block's, cyclically).
// Without the grid barrier the reads would see the initial -1s.
extern "C" __global__ void rotate_between_blocks(const int* in, int* scratch, int* out) {
  cg::grid_group grid = cg::this_grid();
  unsigned n = grid.size();
  unsigned i = grid.thread_rank();
  scratch[i] = in[i] * 3 + 1;
  grid.sync();
  out[i] = scratch[(i + blockDim.x) % n];
}

// A multi-phase grid reduction: block sums, then block 0 adds them up, then
// every thread reads the total; repeated `rounds` times over the same
// barrier (which flips its phase bit each time).
extern "C" __global__ void grid_reduce(const int* in, long long* partial, long long* totals, int rounds) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ long long sums[1024];
  for (int r = 0; r < rounds; ++r) {
    sums[threadIdx.x] = static_cast<long long>(in[grid.thread_rank()]) * (r + 1);
    block.sync();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
      if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
      block.sync();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
    grid.sync();
    if (grid.block_rank() == 0 && threadIdx.x == 0) {
      long long total = 0;
      for (unsigned b = 0; b < grid.num_blocks(); ++b) total += partial[b];
      totals[r] = total;
    }
    grid.sync();
  }
}

// Block 0 waits for a flag that only the grid's last block sets: it
// completes only when every block is resident at once.
extern "C" __global__ void wait_for_last_block(volatile int* flag, int* seen) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    *seen = *flag;
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *flag = 42;
}

// The last block returns before the grid barrier, which the others then
// wait at forever: a deadlock.
extern "C" __global__ void skip_grid_sync(int* out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == gridDim.x - 1) return;
  out[grid.thread_rank()] = 1;
  grid.sync();
  out[grid.thread_rank()] = 2;
}
