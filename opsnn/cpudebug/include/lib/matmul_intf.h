/* opsnn's lib/matmul_intf.h: CANN's cube (AIC) interface -- Matmul, MatmulType, TCubeTiling, Mmad, Fixpipe --
 * which the CPU-debug runtime does not model: it emulates vector (AIV) cores. Many vector kernels
 * include this header without using it, so it compiles; it declares no cube class, so a kernel
 * that uses one fails to compile naming it (Mmad: a static_assert saying so). See
 * docs/cpp-kernels.md, "How it differs". */
#ifndef OPSNN_LIB_MATMUL_INTF_H_
#define OPSNN_LIB_MATMUL_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_LIB_MATMUL_INTF_H_
