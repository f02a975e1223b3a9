/* opsnn's kernel_tiling/kernel_tiling.h: the tiling-data macros kernels use come with
 * kernel_operator.h (opsnn_kt/kernel_macros.h); this header exists so the include resolves. */
#ifndef OPSNN_KERNEL_TILING_H_
#define OPSNN_KERNEL_TILING_H_
#include "opsnn_kt/kernel_macros.h"
#endif
