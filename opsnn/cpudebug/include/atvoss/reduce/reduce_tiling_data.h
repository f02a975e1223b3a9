/* opsnn's atvoss reduce framework: the tiling the host computes for ReduceSch, field for field as
 * upstream's (host and kernel read it from the same bytes; kernel tiling structs embed it).
 *
 * shape / stride / dstStride: the collapsed input's extents and element strides, and the output's
 * strides, per pattern axis. A split: the cores take factorACntPerCore of factorATotalCnt A steps
 * (the last loop A axis in ubFactorA pieces); a core walks factorRCntPerCore R tiles (the last
 * inner R axis in ubFactorR pieces); with a group reduce groupR cores share an A step, each
 * writing a partial result to workspace (outSize results a row). basicBlock / resultBlock: the
 * bytes of one tile's input / result buffer. useNddma: 0 when tiles are copied in block-aligned
 * rows. slice*: the non-contiguous schedules' view (not modelled by opsnn). */
#ifndef OPSNN_ATVOSS_REDUCE_REDUCE_TILING_DATA_H_
#define OPSNN_ATVOSS_REDUCE_REDUCE_TILING_DATA_H_

#include <cstdint>

#include "atvoss/reduce/reduce_util.h"

namespace Ops {
namespace Base {
struct ReduceOpTilingData {
    uint64_t factorACntPerCore;
    uint64_t factorATotalCnt;
    uint64_t ubFactorA;
    uint64_t factorRCntPerCore;
    uint64_t factorRTotalCnt;
    uint64_t ubFactorR;
    uint64_t groupR;
    uint64_t outSize;
    uint64_t basicBlock;
    uint64_t resultBlock;
    int32_t coreNum;
    int32_t realCoreNum;
    int32_t useNddma;
    float meanVar;
    uint64_t shape[ReduceOpTmpl::MAX_DIM] = {0};
    int64_t stride[ReduceOpTmpl::MAX_DIM] = {0};
    int64_t dstStride[ReduceOpTmpl::MAX_DIM] = {0};
    uint64_t sliceNum[ReduceOpTmpl::MAX_DIM] = {0};
    uint64_t sliceShape[ReduceOpTmpl::MAX_DIM] = {0};
    uint64_t sliceStride[ReduceOpTmpl::MAX_DIM] = {0};
};
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_REDUCE_REDUCE_TILING_DATA_H_
