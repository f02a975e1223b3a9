/* ThresholdGradV2D's tiling in C++ (docs/threshold-grad-v2d.md §5): the Atlas A2 block split with
 * this kernel's UB budget, written for the C++ chain `opsnn run` builds. It must give the bytes
 * op_host/threshold_grad_v2_d_tiling.py gives (tests/host/test_threshold_cpp_chain.py checks a
 * sweep of sizes, dtypes and SoCs). */
#include <cstring>
#include <string>

#include "../../../op_common/op_host/block_split_tiling.h"
#include "../op_kernel/threshold_grad_v2_d_tiling_data.h"
#include "../op_kernel/threshold_grad_v2_d_tiling_key.h"
#include "graph/utils/type_utils.h"
#include "log/log.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

struct ThresholdGradV2DCompileInfo {};

namespace {

constexpr size_t kUserWorkspace = 0;  // the kernel needs none beyond the system part

/* Tile-sized UB slices the kernel's buffers take per dtype: the double-buffered queues, the mask
 * and the compute-type temporaries (op_host/threshold_grad_v2_d_tiling.py UB_FACTOR). 0: not a
 * dtype of this kernel. */
uint64_t UbFactor(ge::DataType dtype) {
    switch (dtype) {
        case ge::DT_FLOAT:
        case ge::DT_FLOAT16: return 7;
        case ge::DT_BF16: return 10;
        case ge::DT_INT32: return 8;
        case ge::DT_INT8:
        case ge::DT_UINT8: return 14;
        default: return 0;
    }
}

ge::graphStatus TilingParseThresholdGradV2D([[maybe_unused]] gert::TilingParseContext *context) {
    return ge::GRAPH_SUCCESS;
}

ge::graphStatus TilingThresholdGradV2D(gert::TilingContext *context) {
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t cores = platform.GetCoreNumAiv();

    const gert::StorageShape *shape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, shape);
    const auto *desc = context->GetInputDesc(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, desc);
    const ge::DataType dtype = desc->GetDataType();
    const uint64_t factor = UbFactor(dtype);
    OP_CHECK_IF(factor == 0,
                OP_LOGE(context, "ThresholdGradV2D does not support %s",
                        ge::TypeUtils::DataTypeToSerialString(dtype).c_str()),
                return ge::GRAPH_FAILED);
    uint32_t itemSize = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, itemSize);

    opsnn_op_common::BlockSplit split;
    std::string why;
    const uint64_t n = static_cast<uint64_t>(shape->GetStorageShape().GetShapeSize());
    OP_CHECK_IF(!opsnn_op_common::SplitBlocks(n, itemSize, ubSize, factor, cores, &split, &why),
                OP_LOGE(context, "%s", why.c_str()), return ge::GRAPH_FAILED);

    ThresholdGradV2DTilingData *tiling = context->GetTilingData<ThresholdGradV2DTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    std::memset(tiling, 0, sizeof(*tiling));  // the struct's padding goes out as zeros
    tiling->smallCoreDataNum = split.small.dataNum;
    tiling->bigCoreDataNum = split.big.dataNum;
    tiling->finalBigTileNum = split.big.tileNum;
    tiling->finalSmallTileNum = split.small.tileNum;
    tiling->tileDataNum = split.tileDataNum;
    tiling->smallTailDataNum = split.small.tailNum;
    tiling->bigTailDataNum = split.big.tailNum;
    tiling->tailBlockNum = split.tailBlockNum;
    const float *threshold = context->GetAttrs() ? context->GetAttrs()->GetFloat(0) : nullptr;
    OP_CHECK_NULL_WITH_CONTEXT(context, threshold);
    tiling->threshold = *threshold;

    context->SetBlockDim(static_cast<uint32_t>(split.blockDim));
    context->SetTilingKey(GET_TPL_TILING_KEY(THRESHOLD_GRAD_V2D_SCH_MODE_0));
    size_t *workspaces = context->GetWorkspaceSizes(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspaces);
    workspaces[0] = kUserWorkspace + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}

}  // namespace

IMPL_OP_OPTILING(ThresholdGradV2D)
    .Tiling(TilingThresholdGradV2D)
    .TilingParse<ThresholdGradV2DCompileInfo>(TilingParseThresholdGradV2D);

}  // namespace optiling
