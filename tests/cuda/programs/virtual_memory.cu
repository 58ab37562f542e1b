// Virtual memory management as a growable buffer uses it: the granularity,
// a reserved address range, two physical allocations mapped back to back
// into it and made accessible, a kernel and copies across the seam, the
// handle behind an address, one allocation unmapped and mapped elsewhere
// (its contents kept), and the driver's answers to wrong use.
// nvcc flags: -lcuda
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "driver_check.h"

namespace {

void show(const char* what, CUresult r) { printResult(what, r, 44); }


// data[i] = i * 3 for i < n.
const char* kFill = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry fill(.param .u64 data, .param .u32 n)
{
    .reg .pred %p;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [data];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r2, %r2, %r3, %r4;
    setp.ge.u32 %p, %r2, %r1;
    @%p bra done;
    mul.lo.s32 %r5, %r2, 3;
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
done:
    ret;
}
)";

}  // namespace

int main() {
  CUdevice device = 0;
  CUcontext context = nullptr;
  CU_CHECK(usePrimaryContext(device, context));
  int supported = 0;
  CU_CHECK(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device));
  std::printf("virtual memory management supported: %d\n", supported);

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t minimum = 0, recommended = 0;
  CU_CHECK(cuMemGetAllocationGranularity(&minimum, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CU_CHECK(cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  std::printf("granularity: minimum %zu, recommended %zu\n", minimum, recommended);
  const size_t piece = minimum;

  CUdeviceptr reserved = 0;
  CU_CHECK(cuMemAddressReserve(&reserved, 2 * piece, 0, 0, 0));
  std::printf("reservation aligned to the granularity: %s\n", reserved % minimum == 0 ? "yes" : "no");
  CUmemGenericAllocationHandle first = 0, second = 0;
  CU_CHECK(cuMemCreate(&first, piece, &prop, 0));
  CU_CHECK(cuMemCreate(&second, piece, &prop, 0));
  CU_CHECK(cuMemMap(reserved, piece, 0, first, 0));
  CU_CHECK(cuMemMap(reserved + piece, piece, 0, second, 0));
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CU_CHECK(cuMemSetAccess(reserved, 2 * piece, &access, 1));
  unsigned long long flags = 0;
  CU_CHECK(cuMemGetAccess(&flags, &prop.location, reserved + piece + 64));
  std::printf("access of the second allocation: %llu\n", flags);

  // A kernel and copies over the seam between the two allocations.
  CUmodule module = nullptr;
  CU_CHECK(cuModuleLoadData(&module, kFill));
  CUfunction fill = nullptr;
  CU_CHECK(cuModuleGetFunction(&fill, module, "fill"));
  unsigned n = static_cast<unsigned>(2 * piece / 4);
  void* args[] = {&reserved, &n};
  CU_CHECK(cuLaunchKernel(fill, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  std::vector<uint32_t> words(n);
  CU_CHECK(cuMemcpyDtoH(words.data(), reserved, 2 * piece));
  int wrong = 0;
  for (unsigned i = 0; i < n; ++i) wrong += words[i] != i * 3;
  std::printf("kernel over both allocations: %d wrong\n", wrong);
  uint32_t seam[4] = {};
  CU_CHECK(cuMemcpyDtoH(seam, reserved + piece - 8, sizeof seam));
  std::printf("across the seam: %u %u %u %u\n", seam[0], seam[1], seam[2], seam[3]);
  CU_CHECK(cuMemsetD32(reserved + piece - 8, 7, 4));
  CU_CHECK(cuMemcpyDtoH(seam, reserved + piece - 8, sizeof seam));
  std::printf("filled across the seam: %u %u %u %u\n", seam[0], seam[1], seam[2], seam[3]);

  CUmemGenericAllocationHandle retained = 0;
  CU_CHECK(cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(reserved + piece + 100)));
  std::printf("handle behind the second half: %s\n", retained == second ? "the second" : "another");
  CU_CHECK(cuMemRelease(retained));
  CUmemAllocationProp back{};
  CU_CHECK(cuMemGetAllocationPropertiesFromHandle(&back, first));
  std::printf("properties: type %d, location type %d id %d\n", back.type, back.location.type, back.location.id);

  // The second allocation moves to another reservation; its bytes go along.
  CUdeviceptr other = 0;
  CU_CHECK(cuMemAddressReserve(&other, piece, 0, 0, 0));
  CU_CHECK(cuMemUnmap(reserved + piece, piece));
  CU_CHECK(cuMemMap(other, piece, 0, second, 0));
  CU_CHECK(cuMemSetAccess(other, piece, &access, 1));
  uint32_t moved[2] = {};
  CU_CHECK(cuMemcpyDtoH(moved, other, sizeof moved));
  std::printf("moved allocation starts with: %u %u\n", moved[0], moved[1]);

  // Wrong use.
  CUmemGenericAllocationHandle odd = 0;
  show("cuMemCreate of half the granularity", cuMemCreate(&odd, piece / 2, &prop, 0));
  CUdeviceptr unaligned = 0;
  show("cuMemAddressReserve of half the granularity", cuMemAddressReserve(&unaligned, piece / 2, 0, 0, 0));
  show("cuMemUnmap of the wrong size", cuMemUnmap(reserved, piece / 2));
  show("cuMemMap over a mapped range", cuMemMap(reserved, piece, 0, second, 0));

  CU_CHECK(cuMemUnmap(reserved, piece));
  CU_CHECK(cuMemUnmap(other, piece));
  CU_CHECK(cuMemRelease(first));
  CU_CHECK(cuMemRelease(second));
  CU_CHECK(cuMemAddressFree(reserved, 2 * piece));
  CU_CHECK(cuMemAddressFree(other, piece));
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("done\n");
  return 0;
}
