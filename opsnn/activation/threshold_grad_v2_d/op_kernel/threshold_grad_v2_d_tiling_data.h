/* ThresholdGradV2D's tiling data as the kernel reads it: eight uint64 counts and the float32
 * threshold (72 bytes with the trailing padding). opsnn's host tiling writes the same bytes
 * (threshold_grad_v2_d_tiling_data.py: "<8Qf4x"). */
#ifndef OPSNN_THRESHOLD_GRAD_V2_D_TILING_DATA_H_
#define OPSNN_THRESHOLD_GRAD_V2_D_TILING_DATA_H_

#include <cstdint>

struct ThresholdGradV2DTilingData {
    uint64_t smallCoreDataNum;   // elements of a small core
    uint64_t bigCoreDataNum;     // elements of a big core (one 256-byte block more)
    uint64_t finalBigTileNum;    // tiles of a big core, its tail included
    uint64_t finalSmallTileNum;  // tiles of a small core, its tail included
    uint64_t tileDataNum;        // elements of a full tile
    uint64_t smallTailDataNum;   // elements of a small core's last tile
    uint64_t bigTailDataNum;     // elements of a big core's last tile
    uint64_t tailBlockNum;       // how many cores are big (the first ones)
    float threshold;
};
static_assert(sizeof(ThresholdGradV2DTilingData) == 72, "the host writes 72 bytes");

#endif  // OPSNN_THRESHOLD_GRAD_V2_D_TILING_DATA_H_
