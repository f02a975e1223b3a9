/* opsnn CPU-debug runtime: SoftMaxTiling, the tiling struct of AscendC's SoftMax family as kernel
 * code and tiling-data headers name it (global namespace, kernel_tiling/kernel_tiling.h), filled
 * on the host by SoftMaxTilingFunc or by hand in a UT. */
#ifndef OPSNN_KT_SOFTMAX_TILING_H_
#define OPSNN_KT_SOFTMAX_TILING_H_

#include <cstdint>

struct SoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};

#endif  // OPSNN_KT_SOFTMAX_TILING_H_
