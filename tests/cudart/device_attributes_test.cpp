// The shim's answers to device queries, without a program: the H100
// preset against every attribute the H100 answered
// (tests/cuda/programs/device_attributes.expected), properties agreeing
// with attributes, and another preset answering from its own figures.

#include "device_attributes.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "ptxsim/sim/gpu_presets.h"

namespace ptxsim::cudart {
namespace {

sim::GpuConfig preset(const std::string& name) {
  sim::GpuConfig config;
  std::string error;
  EXPECT_TRUE(sim::loadPreset(name, PTXSIM_SOURCE_DIR "/configs", config, error)) << error;
  return config;
}

// "attribute N: VALUE" lines of the H100 recording; an error name is -1000.
std::map<int, long long> recordedAttributes() {
  std::ifstream in(PTXSIM_SOURCE_DIR "/tests/cuda/programs/device_attributes.expected");
  std::map<int, long long> recorded;
  std::string line;
  while (std::getline(in, line)) {
    int number = 0;
    char value[64] = {};
    if (std::sscanf(line.c_str(), "attribute %d: %63s", &number, value) != 2) continue;
    recorded[number] = value[0] == 'c' ? -1000 : std::stoll(value);
  }
  return recorded;
}

TEST(DeviceAttributes, H100PresetAnswersEveryAttributeAsTheH100) {
  std::map<int, long long> recorded = recordedAttributes();
  ASSERT_EQ(recorded.size(), 151u);  // 0 to 150
  sim::GpuConfig h100 = preset("h100");
  for (auto [number, value] : recorded) {
    std::optional<int> answer = deviceAttribute(h100, number);
    if (value == -1000) {
      EXPECT_FALSE(answer.has_value()) << "attribute " << number;
    } else {
      ASSERT_TRUE(answer.has_value()) << "attribute " << number;
      EXPECT_EQ(*answer, value) << "attribute " << number;
    }
  }
}

TEST(DeviceAttributes, PropertiesAgreeWithAttributes) {
  for (const char* name : {"h100", "gtx1080"}) {
    sim::GpuConfig c = preset(name);
    cudaDeviceProp p = deviceProperties(c);
    auto a = [&c](cudaDeviceAttr attribute) { return deviceAttribute(c, attribute).value(); };
    EXPECT_EQ(std::string(p.name), c.name);
    EXPECT_EQ(p.major * 10 + p.minor, static_cast<int>(c.smVersion)) << name;
    EXPECT_EQ(p.multiProcessorCount, a(cudaDevAttrMultiProcessorCount)) << name;
    EXPECT_EQ(p.l2CacheSize, a(cudaDevAttrL2CacheSize)) << name;
    EXPECT_EQ(p.memoryBusWidth, a(cudaDevAttrGlobalMemoryBusWidth)) << name;
    EXPECT_EQ(static_cast<int>(p.sharedMemPerMultiprocessor), a(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    EXPECT_EQ(static_cast<int>(p.sharedMemPerBlockOptin), a(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    EXPECT_EQ(p.maxTexture3D[2], a(cudaDevAttrMaxTexture3DDepth)) << name;
    EXPECT_EQ(p.maxSurface2DLayered[2], a(cudaDevAttrMaxSurface2DLayeredLayers)) << name;
    EXPECT_EQ(p.clusterLaunch, a(cudaDevAttrClusterLaunch)) << name;
    EXPECT_EQ(p.gpuPciDeviceID, static_cast<unsigned>(a(cudaDevAttrGpuPciDeviceId))) << name;
  }
}

TEST(DeviceAttributes, OtherPresetsAnswerFromTheirOwnFigures) {
  sim::GpuConfig c = preset("gtx1080");
  auto a = [&c](cudaDeviceAttr attribute) { return deviceAttribute(c, attribute).value(); };
  EXPECT_EQ(a(cudaDevAttrComputeCapabilityMajor), 6);
  EXPECT_EQ(a(cudaDevAttrComputeCapabilityMinor), 1);
  EXPECT_EQ(a(cudaDevAttrMultiProcessorCount), 20);
  EXPECT_EQ(a(cudaDevAttrGlobalMemoryBusWidth), 256);
  EXPECT_EQ(a(cudaDevAttrL2CacheSize), 2 << 20);
  EXPECT_EQ(a(cudaDevAttrMaxSharedMemoryPerMultiprocessor), 98304);
  // Features newer than Pascal are absent.
  EXPECT_EQ(a(cudaDevAttrClusterLaunch), 0);
  EXPECT_EQ(a(cudaDevAttrMemSyncDomainCount), 1);
  EXPECT_EQ(a(cudaDevAttrReservedSharedMemoryPerBlock), 0);
  EXPECT_EQ(a(cudaDevAttrMaxPersistingL2CacheSize), 0);
  EXPECT_EQ(a(cudaDevAttrMaxTexture1DLinearWidth), 1 << 27);
  // Overrides reach the answers.
  sim::GpuConfig smaller = preset("h100,sm_count=66,l2_cache_bytes=0x1000000");
  EXPECT_EQ(deviceAttribute(smaller, cudaDevAttrMultiProcessorCount), 66);
  EXPECT_EQ(deviceAttribute(smaller, cudaDevAttrL2CacheSize), 16 << 20);
}

TEST(DeviceAttributes, PciBusIdIsThePresetsSlot) {
  EXPECT_EQ(pciBusId(preset("h100")), "0000:00:06.0");
  EXPECT_EQ(pciBusId(preset("gtx1080")), "0000:01:00.0");
}

}  // namespace
}  // namespace ptxsim::cudart
