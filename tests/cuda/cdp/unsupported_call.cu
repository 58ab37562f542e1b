// A kernel calling a device runtime function ptxsim does not provide
// (cudaDeviceGetAttribute in device code): loading the kernel (lazily, at
// its launch) must fail naming __cudaCDP2DeviceGetAttribute. Built with
// -rdc=true.
__global__ void queryAttribute(int* out) { cudaDeviceGetAttribute(out, cudaDevAttrMaxThreadsPerBlock, 0); }
