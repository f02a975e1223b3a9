/* opsnn's impl/dav_c220/kernel_operator_reg_others_impl.h: the name CANN's kernel headers give Atlas A2's register intrinsics; what kernels use of them comes with kernel_operator.h. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
#define OPSNN_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
#include "kernel_operator.h"
#endif  // OPSNN_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
