// Device memory still held at aclFinalize (upstream examples often free through unique_ptr after
// it): the leak report is the C program's stderr, the status still success.
#include <cstdio>

#include "acl/acl.h"

int main() {
    void *p = nullptr;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST);
    printf("finalize=%d\n", aclFinalize());
    printf("free_after_finalize=%d\n", aclrtFree(p));
    return 0;
}
