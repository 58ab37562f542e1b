#pragma once

// What the wgmma programs (wgmma_forms.cu, wgmma_sparse.cu) share: one
// case of wgmma.mma_async (types, shape, operands, shared-memory image),
// the PTX kernel written for it (a warpgroup of 128 threads copies the
// image into 1024-aligned shared memory, issues the wgmma, or a chain of
// them along K, and stores every thread's D registers), loading that PTX
// with cuModuleLoadDataEx and printing the result. A case whose PTX the
// driver refuses prints the refusal.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "bits_hash.h"
#include "driver_check.h"

namespace wgmma_probe {

inline void show(const char* what, CUresult r) { printResult(what, r, 40); }

enum class T { F16, BF16, TF32, E4M3, E5M2, S8, U8, B1, F32, S32 };

inline const char* ptxName(T t) {
  switch (t) {
    case T::F16: return "f16";
    case T::BF16: return "bf16";
    case T::TF32: return "tf32";
    case T::E4M3: return "e4m3";
    case T::E5M2: return "e5m2";
    case T::S8: return "s8";
    case T::U8: return "u8";
    case T::B1: return "b1";
    case T::F32: return "f32";
    case T::S32: return "s32";
  }
  return "";
}

inline unsigned bitsOf(T t) {
  switch (t) {
    case T::F16:
    case T::BF16: return 16;
    case T::TF32:
    case T::F32:
    case T::S32: return 32;
    case T::B1: return 1;
    default: return 8;
  }
}

// K of one wgmma: 32 bytes of each row of A and B.
inline unsigned kOf(T input) { return input == T::B1 ? 256 : 256 / bitsOf(input); }

// One case: everything the kernel needs.
struct Case {
  std::string name;
  T d = T::F32, a = T::F16, b = T::F16;
  unsigned n = 8;
  bool aFromRegisters = false;
  uint64_t descA = 0, descB = 0;  // without the image's base address
  unsigned transA = 0, transB = 0;
  int scaleA = 1, scaleB = 1;
  bool scaleD = true;
  bool satfinite = false;
  unsigned chain = 1;        // wgmmas along K, descriptors advanced by 32 bytes each
  bool sparse = false;       // wgmma.mma_async.sp: A holds half of K
  unsigned sparseSelector = 0;
  std::vector<uint8_t> image;  // shared memory, from the 1024-aligned base
  std::vector<uint32_t> aRegs;   // 128 threads x 4 (x chain)
  std::vector<uint32_t> c;       // 128 threads x registers
  std::vector<uint32_t> meta;    // 128 threads, sparse only
  bool printAll = false;         // warp 0's words in full
  bool printIntegers = false;    // warp 0's words as integers of f32 values
};

inline unsigned dRegisters(const Case& k) { return k.d == T::F16 ? k.n / 4 : k.n / 2; }

inline uint64_t descriptor(unsigned offset, unsigned lbo, unsigned sbo, unsigned swizzle, unsigned baseOffset = 0) {
  return uint64_t(offset >> 4) | (uint64_t(lbo >> 4) << 16) | (uint64_t(sbo >> 4) << 32) |
         (uint64_t(baseOffset) << 49) | (uint64_t(swizzle) << 62);
}

inline std::string kernelPtx(const Case& k) {
  unsigned dRegs = dRegisters(k);
  bool floatD = k.d == T::F32;
  std::string p = ".version 8.4\n.target sm_90a\n.address_size 64\n.extern .shared .align 16 .b8 dsmem[];\n";
  p += ".visible .entry probe(.param .u64 pImage, .param .u32 pWords, .param .u64 pA, .param .u64 pC, "
       ".param .u64 pOut, .param .u64 pDescA, .param .u64 pDescB, .param .u32 pScaleD, .param .u64 pMeta)\n{\n";
  p += ".reg .b32 %t, %base, %i, %n, %w, %x, %sc, %meta;\n.reg .b64 %rd<16>;\n.reg .pred %p, %q;\n";
  p += ".reg .b32 %a<16>;\n";
  p += floatD ? ".reg .f32 %d<130>;\n" : ".reg .b32 %d<130>;\n";
  p += "mov.u32 %t, %tid.x;\nmov.u32 %base, dsmem;\nadd.u32 %base, %base, 1023;\nand.b32 %base, %base, -1024;\n";
  p += "ld.param.u64 %rd1, [pImage];\nld.param.u32 %n, [pWords];\nmov.u32 %i, %t;\n";
  p += "COPY:\nsetp.ge.u32 %p, %i, %n;\n@%p bra COPIED;\nmul.wide.u32 %rd2, %i, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
       "ld.global.u32 %w, [%rd3];\nshl.b32 %x, %i, 2;\nadd.u32 %x, %x, %base;\nst.shared.u32 [%x], %w;\n"
       "add.u32 %i, %i, 128;\nbra COPY;\nCOPIED:\nbar.sync 0;\nfence.proxy.async.shared::cta;\nbar.sync 0;\n";
  // C, A registers, descriptors, scale-d.
  p += "ld.param.u64 %rd4, [pC];\nmul.wide.u32 %rd5, %t, " + std::to_string(dRegs * 4) +
       ";\nadd.u64 %rd4, %rd4, %rd5;\n";
  for (unsigned r = 0; r < dRegs; ++r)
    p += std::string("ld.global.") + (floatD ? "f32" : "b32") + " %d" + std::to_string(r) + ", [%rd4+" +
         std::to_string(4 * r) + "];\n";
  unsigned aRegsPerThread = 4 * k.chain;
  if (k.aFromRegisters) {
    p += "ld.param.u64 %rd6, [pA];\nmul.wide.u32 %rd7, %t, " + std::to_string(aRegsPerThread * 4) +
         ";\nadd.u64 %rd6, %rd6, %rd7;\n";
    for (unsigned r = 0; r < aRegsPerThread; ++r)
      p += "ld.global.b32 %a" + std::to_string(r) + ", [%rd6+" + std::to_string(4 * r) + "];\n";
  }
  p += "shr.u32 %x, %base, 4;\ncvt.u64.u32 %rd8, %x;\nld.param.u64 %rd9, [pDescA];\nadd.u64 %rd9, %rd9, %rd8;\n"
       "ld.param.u64 %rd10, [pDescB];\nadd.u64 %rd10, %rd10, %rd8;\n";
  p += "ld.param.u32 %sc, [pScaleD];\nsetp.ne.u32 %q, %sc, 0;\n";
  if (k.sparse)
    p += "ld.param.u64 %rd11, [pMeta];\nmul.wide.u32 %rd12, %t, 4;\nadd.u64 %rd11, %rd11, %rd12;\n"
         "ld.global.b32 %meta, [%rd11];\n";
  std::string shape = "m64n" + std::to_string(k.n) + "k" + std::to_string(kOf(k.a) * (k.sparse ? 2 : 1));
  std::string types = std::string(".") + ptxName(k.d) + "." + ptxName(k.a) + "." + ptxName(k.b);
  if (k.a == T::B1) types += ".and.popc";
  std::string dList = "{";
  for (unsigned r = 0; r < dRegs; ++r) dList += (r ? ",%d" : "%d") + std::to_string(r);
  dList += "}";
  bool isFloat = k.a != T::S8 && k.a != T::U8 && k.a != T::B1;
  bool hasTranspose = k.a == T::F16 || k.a == T::BF16;
  p += "wgmma.fence.sync.aligned;\n";
  for (unsigned step = 0; step < k.chain; ++step) {
    std::string aOperand;
    if (k.aFromRegisters) {
      aOperand = "{";
      for (unsigned r = 0; r < 4; ++r) aOperand += (r ? ",%a" : "%a") + std::to_string(4 * step + r);
      aOperand += "}";
    } else {
      aOperand = "%rd9";
    }
    p += std::string("wgmma.mma_async") + (k.sparse ? ".sp" : "") + ".sync.aligned." + shape +
         (k.satfinite ? ".satfinite" : "") + types + " " + dList + ", " + aOperand + ", %rd10, ";
    if (k.sparse) p += "%meta, " + std::to_string(k.sparseSelector) + ", ";
    p += "%q";
    if (isFloat) p += ", " + std::to_string(k.scaleA) + ", " + std::to_string(k.scaleB);
    if (hasTranspose) {
      if (!k.aFromRegisters) p += ", " + std::to_string(k.transA);
      p += ", " + std::to_string(k.transB);
    }
    p += ";\n";
    // The next step's descriptors: 32 bytes further along K for K-major
    // operands (the start address field counts 16-byte units).
    if (step + 1 < k.chain) {
      p += std::string("add.u64 %rd9, %rd9, ") + (k.transA ? "0" : "2") + ";\n";
      p += std::string("add.u64 %rd10, %rd10, ") + (k.transB ? "0" : "2") + ";\n";
      p += "setp.eq.u32 %q, 1, 1;\n";
    }
  }
  p += "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
  p += "ld.param.u64 %rd13, [pOut];\nadd.u64 %rd13, %rd13, %rd5;\n";
  for (unsigned r = 0; r < dRegs; ++r)
    p += std::string("st.global.") + (floatD ? "f32" : "b32") + " [%rd13+" + std::to_string(4 * r) + "], %d" +
         std::to_string(r) + ";\n";
  p += "ret;\n}\n";
  return p;
}

struct Device {
  CUdeviceptr image = 0, a = 0, c = 0, out = 0, meta = 0;
};

// The primary context made current and the device buffers every case uses.
inline CUresult setUp(Device& dev) {
  CUdevice device;
  CUcontext context;
  CUresult r = usePrimaryContext(device, context);
  if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(context);
  for (auto [buffer, bytes] : {std::pair{&dev.image, 64 * 1024}, std::pair{&dev.a, 128 * 16 * 4},
                               std::pair{&dev.c, 128 * 128 * 4}, std::pair{&dev.out, 128 * 128 * 4},
                               std::pair{&dev.meta, 128 * 4}}) {
    if (r == CUDA_SUCCESS) r = cuMemAlloc(buffer, static_cast<size_t>(bytes));
  }
  return r;
}

// Runs one case and prints its line. Returns false if a CUDA call failed
// in a way that leaves the context unusable.
inline bool runCase(const Case& k, const Device& dev) {
  unsigned dRegs = dRegisters(k);
  std::string ptx = kernelPtx(k);
  CUmodule module = nullptr;
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  char log[4096] = {};
  void* values[] = {log, reinterpret_cast<void*>(uintptr_t{sizeof log})};
  CUresult r = cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values);
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::printf("%s: refused (%s)\n", k.name.c_str(), name);
    return true;
  }
  CUfunction f = nullptr;
  if (cuModuleGetFunction(&f, module, "probe") != CUDA_SUCCESS) return false;
  // Every image is 40 KiB at least, so that no layout under test reads
  // past the block's shared memory.
  std::vector<uint8_t> image = k.image;
  image.resize(image.size() < 40960 ? 40960 : (image.size() + 3) / 4 * 4);
  if (cuMemcpyHtoD(dev.image, image.data(), image.size()) != CUDA_SUCCESS) return false;
  if (!k.aRegs.empty() && cuMemcpyHtoD(dev.a, k.aRegs.data(), k.aRegs.size() * 4) != CUDA_SUCCESS) return false;
  if (cuMemcpyHtoD(dev.c, k.c.data(), k.c.size() * 4) != CUDA_SUCCESS) return false;
  if (!k.meta.empty() && cuMemcpyHtoD(dev.meta, k.meta.data(), k.meta.size() * 4) != CUDA_SUCCESS) return false;
  unsigned words = static_cast<unsigned>(image.size() / 4);
  unsigned scaleD = k.scaleD ? 1 : 0;
  void* params[] = {const_cast<CUdeviceptr*>(&dev.image), &words, const_cast<CUdeviceptr*>(&dev.a),
                    const_cast<CUdeviceptr*>(&dev.c), const_cast<CUdeviceptr*>(&dev.out),
                    const_cast<uint64_t*>(&k.descA), const_cast<uint64_t*>(&k.descB), &scaleD,
                    const_cast<CUdeviceptr*>(&dev.meta)};
  unsigned shared = static_cast<unsigned>(image.size()) + 1024;
  if (shared > 48 * 1024)
    cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(shared));
  r = cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, shared, nullptr, params, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::printf("%s: launch failed (%s)\n", k.name.c_str(), name);
    return false;
  }
  std::vector<uint32_t> out(128 * dRegs);
  if (cuMemcpyDtoH(out.data(), dev.out, out.size() * 4) != CUDA_SUCCESS) return false;
  cuModuleUnload(module);
  std::printf("%s: %016llx", k.name.c_str(), bitsHash(out.data(), out.size()));
  unsigned shown = k.printAll || k.printIntegers ? 32 * dRegs : 8;
  for (unsigned i = 0; i < shown; ++i) {
    if (k.printIntegers) {
      float v;
      std::memcpy(&v, &out[i], 4);
      std::printf(" %d", static_cast<int>(v));
    } else {
      std::printf(" %08x", out[i]);
    }
  }
  std::printf("\n");
  return true;
}

