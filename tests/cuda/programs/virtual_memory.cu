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

namespace {

void show(const char* what, CUresult r) {
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "(unknown)";
  std::printf("%-44s %s\n", what, name);
}

#define CHECK(call)           \
  do {                        \
    CUresult r_ = (call);     \
    if (r_ != CUDA_SUCCESS) { \
      show(#call, r_);        \
      return 1;               \
    }                         \
  } while (0)

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
  CHECK(cuInit(0));
  CUdevice device = 0;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  int supported = 0;
  CHECK(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device));
  std::printf("virtual memory management supported: %d\n", supported);

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t minimum = 0, recommended = 0;
  CHECK(cuMemGetAllocationGranularity(&minimum, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CHECK(cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  std::printf("granularity: minimum %zu, recommended %zu\n", minimum, recommended);
  const size_t piece = minimum;

  CUdeviceptr reserved = 0;
  CHECK(cuMemAddressReserve(&reserved, 2 * piece, 0, 0, 0));
  std::printf("reservation aligned to the granularity: %s\n", reserved % minimum == 0 ? "yes" : "no");
  CUmemGenericAllocationHandle first = 0, second = 0;
  CHECK(cuMemCreate(&first, piece, &prop, 0));
  CHECK(cuMemCreate(&second, piece, &prop, 0));
  CHECK(cuMemMap(reserved, piece, 0, first, 0));
  CHECK(cuMemMap(reserved + piece, piece, 0, second, 0));
  CUmemAccessDesc access{};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK(cuMemSetAccess(reserved, 2 * piece, &access, 1));
  unsigned long long flags = 0;
  CHECK(cuMemGetAccess(&flags, &prop.location, reserved + piece + 64));
  std::printf("access of the second allocation: %llu\n", flags);

  // A kernel and copies over the seam between the two allocations.
  CUmodule module = nullptr;
  CHECK(cuModuleLoadData(&module, kFill));
  CUfunction fill = nullptr;
  CHECK(cuModuleGetFunction(&fill, module, "fill"));
  unsigned n = static_cast<unsigned>(2 * piece / 4);
  void* args[] = {&reserved, &n};
  CHECK(cuLaunchKernel(fill, n / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  std::vector<uint32_t> words(n);
  CHECK(cuMemcpyDtoH(words.data(), reserved, 2 * piece));
  int wrong = 0;
  for (unsigned i = 0; i < n; ++i) wrong += words[i] != i * 3;
  std::printf("kernel over both allocations: %d wrong\n", wrong);
  uint32_t seam[4] = {};
  CHECK(cuMemcpyDtoH(seam, reserved + piece - 8, sizeof seam));
  std::printf("across the seam: %u %u %u %u\n", seam[0], seam[1], seam[2], seam[3]);
  CHECK(cuMemsetD32(reserved + piece - 8, 7, 4));
  CHECK(cuMemcpyDtoH(seam, reserved + piece - 8, sizeof seam));
  std::printf("filled across the seam: %u %u %u %u\n", seam[0], seam[1], seam[2], seam[3]);

  CUmemGenericAllocationHandle retained = 0;
  CHECK(cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(reserved + piece + 100)));
  std::printf("handle behind the second half: %s\n", retained == second ? "the second" : "another");
  CHECK(cuMemRelease(retained));
  CUmemAllocationProp back{};
  CHECK(cuMemGetAllocationPropertiesFromHandle(&back, first));
  std::printf("properties: type %d, location type %d id %d\n", back.type, back.location.type, back.location.id);

  // The second allocation moves to another reservation; its bytes go along.
  CUdeviceptr other = 0;
  CHECK(cuMemAddressReserve(&other, piece, 0, 0, 0));
  CHECK(cuMemUnmap(reserved + piece, piece));
  CHECK(cuMemMap(other, piece, 0, second, 0));
  CHECK(cuMemSetAccess(other, piece, &access, 1));
  uint32_t moved[2] = {};
  CHECK(cuMemcpyDtoH(moved, other, sizeof moved));
  std::printf("moved allocation starts with: %u %u\n", moved[0], moved[1]);

  // Wrong use.
  CUmemGenericAllocationHandle odd = 0;
  show("cuMemCreate of half the granularity", cuMemCreate(&odd, piece / 2, &prop, 0));
  CUdeviceptr unaligned = 0;
  show("cuMemAddressReserve of half the granularity", cuMemAddressReserve(&unaligned, piece / 2, 0, 0, 0));
  show("cuMemUnmap of the wrong size", cuMemUnmap(reserved, piece / 2));
  show("cuMemMap over a mapped range", cuMemMap(reserved, piece, 0, second, 0));

  CHECK(cuMemUnmap(reserved, piece));
  CHECK(cuMemUnmap(other, piece));
  CHECK(cuMemRelease(first));
  CHECK(cuMemRelease(second));
  CHECK(cuMemAddressFree(reserved, 2 * piece));
  CHECK(cuMemAddressFree(other, piece));
  CHECK(cuModuleUnload(module));
  CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("done\n");
  return 0;
}
