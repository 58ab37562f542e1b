// Contexts: created ones and the devices' primary contexts, each host
// thread's stack of current contexts, and the calls that act on the current
// one. Every context of a device shares that device's memory and modules
// (ptxsim keeps one address space per device).

#include <algorithm>

#include "driver_api.h"
#include "driver_state.h"

using ptxsim::driver::Context;
using ptxsim::driver::driverState;
using ptxsim::driver::viaRuntime;

namespace {

// The current context, or the error CUDA gives when there is none.
CUresult currentContext(Context*& context) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  context = driverState().current();
  return context != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

// A context argument, or the current one where it is null.
CUresult contextOrCurrent(CUcontext ctx, Context*& context) {
  if (ctx == nullptr) return currentContext(context);
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(driverState().mutex());
  if (!driverState().valid(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  context = ptxsim::driver::contextOf(ctx);
  return CUDA_SUCCESS;
}

CUresult createContext(CUcontext* pctx, unsigned flags, CUdevice dev) {
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ptxsim::driver::checkDevice(dev); r != CUDA_SUCCESS) return r;
  Context* context = nullptr;
  {
    std::lock_guard lock(driverState().mutex());
    context = driverState().create(dev, flags);
  }
  // A new context is made current on the calling thread.
  driverState().currentStack().push_back(context);
  *pctx = ptxsim::driver::handle(context);
  return CUDA_SUCCESS;
}

}  // namespace

DRIVER_EXPORT CUresult cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return createContext(pctx, flags, dev);
}

DRIVER_EXPORT CUresult cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam* paramsArray, int numParams,
                                      unsigned int flags, CUdevice dev) {
  // Execution affinity (an SM count) needs MPS; without it CUDA refuses the call.
  if (numParams != 0 || paramsArray != nullptr) return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
  return createContext(pctx, flags, dev);
}

