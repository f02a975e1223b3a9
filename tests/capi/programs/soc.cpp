// aclInit, then what the runtime reports: the SoC (from $OPSNN_SOC) and aclInit's status.
#include <cstdio>

#include "acl/acl.h"

int main() {
    int ret = aclInit(nullptr);
    printf("init=%d\n", ret);
    const char *soc = aclrtGetSocName();
    printf("soc=%s\n", soc ? soc : "(null)");
    const char *msg = aclGetRecentErrMsg();
    printf("message=%s\n", msg ? msg : "(null)");
    printf("set_device=%d\n", aclrtSetDevice(0));
    if (ret == ACL_SUCCESS) {
        aclrtResetDevice(0);
        printf("finalize=%d\n", aclFinalize());
    }
    return 0;
}
