/* opsnn host twin: opdev/op_dfx.h -- the entry macros of the two phases and of an l0 op, and
 * OP_TYPE_REGISTER.
 *
 * L2_DFX_PHASE_1(Api, DFX_IN(...), DFX_OUT(...)) opens phase 1 of aclnn<Api>GetWorkspaceSize: a
 * null workspaceSize or executor is 161001 (logged); otherwise *executor = nullptr and
 * *workspaceSize = 0 until the API sets them, and this thread's recent errors start empty.
 * L2_DFX_PHASE_2(Api) opens phase 2. L0_DFX(Name, args...) marks where an l0 op starts, so a
 * launch failure names the l0 op, its file and line. Each checks at compile time that it names the
 * function it is in (CANN's check, which catches a copied API left with another's name). */
#ifndef OPSNN_HOST_OPDEV_OP_DFX_H_
#define OPSNN_HOST_OPDEV_OP_DFX_H_

#include <cstdint>
#include <tuple>

#include "aclnn/acl_meta.h"
#include "opdev/op_def.h"
#include "opdev/format_utils.h"  // CANN's op_dfx.h brings it: op_api sources call op::IsPrivateFormat so
#include "opdev/op_errno.h"

namespace op {
constexpr bool ValidDfxName(const char *expected, const char *func) {
    while (*expected != '\0' && *expected == *func) {
        ++expected;
        ++func;
    }
    return *expected == *func;
}
}  // namespace op

namespace opsnn_host {
/* src/opdev/executor.cpp */
aclnnStatus BeginPhase1(const char *api, const char *file, int line, aclOpExecutor **executor,
                        uint64_t *workspaceSize);
void BeginPhase2(const char *api, const char *file, int line);
void EnterL0(const char *name, const char *file, int line, aclOpExecutor *executor);
}  // namespace opsnn_host

/* An op type's id, made on first use. The non-inline variable makes a second OP_TYPE_REGISTER of
 * the same name in the same namespace a link error, as CANN's does. */
#define OP_TYPE_REGISTER(kernelName)                                              \
    [[maybe_unused]] uint32_t opsnn_op_type_##kernelName##_registered_twice_ = 0; \
    [[maybe_unused]] inline uint32_t kernelName##OpTypeId() {                     \
        static const uint32_t opsnnId = ::op::GenOpTypeId(#kernelName);           \
        return opsnnId;                                                           \
    }

#define DFX_IN(...) std::make_tuple(__VA_ARGS__)
#define DFX_OUT(...) std::make_tuple(__VA_ARGS__)

#define L2_DFX_PHASE_1(APIName, IN, OUT)                                                                 \
    static_assert(::op::ValidDfxName(#APIName "GetWorkspaceSize", __func__),                            \
                  "L2_DFX_PHASE_1 must name the API it opens: " #APIName "GetWorkspaceSize");           \
    if (::opsnn_host::BeginPhase1(#APIName, __FILE__, __LINE__, executor, workspaceSize) != ACLNN_SUCCESS) { \
        return ACLNN_ERR_PARAM_NULLPTR;                                                                  \
    }                                                                                                    \
    (void)(IN);                                                                                          \
    (void)(OUT)

#define L2_DFX_PHASE_1_WITHOUT_CACHE(APIName, IN, OUT) L2_DFX_PHASE_1(APIName, IN, OUT)

#define L2_DFX_PHASE_2(APIName)                                                                  \
    static_assert(::op::ValidDfxName(#APIName, __func__),                                       \
                  "L2_DFX_PHASE_2 must name the API it opens: " #APIName);                      \
    ::opsnn_host::BeginPhase2(#APIName, __FILE__, __LINE__)

#define L0_DFX(profilingName, ...)                                                               \
    static_assert(::op::ValidDfxName(#profilingName, __func__),                                 \
                  "L0_DFX must name the l0 function it is in: " #profilingName);                \
    ::opsnn_host::EnterL0(#profilingName, __FILE__, __LINE__, executor)

#endif  // OPSNN_HOST_OPDEV_OP_DFX_H_
