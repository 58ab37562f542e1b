#include "ptxsim/isa/cfg.h"

#include <algorithm>

namespace ptxsim::isa {

namespace {

bool endsBlock(const Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::Bra:
    case Opcode::BrxIdx:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Trap:
      return true;
    default:
      return false;
  }
}

// An unguarded ret, exit, trap or bra never falls through.
bool fallsThrough(const Instruction& inst) {
  if (!endsBlock(inst)) return true;
  return inst.guard.reg != kNone;
}

std::vector<uint32_t> branchTargets(const Function& fn, const Instruction& inst) {
  if (inst.opcode == Opcode::Bra) return {inst.branchTarget};
  if (inst.opcode == Opcode::BrxIdx) {
    const Operand& table = fn.operands[inst.firstOperand + 1];
    return fn.branchTables[table.index];
  }
  return {};
}

// Post-dominators by the Cooper-Harvey-Kennedy iteration on the reverse
// graph, rooted at a virtual exit node (index n).
std::vector<uint32_t> immediatePostDominators(const std::vector<BasicBlock>& blocks,
                                              const std::vector<bool>& exits) {
  const auto n = static_cast<uint32_t>(blocks.size());
  const uint32_t exitNode = n;
  // Reverse post-order of the reverse graph, from the exit.
  std::vector<uint32_t> order;
  std::vector<uint8_t> state(n + 1, 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{exitNode, 0}};
  auto reversePreds = [&](uint32_t node) -> const std::vector<uint32_t>& { return blocks[node].predecessors; };
  std::vector<uint32_t> exitPreds;
  for (uint32_t b = 0; b < n; ++b) {
    if (exits[b]) exitPreds.push_back(b);
  }
  state[exitNode] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const std::vector<uint32_t>& succ = node == exitNode ? exitPreds : reversePreds(node);
    if (next < succ.size()) {
      uint32_t s = succ[next++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  std::vector<uint32_t> rank(n + 1, UINT32_MAX);
  for (uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;

  std::vector<uint32_t> ipdom(n + 1, kNone);
  ipdom[exitNode] = exitNode;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rank[a] > rank[b]) a = ipdom[a];
      while (rank[b] > rank[a]) b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t node : order) {
      if (node == exitNode) continue;
      // In the reverse graph a block's predecessors are its successors,
      // plus the virtual exit for blocks that leave the function.
      uint32_t best = kNone;
      auto consider = [&](uint32_t p) {
        if (ipdom[p] == kNone) return;
        best = best == kNone ? p : intersect(p, best);
      };
      for (uint32_t s : blocks[node].successors) consider(s);
      if (exits[node]) consider(exitNode);
      if (best != kNone && ipdom[node] != best) {
        ipdom[node] = best;
        changed = true;
      }
    }
  }
  ipdom.pop_back();
  for (uint32_t& d : ipdom) {
    if (d == exitNode) d = kNone;
  }
  return ipdom;
}

}  // namespace

void buildControlFlow(Function& fn) {
  const auto count = static_cast<uint32_t>(fn.instructions.size());
  fn.blocks.clear();
  if (count == 0) return;
  std::vector<bool> leader(count + 1, false);
  leader[0] = true;
  for (uint32_t i = 0; i < count; ++i) {
    const Instruction& inst = fn.instructions[i];
    for (uint32_t t : branchTargets(fn, inst)) leader[t] = true;
    if (endsBlock(inst)) leader[i + 1] = true;
  }
  std::vector<uint32_t> blockOf(count + 1, kNone);
  for (uint32_t i = 0; i < count; ++i) {
    if (leader[i]) fn.blocks.push_back({i, i, {}, {}, kNone});
    fn.blocks.back().end = i + 1;
    blockOf[i] = static_cast<uint32_t>(fn.blocks.size() - 1);
    fn.instructions[i].block = blockOf[i];
  }
  const auto n = static_cast<uint32_t>(fn.blocks.size());
  std::vector<bool> exits(n, false);
  for (uint32_t b = 0; b < n; ++b) {
    BasicBlock& block = fn.blocks[b];
    const Instruction& last = fn.instructions[block.end - 1];
    auto addEdge = [&](uint32_t target) {
      if (target >= count) {  // a label after the last instruction
        exits[b] = true;
        return;
      }
      uint32_t to = blockOf[target];
      if (std::find(block.successors.begin(), block.successors.end(), to) == block.successors.end()) {
        block.successors.push_back(to);
        fn.blocks[to].predecessors.push_back(b);
      }
    };
    for (uint32_t t : branchTargets(fn, last)) addEdge(t);
    if (last.opcode == Opcode::Ret || last.opcode == Opcode::Exit || last.opcode == Opcode::Trap) exits[b] = true;
    if (fallsThrough(last)) addEdge(block.end);
  }
  std::vector<uint32_t> ipdom = immediatePostDominators(fn.blocks, exits);
  for (uint32_t b = 0; b < n; ++b) fn.blocks[b].immediatePostDominator = ipdom[b];
  for (Instruction& inst : fn.instructions) {
    if (inst.opcode != Opcode::Bra && inst.opcode != Opcode::BrxIdx) continue;
    uint32_t pd = fn.blocks[inst.block].immediatePostDominator;
    inst.reconvergence = pd == kNone ? kNone : fn.blocks[pd].first;
  }
}

}  // namespace ptxsim::isa