DRIVER_EXPORT CUresult cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* ctxCreateParams, unsigned int flags,
                                      CUdevice dev) {
  if (ctxCreateParams != nullptr &&
      (ctxCreateParams->numExecAffinityParams != 0 || ctxCreateParams->cigParams != nullptr)) {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  return createContext(pctx, flags, dev);
}

DRIVER_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  if (ctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = ptxsim::driver::contextOf(ctx);
  {
    std::lock_guard lock(driverState().mutex());
    if (!driverState().valid(ctx) || context->primary) return CUDA_ERROR_INVALID_CONTEXT;
    driverState().destroy(context);
  }
  std::vector<Context*>& stack = driverState().currentStack();
  stack.erase(std::remove(stack.begin(), stack.end(), context), stack.end());
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
  Context* context = nullptr;
  if (ctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = contextOrCurrent(ctx, context); r != CUDA_SUCCESS) return r;
  driverState().currentStack().push_back(context);
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext* pctx) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::vector<Context*>& stack = driverState().currentStack();
  if (stack.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  if (pctx != nullptr) *pctx = ptxsim::driver::handle(stack.back());
  stack.pop_back();
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  std::vector<Context*>& stack = driverState().currentStack();
  if (ctx == nullptr) {
    if (!stack.empty()) stack.pop_back();
    return CUDA_SUCCESS;
  }
  Context* context = nullptr;
  if (CUresult r = contextOrCurrent(ctx, context); r != CUDA_SUCCESS) return r;
  if (stack.empty()) {
    stack.push_back(context);
  } else {
    stack.back() = context;
  }
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxGetCurrent(CUcontext* pctx) {
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = ptxsim::driver::ready(); r != CUDA_SUCCESS) return r;
  *pctx = ptxsim::driver::handle(driverState().current());
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxGetDevice(CUdevice* device) {
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  *device = context->device;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxGetDevice_v2(CUdevice* device, CUcontext ctx) {
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = contextOrCurrent(ctx, context); r != CUDA_SUCCESS) return r;
  *device = context->device;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long* ctxId) {
  if (ctxId == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = contextOrCurrent(ctx, context); r != CUDA_SUCCESS) return r;
  *ctxId = context->id;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxGetFlags(unsigned int* flags) {
  if (flags == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  *flags = context->flags;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxSetFlags(unsigned int flags) {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  context->flags = flags;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int* version) {
  if (version == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = contextOrCurrent(ctx, context); r != CUDA_SUCCESS) return r;
  *version = 3020;  // the context API of CUDA 3.2 on, as every context since reports
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxSynchronize() {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  return viaRuntime([] { return cudaDeviceSynchronize(); });
}

DRIVER_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx) {
  Context* context = nullptr;
  if (CUresult r = contextOrCurrent(ctx, context); r != CUDA_SUCCESS) return r;
  return viaRuntime([] { return cudaDeviceSynchronize(); });
}

// The limits of CUDA-in-graphics (CIG) contexts have no runtime
// counterpart. No ptxsim context is one; an ordinary context answers as the
// H100's does (driver_api.expected): the shared memory its kernels may have
// and "not CIG" are read-only, and the fallback setting is not a limit.
DRIVER_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  switch (limit) {
    case CU_LIMIT_SHMEM_SIZE:
    case CU_LIMIT_CIG_ENABLED: return CUDA_ERROR_NOT_PERMITTED;
    case CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    // CUlimit and cudaLimit number the others alike.
    default: return viaRuntime([&] { return cudaDeviceSetLimit(static_cast<cudaLimit>(limit), value); });
  }
}

DRIVER_EXPORT CUresult cuCtxGetLimit(size_t* pvalue, CUlimit limit) {
  if (pvalue == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  switch (limit) {
    case CU_LIMIT_SHMEM_SIZE:
      return viaRuntime([&] {
        int bytes = 0;
        cudaError_t e = cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, context->device);
        *pvalue = static_cast<size_t>(bytes);
        return e;
      });
    case CU_LIMIT_CIG_ENABLED: *pvalue = 0; return CUDA_SUCCESS;
    case CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    default:
      if (limit >= CU_LIMIT_MAX) return CUDA_ERROR_INVALID_VALUE;
      return viaRuntime([&] { return cudaDeviceGetLimit(pvalue, static_cast<cudaLimit>(limit)); });
  }
}

DRIVER_EXPORT CUresult cuCtxGetCacheConfig(CUfunc_cache* pconfig) {
  if (pconfig == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  return viaRuntime([&] { return cudaDeviceGetCacheConfig(reinterpret_cast<cudaFuncCache*>(pconfig)); });
}

DRIVER_EXPORT CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  return viaRuntime([&] { return cudaDeviceSetCacheConfig(static_cast<cudaFuncCache>(config)); });
}

DRIVER_EXPORT CUresult cuCtxGetSharedMemConfig(CUsharedconfig* pConfig) {
  if (pConfig == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
  return CUDA_SUCCESS;
}

DRIVER_EXPORT CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  // Since Volta the bank width is fixed; CUDA accepts the call and ignores it.
  return config <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

DRIVER_EXPORT CUresult cuCtxGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  return viaRuntime([&] { return cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority); });
}

DRIVER_EXPORT CUresult cuCtxResetPersistingL2Cache() {
  Context* context = nullptr;
  if (CUresult r = currentContext(context); r != CUDA_SUCCESS) return r;
  return viaRuntime([] { return cudaCtxResetPersistingL2Cache(); });
}

// The names before CUDA 4 of calls whose signature has not changed.
DRIVER_ALIAS(cuCtxCreate, cuCtxCreate_v2);
DRIVER_ALIAS(cuCtxDestroy, cuCtxDestroy_v2);
DRIVER_ALIAS(cuCtxPopCurrent, cuCtxPopCurrent_v2);
DRIVER_ALIAS(cuCtxPushCurrent, cuCtxPushCurrent_v2);

// A stream's context: every stream belongs to its device's primary context
// (ptxsim's streams are the runtime's).
DRIVER_EXPORT CUresult cuStreamGetCtx(CUstream hStream, CUcontext* pctx) {
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  int device = 0;
  if (CUresult r = viaRuntime([&] { return cudaStreamGetDevice(hStream, &device); }); r != CUDA_SUCCESS) return r;
  std::lock_guard lock(driverState().mutex());
  *pctx = ptxsim::driver::handle(&driverState().primary(device));
  return CUDA_SUCCESS;
}
DRIVER_EXPORT CUresult cuStreamGetCtx_ptsz(CUstream hStream, CUcontext* pctx) {
  return cuStreamGetCtx(ptxsim::driver::perThread(hStream), pctx);
}
DRIVER_EXPORT CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext* pCtx, CUgreenCtx* pGreenCtx) {
  if (pGreenCtx != nullptr) *pGreenCtx = nullptr;  // no green contexts
  return cuStreamGetCtx(hStream, pCtx);
}
DRIVER_EXPORT CUresult cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext* pCtx, CUgreenCtx* pGreenCtx) {
  return cuStreamGetCtx_v2(ptxsim::driver::perThread(hStream), pCtx, pGreenCtx);
}
