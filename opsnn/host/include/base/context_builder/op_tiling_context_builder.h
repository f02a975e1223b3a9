/* opsnn host twin: gert::OpTilingContextBuilder -- a TilingContext from input/output tensors (the
 * caller keeps them alive), compile info and platform infos (required: Build() gives no context
 * without them), and the output buffers: tiling data (caller's, or TilingDataSize's own) and the
 * workspace-size vector. */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_TILING_CONTEXT_BUILDER_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_TILING_CONTEXT_BUILDER_H_

#include "base/context_builder/op_context_builder_base.h"
#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/kernel_context.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/tiling_context.h"

namespace gert {
class TilingData;

class OpTilingContextBuilder : public OpContextBuilderBase<OpTilingContextBuilder> {
public:
    OpTilingContextBuilder();
    ~OpTilingContextBuilder() override;
    OpTilingContextBuilder &CompileInfo(const void *compile_info);
    OpTilingContextBuilder &PlatformInfo(const void *platform_info);
    /* 0 or 1; another value is refused (with a message) and the previous one kept. */
    OpTilingContextBuilder &Deterministic(int32_t deterministic);
    /* 0 to 3; likewise. */
    OpTilingContextBuilder &DeterministicLevel(int32_t deterministic_level);
    OpTilingContextBuilder &TilingData(const gert::TilingData *tiling_data, gert::Chain::Deleter deleter = nullptr);
    OpTilingContextBuilder &TilingDataSize(size_t tiling_data_size);
    OpTilingContextBuilder &Workspace(const gert::ContinuousVector *workspace);
    OpTilingContextBuilder &SimtBlockDim(const gert::Dim3 *block_dim);
    OpTilingContextBuilder &SimtGridDim(const gert::Dim3 *grid_dim);
    OpTilingContextBuilder &InputTensors(const std::vector<gert::Tensor *> &inputs);
    OpTilingContextBuilder &OutputTensors(const std::vector<gert::Tensor *> &outputs);
    ContextHolder<TilingContext> Build();
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_OP_TILING_CONTEXT_BUILDER_H_
