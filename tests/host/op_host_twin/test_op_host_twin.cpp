// opsnn's host twin on opsnn's own op_host operator (scale_add_*.cpp): contexts built with the
// context builders, as an upstream UT's fakers build them, and launches through RunTiling /
// RunInferShape. Exact tiling bytes, block dim, key and workspace; the failures' named errors.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/context_builder/op_infer_datatype_context_builder.h"
#include "base/context_builder/op_infer_shape_context_builder.h"
#include "base/context_builder/op_tiling_context_builder.h"
#include "base/context_builder/op_tiling_parse_context_builder.h"
#include "base/registry/op_impl_space_registry_v2.h"
#include "metadef/op_def_store.h"
#include "opsnn_host/launch.h"
#include "platform/platform_infos_def.h"

namespace {
const gert::OpImplKernelRegistry::OpImplFunctionsV2 *Impl(const char *type)
{
    return gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl(type);
}

std::vector<uint8_t> Bytes(std::initializer_list<int> values)
{
    std::vector<uint8_t> out;
    for (int v : values) {
        out.push_back(static_cast<uint8_t>(v));
    }
    return out;
}

/* A platform as an upstream UT's compile-info JSON describes one. */
fe::PlatFormInfos UtPlatform()
{
    fe::PlatFormInfos platform;
    platform.Init();
    std::map<std::string, std::string> soc = {{"ai_core_cnt", "8"}, {"core_type_list", "AICore"}};
    std::map<std::string, std::string> spec = {{"ub_size", "262144"}};
    std::map<std::string, std::string> version = {{"Short_SoC_version", "Ascend910B"}, {"NpuArch", "2201"}};
    platform.SetPlatformRes("SoCInfo", soc);
    platform.SetPlatformRes("AICoreSpec", spec);
    platform.SetPlatformRes("version", version);
    platform.SetCoreNumByCoreType("AICore");
    return platform;
}

opsnn_host::LaunchRequest ScaleAddRequest(std::vector<int64_t> shape, ge::DataType dtype)
{
    opsnn_host::LaunchRequest request;
    request.op_type = "OpsnnScaleAdd";
    request.soc = "Ascend910B2";
    opsnn_host::TensorArg t;
    t.dtype = dtype;
    t.shape = shape;
    request.inputs = {t, t};
    request.outputs = {t};
    request.attrs = {0.5f};
    return request;
}
}  // namespace

TEST(OpHostTwinRegistry, RegistrationsOfOneOpTypeMerge)
{
    const auto *impl = Impl("OpsnnScaleAdd");
    ASSERT_NE(impl, nullptr);
    EXPECT_NE(impl->infer_shape, nullptr);
    EXPECT_NE(impl->infer_datatype, nullptr);
    EXPECT_NE(impl->tiling, nullptr);
    EXPECT_NE(impl->tiling_parse, nullptr);
    EXPECT_NE(impl->compile_info_creator, nullptr);
    EXPECT_EQ(impl->max_tiling_data_size, 2048U);
    EXPECT_EQ(Impl("OpsnnPlain")->max_tiling_data_size, 64U);
    EXPECT_EQ(Impl("NoSuchOp"), nullptr);
    EXPECT_TRUE(opsnn_host::HasTiling("OpsnnScaleAdd"));
    EXPECT_FALSE(opsnn_host::HasTiling("NoSuchOp"));
}

