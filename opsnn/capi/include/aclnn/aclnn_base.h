/* opsnn: what every aclnn operator header includes: the meta types and the aclnn status codes. */
#ifndef OPSNN_ACLNN_BASE_H_
#define OPSNN_ACLNN_BASE_H_

#ifdef __cplusplus
#include <cstdint>
#include <cstdlib>
#else
#include <stdint.h>
#include <stdlib.h>
#endif

#include "aclnn/acl_meta.h"

#ifndef ACLNN_SUCCESS
#define ACLNN_SUCCESS 0
#endif
#ifndef ACLNN_ERR_PARAM_NULLPTR
#define ACLNN_ERR_PARAM_NULLPTR 161001
#endif
#ifndef ACLNN_ERR_PARAM_INVALID
#define ACLNN_ERR_PARAM_INVALID 161002
#endif
#ifndef ACLNN_ERR_RUNTIME_ERROR
#define ACLNN_ERR_RUNTIME_ERROR 361001
#endif
#ifndef ACLNN_ERR_INNER
#define ACLNN_ERR_INNER 561000
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Optional: the aclnn calls start the interpreter themselves. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* OPSNN_ACLNN_BASE_H_ */
