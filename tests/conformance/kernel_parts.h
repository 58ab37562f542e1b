#pragma once

// The pieces every conformance kernel shares (kernel_text.cpp), for the
// kernels of each kind of form: register (kernel_text.cpp), memory
// (memory_kernel_text.cpp) and warp (warp_kernel_text.cpp).

#include <sstream>
#include <string>

#include "form.h"

namespace ptxsim::conformance {

std::string registerName(size_t operand);

// The comment naming the form, the entry, its registers (`extraRegisters`
// after the common ones) and the computation of this thread's input record
// (%addr2) and output record (%addr3); threads past the records go to DONE.
void entryAndRecords(std::ostringstream& k, const Form& form, const std::string& kernelName,
                     const std::string& extraRegisters);

// Loads the sources from input slot `slot` on; returns the next slot.
uint32_t loadSources(std::ostringstream& k, const Form& form, uint32_t slot);

// The instruction itself; an Address operand is written [address].
void instruction(std::ostringstream& k, const Form& form, const std::string& address);

// Stores the destinations from output slot `out` on; returns the next slot.
uint32_t storeResults(std::ostringstream& k, const Form& form, uint32_t out);

std::string memoryKernelText(const Form& form, const std::string& kernelName);
std::string warpKernelText(const Form& form, const std::string& kernelName);

}  // namespace ptxsim::conformance
