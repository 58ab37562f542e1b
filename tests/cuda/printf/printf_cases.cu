// Device printf on a real GPU: every conversion, flag, width, precision and
// length modifier the simulator supports, plus the odd cases the CUDA guide
// leaves open. It leaves out what the H100 (driver 580, CUDA 13.0) gets
// wrong: after an hh, z, j or t conversion, or a '.*' precision, its device
// parser stops storing arguments and the host prints bytes of the record
// instead (the simulator follows C99 there). Unlike tests/cuda/semantics, the result is the text printf
// writes to stdout, so this program has its own main.
//
//   printf_cases            runs cases(0) .. cases(case_count - 1), one
//                           launch each, one thread (case 0: 32 threads)
//   printf_cases risky N    runs risky(N) alone: cases that may fault or
//                           kill the context (N < risky_count)
//
// Record on the GPU (stdout and stderr apart):
//   nvcc -arch=sm_90 -o printf_cases tests/cuda/printf/printf_cases.cu
//   ./printf_cases > tests/cuda/printf/printf_cases.expected
//   for n in 0 1 2 3; do ./printf_cases risky $n > risky_$n.out 2> risky_$n.err; echo "exit $?" >> risky_$n.err; done
// tests/sim/semantics/device_runtime_test.cpp runs the same launches on the
// simulator and compares the text byte for byte.
#include <cassert>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

// Mismatched and invalid formats are deliberate here.
#pragma nv_diag_suppress 181, 224, 226

__device__ unsigned int case_count = 30;
__device__ unsigned int risky_count = 4;

