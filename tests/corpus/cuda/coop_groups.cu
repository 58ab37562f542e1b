// coop_groups.cu - covers: cooperative groups: this_thread_block, sync,
// thread_rank, static tiled_partition<32/16/4>, dynamic tiled_partition,
// coalesced_threads (inside divergent code), labeled_partition, binary_partition,
// tile shfl/any/all/ballot/match, cg::reduce (cg::plus/greater/bit_xor),
// cg::inclusive_scan/exclusive_scan, block.dim_threads/group_index, grid group
// queries and grid.sync() (cooperative launch).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void block_and_tiles(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[32];
  unsigned i = block.group_index().x * block.dim_threads().x + block.thread_rank();
  int v = i < (unsigned)n ? in[i] : 0;
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int wsum = cg::reduce(warp, v, cg::plus<int>());
  int wmax = cg::reduce(warp, v, cg::greater<int>());
  int wxor = cg::reduce(warp, v, cg::bit_xor<int>());
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(warp);
  int hmin = cg::reduce(half, v, cg::less<int>());
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(block);
  int qv = quad.shfl(v, 0) + quad.shfl_down(v, 1) + quad.shfl_up(v, 1) + quad.shfl_xor(v, 2);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = wsum;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int p = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
    int total = cg::reduce(warp, p, cg::plus<int>());
    if (warp.thread_rank() == 0) out[block.group_index().x] = total;
  }
  cg::sync(block);
  if (i < (unsigned)n) out[gridDim.x + i] = wmax + wxor + hmin + qv + (int)warp.any(v > 5) + (int)warp.all(v != 0) +
                                            (int)warp.ballot(v & 1) + (int)warp.match_any(v & 7);
}

__global__ void dynamic_and_coalesced(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < (unsigned)n ? in[i] : 0;
  cg::thread_group tile8 = cg::tiled_partition(block, 8);
  tile8.sync();
  int r = (int)tile8.thread_rank() + (int)tile8.size();
  if (v & 1) {
    cg::coalesced_group active = cg::coalesced_threads();
    int rank = active.thread_rank();
    int first = active.shfl(v, 0);
    int sum = cg::reduce(active, v, cg::plus<int>());
    r += rank + first + sum + (int)active.num_threads();
    active.sync();
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::coalesced_group byKey = cg::labeled_partition(warp, v & 3);
  r += (int)byKey.size();
  cg::coalesced_group byPred = cg::binary_partition(warp, v > 10);
  r += (int)byPred.thread_rank();
  if (i < (unsigned)n) out[i] = r;
}

__global__ void scans(const int *in, int *incl, int *excl, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < (unsigned)n ? in[i] : 0;
  int a = cg::inclusive_scan(warp, v);
  int b = cg::exclusive_scan(warp, v, cg::bit_or<int>());
  cg::thread_block_tile<8> oct = cg::tiled_partition<8>(block);
  int c = cg::inclusive_scan(oct, v, cg::greater<int>());
  if (i < (unsigned)n) {
    incl[i] = a + c;
    excl[i] = b;
  }
}

__global__ void grid_wide(int *data, int *result, int n) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long rank = grid.thread_rank();
  for (unsigned long long k = rank; k < (unsigned long long)n; k += grid.num_threads()) data[k] *= 2;
  grid.sync();
  if (rank == 0) {
    int s = 0;
    for (int k = 0; k < n; ++k) s += data[k];
    result[0] = s + (int)grid.num_blocks() + (int)grid.is_valid() + (int)grid.block_rank();
  }
}
