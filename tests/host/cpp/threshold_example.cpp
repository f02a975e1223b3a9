/* aclnnThresholdBackward on n float32 elements (argv[1], default 1000), written as an aclnn example
 * is: for tests/host/test_run.py, which builds it with `opsnn run --op-dir` against opsnn's own C++
 * ThresholdGradV2D folder (or a copy of it with a fault). Prints every result with %.9g, or the
 * failing call's status and aclGetRecentErrMsg; the exit status is 0 only when all calls passed. */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"

#define CHECK(call)                                                                      \
    do {                                                                                 \
        int status_ = static_cast<int>(call);                                            \
        if (status_ != 0) {                                                              \
            const char *why = aclGetRecentErrMsg();                                      \
            std::printf("%s failed: %d (%s)\n", #call, status_, why ? why : "");         \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

int main(int argc, char **argv) {
    const int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000;
    std::vector<float> grad(n), self(n), out(n, -1.0f);
    for (int64_t i = 0; i < n; ++i) {
        grad[i] = static_cast<float>(i) * 0.25f - 7.0f;
        self[i] = static_cast<float>(i % 11) * 0.5f - 2.0f;
    }
    const float threshold = 0.75f;
    const std::vector<int64_t> shape = {n}, strides = {1};
    aclrtStream stream = nullptr;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    void *dev[3] = {nullptr, nullptr, nullptr};
    const std::vector<float> *host[3] = {&grad, &self, &out};
    aclTensor *t[3] = {nullptr, nullptr, nullptr};
    for (int k = 0; k < 3; ++k) {
        CHECK(aclrtMalloc(&dev[k], n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemcpy(dev[k], n * sizeof(float), host[k]->data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
        t[k] = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, dev[k]);
    }
    aclScalar *thr = aclCreateScalar(const_cast<float *>(&threshold), ACL_FLOAT);
    uint64_t ws_size = 0;
    aclOpExecutor *executor = nullptr;
    CHECK(aclnnThresholdBackwardGetWorkspaceSize(t[0], t[1], thr, t[2], &ws_size, &executor));
    void *ws = nullptr;
    if (ws_size > 0) CHECK(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclnnThresholdBackward(ws, ws_size, executor, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(out.data(), n * sizeof(float), dev[2], n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int64_t i = 0; i < n; ++i) std::printf("%.9g\n", out[i]);
    for (int k = 0; k < 3; ++k) {
        aclDestroyTensor(t[k]);
        aclrtFree(dev[k]);
    }
    aclDestroyScalar(thr);
    if (ws != nullptr) aclrtFree(ws);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
