// aclnnThresholdBackward from C++, the way a CANN program calls any aclnn operator: start the
// runtime, put the inputs on the device, describe them as aclTensors, run the two phases,
// wait for the stream, copy the result back, release everything.
//
//   g++ test_aclnn_threshold_backward.cpp $(python -m opsnn.capi --cflags --libs) -o threshold_backward
//   ./threshold_backward          (or: python -m opsnn.capi example threshold_grad_v2_d)
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"

#define REQUIRE(cond, what)                                                        \
    do {                                                                           \
        if (!(cond)) {                                                             \
            const char *why = aclGetRecentErrMsg(); /* reading it clears it: once */   \
            printf("%s failed (%s)\n", what, why ? why : "");                      \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static int64_t ElementCount(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

// Device copy of `host` and a row-major aclTensor over it.
template <typename T>
static int ToDevice(const std::vector<T> &host, const std::vector<int64_t> &shape, aclDataType dtype,
                    void **device, aclTensor **tensor) {
    size_t bytes = static_cast<size_t>(ElementCount(shape)) * sizeof(T);
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    if (aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
    std::vector<int64_t> strides(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) strides[i] = shape[i + 1] * strides[i + 1];
    *tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                              shape.data(), shape.size(), *device);
    return *tensor == nullptr;
}

int main() {
    int32_t device = 0;
    aclrtStream stream;
    REQUIRE(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    REQUIRE(aclrtSetDevice(device) == ACL_SUCCESS, "aclrtSetDevice");
    REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

    std::vector<int64_t> shape = {2, 2};
    std::vector<float> feature = {0.2f, 1.2f, 2.2f, 3.2f};   // self: the forward input
    std::vector<float> gradient = {4.5f, 4.4f, 4.3f, 4.2f};  // gradOutput
    std::vector<float> result(4, 0.0f);
    float threshold_value = 1.0f;

    void *self_dev = nullptr, *grad_dev = nullptr, *out_dev = nullptr;
    aclTensor *self = nullptr, *grad = nullptr, *out = nullptr;
    REQUIRE(ToDevice(feature, shape, aclDataType::ACL_FLOAT, &self_dev, &self) == 0, "self");
    REQUIRE(ToDevice(gradient, shape, aclDataType::ACL_FLOAT, &grad_dev, &grad) == 0, "gradOutput");
    REQUIRE(ToDevice(result, shape, aclDataType::ACL_FLOAT, &out_dev, &out) == 0, "out");
    aclScalar *threshold = aclCreateScalar(&threshold_value, aclDataType::ACL_FLOAT);
    REQUIRE(threshold != nullptr, "aclCreateScalar");

    uint64_t workspace_size = 0;
    aclOpExecutor *executor;
    REQUIRE(aclnnThresholdBackwardGetWorkspaceSize(grad, self, threshold, out, &workspace_size, &executor) ==
                ACL_SUCCESS, "aclnnThresholdBackwardGetWorkspaceSize");
    void *workspace = nullptr;
    if (workspace_size > 0) {
        REQUIRE(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace");
    }
    REQUIRE(aclnnThresholdBackward(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnThresholdBackward");
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

    size_t bytes = result.size() * sizeof(float);
    REQUIRE(aclrtMemcpy(result.data(), bytes, out_dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
            "copy the result back");
    for (size_t i = 0; i < result.size(); ++i) printf("result[%zu] is: %f\n", i, result[i]);

    aclDestroyTensor(self);
    aclDestroyTensor(grad);
    aclDestroyTensor(out);
    aclDestroyScalar(threshold);
    aclrtFree(self_dev);
    aclrtFree(grad_dev);
    aclrtFree(out_dev);
    if (workspace_size > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(device);
    aclFinalize();
    return 0;
}