// A's registers for A given as a 64 x K matrix of raw elements: warp w holds
// rows 16w..16w+15 as mma.sync's A fragment of the same element width.
inline std::vector<uint32_t> aRegisters(const std::vector<uint32_t>& a, unsigned kTotal, T type, unsigned chain) {
  unsigned bits = bitsOf(type), per = 32 / bits, k = kOf(type);
  std::vector<uint32_t> regs(128 * 4 * chain, 0);
  for (unsigned thread = 0; thread < 128; ++thread) {
    unsigned w = thread / 32, lane = thread % 32, g = lane / 4, t = lane % 4;
    for (unsigned step = 0; step < chain; ++step) {
      for (unsigned r = 0; r < 4; ++r) {
        uint32_t word = 0;
        for (unsigned e = 0; e < per; ++e) {
          unsigned row = 16 * w + g + 8 * (r & 1);
          unsigned col = step * k + (r >> 1) * 4 * per + t * per + e;
          uint32_t v = a[row * kTotal + col];
          word |= (bits == 32 ? v : (v & ((1u << bits) - 1))) << (e * bits);
        }
        regs[thread * 4 * chain + 4 * step + r] = word;
      }
    }
  }
  return regs;
}

inline void putElement(std::vector<uint8_t>& image, unsigned byteOffset, T t, uint32_t v) {
  unsigned bytes = bitsOf(t) / 8;
  for (unsigned i = 0; i < bytes; ++i) image[byteOffset + i] = static_cast<uint8_t>(v >> (8 * i));
}


}  // namespace wgmma_probe
