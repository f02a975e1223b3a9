/* opsnn: the acl entry header. Start and stop the runtime; the rest comes from acl_rt.h. */
#ifndef OPSNN_ACL_H_
#define OPSNN_ACL_H_

#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the emulated runtime. The SoC is $OPSNN_SOC (default Ascend910B2), read here; the
 * config file, when given, is not read. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* OPSNN_ACL_H_ */
