/* ReluGrad's tiling data as the kernel reads it: the Atlas A2 block split's eight uint64 counts
 * (64 bytes), as op_kernel/relu_grad_tiling_data.py packs them. */
#ifndef OPSNN_RELU_GRAD_TILING_DATA_H_
#define OPSNN_RELU_GRAD_TILING_DATA_H_

#include <cstdint>

struct ReluGradTilingData {
    uint64_t smallCoreDataNum;   // elements of a small core
    uint64_t bigCoreDataNum;     // elements of a big core (one 256-byte block more)
    uint64_t finalBigTileNum;    // tiles of a big core, its tail included
    uint64_t finalSmallTileNum;  // tiles of a small core, its tail included
    uint64_t tileDataNum;        // elements of a full tile
    uint64_t smallTailDataNum;   // elements of a small core's last tile
    uint64_t bigTailDataNum;     // elements of a big core's last tile
    uint64_t tailBlockNum;       // how many cores are big (the first ones)
};
static_assert(sizeof(ReluGradTilingData) == 64, "the host writes 64 bytes");

#endif  // OPSNN_RELU_GRAD_TILING_DATA_H_
