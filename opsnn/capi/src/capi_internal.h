/* opsnn C ABI: what the generated entry points (ops.cpp, from opsnn/capi/codegen.py) call in the
 * shim (capi.cpp). Not installed for users. */
#ifndef OPSNN_CAPI_INTERNAL_H_
#define OPSNN_CAPI_INTERNAL_H_

#include <stdint.h>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

/* A handle travels to Python as the integer it is. */
#define H(p) ((unsigned long long)(uintptr_t)(p))

namespace opsnn_capi {
extern const int kApiCount;  /* defined by the generated source */
extern const char *const kApiNames[];

/* Phase 1 of API `api` (an index into kApiNames): fmt and the varargs are Py_BuildValue's. */
aclnnStatus Phase1(int api, uint64_t *workspaceSize, aclOpExecutor **executor, const char *fmt, ...);
aclnnStatus Phase2(int api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
}  // namespace opsnn_capi

#endif /* OPSNN_CAPI_INTERNAL_H_ */
