// opsnn's own test operator's tiling, written the way an ops-nn *_tiling.cpp is: PlatformAscendC
// for cores, UB and the lib-API workspace; attributes by OpDef index; tiling data declared with
// BEGIN_TILING_DATA_DEF; a TilingParse with its compile info.
#include <algorithm>
#include "log/log.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "util/math_util.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleAddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint16_t, tileNum);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, ubSize);
TILING_DATA_FIELD_DEF(int64_t, mode);
TILING_DATA_FIELD_DEF_ARR(uint8_t, 3, tag);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OpsnnScaleAdd, ScaleAddTilingData)

struct ScaleAddCompileInfo {
    uint32_t parsedCores = 0;
};

constexpr uint32_t kElemsPerCore = 1024;

static ge::graphStatus TilingPrepareScaleAdd(gert::TilingParseContext *context)
{
    auto *info = context->GetCompiledInfo<ScaleAddCompileInfo>();
    OP_CHECK_NULL_WITH_CONTEXT(context, info);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    info->parsedCores = platform.GetCoreNumAiv();
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingScaleAdd(gert::TilingContext *context)
{
    const auto *attrs = context->GetAttrs();
    OP_CHECK_NULL_WITH_CONTEXT(context, attrs);
    const float *alpha = attrs->GetAttrPointer<float>(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, alpha);
    const int64_t *mode = attrs->GetInt(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, mode);
    const char *tag = attrs->GetStr(2);
    OP_CHECK_NULL_WITH_CONTEXT(context, tag);
    OP_CHECK_IF(*alpha < 0.0f, OP_LOGE(context, "alpha must not be negative, got %f", *alpha), return ge::GRAPH_FAILED);
    const auto *info = context->GetCompileInfo<ScaleAddCompileInfo>();
    OP_CHECK_NULL_WITH_CONTEXT(context, info);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t cores = platform.GetCoreNumAiv();
    OP_CHECK_IF(cores != info->parsedCores, OP_LOGE(context, "TilingParse saw %u cores, tiling %u", info->parsedCores, cores),
                return ge::GRAPH_FAILED);

    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const uint32_t blocks = std::max<uint32_t>(1, std::min<uint32_t>(cores, Ops::Base::CeilDiv(total, kElemsPerCore)));
    ScaleAddTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_tileNum(static_cast<uint16_t>(ub / 1024));
    tiling.set_alpha(*alpha);
    tiling.set_ubSize(static_cast<uint32_t>(ub));
    tiling.set_mode(*mode);
    uint8_t tagBytes[3] = {static_cast<uint8_t>(tag[0]), 0, 7};
    tiling.set_tag(tagBytes);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());

    context->SetBlockDim(blocks);
    context->SetTilingKey(context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 1 : 0);
    size_t *workspace = context->GetWorkspaceSizes(2);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspace);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    workspace[1] = 4096;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(OpsnnScaleAdd).Tiling(TilingScaleAdd).TilingParse<ScaleAddCompileInfo>(TilingPrepareScaleAdd);

// A second operator whose tiling data is a plain struct (GetTilingData<T>) and which has no
// TilingParse: the framework still gives it a compile info.
struct PlainTilingData {
    int32_t first;
    int32_t count;
};

static ge::graphStatus TilingPlain(gert::TilingContext *context)
{
    auto *data = context->GetTilingData<PlainTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, data);
    data->first = -3;
    data->count = static_cast<int32_t>(context->GetInputShape(0)->GetStorageShape().GetDim(0));
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(OpsnnPlain).Tiling(TilingPlain, 64);
IMPL_OP_OPTILING(OpsnnBadColumns).Tiling(TilingPlain);
}  // namespace optiling
