/* opsnn's kernel_event.h: the name CANN's kernel headers give HardEvent, the event ids. Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_EVENT_H_
#define OPSNN_KERNEL_EVENT_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_EVENT_H_