__device__ const char kLong[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
    "KLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrs"
    "tuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-end";

// Keeps nvcc from folding or checking the values it formats.
__device__ volatile int vi[4] = {42, -42, 0, 7};

extern "C" __global__ void cases(int which) {
  __shared__ char shared[8];
  char local[8];
  int r = 0;
  switch (which) {
    case 0: r = printf("lane %2d of %d\n", (int)threadIdx.x, (int)blockDim.x); break;
    case 1: r = printf("plain text, no conversions\n"); break;
    case 2: r = printf("d=%d i=%i u=%u o=%o x=%x X=%X\n", -42, 42, -42, 8, 255, 255); break;
    case 3:
      r = printf("[%5d][%-5d][%05d][%+d][% d][%+05d][%-+5d][%-05d][%+ d]\n", 42, 42, 42, 42, 42, 42, 42, 42, 42);
      printf("-> %d\n", r);
      r = printf("[%5d][%-5d][%05d][%+d][% d][%+05d][%-+5d][%-05d][%+ d]\n", -42, -42, -42, -42, -42, -42, -42, -42,
                 -42);
      break;
    case 4:
      r = printf("[%.3d][%8.3d][%-8.3d][%.0d][%5.0d][%.10d][%08.3d][%.3x][%#.3o]\n", 7, 7, 7, 0, 0, -7, 7, 10, 8);
      break;
    case 5:
      r = printf("[%#o][%#x][%#X][%#o][%#x][%#.0o][%#5x][%#08x][%+u][% x]\n", 8, 255, 255, 0, 0, 0, 0, 255, 5, 5);
      break;
    case 6:
      r = printf("%hd %hd %hu %hx %ho %hX %hi\n", 70000, 40000, -1, 0x12345, 0x12345, 0x12345, -2);
      break;
    case 7:
      r = printf("%ld %lld %lu %llu %lx %llX %lo\n", -1L, LLONG_MIN, ULONG_MAX, ULLONG_MAX, 0x123456789abcdef0L,
                 0xfedcba9876543210ULL, 01777777777777777777777UL);
      break;
    case 8:
      r = printf("[%5.2hd %hi %lld %lo]\n", 70000, -2, 3LL, 8L);
      break;
    case 9:
      r = printf("%d %d %u %d %lld %lld %llu\n", INT_MIN, INT_MAX, UINT_MAX, vi[2], LLONG_MIN, LLONG_MAX, ULLONG_MAX);
      break;
    case 10: r = printf("[%c][%3c][%-3c][%c][%c]\n", 'A', 'b', 'c', 0x141, '%'); break;
    case 11:
      r = printf("[%s][%10s][%-10s][%.2s][%10.3s][%-10.3s][%.0s][%.s][%5.s][%s]\n", "hello", "hello", "hello", "hello",
                 "hello", "hello", "hello", "hello", "hello", "");
      break;
    case 12: r = printf("[%s][%.3s][%.6s][%10s][%-8s]\n", (char*)0, (char*)0, (char*)0, (char*)0, (char*)0); break;
    case 13:
      for (int i = 0; i < 7; ++i) {
        shared[i] = "shared!"[i];
        local[i] = "local!!"[i + vi[2]];
      }
      shared[7] = 0;
      local[7] = 0;
      r = printf("%s %s %.3s\n", shared, local, kLong);
      break;
    case 14: r = printf("%s|%300d|\n", kLong, 1); break;
    case 15:
      r = printf("%f %F %e %E %g %G %a %A\n", 3.14159265358979, 3.14159265358979, 3.14159265358979, 3.14159265358979,
                 3.14159265358979, 3.14159265358979, 3.14159265358979, 3.14159265358979);
      printf("-> %d\n", r);
      r = printf("%f %g %e\n", 1.5f, 0.1f, -2.25f);
      break;
    case 16:
      r = printf("[%10.3f][%-10.3f][%010.3f][%+f][% f][%.0f][%#.0f][%.0e][%#.0e][%#g][%.3g][%10.4e][%+.2e]\n", 3.14159,
                 3.14159, -3.14159, 3.14159, 3.14159, 2.5, 2.0, 15000.0, 3.0, 1.5, 1234.5678, 0.000123456, -1e-10);
      break;
    case 17: {
      double inf = __longlong_as_double(0x7ff0000000000000LL);
      double nan = __longlong_as_double(0x7ff8000000000000LL);
      double nnan = __longlong_as_double(0xfff8000000000000LL);
      r = printf("%f %F %e %E %g %G %a %A|%5.1f|%-6f|%+f|%010f|% f|%f|%F|%f|%+.2f|%e|%g|%a\n", inf, inf, -inf, inf, inf,
                 -inf, inf, nan, inf, nan, inf, -inf, nan, nnan, nnan, -0.0, -0.0, 0.0, -0.0, -0.0);
      break;
    }
    case 18:
      r = printf("%.3e %g %g %g %g %f %.20f %.17g %.15g\n", 1e300, 1e-300, 1e-5, 123456789.0, 0.0001, 0.1, 0.1, 0.1,
                 0.1);
      printf("-> %d\n", r);
      r = printf("%f\n", 1e300);
      break;
    case 19:
      r = printf("%.0f %.0f %.0f %.0f %.1f %.1f %.2f %.2f %.0e %.3g\n", 0.5, 1.5, 2.5, -0.5, 0.25, 0.35, 1.005, 2.675,
                 25.0, 1.0005);
      break;
    case 20:
      r = printf("%g %g %g %g %g %G %g %g %.0g %#.3g %g\n", 100000.0, 1000000.0, 0.0001, 0.00001, 123456.5, 1e-10,
                 1.0, 0.0, 0.5, 1.0, 4.9e-324);
      break;
    case 21:
      r = printf("%a %a %a %a %.2a %A %a %.0a %10.1a %-12a| %+a\n", 1.0, 0.1, -2.5, 1e-320, 1.999, 255.5, 0.0, 1.5,
                 3.0, 0.5, 1.0);
      break;
    case 22: r = printf("%p %p [%20p] [%-20p]\n", (void*)0x1234, (void*)0, (void*)0xabc, (void*)0xabc); break;
    case 23:
      r = printf("[%*d][%-*d][%*d][%0*d][%*s][%*c][%+*.2f]|%d\n", 5, 42, 5, 42, -5, 42, 4, 7, 6, "x", 3, 'c', 9, 2.5,
                 9);
      break;
    case 24: r = printf("100%% [%5%] [%-5%] %%d\n"); break;
    case 25:
      r = printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d"
                 " %d end\n",
                 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                 29, 30, 31, 32, 33, 34);
      break;
    case 26:
      r = printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %*d|%d|\n",
                 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                 29, 30, 4, 31, 32);
      break;
    case 27: r = printf("mismatch %d %d, %ld\n", 1.5, 7, vi[0]); break;
    case 28: r = printf("unknown [%y] [%5y] [%k%d] tab\tnewline\n\nend %", 9); break;
    case 29: {
      void* zero = malloc(0);
      void* huge = malloc((size_t)1 << 40);
      char* p = (char*)malloc(100);
      char* q = (char*)malloc(1);
      r = printf("malloc(0) %s, malloc(1<<40) %s, 100 bytes aligned16 %d, 1 byte aligned16 %d\n",
                 zero ? "non-null" : "null", huge ? "non-null" : "null", (int)((size_t)p % 16 == 0),
                 (int)((size_t)q % 16 == 0));
      free(zero);
      free(p);
      free(q);
      break;
    }
  }
  printf("-> %d\n", r);
}

extern "C" __global__ void risky(int which) {
  int r = 0;
  int n = 0;
  switch (which) {
    case 0: r = printf("%d %s\n"); break;  // a conversion, no arguments: nvcc passes a null buffer
    case 1: r = printf((const char*)(size_t)vi[2]); break;  // a null format
    case 2: r = printf("before %n after %d\n", &n, 5); break;
    case 3: assert(vi[0] == 41); break;
  }
  printf("-> %d n=%d\n", r, n);
}

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_)); \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "risky") == 0) {
    risky<<<1, 1>>>(std::atoi(argv[2]));
    cudaError_t err = cudaDeviceSynchronize();
    std::fflush(stdout);
    std::fprintf(stderr, "risky %s: %s\n", argv[2], cudaGetErrorName(err));
    return 0;
  }
  unsigned int count = 0;
  CHECK(cudaMemcpyFromSymbol(&count, case_count, sizeof count));
  for (unsigned int i = 0; i < count; ++i) {
    cases<<<1, i == 0 ? 32 : 1>>>(static_cast<int>(i));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  return 0;
}
