#pragma once

// Replays a recording of the conformance suite on the simulator: every form
// of FORMS runs with its inputs and its outputs are compared bit for bit with
// what the GPU wrote (OUTPUTS, zstd-compressed, in the order of FORMS).
// Writes the coverage report (Markdown) to REPORT. Returns 0 when every form
// either matches or is refused at load (with the refusal in the report), 1
// when any differs or fails to run; throws std::runtime_error when the
// recording does not fit the forms.

#include <string>

namespace ptxsim::conformance {

int replay(const std::string& formsPath, const std::string& outputsPath, const std::string& reportPath,
           const std::string& onlyFormsContaining);

// Prints one form's kernel and every record: its inputs, what the GPU wrote
// and what the simulator writes (or why it refuses the form), for finding
// the hardware's rule behind a difference. Returns 1 when FORM is not in FORMS.
int dump(const std::string& formsPath, const std::string& outputsPath, const std::string& formName);

// Writes what the simulator computes for every form of FORMS as a recording
// (OUTPUTS, zstd-compressed; a refused form's results zero): a replay
// against it checks that the kernels run and that the replay is exact.
int simulateAll(const std::string& formsPath, const std::string& outputsPath);

}  // namespace ptxsim::conformance
