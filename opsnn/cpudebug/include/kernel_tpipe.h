/* opsnn's kernel_tpipe.h: the name CANN's kernel headers give TPipe, TQue, TBuf. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_TPIPE_H_
#define OPSNN_KERNEL_TPIPE_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_TPIPE_H_
