/* opsnn's kernel_operator_list_tensor_intf.h: the name CANN's kernel headers give the list-tensor interface (ListTensorDesc: opsnn_kt/list_tensor.h). Kernels include it by
 * that name; opsnn declares the whole AscendC surface in kernel_operator.h (docs/cpp-kernels.md). */
#ifndef OPSNN_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#define OPSNN_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#include "kernel_operator.h"
#endif  // OPSNN_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
