/* opsnn's kernel_operator.h: the AscendC programming interface, for kernels compiled for the host
 * and run on opsnn's emulator (docs/cpp-kernels.md). Kernel code includes it unchanged. */
#ifndef OPSNN_KERNEL_OPERATOR_H_
#define OPSNN_KERNEL_OPERATOR_H_

#include <cassert>  // kernels assert() under __CCE_KT_TEST__, as CANN's CPU debug lets them
#include <cmath>  // the scalar unit's math kernels call unqualified (sqrt, exp, ...), as CANN's CPU debug has it
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "opsnn_kt/types.h"
#include "opsnn_kt/utils.h"
#include "opsnn_kt/call.h"
#include "opsnn_kt/tensors.h"
#include "opsnn_kt/instructions.h"
#include "opsnn_kt/reduce_api.h"
#include "opsnn_kt/reduce_pattern_api.h"
#include "opsnn_kt/gather_api.h"
#include "opsnn_kt/sort_api.h"
#include "opsnn_kt/math_api.h"
#include "opsnn_kt/cumsum_api.h"
#include "opsnn_kt/list_tensor.h"
#include "opsnn_kt/sum_broadcast.h"
#include "opsnn_kt/softmax_api.h"
#include "opsnn_kt/select_bytes_mask.h"
#include "opsnn_kt/high_level.h"
#include "opsnn_kt/multicore.h"
#include "opsnn_kt/type_utils.h"
#include "opsnn_kt/scalar_bits.h"
#include "opsnn_kt/micro_api.h"
#include "opsnn_kt/kernel_macros.h"

#endif  // OPSNN_KERNEL_OPERATOR_H_
