/* opsnn's atvoss: the broadcast schedules' tiling structs and their schedule-mode key lists
 * (the values a kernel's `schMode` template argument may take, in the order CANN's tiling key
 * encodes them by index). Layouts are the contract with op_host code. */
#ifndef OPSNN_ATVOSS_BROADCAST_BASE_STRUCT_H_
#define OPSNN_ATVOSS_BROADCAST_BASE_STRUCT_H_

#include <cstdint>

#include "ascendc/host_api/tiling/template_argument.h"

namespace Ops {
namespace Base {

constexpr uint64_t BROADCAST_MAX_DIMS_NUM = 8;
constexpr uint64_t BROADCAST_NON_CONTIGIOUS_MAX_DIMS_NUM = 4;
constexpr int64_t BROADCAST_BITS_NUM = 8;
constexpr uint64_t BROADCAST_MAX_COPYIN_NUM = 8;
constexpr uint64_t BROADCAST_MAX_COPYINBRC_NUM = 8;
constexpr uint64_t BROADCAST_MAX_VECBRC_NUM = 8;
constexpr uint64_t BROADCAST_MAX_SCALAR_BYTES = 16;
constexpr uint64_t BROADCAST_MAX_TILINGDATA_BYTES = 4096;

struct BroadcastFakeTilingData {
    char scalarData[BROADCAST_MAX_TILINGDATA_BYTES];
};

/* schedule 201: one dimension after the host collapsed the shapes (56 bytes) */
struct BroadcastOneDimTilingData {
    int32_t scalarFlag;   // bit i: input i has one element (read once, duplicated over the tile)
    int32_t ubSplitAxis;
    int32_t ubFormer;     // elements of a full tile
    int32_t ubTail;       // elements of the last core's last tile
    int32_t blockNum;     // cores
    int64_t blockFormer;  // tiles of a core (the last core: blockTail)
    int64_t blockTail;
    char scalarData[BROADCAST_MAX_SCALAR_BYTES];  // the DAG's Vars, packed in Var order
};

/* schedule 202: one dimension, the kernel derives the split (16 bytes) */
struct BroadcastOneDimTilingDataAdvance {
    int64_t dimLen;      // elements
    int32_t tileNum;     // elements of a full tile
    int16_t blockNum;    // cores
    int16_t scalarFlag;  // as BroadcastOneDimTilingData's
};

/* schedules 1, 2, 101-109: several dimensions (not run by opsnn's schedules; the layout is the
 * host tiling's) */
template <class BrcDag>
struct BroadcastBaseTilingData {
    int32_t scheMode;
    int32_t shapeLen;
    int32_t ubSplitAxis;
    int32_t ubFormer;
    int32_t ubTail;
    int64_t ubOuter;
    int64_t blockFormer;
    int64_t blockTail;
    int64_t dimProductBeforeUbInner;
    int64_t elemNum;
    int64_t blockNum;
    int64_t outputDims[BROADCAST_MAX_DIMS_NUM];
    int64_t outputStrides[BROADCAST_MAX_DIMS_NUM];
    int64_t inputDims[BrcDag::InputSize][2];
    int64_t inputBrcDims[BrcDag::CopyBrcSize][BROADCAST_MAX_DIMS_NUM];
    int64_t inputVecBrcDims[BrcDag::VecBrcSize][BROADCAST_MAX_DIMS_NUM];
    int64_t inputStrides[BrcDag::InputSize][BROADCAST_MAX_DIMS_NUM];
    int64_t inputBrcStrides[BrcDag::CopyBrcSize][BROADCAST_MAX_DIMS_NUM];
    int64_t inputVecBrcStrides[BrcDag::VecBrcSize];
    char scalarData[BROADCAST_MAX_SCALAR_BYTES];
};

static_assert(sizeof(BroadcastOneDimTilingData) == 56 && sizeof(BroadcastOneDimTilingDataAdvance) == 16,
              "atvoss one-dim broadcast tiling layouts");

/* the schedule modes as tiling-key template arguments */
#define BRC_NDDMA_SCH_MODE_KEY_DECL(schMode) \
    ASCENDC_TPL_UINT_DECL(schMode, 16, ASCENDC_TPL_UI_LIST, 1, 2, 201, 202, 301, 303, 304, 305, 999)
#define BRC_NDDMA_SCH_MODE_KEY_SEL(schMode) \
    ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 1, 2, 201, 202, 301, 303, 304, 305)
#define BRC_NDDMA_SCH_CUSTOM_MODE_KEY_SEL(schMode) ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 999)
#define BRC_VEC_SCH_CUSTOM_MODE_KEY_DECL(schMode)                                                                  \
    ASCENDC_TPL_UINT_DECL(schMode, 16, ASCENDC_TPL_UI_LIST, 101, 102, 103, 104, 109, 201, 202, 301, 302, 303, 304, \
                          305, 999)
#define BRC_VEC_SCH_MODE_KEY_SEL(schMode) \
    ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 101, 102, 103, 104, 109, 201, 202, 301, 302, 303, 304, 305)
#define BRC_VEC_SCH_CUSTOM_MODE_KEY_SEL(schMode) ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 999)
#define BRC_TEMP_SCH_MODE_KEY_DECL(schMode)                                                                          \
    ASCENDC_TPL_UINT_DECL(schMode, 16, ASCENDC_TPL_UI_LIST, 1, 2, 101, 102, 103, 104, 109, 201, 202, 301, 302, 303, \
                          304, 305, 999)
#define BRC_TEMP_SCH_MODE_KEY_SEL(schMode) \
    ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 1, 2, 101, 102, 103, 104, 109, 201, 202, 301, 302, 303, 304, 305)
#define BRC_TEMP_SCH_CUSTOM_MODE_KEY_SEL(schMode) ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 999)

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_BROADCAST_BASE_STRUCT_H_
