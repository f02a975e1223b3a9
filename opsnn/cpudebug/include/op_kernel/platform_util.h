/* opsnn CPU-debug runtime: opbase's kernel-side platform sizes (Ops::Base), as arch35 kernels
 * include them ("op_kernel/platform_util.h"): a UB block is 32 bytes, a vector register 256. */
#ifndef OPSNN_OP_KERNEL_PLATFORM_UTIL_H_
#define OPSNN_OP_KERNEL_PLATFORM_UTIL_H_

#include <cstdint>

#include "kernel_operator.h"

namespace Ops {
namespace Base {
__aicore__ inline constexpr uint32_t GetUbBlockSize() { return 32U; }
__aicore__ inline constexpr uint32_t GetVRegSize() { return AscendC::VECTOR_REG_WIDTH; }
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_OP_KERNEL_PLATFORM_UTIL_H_
