/* A driver of LaunchKernel alone (opsnn_host/launch.h), with a hand-written tiling: opsnn's own
 * ThresholdGradV2D kernel on GM from libopsnn_kt, the OpDef registered by its op_host def (linked
 * in). argv[1] picks a case; the output goes to argv[2] (raw bytes), LaunchKernel's answer to
 * stdout as "launch: ok" or "launch: <error>". tests/host/test_launch_kernel.py runs it. */
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "opsnn_host/launch.h"
#include "opsnn_kt/abi.h"
#include "threshold_grad_v2_d_tiling_data.h"

namespace {
constexpr uint64_t kElements = 2048;  // two cores of 1024 floats: 16 blocks of 256 bytes each

void *Gm(size_t bytes) { return opsnn_kt_gm_alloc(bytes, __FILE__, __LINE__); }

/* The block split of kElements floats over two cores, one tile each. */
ThresholdGradV2DTilingData TwoCores(float threshold) {
    ThresholdGradV2DTilingData t{};
    t.smallCoreDataNum = t.bigCoreDataNum = 1024;
    t.finalBigTileNum = t.finalSmallTileNum = 1;
    t.tileDataNum = t.smallTailDataNum = t.bigTailDataNum = 1024;
    t.tailBlockNum = 0;
    t.threshold = threshold;
    return t;
}
}  // namespace

int main(int argc, char **argv) {
    const std::string which = argc > 1 ? argv[1] : "ok";
    float *grad = static_cast<float *>(Gm(kElements * 4));
    float *feature = static_cast<float *>(Gm(kElements * 4));
    float *out = static_cast<float *>(Gm(kElements * 4));
    for (uint64_t i = 0; i < kElements; ++i) {
        grad[i] = static_cast<float>(i) * 0.5f - 3.0f;
        feature[i] = static_cast<float>(i % 7) - 2.5f;
        out[i] = -99.0f;
    }
    opsnn_host::LaunchRequest req;
    req.op_type = "ThresholdGradV2D";
    req.soc = which == "soc" ? "Ascend950" : "Ascend910B2";
    ge::DataType dtype = which == "dtype" ? ge::DT_DOUBLE : ge::DT_FLOAT;
    std::vector<int64_t> shape = {static_cast<int64_t>(kElements)};
    req.inputs = {{grad, dtype, ge::FORMAT_ND, shape, true}, {feature, dtype, ge::FORMAT_ND, shape, true}};
    req.outputs = {{out, dtype, ge::FORMAT_ND, shape, true}};
    req.attrs = {0.5f};
    req.file = "launch_driver.cpp";
    req.line = 42;

    ThresholdGradV2DTilingData t = TwoCores(0.5f);
    opsnn_host::TilingResult tiling;
    tiling.ok = true;
    tiling.tiling_data.resize(sizeof(t));
    std::memcpy(tiling.tiling_data.data(), &t, sizeof(t));
    tiling.block_dim = which == "overrun" ? 3 : 2;  // a third core walks past the 2048 elements
    tiling.tiling_key = which == "key" ? 7 : 0;
    tiling.workspace_sizes = {16};
    void *workspace = Gm(16);

    std::string error = opsnn_host::LaunchKernel(req, tiling, workspace, 16);
    if (which == "twice" && error.empty()) error = opsnn_host::LaunchKernel(req, tiling, workspace, 16);
    std::printf("launch: %s\n", error.empty() ? "ok" : error.c_str());
    if (argc > 2) {
        FILE *f = std::fopen(argv[2], "wb");
        std::fwrite(out, 4, kElements, f);
        std::fclose(f);
    }
    return error.empty() ? 0 : 3;
}
