/* opsnn: what only opsnn's acl library can say about itself (not part of CANN's API). A program
 * written for CANN needs none of it; one that wants to know what ran its aclnn launches asks here. */
#ifndef OPSNN_OPSNN_CAPI_H_
#define OPSNN_OPSNN_CAPI_H_

#include "acl/acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an aclnn launch runs on since the last aclInit: "fast" (opsnn's fast engine, the default)
 * or "emulator" (the emulated AscendC kernels: OPSNN_DEVICE_MODE=emulator, or OPSNN_SANITIZE=1).
 * NULL before aclInit (the reason in aclGetRecentErrMsg). The string is static. */
ACL_FUNC_VISIBILITY const char *opsnnGetDeviceMode(void);

#ifdef __cplusplus
}
#endif

#endif /* OPSNN_OPSNN_CAPI_H_ */
