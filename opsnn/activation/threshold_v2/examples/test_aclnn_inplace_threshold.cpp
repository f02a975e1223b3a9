// aclnnInplaceThreshold from C++: selfRef itself becomes selfRef where selfRef > threshold, else
// value. The result is read back from selfRef's own device buffer: the in-place op writes
// nothing else.
//
//   g++ test_aclnn_inplace_threshold.cpp $(python -m opsnn.capi --cflags --libs) -o inplace && ./inplace
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

int main() {
    int32_t device = 0;
    aclrtStream stream;
    REQUIRE(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    REQUIRE(aclrtSetDevice(device) == ACL_SUCCESS, "aclrtSetDevice");
    REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

    std::vector<int64_t> shape = {4, 2};
    std::vector<float> data = {0.0f, 1.0f, 2.0f, 3.0f, 4.1f, 5.0f, 6.0f, 7.0f};
    size_t bytes = data.size() * sizeof(float);
    void *self_dev = nullptr;
    REQUIRE(aclrtMalloc(&self_dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    REQUIRE(aclrtMemcpy(self_dev, bytes, data.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "aclrtMemcpy");
    std::vector<int64_t> strides = {2, 1};
    aclTensor *self_ref = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                                          aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), self_dev);
    REQUIRE(self_ref != nullptr, "aclCreateTensor");
    float threshold_value = 4.1f, replacement = 10.0f;
    aclScalar *threshold = aclCreateScalar(&threshold_value, aclDataType::ACL_FLOAT);
    aclScalar *value = aclCreateScalar(&replacement, aclDataType::ACL_FLOAT);
    REQUIRE(threshold != nullptr && value != nullptr, "aclCreateScalar");

    uint64_t workspace_size = 0;
    aclOpExecutor *executor;
    REQUIRE(aclnnInplaceThresholdGetWorkspaceSize(self_ref, threshold, value, &workspace_size, &executor) ==
                ACL_SUCCESS, "aclnnInplaceThresholdGetWorkspaceSize");
    void *workspace = nullptr;
    if (workspace_size > 0) {
        REQUIRE(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace");
    }
    REQUIRE(aclnnInplaceThreshold(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnInplaceThreshold");
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

    REQUIRE(aclrtMemcpy(data.data(), bytes, self_dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
            "copy the result back");
    for (size_t i = 0; i < data.size(); ++i) printf("result[%zu] is: %f\n", i, data[i]);

    aclDestroyTensor(self_ref);
    aclDestroyScalar(threshold);
    aclDestroyScalar(value);
    aclrtFree(self_dev);
    if (workspace_size > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(device);
    aclFinalize();
    return 0;
}
