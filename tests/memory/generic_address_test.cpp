#include <gtest/gtest.h>

#include "ptxsim/memory/generic_address.h"

namespace ptxsim::memory {
namespace {

TEST(GenericAddress, WindowsRoundTripAndStayApart) {
  GenericLayout layout;
  for (Window w : {Window::Shared, Window::Local, Window::Param}) {
    uint64_t generic = toGeneric(layout, w, 0x1234);
    EXPECT_EQ(classify(layout, generic), w);
    EXPECT_EQ(fromGeneric(layout, w, generic), 0x1234u);
  }
  uint64_t shared = toGeneric(layout, Window::Shared, 16);
  EXPECT_FALSE(fromGeneric(layout, Window::Local, shared).has_value());
  EXPECT_EQ(classify(layout, 0x10000), Window::Global);
  EXPECT_EQ(classify(layout, layout.sharedBase + layout.sharedSize), Window::Global);
  EXPECT_EQ(classify(layout, layout.sharedBase - 1), Window::Global);
}

}  // namespace
}  // namespace ptxsim::memory
