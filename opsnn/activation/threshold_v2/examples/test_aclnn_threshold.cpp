// aclnnThreshold from C++: out = self where self > threshold, else value, on a {4, 2} float32
// tensor. The runtime start, the device buffers and the two phases are what every aclnn program
// does; only the operator call differs.
//
//   g++ test_aclnn_threshold.cpp $(python -m opsnn.capi --cflags --libs) -o threshold && ./threshold
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold.h"

#define REQUIRE(cond, what)                                                        \
    do {                                                                           \
        if (!(cond)) {                                                             \
            const char *why = aclGetRecentErrMsg(); /* reading it clears it: once */   \
            printf("%s failed (%s)\n", what, why ? why : "");                      \
            return 1;                                                              \
        }                                                                          \
    } while (0)

// A device buffer holding `host`, and a contiguous aclTensor of `shape` over it.
static int MakeTensor(const std::vector<float> &host, const std::vector<int64_t> &shape, void **device,
                      aclTensor **tensor) {
    size_t bytes = host.size() * sizeof(float);
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    if (aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
    // NULL strides: contiguous.
    *tensor = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, nullptr, 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), *device);
    return *tensor == nullptr;
}

int main() {
    int32_t device = 0;
    aclrtStream stream;
    REQUIRE(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    REQUIRE(aclrtSetDevice(device) == ACL_SUCCESS, "aclrtSetDevice");
    REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

    std::vector<int64_t> shape = {4, 2};
    std::vector<float> input = {0.0f, 1.0f, 2.0f, 3.0f, 4.1f, 5.0f, 6.0f, 7.0f};
    std::vector<float> output(input.size(), 0.0f);
    void *self_dev = nullptr, *out_dev = nullptr;
    aclTensor *self = nullptr, *out = nullptr;
    REQUIRE(MakeTensor(input, shape, &self_dev, &self) == 0, "self");
    REQUIRE(MakeTensor(output, shape, &out_dev, &out) == 0, "out");
    float threshold_value = 4.1f, replacement = 10.0f;
    aclScalar *threshold = aclCreateScalar(&threshold_value, aclDataType::ACL_FLOAT);
    aclScalar *value = aclCreateScalar(&replacement, aclDataType::ACL_FLOAT);
    REQUIRE(threshold != nullptr && value != nullptr, "aclCreateScalar");

    uint64_t workspace_size = 0;
    aclOpExecutor *executor;
    REQUIRE(aclnnThresholdGetWorkspaceSize(self, threshold, value, out, &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnThresholdGetWorkspaceSize");
    void *workspace = nullptr;
    if (workspace_size > 0) {
        REQUIRE(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace");
    }
    REQUIRE(aclnnThreshold(workspace, workspace_size, executor, stream) == ACL_SUCCESS, "aclnnThreshold");
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

    size_t bytes = output.size() * sizeof(float);
    REQUIRE(aclrtMemcpy(output.data(), bytes, out_dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
            "copy the result back");
    for (size_t i = 0; i < output.size(); ++i) printf("result[%zu] is: %f\n", i, output[i]);

    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclDestroyScalar(threshold);
    aclDestroyScalar(value);
    aclrtFree(self_dev);
    aclrtFree(out_dev);
    if (workspace_size > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(device);
    aclFinalize();
    return 0;
}
