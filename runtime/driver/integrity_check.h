#pragma once

// The answer to the static CUDA runtime's integrity check. NVIDIA's
// runtime, linked into a program, asks the driver for a keyed digest of the
// process, the driver's tables and the devices (the private table
// d4082055-bde6-704b-8d34-ba123c66e1f2, whose layout public
// reimplementations of the driver document) and refuses to run
// (cudaErrorSoftwareValidityNotEstablished) unless it matches its own.
// The digest is HMAC (RFC 2104) over MD2 (RFC 1319), with a fixed key.

#include <array>
#include <cstdint>
#include <vector>

namespace ptxsim::driver {

// MD2 of `message` (RFC 1319).
std::array<uint8_t, 16> md2(const std::vector<uint8_t>& message);

// HMAC-MD2: MD2's block is 16 bytes, and so is the key.
std::array<uint8_t, 16> hmacMd2(const std::array<uint8_t, 16>& key, const std::vector<uint8_t>& message);

// What the check hashes about each device.
struct DeviceIdentity {
  uint8_t uuid[16] = {};
  int32_t pciDomain = 0;
  int32_t pciBus = 0;
  int32_t pciDevice = 0;
};

// What the check hashes about the process and the driver; the addresses
// are those of the driver's own tables and of the function answering.
struct IntegrityInputs {
  uint32_t driverVersion = 0;
  uint32_t runtimeVersion = 0;  // the `version` the runtime passes
  uint32_t process = 0;
  uint32_t thread = 0;
  const void* cudartTable = nullptr;
  const void* integrityTable = nullptr;
  const void* function = nullptr;
  uint64_t unixSeconds = 0;  // the time the runtime passes
  std::vector<DeviceIdentity> devices;
};

// The two 64-bit words the runtime expects back.
std::array<uint64_t, 2> integrityResponse(const IntegrityInputs& inputs);

}  // namespace ptxsim::driver