TEST(OpHostTwinContexts, TilingThroughTheBuildersAsAUtDoes)
{
    fe::PlatFormInfos platform = UtPlatform();
    std::vector<uint8_t> compile_info(64, 0);
    auto parse = gert::OpTilingParseContextBuilder()
                     .OpType("OpsnnScaleAdd")
                     .OpName("OpsnnScaleAdd")
                     .IONum(2, 1)
                     .CompiledJson("{}")
                     .PlatformInfo(&platform)
                     .CompiledInfo(compile_info.data())
                     .Build();
    ASSERT_NE(parse.GetContext(), nullptr);
    ASSERT_EQ(Impl("OpsnnScaleAdd")->tiling_parse(reinterpret_cast<gert::KernelContext *>(parse.GetContext())),
              ge::GRAPH_SUCCESS);
    uint32_t parsed_cores = 0;
    std::memcpy(&parsed_cores, compile_info.data(), sizeof(parsed_cores));
    EXPECT_EQ(parsed_cores, 8U);

    gert::Tensor x({{3, 5000}, {3, 5000}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnHost, ge::DT_FLOAT16, nullptr);
    gert::Tensor y = gert::Tensor({{3, 5000}, {3, 5000}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, ge::DT_FLOAT16);
    gert::Tensor z({{3, 5000}, {3, 5000}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, ge::DT_FLOAT16);
    auto data = gert::TilingData::CreateCap(256);
    auto workspace = gert::ContinuousVector::Create<size_t>(8);
    gert::OpTilingContextBuilder builder;
    builder.OpType("OpsnnScaleAdd").OpName("node1").IONum(2, 1);
    builder.AppendAttr(2.0f).AppendAttr(int64_t{9}).AppendAttr(ge::AscendString("q"));
    auto holder = builder.InputTensors({&x, &y})
                      .OutputTensors({&z})
                      .CompileInfo(compile_info.data())
                      .PlatformInfo(&platform)
                      .TilingData(reinterpret_cast<gert::TilingData *>(data.get()))
                      .Workspace(reinterpret_cast<gert::ContinuousVector *>(workspace.get()))
                      .Build();
    gert::TilingContext *context = holder.GetContext();
    ASSERT_NE(context, nullptr);
    EXPECT_STREQ(context->GetNodeType(), "OpsnnScaleAdd");
    EXPECT_STREQ(context->GetNodeName(), "node1");
    ASSERT_EQ(Impl("OpsnnScaleAdd")->tiling(context), ge::GRAPH_SUCCESS);
    EXPECT_EQ(context->GetBlockDim(), 8U);  // 15 blocks of work, 8 cores
    EXPECT_EQ(context->GetTilingKey(), 1U);  // float16
    ASSERT_EQ(context->GetWorkspaceNum(), 2U);
    EXPECT_EQ(context->GetWorkspaceSizes(2)[0], 16U * 1024U * 1024U);  // NpuArch 2201
    EXPECT_EQ(context->GetWorkspaceSizes(2)[1], 4096U);
    const gert::TilingData *raw = context->GetRawTilingData();
    ASSERT_EQ(raw->GetDataSize(), 32U);
    const auto *b = static_cast<const uint8_t *>(raw->GetData());
    // 15000 | 255 (UB / 1024) | pad | 2.0f | UB 262144 less Ascend910B's 256 | mode 9 | "q", 0, 7 | pad
    EXPECT_EQ(std::vector<uint8_t>(b, b + 32),
              Bytes({0x98, 0x3a, 0, 0, 0xff, 0, 0, 0, 0, 0, 0, 0x40, 0x00, 0xff, 0x03, 0,
                     9, 0, 0, 0, 0, 0, 0, 0, 'q', 0, 7, 0, 0, 0, 0, 0}));

    // indices past what the node has read as nullptr
    EXPECT_EQ(context->GetInputShape(2), nullptr);
    EXPECT_EQ(context->GetOutputShape(1), nullptr);
    EXPECT_EQ(context->GetDynamicInputShape(0, 1), nullptr);
    EXPECT_EQ(context->GetAttrs()->GetFloat(3), nullptr);
    EXPECT_EQ(context->GetAttrs()->GetAttrNum(), 3U);
    EXPECT_EQ(context->GetInputDesc(0)->GetDataType(), ge::DT_FLOAT16);
    EXPECT_EQ(context->GetPlatformInfo(), &platform);
}

TEST(OpHostTwinContexts, ATilingContextNeedsCompileAndPlatformInfo)
{
    gert::OpTilingContextBuilder builder;
    auto holder = builder.OpType("OpsnnScaleAdd").OpName("n").IONum(2, 1).Build();
    EXPECT_EQ(holder.GetContext(), nullptr);
}

TEST(OpHostTwinContexts, InferShapeAndDataType)
{
    gert::Tensor x({{2, 7}, {2, 7}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, ge::DT_FLOAT);
    gert::Tensor y({{2, 7}, {2, 7}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, ge::DT_FLOAT);
    auto holder = gert::OpInferShapeContextBuilder()
                      .OpType("OpsnnScaleAdd")
                      .OpName("n")
                      .IONum(2, 1)
                      .InputTensors({&x, &y})
                      .OutputTensorDesc(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND)
                      .Build();
    auto *context = holder.GetContext();
    ASSERT_NE(context, nullptr);
    ASSERT_EQ(Impl("OpsnnScaleAdd")->infer_shape(context), ge::GRAPH_SUCCESS);
    EXPECT_EQ(*context->GetOutputShape(0), gert::Shape({2, 7}));

    auto dt = gert::OpInferDataTypeContextBuilder()
                  .OpType("OpsnnScaleAdd")
                  .OpName("n")
                  .IONum(2, 1)
                  .InputTensorDesc(0, ge::DT_BF16, ge::FORMAT_ND, ge::FORMAT_ND)
                  .InputTensorDesc(1, ge::DT_BF16, ge::FORMAT_ND, ge::FORMAT_ND)
                  .Build();
    ASSERT_NE(dt.GetContext(), nullptr);
    EXPECT_EQ(dt.GetContext()->GetOutputDataType(0), ge::DT_MAX);  // not set yet
    ASSERT_EQ(Impl("OpsnnScaleAdd")->infer_datatype(dt.GetContext()), ge::GRAPH_SUCCESS);
    EXPECT_EQ(dt.GetContext()->GetOutputDataType(0), ge::DT_BF16);
}

TEST(OpHostTwinLaunch, RunTilingOnTheSocTable)
{
    const opsnn_host::TilingResult r = opsnn_host::RunTiling(ScaleAddRequest({4, 1000}, ge::DT_FLOAT));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.block_dim, 4U);  // 4000 elements, 1024 a core, 48 cores
    EXPECT_EQ(r.tiling_key, 0U);
    EXPECT_EQ(r.workspace_sizes, (std::vector<size_t>{16U * 1024U * 1024U, 4096U}));
    // 4000 | 191 (UB / 1024) | 0.5f | Ascend910B2's UB 196352 | mode's default 3 | tag's default "t"
    EXPECT_EQ(r.tiling_data, Bytes({0xa0, 0x0f, 0, 0, 0xbf, 0, 0, 0, 0, 0, 0, 0x3f, 0x00, 0xff, 0x02, 0,
                                    3, 0, 0, 0, 0, 0, 0, 0, 't', 0, 7, 0, 0, 0, 0, 0}));
}

TEST(OpHostTwinLaunch, RunTilingOnAscend950)
{
    opsnn_host::LaunchRequest request = ScaleAddRequest({64, 1024}, ge::DT_BF16);
    request.soc = "Ascend950";
    request.attrs = {1.0, int64_t{5}, std::string("z")};  // a double converts to the declared Float
    const opsnn_host::TilingResult r = opsnn_host::RunTiling(request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.block_dim, 64U);
    EXPECT_EQ(r.tiling_data[4], 240U);  // Ascend950's UB 245760 / 1024, nothing reserved
    EXPECT_EQ(std::vector<uint8_t>(r.tiling_data.begin() + 12, r.tiling_data.begin() + 16), Bytes({0, 0xc0, 3, 0}));
    EXPECT_EQ(r.tiling_data[16], 5U);
    EXPECT_EQ(r.tiling_data[24], 'z');
}

TEST(OpHostTwinLaunch, PlainStructTilingWithoutTilingParse)
{
    opsnn_host::LaunchRequest request;
    request.op_type = "OpsnnPlain";
    request.soc = "Ascend910B1";
    opsnn_host::TensorArg t;
    t.shape = {12, 2};
    request.inputs = {t};
    request.outputs = {t};
    const opsnn_host::TilingResult r = opsnn_host::RunTiling(request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.tiling_data, Bytes({0xfd, 0xff, 0xff, 0xff, 12, 0, 0, 0}));
    EXPECT_EQ(r.block_dim, 1U);
    EXPECT_TRUE(r.workspace_sizes.empty());
}

TEST(OpHostTwinLaunch, NamedErrors)
{
    opsnn_host::LaunchRequest request = ScaleAddRequest({4, 4}, ge::DT_FLOAT);
    request.attrs = {-1.0f};
    opsnn_host::TilingResult r = opsnn_host::RunTiling(request);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error.rfind("op_host tiling: OpsnnScaleAdd: tiling function returned GRAPH_FAILED: ", 0), 0U) << r.error;
    EXPECT_NE(r.error.find("scale_add_tiling.cpp:"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("alpha must not be negative, got -1.000000"), std::string::npos) << r.error;

    request.attrs = {};
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error, "op_host tiling: OpsnnScaleAdd: attribute 'alpha' (index 0) is required by the OpDef and the "
                       "launch does not give it");
    request.attrs = {std::string("half")};
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error, "op_host tiling: OpsnnScaleAdd: attribute 'alpha' (index 0) is declared Float and the launch "
                       "gives a value of another type");
    request.attrs = {0.5f, int64_t{1}, std::string("a"), true};
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error, "op_host tiling: OpsnnScaleAdd: the launch gives 4 attributes, the OpDef declares 3");
    request = ScaleAddRequest({4, 4}, ge::DT_FLOAT);
    request.inputs.pop_back();
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error, "op_host tiling: OpsnnScaleAdd: the OpDef declares 2 inputs, the launch gives 1");
    request = ScaleAddRequest({4, 4}, ge::DT_FLOAT);
    request.soc = "Ascend310";
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error.rfind("op_host tiling: OpsnnScaleAdd: unknown SoC 'Ascend310' (known: Ascend910B1, ", 0), 0U)
        << r.error;
    request.soc = "Ascend910B2";
    request.op_type = "OpsnnBadColumns";
    request.attrs = {};
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error, "op_host tiling: OpsnnBadColumns: OpDef OpsnnBadColumns: input 'y' lists 1 data types where "
                       "input 'x' lists 2");
    request.op_type = "NoSuchOp";
    r = opsnn_host::RunTiling(request);
    EXPECT_EQ(r.error.rfind("op_host tiling: NoSuchOp: no tiling function is registered", 0), 0U) << r.error;
}

