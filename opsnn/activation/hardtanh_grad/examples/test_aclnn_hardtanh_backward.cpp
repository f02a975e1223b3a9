// aclnnHardtanhBackward from C++: the gradient of hardtanh, out = gradOutput where min < self < max,
// else 0, on {4, 2} float32 tensors with the bounds 1.2 and 2.4. Only the elements whose self is 2
// lie inside the bounds, so only their gradients (3 and 5) come through.
//
//   g++ test_aclnn_hardtanh_backward.cpp $(python -m opsnn.capi --cflags --libs) -o hardtanh_backward
//   ./hardtanh_backward
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardtanh_backward.h"

#define CHECK_OK(expr, what)                                                                  \
    do {                                                                                      \
        auto status_ = (expr);                                                                \
        if (status_ != 0) {                                                                   \
            const char *detail_ = aclGetRecentErrMsg();                                       \
            printf("%s failed, status %d (%s)\n", what, static_cast<int>(status_),             \
                   detail_ != nullptr ? detail_ : "");                                        \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

// The element count of a shape.
static int64_t ElementCount(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

// Copies `host` into a fresh device buffer and describes it as a row-major float tensor of `shape`.
static int UploadTensor(const std::vector<float> &host, const std::vector<int64_t> &shape, void **device,
                        aclTensor **tensor) {
    size_t bytes = static_cast<size_t>(ElementCount(shape)) * sizeof(float);
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    if (aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                              shape.data(), shape.size(), *device);
    return *tensor == nullptr ? 1 : 0;
}

int main() {
    // Device and stream.
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    CHECK_OK(aclInit(nullptr), "aclInit");
    CHECK_OK(aclrtSetDevice(deviceId), "aclrtSetDevice");
    CHECK_OK(aclrtCreateStream(&stream), "aclrtCreateStream");

    // Inputs, output and the two bounds.
    std::vector<int64_t> shape = {4, 2};
    std::vector<float> gradOutputHost = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<float> selfHost = {1, 1, 1, 2, 1, 2, 3, 3};
    std::vector<float> outHost(gradOutputHost.size(), 0.0f);
    void *gradOutputDev = nullptr, *selfDev = nullptr, *outDev = nullptr;
    aclTensor *gradOutput = nullptr, *self = nullptr, *out = nullptr;
    CHECK_OK(UploadTensor(gradOutputHost, shape, &gradOutputDev, &gradOutput), "gradOutput");
    CHECK_OK(UploadTensor(selfHost, shape, &selfDev, &self), "self");
    CHECK_OK(UploadTensor(outHost, shape, &outDev, &out), "out");
    float lower = 1.2f, upper = 2.4f;
    aclScalar *minValue = aclCreateScalar(&lower, ACL_FLOAT);
    aclScalar *maxValue = aclCreateScalar(&upper, ACL_FLOAT);
    CHECK_OK(minValue == nullptr || maxValue == nullptr, "aclCreateScalar");

    // Phase 1 sizes the workspace and plans the work; phase 2 queues it on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_OK(aclnnHardtanhBackwardGetWorkspaceSize(gradOutput, self, minValue, maxValue, out, &workspaceSize,
                                                   &executor),
             "aclnnHardtanhBackwardGetWorkspaceSize");
    void *workspace = nullptr;
    if (workspaceSize > 0) {
        CHECK_OK(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "allocate the workspace");
    }
    CHECK_OK(aclnnHardtanhBackward(workspace, workspaceSize, executor, stream), "aclnnHardtanhBackward");
    CHECK_OK(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");

    // The result back on the host.
    size_t bytes = outHost.size() * sizeof(float);
    CHECK_OK(aclrtMemcpy(outHost.data(), bytes, outDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "copy the result back");
    for (size_t i = 0; i < outHost.size(); ++i) printf("result[%zu] is: %f\n", i, outHost[i]);

    // Release everything, the device last.
    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclDestroyScalar(minValue);
    aclDestroyScalar(maxValue);
    aclrtFree(gradOutputDev);
    aclrtFree(selfDev);
    aclrtFree(outDev);
    if (workspace != nullptr) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
