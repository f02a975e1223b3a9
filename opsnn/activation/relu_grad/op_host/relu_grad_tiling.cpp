/* ReluGrad's tiling in C++ (op_host/relu_grad_tiling.py is the Python twin): the Atlas A2 block
 * split with this kernel's UB budget. tests/host/test_threshold_cpp_chain.py holds the two to the
 * same bytes. */
#include <cstring>
#include <string>

#include "../../../op_common/op_host/block_split_tiling.h"
#include "../op_kernel/relu_grad_tiling_data.h"
#include "../op_kernel/relu_grad_tiling_key.h"
#include "graph/utils/type_utils.h"
#include "log/log.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

struct ReluGradCompileInfo {};

namespace {

/* Tile-sized UB slices: the kernel's buffers' bytes per element (queues 3 x 2 x itemsize, the
 * mask's byte, ones and factor in the compute type, and for a converted dtype the feature and the
 * gradient or int32 factor) over the itemsize, rounded up, plus one slice that keeps the buffers
 * clear of the top 8 KiB of an A2 UB, which Select uses as scratch (relu_grad_tiling.py
 * ub_factor). 0: not a dtype of this kernel. */
uint64_t UbFactor(ge::DataType dtype) {
    uint64_t item = 0, compute = 0, extra = 0;
    switch (dtype) {
        case ge::DT_FLOAT: item = compute = 4; break;
        case ge::DT_FLOAT16: item = compute = 2; break;
        case ge::DT_BF16: item = 2, compute = 4, extra = 4 + 4; break;
        case ge::DT_INT32: item = 4, compute = 4, extra = 4 + 4; break;
        case ge::DT_INT8:
        case ge::DT_UINT8: item = 1, compute = 2, extra = 2 + 2; break;
        default: return 0;
    }
    const uint64_t bytes = 3 * 2 * item + 1 + 2 * compute + extra;
    return (bytes + item - 1) / item + 1;
}

ge::graphStatus TilingParseReluGrad([[maybe_unused]] gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }

ge::graphStatus TilingReluGrad(gert::TilingContext *context) {
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::StorageShape *shape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, shape);
    const auto *desc = context->GetInputDesc(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, desc);
    const ge::DataType dtype = desc->GetDataType();
    const uint64_t factor = UbFactor(dtype);
    OP_CHECK_IF(factor == 0,
                OP_LOGE(context, "ReluGrad does not support %s", ge::TypeUtils::DataTypeToSerialString(dtype).c_str()),
                return ge::GRAPH_FAILED);
    uint32_t itemSize = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, itemSize);

    opsnn_op_common::BlockSplit split;
    std::string why;
    const uint64_t n = static_cast<uint64_t>(shape->GetStorageShape().GetShapeSize());
    OP_CHECK_IF(!opsnn_op_common::SplitBlocks(n, itemSize, ubSize, factor, platform.GetCoreNumAiv(), &split, &why),
                OP_LOGE(context, "%s", why.c_str()), return ge::GRAPH_FAILED);

    ReluGradTilingData *tiling = context->GetTilingData<ReluGradTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    std::memset(tiling, 0, sizeof(*tiling));
    tiling->smallCoreDataNum = split.small.dataNum;
    tiling->bigCoreDataNum = split.big.dataNum;
    tiling->finalBigTileNum = split.big.tileNum;
    tiling->finalSmallTileNum = split.small.tileNum;
    tiling->tileDataNum = split.tileDataNum;
    tiling->smallTailDataNum = split.small.tailNum;
    tiling->bigTailDataNum = split.big.tailNum;
    tiling->tailBlockNum = split.tailBlockNum;

    context->SetBlockDim(static_cast<uint32_t>(split.blockDim));
    context->SetTilingKey(GET_TPL_TILING_KEY(RELU_GRAD_SCH_MODE_0));
    size_t *workspaces = context->GetWorkspaceSizes(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspaces);
    workspaces[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}

}  // namespace

IMPL_OP_OPTILING(ReluGrad).Tiling(TilingReluGrad).TilingParse<ReluGradCompileInfo>(TilingParseReluGrad);

}  // namespace optiling
