#pragma once

// A warp scheduler's policy: each cycle a sub-partition's scheduler picks
// one of its warps that can issue. The timing model decides which warps
// can (dependences, pipelines, barriers); the policy only chooses among
// them, and remembers what it needs (the last warp it issued, an active
// set). One small file per policy; registry.cpp names them.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxsim::sim::timing {

// One warp of the sub-partition, as the scheduler sees it this cycle.
struct WarpCandidate {
  uint32_t slot = 0;            // the warp's slot in its sub-partition
  uint64_t age = 0;             // launch order: smaller is older
  bool ready = false;           // can issue this cycle
  bool waitingOnMemory = false; // stalled on a long-latency (memory) result
};

class IssuePolicy {
 public:
  virtual ~IssuePolicy() = default;
  // The index in `warps` of the warp to issue this cycle, or -1 when none
  // is ready. `warps` lists the sub-partition's live warps in slot order.
  virtual int choose(std::span<const WarpCandidate> warps) = 0;
  // The warp `slot` left the sub-partition (exited); a policy that keeps
  // warps in its own lists forgets it.
  virtual void retire(uint32_t slot) { (void)slot; }
};

struct IssuePolicyInfo {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<IssuePolicy> (*make)();
};

// Every policy, by name (registry.cpp).
std::span<const IssuePolicyInfo> issuePolicies();

// The policy called `name`; null when there is none.
std::unique_ptr<IssuePolicy> makeIssuePolicy(std::string_view name);

// "lrr, gto, ...": for error messages and --help.
std::string issuePolicyNames();

// Each policy's factory (one file each).
std::unique_ptr<IssuePolicy> makeLooseRoundRobin();
std::unique_ptr<IssuePolicy> makeGreedyThenOldest();
std::unique_ptr<IssuePolicy> makeOldestFirst();
std::unique_ptr<IssuePolicy> makeTwoLevel();

}  // namespace ptxsim::sim::timing
