/* opsnn host twin: opdev/make_op_executor.h -- CREATE_EXECUTOR, and the macros an l0 op launches
 * its kernel with. Both launch macros are GNU statement expressions giving an aclnnStatus, and
 * read the l0 function's `executor` parameter, as CANN's do. */
#ifndef OPSNN_HOST_OPDEV_MAKE_OP_EXECUTOR_H_
#define OPSNN_HOST_OPDEV_MAKE_OP_EXECUTOR_H_

#include <set>

#include "opdev/op_arg_def.h"
#include "opdev/op_executor.h"
#include "opdev/platform.h"

using namespace std;  // CANN's header has it; op_api code relies on it

#define CREATE_EXECUTOR() UniqueExecutor(__func__)

/* Records a launch of KERNEL_NAME's AI Core kernel with these arguments. Phase 1 runs the op
 * type's registered tiling now (when the program has its op_host) and sizes the workspace from
 * it; phase 2 launches the kernel. */
#define ADD_TO_LAUNCHER_LIST_AICORE(KERNEL_NAME, ...)                                                  \
    ({                                                                                                 \
        ::opsnn_host::SetCallSite(__FILE__, __LINE__);                                                 \
        ::op::OpArgContext *opsnnLaunchArgs_ = ::op::GetOpArgContext(__VA_ARGS__);                     \
        CreatAiCoreKernelLauncher(#KERNEL_NAME, KERNEL_NAME##OpTypeId(), executor, opsnnLaunchArgs_); \
    })

#define INFER_SHAPE(KERNEL_NAME, ...)                                                                  \
    ({                                                                                                 \
        ::opsnn_host::SetCallSite(__FILE__, __LINE__);                                                 \
        ::op::OpArgContext *opsnnShapeArgs_ = ::op::GetOpArgContext(__VA_ARGS__);                      \
        aclnnStatus opsnnShapeRet_ = InferShape(KERNEL_NAME##OpTypeId(),                               \
                                                *opsnnShapeArgs_->GetOpArg(::op::OP_INPUT_ARG),        \
                                                *opsnnShapeArgs_->GetOpArg(::op::OP_OUTPUT_ARG),       \
                                                *opsnnShapeArgs_->GetOpArg(::op::OP_ATTR_ARG));        \
        ::op::DestroyOpArgContext(opsnnShapeArgs_);                                                    \
        opsnnShapeRet_;                                                                                \
    })

#endif  // OPSNN_HOST_OPDEV_MAKE_OP_EXECUTOR_H_
