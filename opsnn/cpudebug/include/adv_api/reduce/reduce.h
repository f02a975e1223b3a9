/* opsnn CPU-debug runtime: AscendC's header of the high-level reductions (ReduceSum / ReduceMax /
 * ReduceMin<T, Pattern::Reduce::AR | RA>): kernel_operator.h declares them
 * (opsnn_kt/reduce_pattern_api.h). */
#ifndef OPSNN_ADV_API_REDUCE_REDUCE_H_
#define OPSNN_ADV_API_REDUCE_REDUCE_H_

#include "kernel_operator.h"

#endif  // OPSNN_ADV_API_REDUCE_REDUCE_H_
