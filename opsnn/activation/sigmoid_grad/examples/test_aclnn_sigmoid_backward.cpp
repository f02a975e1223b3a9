// aclnnSigmoidBackward from C++: gradInput = gradOutput * output * (1 - output) on {4} float32
// tensors, output being what sigmoid returned in the forward pass. gradOutput 1, 2, 3, 4 with
// output 0.5, 0.25, 0.75, 0.125 give 0.25, 0.375, 0.5625, 0.4375 (exact in float32).
//
//   g++ test_aclnn_sigmoid_backward.cpp $(python -m opsnn.capi --cflags --libs) -o sb && ./sb
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_sigmoid_backward.h"

// Print what failed with the runtime's last message and leave main with 1.
#define CHECK_RET(cond, what)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            const char *msg = aclGetRecentErrMsg(); /* read once: it clears */ \
            printf("%s failed (%s)\n", what, msg ? msg : "");                  \
            return 1;                                                          \
        }                                                                      \
    } while (0)

struct DeviceVector {
    void *addr = nullptr;
    aclTensor *tensor = nullptr;
};

// A device copy of `host` described as a contiguous 1-D float32 aclTensor; false on failure.
static bool ToDevice(const std::vector<float> &host, DeviceVector *dv) {
    size_t bytes = host.size() * sizeof(float);
    if (aclrtMalloc(&dv->addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
    if (aclrtMemcpy(dv->addr, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return false;
    int64_t dims[1] = {static_cast<int64_t>(host.size())};
    int64_t stride[1] = {1};
    dv->tensor = aclCreateTensor(dims, 1, aclDataType::ACL_FLOAT, stride, 0, aclFormat::ACL_FORMAT_ND, dims, 1,
                                 dv->addr);
    return dv->tensor != nullptr;
}

int main() {
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(deviceId) == ACL_SUCCESS, "aclrtSetDevice");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

    DeviceVector gradOutput, output, gradInput;
    CHECK_RET(ToDevice({1.0f, 2.0f, 3.0f, 4.0f}, &gradOutput), "gradOutput to the device");
    CHECK_RET(ToDevice({0.5f, 0.25f, 0.75f, 0.125f}, &output), "output to the device");
    CHECK_RET(ToDevice(std::vector<float>(4, 0.0f), &gradInput), "gradInput to the device");

    // phase 1 checks and plans, phase 2 queues the kernel on the stream
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnSigmoidBackwardGetWorkspaceSize(gradOutput.tensor, output.tensor, gradInput.tensor,
                                                   &workspaceSize, &executor) == ACL_SUCCESS,
              "aclnnSigmoidBackwardGetWorkspaceSize");
    void *workspace = nullptr;
    if (workspaceSize > 0) {
        CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace");
    }
    CHECK_RET(aclnnSigmoidBackward(workspace, workspaceSize, executor, stream) == ACL_SUCCESS,
              "aclnnSigmoidBackward");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

    std::vector<float> result(4, 0.0f);
    size_t bytes = result.size() * sizeof(float);
    CHECK_RET(aclrtMemcpy(result.data(), bytes, gradInput.addr, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "gradInput to the host");
    for (size_t i = 0; i < result.size(); ++i) printf("result[%zu] is: %f\n", i, result[i]);

    for (DeviceVector *dv : {&gradOutput, &output, &gradInput}) {
        aclDestroyTensor(dv->tensor);
        aclrtFree(dv->addr);
    }
    if (workspaceSize > 0) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
