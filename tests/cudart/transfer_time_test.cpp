// What copies and fills add to the events' clock (runtime/cudart/
// transfer_time.h), with hand-worked figures from the default preset's
// copy.* and memset.*; the figures against the H200's own are held by
// tests/timing/calibration/transfer_replay.sh.
#include "transfer_time.h"

#include <gtest/gtest.h>

namespace ptxsim::cudart {
namespace {

const sim::TransferTiming kTiming{};

TEST(TransferTime, EachKindHasItsStartAndRate) {
  // 64 MiB: 67108864 bytes.
  EXPECT_EQ(transferNanoseconds(kTiming, TransferKind::PinnedHost, 67108864), 9000u + 1211351u);    // / 55.4
  EXPECT_EQ(transferNanoseconds(kTiming, TransferKind::PageableHost, 67108864), 8000u + 5735800u);  // / 11.7
  EXPECT_EQ(transferNanoseconds(kTiming, TransferKind::Fill, 67108864), 3600u + 14278u);            // / 4700
  // Within the device: the larger of the least time and the bytes' time.
  EXPECT_EQ(transferNanoseconds(kTiming, TransferKind::OnDevice, 67108864), 34274u);  // / 1958
  EXPECT_EQ(transferNanoseconds(kTiming, TransferKind::OnDevice, 4096), 6200u);
  EXPECT_EQ(transferNanoseconds(kTiming, TransferKind::HostOnly, 67108864), 0u);
}

TEST(TransferTime, TheKindFollowsWhereEachSideLives) {
  memory::Allocation device, pinned;
  uint8_t hostBytes = 0;
  pinned.kind = memory::AllocationKind::Host;
  pinned.host = &hostBytes;
  EXPECT_EQ(transferKindOf(&device, &device), TransferKind::OnDevice);
  EXPECT_EQ(transferKindOf(&device, &pinned), TransferKind::PinnedHost);
  EXPECT_EQ(transferKindOf(&pinned, &device), TransferKind::PinnedHost);
  EXPECT_EQ(transferKindOf(nullptr, &device), TransferKind::PageableHost);
  EXPECT_EQ(transferKindOf(&device, nullptr), TransferKind::PageableHost);
  EXPECT_EQ(transferKindOf(&pinned, nullptr), TransferKind::HostOnly);
  EXPECT_EQ(transferKindOf(nullptr, nullptr), TransferKind::HostOnly);
}

TEST(TransferTime, PiecesInAScopeAreOneTransfer) {
  TransferTally tally;
  // Alone, a piece is a transfer of its own.
  EXPECT_EQ(tally.piece(kTiming, TransferKind::PinnedHost, 4096), 9000u + 74u);
  // 64 rows of 4 KiB in a scope: one start, 262144 bytes.
  tally.open(std::nullopt);
  for (int row = 0; row < 64; ++row) EXPECT_EQ(tally.piece(kTiming, TransferKind::PinnedHost, 4096), 0u);
  EXPECT_EQ(tally.close(kTiming), 9000u + 4732u);
  // Nested scopes end once, with the outermost.
  tally.open(std::nullopt);
  tally.open(std::nullopt);
  tally.piece(kTiming, TransferKind::Fill, 4700);
  EXPECT_EQ(tally.close(kTiming), 0u);
  EXPECT_EQ(tally.close(kTiming), 3600u + 1u);
  // A scope that forces a kind: a fill of wide values written as copies.
  tally.open(TransferKind::Fill);
  tally.piece(kTiming, TransferKind::PageableHost, 9400);
  EXPECT_EQ(tally.close(kTiming), 3600u + 2u);
  // The tally starts afresh after each transfer.
  tally.open(std::nullopt);
  EXPECT_EQ(tally.close(kTiming), 0u);
}

}  // namespace
}  // namespace ptxsim::cudart
