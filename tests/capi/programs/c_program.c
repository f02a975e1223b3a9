/* A C (not C++) program: the headers compile as C, and the calls work from C. */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold.h"

int main(void) {
    aclrtStream stream = NULL;
    float data[4] = {-1.0f, 0.5f, 2.0f, 3.0f}, out[4] = {0};
    float threshold_value = 1.0f, replacement = -7.0f;
    int64_t shape[1] = {4};
    void *dev = NULL, *dout = NULL, *workspace = NULL;
    uint64_t size = 0;
    aclOpExecutor *executor = NULL;
    int ret = aclInit(NULL);
    ret = ret ? ret : aclrtSetDevice(0);
    ret = ret ? ret : aclrtCreateStream(&stream);
    ret = ret ? ret : aclrtMalloc(&dev, sizeof data, ACL_MEM_MALLOC_HUGE_FIRST);
    ret = ret ? ret : aclrtMalloc(&dout, sizeof out, ACL_MEM_MALLOC_HUGE_FIRST);
    ret = ret ? ret : aclrtMemcpy(dev, sizeof data, data, sizeof data, ACL_MEMCPY_HOST_TO_DEVICE);
    if (ret) {
        printf("setup=%d\n", ret);
        return 1;
    }
    aclTensor *self = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dev);
    aclTensor *o = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dout);
    aclScalar *threshold = aclCreateScalar(&threshold_value, ACL_FLOAT);
    aclScalar *value = aclCreateScalar(&replacement, ACL_FLOAT);
    ret = aclnnThresholdGetWorkspaceSize(self, threshold, value, o, &size, &executor);
    if (ret == 0 && size > 0) ret = aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (ret == 0) ret = aclnnThreshold(workspace, size, executor, stream);
    if (ret == 0) ret = aclrtSynchronizeStream(stream);
    if (ret == 0) ret = aclrtMemcpy(out, sizeof out, dout, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("status=%d\n", ret);
    printf("out=%g,%g,%g,%g\n", out[0], out[1], out[2], out[3]);
    printf("fp16=%g\n", aclFloat16ToFloat(aclFloatToFloat16(0.333333f)));
    aclDestroyTensor(self);
    aclDestroyTensor(o);
    aclDestroyScalar(threshold);
    aclDestroyScalar(value);
    if (workspace) aclrtFree(workspace);
    aclrtFree(dev);
    aclrtFree(dout);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    printf("finalize=%d\n", aclFinalize());
    return 0;
}
