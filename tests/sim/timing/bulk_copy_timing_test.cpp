// The tensor memory accelerator under the timing driver (TmaTiming): a
// bulk copy's mbarrier completion arrives when its lines are back from the
// L2 plus tma.latency, not when the instruction issues (a try_wait right
// after it finds the phase open, which the functional model completes at
// once), its data is right either way, and a bulk store's group holds
// wait_group 0 for its lines and the latency too.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "timed_run.h"

namespace ptxsim {
namespace {

using test::runTimed;

// One thread copies `bytes` from the buffer whose address `in` holds (after
// reading its last word: that line is in the L2, the others in device
// memory) to shared memory on an mbarrier. out[0]: 1
// when a try_wait right after the copy found the phase complete; out[1]:
// the cycles from the copy's issue to the first try_wait that found it
// complete; out[2]: the last copied word.
std::string loadKernel(unsigned bytes) {
  const std::string size = std::to_string(bytes);
  std::string decl = ".reg .b64 %src, %t0, %t1, %early;\n.reg .b32 %bar, %dst, %v, %done;\n.reg .pred %p;\n"
                     ".shared .align 128 .b8 box[" + size + "];\n.shared .align 8 .b64 barrier;";
  std::string body =
      "ld.global.u64 %src, [%in];\nld.global.cg.u32 %v, [%src+" + std::to_string(bytes - 4) +
      "];\nadd.u32 %v, %v, 1;\nmov.u32 %bar, barrier;\nmov.u32 %dst, box;\n"
      "mbarrier.init.shared::cta.b64 [%bar], 1;\nfence.mbarrier_init.release.cluster;\n"
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%bar], " + size + ";\n"
      "mov.u64 %t0, %clock64;\n"
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%dst], [%src], " + size + ", [%bar];\n"
      "mbarrier.test_wait.parity.shared::cta.b64 %p, [%bar], 0;\nselp.u64 %early, 1, 0, %p;\n"
      "WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p, [%bar], 0;\n@!%p bra WAIT;\n"
      "mov.u64 %t1, %clock64;\nsub.u64 %t1, %t1, %t0;\n"
      "ld.shared.u32 %v, [box+" + std::to_string(bytes - 4) + "];\n"
      "st.global.u64 [%out], %early;\nst.global.u64 [%out+8], %t1;\nst.global.u32 [%out+16], %v;\n";
  return test::ptxKernel(decl, body, "sm_90");
}

struct LoadRun {
  uint64_t early = 0, cycles = 0;
  uint32_t lastWord = 0;
};

LoadRun runLoad(unsigned bytes, bool timing) {
  sim::GpuConfig config;
  Device device(config, DeviceOptions{1});
  device.launchOptions().timing = timing;
  auto module = device.loadModule(loadKernel(bytes), "test.ptx");
  uint64_t source = device.malloc(bytes);
  std::vector<uint32_t> words(bytes / 4);
  for (size_t i = 0; i < words.size(); ++i) words[i] = 0x1000 + static_cast<uint32_t>(i);
  device.write(source, words);
  uint64_t in = device.upload(std::vector<uint64_t>{source});
  uint64_t out = device.malloc(24);
  sim::LaunchResult result = device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(in).add(out));
  EXPECT_FALSE(result.error) << result.error.message;
  std::vector<uint64_t> got = device.read<uint64_t>(out, 3);
  return {got[0], got[1], static_cast<uint32_t>(got[2])};
}

TEST(BulkCopyTiming, TheCompletionArrivesAfterTheLinesAndTheLatency) {
  const sim::TimingConfig timing;
  LoadRun timed = runLoad(1024, true);
  EXPECT_EQ(timed.early, 0u) << "the mbarrier completed as the copy issued";
  EXPECT_EQ(timed.lastWord, 0x1000u + 255);
  // At least an L2 hit's latency and the engine's own, and its 1024 bytes.
  const uint64_t least = timing.l2.nearLatencyCycles + timing.tma.latencyCycles +
                         static_cast<uint64_t>(1024 / timing.tma.bytesPerCycle);
  EXPECT_GE(timed.cycles, least);
  EXPECT_LE(timed.cycles, least + timing.l2.farLatencyCycles);
}

TEST(BulkCopyTiming, FunctionallyTheCopyCompletesAtOnce) {
  LoadRun functional = runLoad(1024, false);
  EXPECT_EQ(functional.early, 1u);
  EXPECT_EQ(functional.lastWord, 0x1000u + 255);
}

TEST(BulkCopyTiming, MoreBytesTakeTheEnginesRate) {
  const sim::TimingConfig timing;
  const double extra = static_cast<double>(runLoad(8192, true).cycles) - static_cast<double>(runLoad(1024, true).cycles);
  EXPECT_GE(extra, 7168 / timing.tma.bytesPerCycle);
}

// The group is done once its lines are sent (at tma.store_bytes_per_cycle)
// plus tma.store_latency, before the L2 answers them, as on the H100.
TEST(BulkCopyTiming, AStoreGroupWaitsForItsLinesToBeSent) {
  const sim::TimingConfig timing;
  std::string body =
      "mov.u32 %s, box;\nst.shared.u32 [%s], 7;\nfence.proxy.async.shared::cta;\nld.global.u64 %dst, [%in];\n"
      // The clock is read once the address has arrived.
      "add.u64 %dst, %dst, 0;\nmov.u64 %t0, %clock64;\n"
      "cp.async.bulk.global.shared::cta.bulk_group [%dst], [%s], 256;\ncp.async.bulk.commit_group;\n"
      "cp.async.bulk.wait_group 0;\nmov.u64 %t1, %clock64;\nsub.u64 %t1, %t1, %t0;\nst.global.u64 [%out], %t1;\n";
  std::string ptx = test::ptxKernel(".reg .b64 %dst, %t0, %t1;\n.reg .b32 %s;\n.shared .align 128 .b8 box[256];", body);
  sim::GpuConfig config;
  Device device(config, DeviceOptions{1});
  device.launchOptions().timing = true;
  auto module = device.loadModule(ptx, "test.ptx");
  uint64_t target = device.malloc(256);
  uint64_t in = device.upload(std::vector<uint64_t>{target});
  uint64_t out = device.malloc(8);
  sim::LaunchResult result = device.launch(*module, "k", {1}, {1}, 0, KernelArgs().add(in).add(out));
  ASSERT_FALSE(result.error) << result.error.message;
  const uint64_t cycles = device.read<uint64_t>(out, 1)[0];
  const double sent = 256 / timing.tma.storeBytesPerCycle + timing.tma.storeLatencyCycles;
  EXPECT_GE(cycles, sent);
  EXPECT_LE(cycles, sent + 8);  // the commit and the wait's own issue
  EXPECT_LT(cycles, timing.l2.nearLatencyCycles);
  EXPECT_EQ(device.read<uint32_t>(target, 1)[0], 7u);
}

}  // namespace
}  // namespace ptxsim
