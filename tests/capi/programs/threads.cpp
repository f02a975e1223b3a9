// 8 C++ threads at once, first calls racing (no call before the threads start): each sets the
// device, runs ThresholdBackward on its own data (even threads on their own stream, odd ones on
// a shared one), checks the result, and checks that its recent error message is its own.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"

static const int kThreads = 8;
static const int kRounds = 3;
static aclrtStream g_shared = nullptr;
static std::atomic<int> g_ready(0);

static int Work(int id, std::string *why) {
    if (aclrtSetDevice(0) != ACL_SUCCESS) return *why = "set device", 1;
    aclrtStream own = nullptr;
    if (id % 2 == 0 && aclrtCreateStream(&own) != ACL_SUCCESS) return *why = "create stream", 1;
    aclrtStream stream = id % 2 == 0 ? own : g_shared;
    const int n = 64 + id;
    std::vector<float> grad(n), feature(n), out(n);
    for (int i = 0; i < n; ++i) {
        grad[i] = static_cast<float>(id * 1000 + i);
        feature[i] = static_cast<float>(i % 7) - 3.0f;
    }
    size_t bytes = n * sizeof(float);
    void *dg = nullptr, *df = nullptr, *dout = nullptr;
    aclrtMalloc(&dg, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&df, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dg, bytes, grad.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(df, bytes, feature.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    int64_t shape[1] = {n};
    aclTensor *g = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, dg);
    aclTensor *f = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, df);
    aclTensor *o = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, dout);
    float t = static_cast<float>(id % 3) - 1.0f;  // -1, 0 (ReluGrad) or 1
    aclScalar *threshold = aclCreateScalar(&t, ACL_FLOAT);
    for (int round = 0; round < kRounds; ++round) {
        uint64_t ws = 0;
        aclOpExecutor *ex;
        if (aclnnThresholdBackwardGetWorkspaceSize(g, f, threshold, o, &ws, &ex) != 0) return *why = "phase 1", 1;
        void *w = nullptr;
        if (ws > 0) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
        if (aclnnThresholdBackward(w, ws, ex, stream) != 0) return *why = "phase 2", 1;
        if (aclrtSynchronizeStream(stream) != 0) return *why = "sync", 1;
        if (w) aclrtFree(w);
        aclrtMemcpy(out.data(), bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        for (int i = 0; i < n; ++i) {
            float want = feature[i] > t ? grad[i] : 0.0f;
            if (out[i] != want) return *why = "result " + std::to_string(i), 1;
        }
        // a failure of this thread's own: the count names the thread
        size_t count = 1000 + id;
        aclrtMemcpy(out.data(), 8, dout, count, ACL_MEMCPY_DEVICE_TO_HOST);
        const char *msg = aclGetRecentErrMsg();
        if (msg == nullptr || std::strstr(msg, std::to_string(count).c_str()) == nullptr)
            return *why = std::string("message: ") + (msg ? msg : "(null)"), 1;
        if (aclGetRecentErrMsg() != nullptr) return *why = "message not cleared", 1;
    }
    aclDestroyTensor(g);
    aclDestroyTensor(f);
    aclDestroyTensor(o);
    aclDestroyScalar(threshold);
    aclrtFree(dg);
    aclrtFree(df);
    aclrtFree(dout);
    if (own) aclrtDestroyStream(own);
    aclrtResetDevice(0);
    return 0;
}

int main() {
    std::vector<std::thread> threads;
    std::vector<int> failed(kThreads, 0);
    std::vector<std::string> why(kThreads);
    // The shared stream needs the runtime; its start races the workers' first calls.
    std::thread starter([] {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtCreateStream(&g_shared);
        g_ready = 1;
    });
    for (int id = 0; id < kThreads; ++id)
        threads.emplace_back([id, &failed, &why] {
            // the first call of the process may be this one: Python starts once, the others wait
            float x = static_cast<float>(id);
            aclDestroyScalar(aclCreateScalar(&x, ACL_FLOAT));
            while (!g_ready) std::this_thread::yield();
            failed[id] = Work(id, &why[id]);
        });
    starter.join();
    for (auto &t : threads) t.join();
    int bad = 0;
    for (int id = 0; id < kThreads; ++id) {
        printf("thread%d=%s\n", id, failed[id] ? why[id].c_str() : "ok");
        bad += failed[id];
    }
    aclrtDestroyStream(g_shared);
    aclrtResetDevice(0);
    aclFinalize();
    return bad != 0;
}