TEST(OpHostTwinLaunch, RunInferShape)
{
    opsnn_host::InferShapeResult r = opsnn_host::RunInferShape(ScaleAddRequest({5, 6, 7}, ge::DT_FLOAT));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.output_shapes, (std::vector<std::vector<int64_t>>{{5, 6, 7}}));
    opsnn_host::LaunchRequest request = ScaleAddRequest({5, 6}, ge::DT_FLOAT);
    request.inputs[1].shape = {5};
    r = opsnn_host::RunInferShape(request);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error.rfind("op_host infershape: OpsnnScaleAdd: InferShape returned GRAPH_FAILED: ", 0), 0U) << r.error;
    EXPECT_NE(r.error.find("x and y shapes differ (2 vs 1 dims)"), std::string::npos) << r.error;
    request.op_type = "OpsnnPlain";
    r = opsnn_host::RunInferShape(request);
    EXPECT_EQ(r.error.rfind("op_host infershape: OpsnnPlain: no InferShape is registered", 0), 0U) << r.error;
}

TEST(OpHostTwinOpDef, ColumnsPerSocConfig)
{
    opsnn_host::OpDefView view;
    ASSERT_EQ(opsnn_host::ViewOpDef("OpsnnScaleAdd", "ascend910b", &view), "");
    EXPECT_TRUE(view.soc_configured);
    EXPECT_EQ(view.config.at("opFile.value"), "opsnn_scale_add");
    EXPECT_EQ(view.inputs[0].dtypes, (std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_FLOAT16}));
    EXPECT_EQ(view.configured_socs, (std::vector<std::string>{"ascend910b", "ascend950"}));
    ASSERT_EQ(view.attrs.size(), 3U);
    EXPECT_EQ(view.attrs[0].name, "alpha");
    EXPECT_TRUE(view.attrs[0].required);
    EXPECT_FALSE(view.attrs[0].has_default);
    EXPECT_EQ(std::get<int64_t>(view.attrs[1].default_value), 3);

    ASSERT_EQ(opsnn_host::ViewOpDef("OpsnnScaleAdd", "ascend950", &view), "");
    EXPECT_EQ(view.config.at("opFile.value"), "opsnn_scale_add_950");
    EXPECT_EQ(view.outputs[0].dtypes, (std::vector<ge::DataType>{ge::DT_BF16}));

    ASSERT_EQ(opsnn_host::ViewOpDef("OpsnnListed", "ascend910b", &view), "");
    EXPECT_EQ(view.inputs[0].dtypes, (std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32, ge::DT_INT32}));
    EXPECT_EQ(view.inputs[1].dtypes, (std::vector<ge::DataType>{ge::DT_INT8, ge::DT_UINT8, ge::DT_INT8, ge::DT_UINT8}));
    EXPECT_EQ(view.outputs[0].dtypes, view.inputs[0].dtypes);  // Follow("x")
    EXPECT_EQ(view.inputs[0].formats, std::vector<ge::Format>(4, ge::FORMAT_ND));
    ASSERT_EQ(opsnn_host::ViewOpDef("OpsnnListed", "ascend950", &view), "");
    EXPECT_FALSE(view.soc_configured);
    EXPECT_NE(opsnn_host::ViewOpDef("NoSuchOp", "ascend910b", &view), "");
}
