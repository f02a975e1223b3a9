/* opsnn's atvoss: the tiling structs of the elementwise schedules (little-endian, as the host's
 * tiling writes them; field order and sizes are the contract with op_host code). */
#ifndef OPSNN_ATVOSS_ELEWISE_BASE_STRUCT_H_
#define OPSNN_ATVOSS_ELEWISE_BASE_STRUCT_H_

#include <cstdint>

namespace Ops {
namespace Base {

constexpr uint64_t ELEWISE_MAX_SCALAR_BYTES = 16;
constexpr uint64_t EIGHT_BYTES = 8;
constexpr uint64_t SIXTEN_BYTES = 16;

/* ElementwiseSch: the host splits the elements over cores and tiles (80 bytes) */
struct EleBaseTilingData {
    int64_t dim0;                 // elements of the output
    int32_t coreNum;              // cores the host planned for
    int32_t ubFormer;             // elements of a full tile
    int64_t blockFormer;          // elements of a core's block (the last core: the rest)
    int64_t blockNum;             // cores launched
    int64_t ubLoopOfFormerBlock;  // tiles of a full block
    int64_t ubLoopOfTailBlock;    // tiles of the last block
    int64_t ubTailOfFormerBlock;  // elements of a full block's last tile
    int64_t ubTailOfTailBlock;    // elements of the last block's last tile
    int64_t elemNum;
    uint64_t scheMode;
};
using EleBaseTilingDataV2 = EleBaseTilingData;

/* ElementwiseSch16B / ElementwiseSchWithScalar: the kernel derives the split from these */
struct EleBaseTilingData16B {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
};
struct EleBaseTilingData24B {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
    char scalarData[EIGHT_BYTES];  // the DAG's Vars, packed in Var order
};
struct EleBaseTilingData32B {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
    char scalarData[SIXTEN_BYTES];
};

static_assert(sizeof(EleBaseTilingData) == 80 && sizeof(EleBaseTilingData16B) == 16 &&
                  sizeof(EleBaseTilingData24B) == 24 && sizeof(EleBaseTilingData32B) == 32,
              "atvoss elementwise tiling layouts");

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_ELEWISE_BASE_STRUCT_H_
