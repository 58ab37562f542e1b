#pragma once

// Private to the strict rules: the phrases ptxas builds its messages from,
// and the rules of each area (one file each).

#include <string>
#include <string_view>

#include "ptxas_rules.h"

namespace ptxsim::isa::strict {

// ".rn" for Mod::Rn.
std::string dotted(Mod mod);
// ".f32" for DataType::F32.
std::string dotted(DataType type);
bool isInteger(DataType type);
bool isFloat(DataType type);  // f16 bf16 tf32 f32 f64 and their pairs

std::string illegalModifier(Mod mod, std::string_view instruction);
std::string cannotCombine(Mod mod, Mod with);
std::string argumentsMismatch(std::string_view instruction);
std::string unexpectedTypes(std::string_view instruction);
std::string illegalRounding(std::string_view instruction);
std::string unknownModifier(Mod mod);

// The words of the broad Form group (modifier.h) an instruction does not
// take, in the tiers ptxas checks them: Parse words (unknown to ptxas, or
// features of a later target) before anything else, Feature words after
// the instruction's own modifiers, Late words last.
enum class SubFormTier { Parse, Feature, Late };
std::string subFormWordRefusal(const FormToCheck& form, SubFormTier tier);

// Each area's rules; "" when the area has nothing against the form.
std::string cvtRefusal(const FormToCheck& form);
std::string compareRefusal(const FormToCheck& form);
std::string floatRefusal(const FormToCheck& form);
std::string integerRefusal(const FormToCheck& form);
std::string videoRefusal(const FormToCheck& form);
std::string formWordRefusal(const FormToCheck& form);
std::string atomicRefusal(const FormToCheck& form);
std::string memoryRefusal(const FormToCheck& form);
std::string warpRefusal(const FormToCheck& form);
std::string cvtPackRefusal(const FormToCheck& form);
std::string waitGroupRefusal(const FormToCheck& form);

}  // namespace ptxsim::isa::strict
