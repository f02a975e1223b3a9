/* opsnn host twin: gert::ExtendedKernelContext -- a KernelContext read with its node description:
 * tensor descriptions by tensor index or by IR index (+ instance), attributes, node type/name. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_

#include <type_traits>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/context_extend.h"
#include "exe_graph/runtime/kernel_context.h"

namespace gert {
class ExtendedKernelContext : protected KernelContext {
public:
    const CompileTimeTensorDesc *GetInputDesc(const size_t index) const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetInputTdInfo(index);
    }
    const CompileTimeTensorDesc *GetOptionalInputDesc(const size_t ir_index) const {
        return GetDynamicInputDesc(ir_index, 0);
    }
    const CompileTimeTensorDesc *GetRequiredInputDesc(const size_t ir_index) const {
        return GetDynamicInputDesc(ir_index, 0);
    }
    /* The relative_index-th tensor of IR input ir_index; nullptr where it has fewer. */
    const CompileTimeTensorDesc *GetDynamicInputDesc(const size_t ir_index, const size_t relative_index) const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        const AnchorInstanceInfo *instances = GetIrInputInstanceInfo(ir_index);
        if (node == nullptr || instances == nullptr || instances->GetInstanceNum() <= relative_index) {
            return nullptr;
        }
        return node->GetInputTdInfo(instances->GetInstanceStart() + relative_index);
    }
    const CompileTimeTensorDesc *GetOutputDesc(const size_t index) const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetOutputTdInfo(index);
    }
    const AnchorInstanceInfo *GetIrInputInstanceInfo(const size_t ir_index) const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetInputInstanceInfo(ir_index);
    }
    const AnchorInstanceInfo *GetIrOutputInstanceInfo(const size_t ir_index) const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetOutputInstanceInfo(ir_index);
    }
    size_t GetComputeNodeInputNum() const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? 0U : node->GetInputsNum();
    }
    size_t GetComputeNodeOutputNum() const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? 0U : node->GetOutputsNum();
    }
    const RuntimeAttrs *GetAttrs() const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetAttrs();
    }
    const ge::char_t *GetNodeType() const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetNodeType();
    }
    const ge::char_t *GetNodeName() const {
        const ComputeNodeInfo *node = GetComputeNodeInfo();
        return node == nullptr ? nullptr : node->GetNodeName();
    }
    const ComputeNodeInfo *GetComputeNodeInfo() const {
        return static_cast<const ComputeNodeInfo *>(GetComputeNodeExtend());
    }
    const ge::char_t *GetKernelName() const {
        const KernelExtendInfo *info = GetExtendInfo();
        return info == nullptr ? nullptr : info->GetKernelName();
    }
    const ge::char_t *GetKernelType() const {
        const KernelExtendInfo *info = GetExtendInfo();
        return info == nullptr ? nullptr : info->GetKernelType();
    }
    const KernelExtendInfo *GetExtendInfo() const { return static_cast<const KernelExtendInfo *>(GetKernelExtend()); }

protected:
    /* Input slot Offset + (the first tensor of IR input ir_index) + relative_ins_index. */
    template <typename T, size_t Offset = 0>
    const T *GetDynamicInputPointer(size_t ir_index, size_t relative_ins_index) const {
        const AnchorInstanceInfo *instances = GetIrInputInstanceInfo(ir_index);
        if (instances == nullptr || instances->GetInstanceNum() <= relative_ins_index) {
            return nullptr;
        }
        return GetInputPointer<T>(Offset + instances->GetInstanceStart() + relative_ins_index);
    }
    /* Output tensors follow the input tensors among the input slots (tiling contexts). */
    template <typename T, size_t Offset = 0>
    const T *GetDynamicOutputPointer(size_t ir_index, size_t relative_ins_index) const {
        const AnchorInstanceInfo *instances = GetIrOutputInstanceInfo(ir_index);
        if (instances == nullptr || instances->GetInstanceNum() <= relative_ins_index) {
            return nullptr;
        }
        return GetInputPointer<T>(Offset + GetComputeNodeInputNum() + instances->GetInstanceStart() +
                                  relative_ins_index);
    }
};
static_assert(std::is_standard_layout<ExtendedKernelContext>::value, "contexts are views of one KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
