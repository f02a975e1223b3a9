/* opsnn host twin: gert::KernelExtendInfo -- a kernel's name and type, where a context has one
 * (the contexts opsnn builds carry none: GetKernelName() is nullptr). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_CONTEXT_EXTEND_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_CONTEXT_EXTEND_H_

#include "exe_graph/runtime/compute_node_info.h"

namespace gert {
class KernelExtendInfo {
public:
    const ge::char_t *GetKernelName() const { return kernel_name_; }
    void SetKernelName(const ge::char_t *kernel_name) { kernel_name_ = kernel_name; }
    const ge::char_t *GetKernelType() const { return kernel_type_; }
    void SetKernelType(const ge::char_t *const kernel_type) { kernel_type_ = kernel_type; }
    KernelExtendInfo() = delete;
    KernelExtendInfo(const KernelExtendInfo &) = delete;
    KernelExtendInfo &operator=(const KernelExtendInfo &) = delete;

private:
    const ge::char_t *kernel_name_;
    const ge::char_t *kernel_type_;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_CONTEXT_EXTEND_H_
