/* opsnn's lib/math/kernel_operator_atan_intf.h: the name CANN gives this high-level math API's header.
 * Kernels include it by that name; opsnn declares the high-level math it models in kernel_operator.h
 * (docs/cpp-kernels.md, "Reductions, gathers, sorting, high-level math"); a function it lacks fails by name. */
#ifndef OPSNN_LIB_MATH_KERNEL_OPERATOR_ATAN_INTF_H_
#define OPSNN_LIB_MATH_KERNEL_OPERATOR_ATAN_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_LIB_MATH_KERNEL_OPERATOR_ATAN_INTF_H_
