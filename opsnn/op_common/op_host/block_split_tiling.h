/* The block split of opsnn's Atlas A2 elementwise kernels, for their C++ op_host tilings: the
 * same rule as opsnn/op_common/block_split.py (docs/threshold-grad-v2d.md §5-6), written again
 * because a C++ tiling cannot call Python; tests/host/test_cpp_tilings.py holds the two to the
 * same bytes over a sweep of sizes, dtypes and SoCs.
 *
 * The tensor is cut into 256-byte blocks, the blocks are shared out over the cores (the first
 * tailBlockNum cores, the big ones, take one block more), and each core walks its share in
 * UB-sized tiles. Unsigned 64-bit arithmetic throughout. */
#ifndef OPSNN_OP_COMMON_BLOCK_SPLIT_TILING_H_
#define OPSNN_OP_COMMON_BLOCK_SPLIT_TILING_H_

#include <cstdint>
#include <string>

namespace opsnn_op_common {

constexpr uint64_t kBlockSize = 256;  // bytes: the unit the cores share the data in

struct CoreShare {
    uint64_t dataNum = 0;  // elements, a whole number of blocks
    uint64_t tileNum = 0;  // tiles, the last one possibly partial
    uint64_t tailNum = 0;  // elements in the last tile (tileDataNum when the share divides evenly)
};

struct BlockSplit {
    uint64_t blockDim = 0;
    uint64_t tileDataNum = 0;   // elements per full tile
    uint64_t tailBlockNum = 0;  // how many cores are big
    CoreShare small, big;
};

inline CoreShare ShareOf(uint64_t blocks, uint64_t tileBlocks, uint64_t tileDataNum, uint64_t itemSize) {
    CoreShare s;
    s.dataNum = blocks * kBlockSize / itemSize;
    const uint64_t whole = blocks / tileBlocks;
    s.tileNum = blocks % tileBlocks == 0 ? whole : whole + 1;
    const uint64_t tail = s.dataNum - tileDataNum * whole;
    s.tailNum = tail == 0 ? tileDataNum : tail;
    return s;
}

/* Splits n elements of itemSize bytes for a kernel whose UB holds ubFactor tile-sized slices, on
 * `cores` AIV cores. False, with the reason in *why, where it cannot. */
inline bool SplitBlocks(uint64_t n, uint64_t itemSize, uint64_t ubSize, uint64_t ubFactor, uint64_t cores,
                        BlockSplit *out, std::string *why) {
    if (n == 0) {
        *why = "cannot tile 0 elements: the API layer never launches empty tensors";
        return false;
    }
    if (cores == 0) {
        *why = "the platform has no AIV cores";
        return false;
    }
    const uint64_t tileBlocks = ubSize / kBlockSize / ubFactor;
    if (tileBlocks == 0) {
        *why = "UB of " + std::to_string(ubSize) + " bytes cannot hold one tile: needs at least " +
               std::to_string(kBlockSize * ubFactor) + " bytes";
        return false;
    }
    out->tileDataNum = tileBlocks * kBlockSize / itemSize;
    const uint64_t blocks = (n * itemSize + kBlockSize - 1) / kBlockSize;
    out->blockDim = out->tileDataNum >= n ? 1 : (cores < blocks ? cores : blocks);
    const uint64_t perCore = blocks / out->blockDim;
    out->tailBlockNum = blocks % out->blockDim;
    out->small = ShareOf(perCore, tileBlocks, out->tileDataNum, itemSize);
    out->big = ShareOf(perCore + 1, tileBlocks, out->tileDataNum, itemSize);
    return true;
}

}  // namespace opsnn_op_common

#endif  // OPSNN_OP_COMMON_BLOCK_SPLIT_TILING_H_
