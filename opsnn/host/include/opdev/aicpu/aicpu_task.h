/* opsnn host twin: opdev/aicpu/aicpu_task.h -- what an l0 op's AI CPU path is written with.
 *
 * Not modelled: opsnn emulates AI Core (vector) kernels only. ADD_TO_LAUNCHER_LIST_AICPU records
 * the launch, so phase 1 succeeds as on the toolkit (op_api UTs check phase 1 only); phase 2 of an
 * executor holding one refuses with 561003 (ACLNN_ERR_INNER_FIND_KERNEL_ERROR), naming the op type,
 * the l0 op, its file and line. */
#ifndef OPSNN_HOST_OPDEV_AICPU_AICPU_TASK_H_
#define OPSNN_HOST_OPDEV_AICPU_AICPU_TASK_H_

#include <string>

#include "graph/types.h"
#include "opdev/fast_vector.h"
#include "opdev/op_arg_def.h"
#include "opdev/op_executor.h"

namespace op {
namespace internal {
class AicpuTaskSpace {
public:
    AicpuTaskSpace(const std::string &opType, const ge::UnknowShapeOpType unknownType = ge::DEPEND_IN_SHAPE,
                   const bool isTf = false)
        : opType_(opType), unknownType_(unknownType), isTf_(isTf) {}
    const std::string &OpType() const { return opType_; }

private:
    std::string opType_;
    ge::UnknowShapeOpType unknownType_;
    bool isTf_;
};

aclnnStatus CreatAicpuKernelLauncher(uint32_t opType, AicpuTaskSpace &space, aclOpExecutor *executor,
                                     const FVector<std::string> &attrNames, OpArgContext *args);
}  // namespace internal
}  // namespace op

#define OP_ATTR_NAMES ::op::FVector<std::string>

#define ADD_TO_LAUNCHER_LIST_AICPU(KERNEL_NAME, attrNames, ...)                                          \
    ({                                                                                                   \
        ::opsnn_host::SetCallSite(__FILE__, __LINE__);                                                   \
        ::op::OpArgContext *opsnnCpuArgs_ = ::op::GetOpArgContext(__VA_ARGS__);                          \
        ::op::internal::CreatAicpuKernelLauncher(KERNEL_NAME##OpTypeId(), space, executor, attrNames,    \
                                                 opsnnCpuArgs_);                                         \
    })

#endif  // OPSNN_HOST_OPDEV_AICPU_AICPU_TASK_H_
