#pragma once

// The PTX of the conformance kernels. One kernel per form: thread i reads
// record i of the inputs (test_values.h), executes the form once and writes
// its results to record i of the outputs, one 8-byte slot per result (a
// predicate as 0 or 1, a carry-out last), the unused bytes left as they
// were (the runner and the replay both clear them to zero).

#include <string>
#include <vector>

#include "form.h"

namespace ptxsim::conformance {

// The module header (.version 9.0, .target sm_90).
std::string moduleHeader();

// `.visible .entry NAME(.param .u64 in, .param .u64 out, .param .u32 records)`
std::string kernelText(const Form& form, const std::string& kernelName);

}  // namespace ptxsim::conformance
