#include <array>

#include "ptxsim/isa/module.h"

namespace ptxsim::isa {

const SpecialRegisterInfo& specialRegisterInfo(SpecialRegister reg) {
  // Order follows the SpecialRegister enumerators.
  static constexpr std::array<SpecialRegisterInfo, static_cast<size_t>(SpecialRegister::Count_)> kTable{{
      {"%tid", true, DataType::U32, 1},
      {"%ntid", true, DataType::U32, 1},
      {"%ctaid", true, DataType::U32, 1},
      {"%nctaid", true, DataType::U32, 1},
      {"%laneid", false, DataType::U32, 1},
      {"%warpid", false, DataType::U32, 1},
      {"%nwarpid", false, DataType::U32, 1},
      {"%smid", false, DataType::U32, 1},
      {"%nsmid", false, DataType::U32, 1},
      {"%gridid", false, DataType::U64, 1},
      {"%lanemask_eq", false, DataType::U32, 1},
      {"%lanemask_le", false, DataType::U32, 1},
      {"%lanemask_lt", false, DataType::U32, 1},
      {"%lanemask_ge", false, DataType::U32, 1},
      {"%lanemask_gt", false, DataType::U32, 1},
      {"%clock", false, DataType::U32, 1},
      {"%clock_hi", false, DataType::U32, 1},
      {"%clock64", false, DataType::U64, 1},
      {"%globaltimer", false, DataType::U64, 1},
      {"%globaltimer_lo", false, DataType::U32, 1},
      {"%globaltimer_hi", false, DataType::U32, 1},
      {"%dynamic_smem_size", false, DataType::U32, 1},
      {"%total_smem_size", false, DataType::U32, 1},
      {"%aggr_smem_size", false, DataType::U32, 1},
      {"%clusterid", true, DataType::U32, 1},
      {"%nclusterid", true, DataType::U32, 1},
      {"%cluster_ctaid", true, DataType::U32, 1},
      {"%cluster_nctaid", true, DataType::U32, 1},
      {"%cluster_ctarank", false, DataType::U32, 1},
      {"%cluster_nctarank", false, DataType::U32, 1},
      {"%is_explicit_cluster", false, DataType::Pred, 1},
      {"%envreg", false, DataType::B32, 32},
      {"%pm", false, DataType::U32, 8},
      {"%pm_64", false, DataType::U64, 8},
      {"%reserved_smem_offset_begin", false, DataType::B32, 1},
      {"%reserved_smem_offset_end", false, DataType::B32, 1},
      {"%reserved_smem_offset_cap", false, DataType::B32, 1},
      {"%reserved_smem_offset_", false, DataType::B32, 2},
      {"%current_graph_exec", false, DataType::U64, 1},
      {"WARP_SZ", false, DataType::U32, 1},  // the predefined warp-size constant
  }};
  return kTable[static_cast<size_t>(reg)];
}

}  // namespace ptxsim::isa
