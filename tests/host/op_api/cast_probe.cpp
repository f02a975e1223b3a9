/* A program built against opsnn's host twin that converts a file of elements with aclnnDemoCopy
 * (Contiguous, BroadcastTo, Cast, ViewCopy on the emulated device) and writes the result:
 *
 *     cast_probe SRC_DTYPE DST_DTYPE COUNT IN.bin OUT.bin     (dtypes as aclDataType numbers)
 *
 * tests/host/test_op_api.py compares the bytes with opsnn's emulator's conversion rules. Exit
 * status: 0, or the failing call's status modulo 256 (its message on stderr). */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "demo/op_api/aclnn_demo.h"

namespace {
int Fail(const char *what, long status) {
    const char *why = aclGetRecentErrMsg();
    std::fprintf(stderr, "cast_probe: %s failed with %ld: %s\n", what, status, why == nullptr ? "" : why);
    return static_cast<int>(status % 256) == 0 ? 1 : static_cast<int>(status % 256);
}

size_t SizeOf(int dtype) {
    switch (dtype) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL:
            return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16:
            return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32:
            return 4;
        default:
            return 8;
    }
}
}  // namespace

int main(int argc, char **argv) {
    if (argc != 6) {
        std::fprintf(stderr, "usage: cast_probe SRC_DTYPE DST_DTYPE COUNT IN.bin OUT.bin\n");
        return 2;
    }
    const int src = std::atoi(argv[1]), dst = std::atoi(argv[2]);
    const int64_t n = std::atoll(argv[3]);
    std::vector<unsigned char> in(n * SizeOf(src)), out(n * SizeOf(dst));
    FILE *f = std::fopen(argv[4], "rb");
    if (f == nullptr || std::fread(in.data(), 1, in.size(), f) != in.size()) {
        std::fprintf(stderr, "cast_probe: cannot read %s\n", argv[4]);
        return 2;
    }
    std::fclose(f);
    long ret;
    if ((ret = aclInit(nullptr)) != 0 || (ret = aclrtSetDevice(0)) != 0) {
        return Fail("aclInit/aclrtSetDevice", ret);
    }
    aclrtStream stream = nullptr;
    void *a = nullptr, *b = nullptr, *ws = nullptr;
    if ((ret = aclrtCreateStream(&stream)) != 0 || (ret = aclrtMalloc(&a, in.size(), ACL_MEM_MALLOC_HUGE_FIRST)) != 0 ||
        (ret = aclrtMalloc(&b, out.size(), ACL_MEM_MALLOC_HUGE_FIRST)) != 0 ||
        (ret = aclrtMemcpy(a, in.size(), in.data(), in.size(), ACL_MEMCPY_HOST_TO_DEVICE)) != 0) {
        return Fail("setting up", ret);
    }
    aclTensor *x = aclCreateTensor(&n, 1, static_cast<aclDataType>(src), nullptr, 0, ACL_FORMAT_ND, &n, 1, a);
    aclTensor *y = aclCreateTensor(&n, 1, static_cast<aclDataType>(dst), nullptr, 0, ACL_FORMAT_ND, &n, 1, b);
    uint64_t size = 0;
    aclOpExecutor *executor = nullptr;
    if ((ret = aclnnDemoCopyGetWorkspaceSize(x, y, &size, &executor)) != 0) {
        return Fail("aclnnDemoCopyGetWorkspaceSize", ret);
    }
    if (size > 0 && (ret = aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST)) != 0) {
        return Fail("aclrtMalloc(workspace)", ret);
    }
    if ((ret = aclnnDemoCopy(ws, size, executor, stream)) != 0 || (ret = aclrtSynchronizeStream(stream)) != 0) {
        return Fail("aclnnDemoCopy", ret);
    }
    if ((ret = aclrtMemcpy(out.data(), out.size(), b, out.size(), ACL_MEMCPY_DEVICE_TO_HOST)) != 0) {
        return Fail("aclrtMemcpy back", ret);
    }
    f = std::fopen(argv[5], "wb");
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclrtFree(a);
    aclrtFree(b);
    if (ws != nullptr) {
        aclrtFree(ws);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
