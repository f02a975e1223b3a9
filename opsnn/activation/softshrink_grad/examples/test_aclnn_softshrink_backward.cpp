// aclnnSoftshrinkBackward from C++ on {2, 2} float32 tensors, lambd 0.5: where |self| > lambd the
// gradient passes, else 0. gradOutput [[1, 2], [3, 4]], self [[0.25, -1], [0.5, 2]] -> 0, 2, 0, 4.
// Upstream builds SoftShrinkGrad for Ascend950 only: run it with OPSNN_SOC=Ascend950.
//
//   g++ test_aclnn_softshrink_backward.cpp $(python -m opsnn.capi --cflags --libs) -o ssb && OPSNN_SOC=Ascend950 ./ssb
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_softshrink_backward.h"

namespace {

const std::vector<int64_t> kShape = {2, 2};
const std::vector<int64_t> kStrides = {2, 1};

bool Failed(bool ok, const char *what) {
    if (!ok) {
        const char *msg = aclGetRecentErrMsg();
        printf("%s failed (%s)\n", what, msg ? msg : "");
    }
    return !ok;
}

struct Held {
    std::vector<void *> buffers;
    std::vector<aclTensor *> tensors;
    aclScalar *lambd = nullptr;
    void Release() {
        if (lambd != nullptr) aclDestroyScalar(lambd);
        for (auto it = tensors.rbegin(); it != tensors.rend(); ++it) aclDestroyTensor(*it);
        for (auto it = buffers.rbegin(); it != buffers.rend(); ++it) aclrtFree(*it);
    }
};

aclTensor *OnDevice(const std::vector<float> &values, Held *held, void **addr) {
    size_t bytes = values.size() * sizeof(float);
    if (Failed(aclrtMalloc(addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc")) return nullptr;
    held->buffers.push_back(*addr);
    if (Failed(aclrtMemcpy(*addr, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
               "aclrtMemcpy to the device"))
        return nullptr;
    aclTensor *t = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, kStrides.data(), 0, ACL_FORMAT_ND,
                                   kShape.data(), kShape.size(), *addr);
    if (t != nullptr) held->tensors.push_back(t);
    return t;
}

int Run(aclrtStream stream, Held *held) {
    void *gradAddr = nullptr, *selfAddr = nullptr, *outAddr = nullptr;
    aclTensor *gradOutput = OnDevice({1.0f, 2.0f, 3.0f, 4.0f}, held, &gradAddr);
    aclTensor *self = OnDevice({0.25f, -1.0f, 0.5f, 2.0f}, held, &selfAddr);
    aclTensor *gradInput = OnDevice(std::vector<float>(4, 0.0f), held, &outAddr);
    float lambdValue = 0.5f;
    held->lambd = aclCreateScalar(&lambdValue, ACL_FLOAT);
    if (gradOutput == nullptr || self == nullptr || gradInput == nullptr || held->lambd == nullptr) return 1;

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    if (Failed(aclnnSoftshrinkBackwardGetWorkspaceSize(gradOutput, self, held->lambd, gradInput, &workspaceSize,
                                                       &executor) == ACL_SUCCESS,
               "aclnnSoftshrinkBackwardGetWorkspaceSize"))
        return 1;
    void *workspace = nullptr;
    if (workspaceSize > 0) {
        if (Failed(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace"))
            return 1;
        held->buffers.push_back(workspace);
    }
    if (Failed(aclnnSoftshrinkBackward(workspace, workspaceSize, executor, stream) == ACL_SUCCESS,
               "aclnnSoftshrinkBackward") ||
        Failed(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream"))
        return 1;
    std::vector<float> host(4, 0.0f);
    size_t bytes = host.size() * sizeof(float);
    if (Failed(aclrtMemcpy(host.data(), bytes, outAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
               "aclrtMemcpy to the host"))
        return 1;
    for (size_t i = 0; i < host.size(); ++i) printf("result[%zu] is: %f\n", i, host[i]);
    return 0;
}

}  // namespace

int main() {
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    if (Failed(aclInit(nullptr) == ACL_SUCCESS, "aclInit") ||
        Failed(aclrtSetDevice(deviceId) == ACL_SUCCESS, "aclrtSetDevice") ||
        Failed(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream"))
        return 1;
    Held held;
    int status = Run(stream, &held);
    held.Release();
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return status;
}
