// One aclnnThresholdBackward over n float32 on the device, as the C ABI's test programs drive it
// (process.cpp, remembered.cpp): out = grad where feature > threshold, else 0.
#ifndef OPSNN_TESTS_THRESHOLD_OP_H_
#define OPSNN_TESTS_THRESHOLD_OP_H_

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"

/* Device 0 set on this thread, and a stream of its own. */
inline aclrtStream OwnStream() {
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    return stream;
}

struct Op {
    int n;
    float threshold = 1.0f;
    void *dg = nullptr, *df = nullptr, *dout = nullptr, *work = nullptr;
    uint64_t work_size = 0;
    aclTensor *g = nullptr, *f = nullptr, *o = nullptr;
    aclScalar *t = nullptr;
    std::vector<float> grad, feature;

    explicit Op(int count) : n(count), grad(count), feature(count) {
        size_t bytes = n * sizeof(float);
        aclrtMalloc(&dg, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&df, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(dout, bytes, 0x7f, bytes);
        int64_t shape[1] = {n};
        g = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, dg);
        f = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, df);
        o = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, dout);
        t = aclCreateScalar(&threshold, ACL_FLOAT);
        Fill(0);
    }
    void Fill(int round) {  // inputs of this round, copied to the device
        for (int i = 0; i < n; ++i) {
            grad[i] = static_cast<float>(i + round) + 0.5f;
            feature[i] = static_cast<float>((i + round) % 4);
        }
        aclrtMemcpy(dg, n * sizeof(float), grad.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
        aclrtMemcpy(df, n * sizeof(float), feature.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    }
    int Plan(aclOpExecutor **ex, uint64_t *ws) {  // phase 1, the workspace grown as it asks (kept)
        int s = aclnnThresholdBackwardGetWorkspaceSize(g, f, t, o, ws, ex);
        if (s == 0 && *ws > work_size) {
            if (work != nullptr) aclrtFree(work);
            s = aclrtMalloc(&work, *ws, ACL_MEM_MALLOC_HUGE_FIRST);
            work_size = *ws;
        }
        return s;
    }
    int Launch(aclrtStream stream) {  // phase 1 and 2; status
        uint64_t ws = 0;
        aclOpExecutor *ex = nullptr;
        int s = Plan(&ex, &ws);
        return s ? s : aclnnThresholdBackward(work, ws, ex, stream);
    }
    bool Holds(const std::vector<float> &out) const {  // the result, bit for bit
        for (int i = 0; i < n; ++i)
            if (out[i] != (feature[i] > threshold ? grad[i] : 0.0f)) return false;
        return true;
    }
    bool Right() {  // the device's output holds the result
        std::vector<float> out(n);
        aclrtMemcpy(out.data(), n * sizeof(float), dout, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
        return Holds(out);
    }
};

#endif  // OPSNN_TESTS_THRESHOLD_OP_H_
