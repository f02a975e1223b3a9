/* What the context builders collect (ContextBuilderImpl) and what a built context owns
 * (ContextHolderImpl); context_builder.cpp turns the one into the other. */
#ifndef OPSNN_HOST_SRC_METADEF_CONTEXT_BUILDER_IMPL_H_
#define OPSNN_HOST_SRC_METADEF_CONTEXT_BUILDER_IMPL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/kernel_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "metadef/attr_buffer.h"

namespace gert {
/* A tensor description before the build; DT_MAX / FORMAT_MAX mean "never set". */
struct TensorDescSpec {
    ge::DataType dtype = ge::DT_MAX;
    ge::Format origin_format = ge::FORMAT_MAX;
    ge::Format storage_format = ge::FORMAT_MAX;
    ExpandDimsType expand_dims_type;
};

/* A slot's value and, where the slot owns it, its deleter. */
using SlotValue = std::pair<const void *, Chain::Deleter>;

class ContextHolderImpl {
public:
    ContextHolderImpl() = default;
    ContextHolderImpl(const ContextHolderImpl &) = delete;
    ContextHolderImpl &operator=(const ContextHolderImpl &) = delete;
    ~ContextHolderImpl();

    void *context = nullptr;  // a KernelContext at the start of run_context
    std::unique_ptr<uint8_t[]> run_context;
    std::vector<Chain> slots;
    std::string op_type;
    std::string op_name;
    std::vector<AnchorInstanceInfo> input_instances;
    std::vector<AnchorInstanceInfo> output_instances;
    std::vector<CompileTimeTensorDesc> input_descs;
    std::vector<CompileTimeTensorDesc> output_descs;
    std::unique_ptr<uint8_t[]> attrs;
    std::unique_ptr<ComputeNodeInfo> node;
};

class ContextBuilderImpl {
public:
    explicit ContextBuilderImpl(const char *builder_name) : builder_name_(builder_name) {}
    ContextBuilderImpl(const ContextBuilderImpl &) = delete;
    ContextBuilderImpl &operator=(const ContextBuilderImpl &) = delete;
    virtual ~ContextBuilderImpl();

    /* Prints why a call or a build was refused: "[opsnn host] <builder> <op type>: <why>". */
    void Complain(const std::string &why) const;
    /* The node description, into holder; false (after a Complain) where type, name or IR counts are missing. */
    bool DescribeNode(ContextHolderImpl &holder);
    /* The run context: inputs' then outputs' slots; the holder takes ownership of owned values. */
    void Assemble(ContextHolderImpl &holder, const std::vector<SlotValue> &inputs, const std::vector<SlotValue> &outputs);
    /* Replaces the tiling data, freeing an owned previous one. */
    void SetTilingData(const void *tiling_data, Chain::Deleter deleter);

    std::string op_type;
    std::string op_name;
    uint32_t input_ir_num = 0;
    uint32_t output_ir_num = 0;
    uint32_t input_instance_num = 0;
    uint32_t output_instance_num = 0;
    std::vector<uint32_t> input_instance;
    std::vector<uint32_t> output_instance;
    std::vector<TensorDescSpec> input_descs;
    std::vector<TensorDescSpec> output_descs;
    std::vector<opsnn_host::RuntimeAttrValue> attrs;
    std::vector<SlotValue> input_values;
    std::vector<SlotValue> output_values;

    /* tiling and tiling-parse builders */
    const void *compile_info = nullptr;
    const void *platform_info = nullptr;
    int32_t deterministic = 0;
    int32_t deterministic_level = 0;
    SlotValue tiling_data{nullptr, nullptr};
    const ContinuousVector *workspace = nullptr;
    const Dim3 *simt_block_dim = nullptr;
    const Dim3 *simt_grid_dim = nullptr;
    const char *compiled_json = nullptr;

private:
    const char *builder_name_;
};
}  // namespace gert

#endif  // OPSNN_HOST_SRC_METADEF_CONTEXT_BUILDER_IMPL_H_
