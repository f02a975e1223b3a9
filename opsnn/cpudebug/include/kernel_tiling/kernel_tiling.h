/* opsnn's kernel_tiling/kernel_tiling.h: the tiling-data macros kernels use come with
 * kernel_operator.h (opsnn_kt/kernel_macros.h); here the tiling structs of AscendC's high-level
 * APIs that tiling-data headers embed (SoftMaxTiling). */
#ifndef OPSNN_KERNEL_TILING_H_
#define OPSNN_KERNEL_TILING_H_
#include "opsnn_kt/kernel_macros.h"
#include "opsnn_kt/softmax_tiling.h"
#endif
