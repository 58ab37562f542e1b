#include "ptxsim/sim/trace_recorder.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "launch_selection.h"

namespace ptxsim::sim {

namespace {

using nlohmann::json;

constexpr int kPid = 1;
// Thread ids: an SM's summary track is its index; its slot s is
// (s + 1) * kSlotStride + index; the kernels' track is above them all.
constexpr uint64_t kSlotStride = 100'000;
constexpr uint64_t kKernelThread = 1'000'000'000;
constexpr uint64_t kTracksPerSm = 4096;  // sort indices an SM's tracks take
// Pending events are written once they pass this many bytes.
constexpr size_t kFlushBytes = size_t{1} << 20;
constexpr const char kClose[] = "\n]\n";

json dims(const Dim3& d) { return json::array({d.x, d.y, d.z}); }

json metadata(const char* what, uint64_t tid, json args) {
  return json{{"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"name", what}, {"args", std::move(args)}};
}

}  // namespace

std::unique_ptr<TraceRecorder> TraceRecorder::open(const std::string& path, std::string& error) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    error = "cannot write the trace file " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<TraceRecorder>(new TraceRecorder(file));
}

TraceRecorder::TraceRecorder(std::FILE* file) : file_(file) {
  std::fputs("[", file_);
  closeAt_ = std::ftell(file_);
  // A pipe cannot take the closing bracket back: it comes once, at the end.
  seekable_ = closeAt_ >= 0 && std::fseek(file_, closeAt_, SEEK_SET) == 0;
  flush();
}

TraceRecorder::~TraceRecorder() {
  flush();
  if (!seekable_) std::fputs(kClose, file_);
  std::fclose(file_);
}

double TraceRecorder::micros(uint64_t timelineCycles) const {
  return static_cast<double>(timelineCycles) * 1000.0 / static_cast<double>(kernel_.clockKhz);
}

void TraceRecorder::add(const std::string& eventJson) {
  pending_ += firstEvent_ ? "\n" : ",\n";
  pending_ += eventJson;
  firstEvent_ = false;
  if (pending_.size() >= kFlushBytes) flush();
}

void TraceRecorder::flush() {
  if (seekable_) std::fseek(file_, closeAt_, SEEK_SET);
  std::fwrite(pending_.data(), 1, pending_.size(), file_);
  pending_.clear();
  if (seekable_) {
    closeAt_ = std::ftell(file_);
    std::fputs(kClose, file_);
  }
  std::fflush(file_);
}

void TraceRecorder::name(uint64_t tid, const std::string& name, uint64_t sortIndex) {
  add(metadata("thread_name", tid, {{"name", name}}).dump());
  add(metadata("thread_sort_index", tid, {{"sort_index", sortIndex}}).dump());
}

// An SM's tracks together, in SM order, below the kernels' track: its
// summary, then its slots.
uint64_t TraceRecorder::summaryThread(uint32_t sm) {
  if (summaryNamed_.size() <= sm) summaryNamed_.resize(sm + 1, false);
  if (!summaryNamed_[sm]) {
    summaryNamed_[sm] = true;
    name(sm, "SM " + std::to_string(sm), uint64_t{sm} * kTracksPerSm + 1);
  }
  return sm;
}

uint64_t TraceRecorder::slotThread(uint32_t sm, uint32_t slot) {
  if (slotsNamed_.size() <= sm) slotsNamed_.resize(sm + 1, 0);
  for (; slotsNamed_[sm] <= slot; ++slotsNamed_[sm]) {
    uint32_t s = slotsNamed_[sm];
    name((uint64_t{s} + 1) * kSlotStride + sm, "SM " + std::to_string(sm) + " slot " + std::to_string(s),
         uint64_t{sm} * kTracksPerSm + 2 + s);
  }
  return (uint64_t{slot} + 1) * kSlotStride + sm;
}

void TraceRecorder::kernelStarted(const TracedKernel& kernel, uint64_t startCycle) {
  kernel_ = kernel;
  if (kernel_.clockKhz == 0) kernel_.clockKhz = 1;
  shortName_ = timing::functionName(kernel_.name);
  startCycle_ = startCycle;
  base_ = nextBase_;
  resident_.clear();
  sms_.clear();
  if (!processNamed_) {
    processNamed_ = true;
    add(metadata("process_name", 0, {{"name", "GPU (" + kernel_.device + ")"}}).dump());
    name(kKernelThread, "kernels", 0);
  }
}

void TraceRecorder::ctaStarted(uint32_t sm, uint64_t linearId, uint64_t cycle) {
  if (slotBusy_.size() <= sm) slotBusy_.resize(sm + 1);
  std::vector<bool>& busy = slotBusy_[sm];
  uint32_t slot = 0;
  while (slot < busy.size() && busy[slot]) ++slot;
  if (slot == busy.size()) busy.push_back(false);
  busy[slot] = true;
  resident_[linearId] = Cta{sm, slot, cycle};
}

void TraceRecorder::ctaFinished(uint32_t sm, uint64_t linearId, uint64_t cycle) {
  (void)sm;
  auto it = resident_.find(linearId);
  if (it == resident_.end()) return;
  writeCta(it->second, linearId, timelineCycle(cycle), true);
  resident_.erase(it);
}

void TraceRecorder::writeCta(const Cta& cta, uint64_t linearId, uint64_t endCycle, bool finished) {
  slotBusy_[cta.sm][cta.slot] = false;
  uint64_t from = timelineCycle(cta.start);
  uint64_t x = linearId % kernel_.grid.x;
  uint64_t y = linearId / kernel_.grid.x % kernel_.grid.y;
  uint64_t z = linearId / (uint64_t{kernel_.grid.x} * kernel_.grid.y);
  json args = {{"linear_id", linearId},
               {"kernel", shortName_},
               {"launch_id", kernel_.launchId},
               {"sm", cta.sm},
               {"start_cycle", from},
               {"cycles", endCycle - from}};
  if (!finished) args["unfinished"] = true;
  add(json{{"ph", "X"},
           {"cat", "cta"},
           {"name", "block (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")"},
           {"pid", kPid},
           {"tid", slotThread(cta.sm, cta.slot)},
           {"ts", micros(from)},
           {"dur", micros(endCycle - from)},
           {"args", std::move(args)}}
          .dump());
}

void TraceRecorder::smSummary(uint32_t sm, const TracedSm& counters) { sms_.emplace_back(sm, counters); }

void TraceRecorder::kernelFinished(const TracedEnd& end) {
  const uint64_t endCycle = base_ + end.cyclesElapsed;
  json args = {{"kernel", kernel_.name},
               {"grid", dims(kernel_.grid)},
               {"block", dims(kernel_.block)},
               {"launch_id", kernel_.launchId},
               {"start_cycle", base_},
               {"cycles", end.cyclesElapsed},
               {"warp_instructions", end.warpInstructions},
               {"thread_instructions", end.threadInstructions}};
  if (kernel_.parentLaunchId != 0) {
    args["parent_launch_id"] = kernel_.parentLaunchId;
    args["depth"] = kernel_.depth;
  }
  if (kernel_.cooperative) args["cooperative"] = true;
  if (!end.error.empty()) args["error"] = end.error;
  add(json{{"ph", "X"},
           {"cat", "kernel"},
           {"name", timing::demangledName(kernel_.name)},
           {"pid", kPid},
           {"tid", kKernelThread},
           {"ts", micros(base_)},
           {"dur", micros(end.cyclesElapsed)},
           {"args", std::move(args)}}
          .dump());
  for (const auto& [sm, c] : sms_) {
    if (c.activeCycles == 0) continue;  // no CTA ran there
    json stalls = json::object();
    for (size_t r = 0; r < kStallReasons; ++r) stalls[kStallReasonNames[r]] = c.stallWarpCycles[r];
    add(json{{"ph", "X"},
             {"cat", "sm"},
             {"name", shortName_},
             {"pid", kPid},
             {"tid", summaryThread(sm)},
             {"ts", micros(base_)},
             {"dur", micros(end.cyclesElapsed)},
             {"args",
              {{"kernel", kernel_.name},
               {"launch_id", kernel_.launchId},
               {"sm", sm},
               {"start_cycle", base_},
               {"cycles", end.cyclesElapsed},
               {"active_cycles", c.activeCycles},
               {"instructions_issued", c.issued},
               {"warp_cycles_resident", c.warpCyclesResident},
               {"stall_warp_cycles", std::move(stalls)}}}}
            .dump());
  }
  // A failed launch leaves CTAs resident: they end with it, in CTA order.
  std::vector<std::pair<uint64_t, Cta>> unfinished(resident_.begin(), resident_.end());
  std::sort(unfinished.begin(), unfinished.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [linearId, cta] : unfinished) writeCta(cta, linearId, endCycle, false);
  resident_.clear();
  sms_.clear();
  nextBase_ = endCycle + kernel_.launchOverheadNs * kernel_.clockKhz / 1'000'000;
  flush();
}

}  // namespace ptxsim::sim
