/* ThresholdGradV2D's op_host unit test in C++, as upstream writes them (gtest, the registered
 * tiling found by op type, a TilingContext built for it): run it with
 *     opsnn ut opsnn/activation/threshold_grad_v2_d/tests/ut/op_host/test_threshold_grad_v2_d_tiling.cpp
 * It builds its contexts with metadef's context builders (upstream's fakers wrap the same builders;
 * this repo does not carry upstream's). Expected values: the Python tiling's
 * (op_host/threshold_grad_v2_d_tiling.py) for Ascend910B2 (48 AIV cores; its platform file's
 * 196608-byte UB, of which the platform API reports 256 bytes less). */
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

#include "../../../op_kernel/threshold_grad_v2_d_tiling_data.h"
#include "base/context_builder/op_tiling_context_builder.h"
#include "base/registry/op_impl_space_registry_v2.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor.h"
#include "platform/platform_infos_def.h"
#include "register/op_impl_registry.h"

namespace {

struct Tiled {
    ge::graphStatus status;
    ThresholdGradV2DTilingData data;
    uint32_t blockDim;
    uint64_t key;
    size_t workspace;
};

/* Tiles `shape` of `dtype` with threshold `threshold` on an Atlas A2 part of `cores` AIV cores. */
Tiled Tile(const std::vector<int64_t> &shape, ge::DataType dtype, float threshold, int64_t cores = 48) {
    gert::StorageShape storage;
    for (int64_t d : shape) {
        storage.MutableStorageShape().AppendDim(d);
        storage.MutableOriginShape().AppendDim(d);
    }
    gert::Tensor grad(storage, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnDeviceHbm, dtype, nullptr);
    gert::Tensor feature(storage, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnDeviceHbm, dtype, nullptr);
    gert::Tensor out(storage, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnDeviceHbm, dtype, nullptr);

    fe::PlatFormInfos platform;
    platform.Init();
    // CANN's platform tables: the core counts in SoCInfo, UB in AICoreSpec, the SoC in version
    std::map<std::string, std::string> soc = {{"ai_core_cnt", std::to_string(cores / 2)},
                                              {"cube_core_cnt", std::to_string(cores / 2)},
                                              {"vector_core_cnt", std::to_string(cores)},
                                              {"core_type_list", "CubeCore,VectorCore"}};
    std::map<std::string, std::string> core = {{"ub_size", "196608"}};
    std::map<std::string, std::string> version = {{"SoC_version", "Ascend910B2"},
                                                  {"Short_SoC_version", "Ascend910B"},
                                                  {"NpuArch", "2201"}};
    platform.SetPlatformRes("SoCInfo", soc);
    platform.SetPlatformRes("AICoreSpec", core);
    platform.SetPlatformRes("version", version);

    auto workspace = gert::ContinuousVector::Create<size_t>(4);
    struct CompileInfo {} compileInfo;
    auto holder = gert::OpTilingContextBuilder()
                      .OpType("ThresholdGradV2D")
                      .OpName("threshold_grad_v2_d")
                      .IONum(2, 1)
                      .AppendAttr(threshold)
                      .InputTensors({&grad, &feature})
                      .OutputTensors({&out})
                      .CompileInfo(&compileInfo)
                      .PlatformInfo(&platform)
                      .TilingDataSize(sizeof(ThresholdGradV2DTilingData))
                      .Workspace(reinterpret_cast<gert::ContinuousVector *>(workspace.get()))
                      .Build();
    gert::TilingContext *context = holder.GetContext();
    Tiled t{};
    auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
    EXPECT_NE(registry, nullptr);
    auto impl = registry == nullptr ? nullptr : registry->GetOpImpl("ThresholdGradV2D");
    EXPECT_NE(impl, nullptr);
    if (impl == nullptr) return t;
    t.status = impl->tiling(context);
    if (t.status == ge::GRAPH_SUCCESS) {
        std::memcpy(&t.data, context->GetRawTilingData()->GetData(), sizeof(t.data));
        t.blockDim = context->GetBlockDim();
        t.key = context->GetTilingKey();
        t.workspace = context->GetWorkspaceSizes(1)[0];
    }
    return t;
}

}  // namespace

class threshold_grad_v2_d_tiling : public testing::Test {};

TEST_F(threshold_grad_v2_d_tiling, one_core_when_one_tile_holds_it) {
    Tiled t = Tile({1, 2, 8, 16}, ge::DT_FLOAT, 1.0f);
    ASSERT_EQ(t.status, ge::GRAPH_SUCCESS);
    EXPECT_EQ(t.blockDim, 1u);
    EXPECT_EQ(t.key, 0u);
    EXPECT_EQ(t.data.tileDataNum, 6976u);  // 196352 / 256 / 7 = 109 blocks of 64 floats
    EXPECT_EQ(t.data.smallCoreDataNum, 256u);
    EXPECT_EQ(t.data.bigCoreDataNum, 320u);
    EXPECT_EQ(t.data.finalSmallTileNum, 1u);
    EXPECT_EQ(t.data.smallTailDataNum, 256u);
    EXPECT_EQ(t.data.tailBlockNum, 0u);
    EXPECT_EQ(t.data.threshold, 1.0f);
    EXPECT_EQ(t.workspace, 16u * 1024 * 1024);  // the system part; the kernel needs no user workspace
}

TEST_F(threshold_grad_v2_d_tiling, big_and_small_cores) {
    Tiled t = Tile({700001}, ge::DT_INT8, -0.5f);
    ASSERT_EQ(t.status, ge::GRAPH_SUCCESS);
    EXPECT_EQ(t.blockDim, 48u);
    EXPECT_EQ(t.data.tileDataNum, 13824u);  // 196352 / 256 / 14 = 54 blocks of 256 int8
    EXPECT_EQ(t.data.smallCoreDataNum, 14336u);  // 2735 blocks: 56 each, 47 cores take one more
    EXPECT_EQ(t.data.bigCoreDataNum, 14592u);
    EXPECT_EQ(t.data.tailBlockNum, 47u);
    EXPECT_EQ(t.data.finalSmallTileNum, 2u);
    EXPECT_EQ(t.data.smallTailDataNum, 512u);
    EXPECT_EQ(t.data.finalBigTileNum, 2u);
    EXPECT_EQ(t.data.bigTailDataNum, 768u);
    EXPECT_EQ(t.data.threshold, -0.5f);
}

TEST_F(threshold_grad_v2_d_tiling, an_unsupported_dtype_fails) {
    EXPECT_EQ(Tile({16}, ge::DT_INT64, 1.0f).status, ge::GRAPH_FAILED);
}

TEST_F(threshold_grad_v2_d_tiling, an_empty_tensor_fails) {
    EXPECT_EQ(Tile({0, 4}, ge::DT_FLOAT, 1.0f).status, ge::GRAPH_FAILED);
}
