#include "ptxsim/memory/generic_address.h"

namespace ptxsim::memory {

namespace {

bool inside(uint64_t base, uint64_t size, uint64_t address) { return address >= base && address - base < size; }

}  // namespace

Window classify(const GenericLayout& layout, uint64_t generic) {
  if (inside(layout.sharedBase, layout.sharedSize, generic)) return Window::Shared;
  if (inside(layout.localBase, layout.localSize, generic)) return Window::Local;
  if (inside(layout.paramBase, layout.paramSize, generic)) return Window::Param;
  return Window::Global;
}

uint64_t toGeneric(const GenericLayout& layout, Window window, uint64_t offset) {
  switch (window) {
    case Window::Shared: return layout.sharedBase + offset;
    case Window::Local: return layout.localBase + offset;
    case Window::Param: return layout.paramBase + offset;
    case Window::Global: return offset;
  }
  return offset;
}

std::optional<uint64_t> fromGeneric(const GenericLayout& layout, Window window, uint64_t generic) {
  if (classify(layout, generic) != window) return std::nullopt;
  switch (window) {
    case Window::Shared: return generic - layout.sharedBase;
    case Window::Local: return generic - layout.localBase;
    case Window::Param: return generic - layout.paramBase;
    case Window::Global: return generic;
  }
  return std::nullopt;
}

}  // namespace ptxsim::memory
