// aclnnLeakyReluBackward from C++: out = gradOutput where self > 0, else gradOutput * negativeSlope,
// on {4} float32 tensors. Every self value is positive here, so the gradient passes unchanged:
// result 2, 3, 4, 5. Starting the runtime, the device buffers and the two phases are what every
// aclnn program does; only the operator call differs.
//
//   g++ test_aclnn_leaky_relu_backward.cpp $(python -m opsnn.capi --cflags --libs) -o lrb && ./lrb
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"

#define CHECK_RET(cond, what)                                                                \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            const char *reason = aclGetRecentErrMsg(); /* a read clears it: take it once */  \
            printf("%s failed (%s)\n", what, reason ? reason : "");                          \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

// Copy `host` to a new device buffer and describe it as a row-major aclTensor of `shape`.
static int CreateAclTensor(const std::vector<float> &host, const std::vector<int64_t> &shape, void **device,
                           aclTensor **tensor) {
    size_t bytes = host.size() * sizeof(float);
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    if (aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), *device);
    return *tensor == nullptr;
}

int main() {
    // 1. runtime, device, stream
    int32_t deviceId = 0;
    aclrtStream stream;
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(deviceId) == ACL_SUCCESS, "aclrtSetDevice");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

    // 2. gradOutput, self, out and the slope
    std::vector<int64_t> shape = {4};
    std::vector<float> gradHost = {2.0f, 3.0f, 4.0f, 5.0f};
    std::vector<float> selfHost = {1.0f, 2.0f, 3.0f, 4.0f};
    std::vector<float> outHost(4, 0.0f);
    void *gradDev = nullptr, *selfDev = nullptr, *outDev = nullptr;
    aclTensor *gradOutput = nullptr, *self = nullptr, *out = nullptr;
    CHECK_RET(CreateAclTensor(gradHost, shape, &gradDev, &gradOutput) == 0, "gradOutput");
    CHECK_RET(CreateAclTensor(selfHost, shape, &selfDev, &self) == 0, "self");
    CHECK_RET(CreateAclTensor(outHost, shape, &outDev, &out) == 0, "out");
    float slopeValue = 0.01f;
    aclScalar *negativeSlope = aclCreateScalar(&slopeValue, aclDataType::ACL_FLOAT);
    CHECK_RET(negativeSlope != nullptr, "aclCreateScalar");
    bool selfIsResult = true;

    // 3. phase 1: checks and planning; then the workspace it asks for
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnLeakyReluBackwardGetWorkspaceSize(gradOutput, self, negativeSlope, selfIsResult, out,
                                                     &workspaceSize, &executor) == ACL_SUCCESS,
              "aclnnLeakyReluBackwardGetWorkspaceSize");
    void *workspace = nullptr;
    if (workspaceSize > 0) {
        CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace");
    }

    // 4. phase 2, then wait for the stream
    CHECK_RET(aclnnLeakyReluBackward(workspace, workspaceSize, executor, stream) == ACL_SUCCESS,
              "aclnnLeakyReluBackward");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

    // 5. the result back to the host
    std::vector<float> result(outHost.size(), 0.0f);
    size_t bytes = result.size() * sizeof(float);
    CHECK_RET(aclrtMemcpy(result.data(), bytes, outDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "copy the result back");
    for (size_t i = 0; i < result.size(); ++i) printf("result[%zu] is: %f\n", i, result[i]);

    // 6. release everything, the device last
    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclDestroyScalar(negativeSlope);
    aclrtFree(gradDev);
    aclrtFree(selfDev);
    aclrtFree(outDev);
    if (workspaceSize > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
