#pragma once

// A lowered module as bytes and back, for the compute cache
// (runtime/src/compute_cache.cpp): reading an image costs a fraction of
// parsing and lowering the PTX again. An image holds every field of the
// Module; an instruction's table row is kept as its index in the
// instruction table. An image is only good for the ptxsim build that wrote
// it, which may lower PTX differently from another: its first bytes hold a
// fingerprint of the binary's GNU build ID and the instruction table, and
// readModuleImage refuses another build's.

#include <memory>
#include <string>
#include <string_view>

#include "ptxsim/isa/module.h"

namespace ptxsim::isa {

std::string writeModuleImage(const Module& module);

// Null when the bytes are not an image this build wrote (or are cut short).
std::shared_ptr<const Module> readModuleImage(std::string_view bytes);

}  // namespace ptxsim::isa
