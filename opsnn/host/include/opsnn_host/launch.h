/* opsnn's host twin: the seams between its three parts (docs/cpp-operators.md).
 *
 *   op_api (opdev, src/opdev)  --RunTiling-->  op_host (the operator's registered tiling, src/metadef)
 *                              --LaunchKernel-->  op_kernel (the operator's AscendC kernel on the emulator, src/launch)
 *
 * ADD_TO_LAUNCHER_LIST_AICORE (phase 1) builds a LaunchRequest from the l0 op's tensors and
 * attributes and calls RunTiling; CommonOpExecutorRun (phase 2) calls LaunchKernel with the
 * TilingResult and the device addresses. Not a CANN interface: developer code never includes it. */
#ifndef OPSNN_HOST_LAUNCH_H_
#define OPSNN_HOST_LAUNCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "graph/types.h"

namespace opsnn_host {

/* One tensor operand of an l0 op, as the launch sees it: contiguous, in its storage format. */
struct TensorArg {
    void *addr = nullptr;          /* device (GM) address; nullptr: an optional input left out */
    ge::DataType dtype = ge::DT_FLOAT;
    ge::Format format = ge::FORMAT_ND;
    std::vector<int64_t> shape;    /* storage shape == view shape (contiguous) */
    bool present = true;           /* false: an optional input the op_api passed as nullptr */
};

/* One OP_ATTR value, in the order the op_api passed them (== the OpDef's attribute order). */
using AttrValue = std::variant<bool, int64_t, float, double, std::string, std::vector<int64_t>, std::vector<float>,
                               std::vector<bool>, ge::DataType>;

struct LaunchRequest {
    std::string op_type;           /* OP_TYPE_REGISTER's name, e.g. "ThresholdGradV2D" */
    std::string soc;               /* opsnn's SoC name (Ascend910B2, Ascend950, ...) */
    std::vector<TensorArg> inputs;
    std::vector<TensorArg> outputs;
    std::vector<AttrValue> attrs;
    std::string file;              /* where the op_api launched it (ADD_TO_LAUNCHER_LIST_AICORE's __FILE__ */
    int line = 0;                  /* and __LINE__): a launch's report and findings name it */
};

/* What the operator's tiling function produced. ok == false: error says why, naming the layer
 * ("op_host tiling"), the op type and, where known, the developer's file and line. */
struct TilingResult {
    bool ok = false;
    std::string error;
    std::vector<uint8_t> tiling_data;  /* GetRawTilingData()'s bytes, its data size */
    uint32_t block_dim = 0;
    uint64_t tiling_key = 0;
    std::vector<size_t> workspace_sizes; /* GetWorkspaceSizes' entries, the lib-API part included */
    int32_t schedule_mode = 0;
    bool atomic_clean = false;
};

/* op_host side (src/metadef): the op type's TilingParse (with its compile info) then Tiling, on
 * a TilingContext built from the request and the SoC's platform infos. */
TilingResult RunTiling(const LaunchRequest &request);

/* What the operator's infershape function produced. ok == false: error says why ("op_host
 * infershape: <op type>: ..."), with the OP_LOGE lines the function printed. */
struct InferShapeResult {
    bool ok = false;
    std::string error;
    std::vector<std::vector<int64_t>> output_shapes;  /* one per request output, in order */
};

/* op_host side (src/metadef): the op type's registered InferShape on an InferShapeContext built
 * from the request's inputs (shapes, dtypes, formats; a tensor's data readable at its addr, for
 * value-dependent inputs) and attributes (typed as the OpDef declares them); request.outputs give
 * the output count, dtypes and formats (their shapes are not read). */
InferShapeResult RunInferShape(const LaunchRequest &request);

/* op_host side: does the op type have a registered tiling function? (op_api UTs build without
 * op_host: their launches record the request and run no tiling, as upstream's stubs do.) */
bool HasTiling(const std::string &op_type);

/* op_kernel side (src/launch): runs the op type's kernel -- its dtype combination chosen from the
 * OpDef by the tensors' dtypes, its instantiation by tiling key -- on the emulator with
 * block_dim cores, GM arguments inputs..., outputs..., workspace, tiling. Returns "" on success,
 * else the failure (sanitizer errors, a missing kernel, no instantiation for the key), naming the
 * layer ("op_kernel"), file and line. */
std::string LaunchKernel(const LaunchRequest &request, const TilingResult &tiling, void *workspace,
                         size_t workspace_size);

}  // namespace opsnn_host

#endif  // OPSNN_HOST_LAUNCH_H_
