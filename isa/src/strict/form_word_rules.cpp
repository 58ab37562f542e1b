// Words of the Form group (modifier.h) on an instruction that does not take
// them. The group gathers the sub-form words of many instructions, so a row
// that allows it (vmad for .po, cp.async.bulk.wait_group for .read) allows
// them all; ptxas knows which belong where. Its message depends on the word.
// The cp.async.bulk.wait_group words were each tried with ptxas, with a
// constant and with a register operand.

#include "rule_words.h"

namespace ptxsim::isa::strict {

namespace {

enum class Says {
  Unknown,         // Unknown modifier '.X'
  NeedsSm100,      // Feature '.X' requires .target sm_100 or higher
  NotOnTarget,     // Feature '.X' not supported on .target 'sm_90'
  IllegalForArch,  // Illegal modifier '.X' for instruction 'I', for arch 'sm_90'
  Illegal,         // Illegal modifier '.X' for instruction 'I'
  NoSpace,         // Modifier '.X' cannot be applied to '' space
};

struct SubFormWord {
  Mod mod;
  SubFormTier tier;
  Says says;
};

constexpr SubFormWord kWords[] = {
    {Mod::FormProxy, SubFormTier::Parse, Says::Unknown},
    {Mod::Fractional, SubFormTier::Parse, Says::Unknown},
    {Mod::RangePolicy, SubFormTier::Parse, Says::Unknown},
    {Mod::CvtPolicy, SubFormTier::Parse, Says::Unknown},
    {Mod::LdRed, SubFormTier::Parse, Says::Unknown},
    {Mod::BeforeThreadSync, SubFormTier::Parse, Says::Unknown},
    {Mod::AfterThreadSync, SubFormTier::Parse, Says::Unknown},
    {Mod::PmeventMask, SubFormTier::Parse, Says::Unknown},
    {Mod::IsCanceled, SubFormTier::Parse, Says::NeedsSm100},
    {Mod::GetFirstCtaid, SubFormTier::Parse, Says::NeedsSm100},
    {Mod::GetFirstCtaidX, SubFormTier::Parse, Says::NeedsSm100},
    {Mod::GetFirstCtaidY, SubFormTier::Parse, Says::NeedsSm100},
    {Mod::GetFirstCtaidZ, SubFormTier::Parse, Says::NeedsSm100},
    {Mod::BlockScale, SubFormTier::Feature, Says::NotOnTarget},
    {Mod::CpMask, SubFormTier::Feature, Says::NeedsSm100},
    {Mod::WaitLd, SubFormTier::Feature, Says::IllegalForArch},
    {Mod::WaitSt, SubFormTier::Feature, Says::IllegalForArch},
    {Mod::Pack16b, SubFormTier::Feature, Says::IllegalForArch},
    {Mod::Unpack16b, SubFormTier::Feature, Says::IllegalForArch},
    {Mod::Mmio, SubFormTier::Feature, Says::NoSpace},
    {Mod::TensormapForm, SubFormTier::Feature, Says::Illegal},
    {Mod::AsyncForm, SubFormTier::Late, Says::Illegal},
    {Mod::ReadOnly, SubFormTier::Late, Says::Illegal},
    {Mod::PlusOne, SubFormTier::Late, Says::Illegal},
};

// The words each checked instruction takes; instructions not listed are
// left to their rows.
bool takes(Opcode op, Mod word, bool& checked) {
  checked = true;
  switch (op) {
    // ptxas takes vmad's .po, and the two source-format words too.
    case Opcode::Vmad: return word == Mod::PlusOne || word == Mod::FmtB4x16P64 || word == Mod::FmtB6x16P32;
    // .read, and (ptxas 13.0 takes them too) the two source formats.
    case Opcode::CpAsyncBulkWaitGroup:
      return word == Mod::ReadOnly || word == Mod::FmtB4x16P64 || word == Mod::FmtB6x16P32;
    default: checked = false; return true;
  }
}

std::string sm(uint32_t target) { return "sm_" + std::to_string(target); }

}  // namespace

std::string subFormWordRefusal(const FormToCheck& form, SubFormTier tier) {
  const Mod word = form.get(ModGroup::Form);
  if (word == Mod::None) return {};
  bool checked = false;
  if (takes(form.spec.opcode, word, checked) || !checked) return {};
  const std::string_view name = form.spec.mnemonic;
  for (const SubFormWord& w : kWords) {
    if (w.mod != word || w.tier != tier) continue;
    switch (w.says) {
      case Says::Unknown: return unknownModifier(word);
      case Says::NeedsSm100:
        if (form.targetSm >= 100) return {};
        return "Feature '" + dotted(word) + "' requires .target sm_100 or higher";
      case Says::NotOnTarget:
        return "Feature '" + dotted(word) + "' not supported on .target '" + sm(form.targetSm) + "'";
      case Says::IllegalForArch:
        return illegalModifier(word, name) + ", for arch '" + sm(form.targetSm) + "'";
      case Says::Illegal: return illegalModifier(word, name);
      case Says::NoSpace: return "Modifier '" + dotted(word) + "' cannot be applied to '' space";
    }
  }
  return {};
}

std::string formWordRefusal(const FormToCheck& form) { return subFormWordRefusal(form, SubFormTier::Parse); }

}  // namespace ptxsim::isa::strict
