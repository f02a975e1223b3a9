/* opsnn's kernel_log.h: what a CPU-debug build (ASCENDC_CPU_DEBUG) gets from CANN's header of
 * that name and host code of UTs relies on: the kernel keywords and the standard headers. */
#ifndef OPSNN_KERNEL_LOG_H_
#define OPSNN_KERNEL_LOG_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "opsnn_kt/types.h"

#endif  // OPSNN_KERNEL_LOG_H_
