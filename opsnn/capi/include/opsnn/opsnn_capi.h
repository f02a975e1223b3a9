/* opsnn: what only opsnn's acl library can say about itself (not part of CANN's API). A program
 * written for CANN needs none of it; one that wants to know what ran its aclnn launches asks here. */
#ifndef OPSNN_OPSNN_CAPI_H_
#define OPSNN_OPSNN_CAPI_H_

#include <stdint.h>

#include "acl/acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an aclnn launch runs on since the last aclInit: "fast" (opsnn's fast engine, the default)
 * or "emulator" (the emulated AscendC kernels: OPSNN_DEVICE_MODE=emulator, or OPSNN_SANITIZE=1).
 * NULL before aclInit (the reason in aclGetRecentErrMsg). The string is static. */
ACL_FUNC_VISIBILITY const char *opsnnGetDeviceMode(void);

/* How many aclnn launches of this process ran without Python: a call repeated with the same
 * arguments, once the bridge has planned it and found it one engine pass over device memory, is
 * remembered and replayed in C, its results bit for bit the bridge's (docs/c-abi.md, "Threads").
 * 0 where that is off (OPSNN_CAPI_REMEMBER=0, the emulator mode, a library loaded into Python). */
ACL_FUNC_VISIBILITY uint64_t opsnnRememberedLaunches(void);

#ifdef __cplusplus
}
#endif

#endif /* OPSNN_OPSNN_CAPI_H_ */
