// device_runtime.cu - covers: device printf (vprintf with int, unsigned,
// long long, double, float->double promotion, char, string, pointer, %%),
// assert() (__assertfail), device malloc/free and new/delete[], memcpy/memset
// on device, __nanosleep, clock()/clock64(), __trap, __brkpt, __prof_trigger
// (pmevent), spin-waits with volatile, a device-side linked list, a
// never-returning function (.noreturn) and dynamic stack allocation (alloca).
#include <cassert>
#include <cstdio>
#include <cstring>

struct Item { int key; float value; Item *next; };

__global__ void print_things(const float *x, const char *label, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long big = (long long)i << 33;
  if (i < 4) {
    printf("thread %d block %u: x=%f big=%lld hex=%#x ptr=%p label=%s char=%c 100%%\n", i, blockIdx.x, x[i], big,
           (unsigned)i * 0xabcdu, (const void *)&x[i], label, 'A' + (char)i);
    printf("%5.2e|%-8d|%+g|%lu\n", (double)x[i] * 1e10, -i, 0.1 * i, (unsigned long)n);
  }
  if (threadIdx.x == 0) printf("no-argument message from block %d\n", (int)blockIdx.x);
  if (i == n) printf("plain\n");
}

__device__ __noinline__ void fatal(int code) {
  printf("fatal error %d in block %d\n", code, (int)blockIdx.x);
  __trap();
  __builtin_unreachable();
}

__global__ void checks(const int *data, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (data[i] < -1000) fatal(data[i]);
  assert(data != nullptr);
  assert(data[i] >= 0 && "values must be non-negative");
  if (data[i] == 0x7fffffff) __trap();
  if (data[i] == 0x7ffffffe) __brkpt();
  if ((i & 1023) == 0) __prof_trigger(3);
  out[i] = data[i] * 2;
}

__global__ void heap_use(const int *keys, const float *vals, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int m = 1 + (keys[i] & 15);
  float *buf = static_cast<float *>(malloc(m * sizeof(float)));
  if (buf == nullptr) {
    out[i] = -1.f;
    return;
  }
  memset(buf, 0, m * sizeof(float));
  for (int k = 0; k < m; ++k) buf[k] = vals[(i + k) % n];
  float *copy = new float[m];
  memcpy(copy, buf, m * sizeof(float));
  Item *head = nullptr;
  for (int k = 0; k < m; ++k) {
    Item *it = new Item;
    it->key = k;
    it->value = copy[k];
    it->next = head;
    head = it;
  }
  float s = 0.f;
  while (head) {
    Item *nx = head->next;
    s += head->value * (float)head->key;
    delete head;
    head = nx;
  }
  delete[] copy;
  free(buf);
  int *scratch = static_cast<int *>(alloca(m * sizeof(int)));
  for (int k = 0; k < m; ++k) scratch[k] = keys[(i + k) % n] ^ k;
  out[i] = s + (float)scratch[(unsigned)keys[i] % (unsigned)m];
}

__global__ void timing(volatile int *flag, unsigned long long *cycles, unsigned *ticks, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long t0 = clock64();
  clock_t c0 = clock();
  unsigned ns = 32;
  int spins = 0;
  while (*flag == 0 && spins < 1000) {
    __nanosleep(ns);
    ns = ns < 1024 ? ns * 2 : ns;
    ++spins;
  }
  long long t1 = clock64();
  if (i < n) {
    cycles[i] = (unsigned long long)(t1 - t0);
    ticks[i] = (unsigned)(clock() - c0) + (unsigned)spins;
  }
}
