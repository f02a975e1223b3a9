// The C library's remembered launches (test_remembered.py): a repeated aclnn call runs without
// Python once the bridge has vouched for it, and everything a program can see stays as the
// bridge has it. One mode per run:
//   loop        40 launches on a stream of its own, then 40 on the default one, new inputs each time
//   race        a remembered launch read back before its synchronize: the bridge's race warning
//   twice       a remembered executor launched twice, and one destroyed then launched
//   changed     the output tensor, the threshold and the workspace changed between launches
//   threads     4 threads x 30 launches, each on its own stream
//   shared      the same on the default stream, which they share
// Prints key=value lines, among them remembered=<launches run without Python>.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "opsnn/opsnn_capi.h"
#include "threshold_op.h"

namespace {

const char *Msg() {
    const char *m = aclGetRecentErrMsg();
    return m ? m : "";
}

int Loop() {
    aclInit(nullptr);
    aclrtStream stream = OwnStream();
    Op op(1000);
    int bad = 0, wrong = 0;
    for (aclrtStream s : {stream, static_cast<aclrtStream>(nullptr)}) {
        for (int round = 0; round < 40; ++round) {
            op.Fill(round);
            bad += op.Launch(s) != 0 || aclrtSynchronizeStream(s) != 0;
            wrong += !op.Right();
        }
        printf("remembered_%s=%llu\n", s ? "stream" : "default",
               static_cast<unsigned long long>(opsnnRememberedLaunches()));
    }
    printf("bad=%d\nwrong=%d\n", bad, wrong);
    return 0;
}

int Race() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    Op op(16);
    for (int round = 0; round < 5; ++round) op.Launch(nullptr), aclrtSynchronizeStream(nullptr);
    op.Fill(7);
    const unsigned long long before = opsnnRememberedLaunches();
    printf("launch=%d\n", op.Launch(nullptr));
    std::vector<float> out(16);
    int s = aclrtMemcpy(out.data(), sizeof(float) * 16, op.dout, sizeof(float) * 16, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("racing_copy=%d\n", s);
    printf("racing_copy_msg=%s\n", std::strstr(Msg(), "races work still queued") ? "race" : "none");
    printf("racing_copy_result=%d\n", op.Holds(out));
    printf("sync=%d\n", aclrtSynchronizeStream(nullptr));
    printf("right=%d\nwarmed=%d\n", op.Right(), before > 0);
    return 0;
}

int Twice() {
    aclInit(nullptr);
    aclrtStream stream = OwnStream();
    Op op(64);
    for (int round = 0; round < 5; ++round) op.Launch(stream), aclrtSynchronizeStream(stream);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    op.Plan(&ex, &ws);
    printf("first=%d\n", aclnnThresholdBackward(op.work, ws, ex, stream));
    printf("second=%d\n", aclnnThresholdBackward(op.work, ws, ex, stream));
    printf("second_msg=%s\n", std::strstr(Msg(), "already been run") ? "already_run" : Msg());
    printf("sync=%d\n", aclrtSynchronizeStream(stream));
    op.Plan(&ex, &ws);
    printf("destroy=%d\n", aclDestroyAclOpExecutor(ex));
    printf("destroyed_launch=%d\n", aclnnThresholdBackward(op.work, ws, ex, stream));
    printf("destroyed_msg=%s\n", std::strstr(Msg(), "destroyed") ? "destroyed" : Msg());
    op.Plan(&ex, &ws);
    printf("small_workspace=%d\n", aclnnThresholdBackward(op.work, ws - 1, ex, stream));
    printf("small_workspace_msg=%s\n", std::strstr(Msg(), "smaller than") ? "smaller" : Msg());
    printf("retried=%d\n", aclnnThresholdBackward(op.work, ws, ex, stream));  // a refused call left it usable
    printf("sync2=%d\n", aclrtSynchronizeStream(stream));
    printf("right=%d\n", op.Right());
    printf("remembered=%llu\n", static_cast<unsigned long long>(opsnnRememberedLaunches()));
    return 0;
}

int Changed() {
    aclInit(nullptr);
    aclrtStream stream = OwnStream();
    Op op(256);
    int bad = 0, wrong = 0;
    auto rounds = [&](int count) {
        for (int round = 0; round < count; ++round) {
            op.Fill(round);
            bad += op.Launch(stream) != 0 || aclrtSynchronizeStream(stream) != 0;
            wrong += !op.Right();
        }
    };
    rounds(5);
    // the output moved to new memory: the old plan must not write the old buffer
    void *old = op.dout;
    aclrtMalloc(&op.dout, 256 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclDestroyTensor(op.o);
    int64_t shape[1] = {256};
    op.o = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, op.dout);
    aclrtFree(old);
    rounds(5);
    // another threshold: another plan
    op.threshold = 2.0f;
    op.t = aclCreateScalar(&op.threshold, ACL_FLOAT);
    rounds(5);
    // another workspace of the same size: the bridge checks it first
    void *work2 = nullptr;
    aclrtMalloc(&work2, op.work_size, ACL_MEM_MALLOC_HUGE_FIRST);
    std::swap(op.work, work2);
    rounds(5);
    printf("bad=%d\nwrong=%d\nremembered=%llu\n", bad, wrong,
           static_cast<unsigned long long>(opsnnRememberedLaunches()));
    return 0;
}

int Threads(bool shared) {  // shared: all on the default stream, each synchronizing the others' work too
    aclInit(nullptr);
    std::atomic<int> bad(0), wrong(0), ready(0);
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k)
        threads.emplace_back([&, k] {
            aclrtStream stream = nullptr;
            if (shared) aclrtSetDevice(0);
            else stream = OwnStream();
            Op op(5000 + k);
            bad += op.Launch(stream) != 0 || aclrtSynchronizeStream(stream) != 0;  // its workspace made
            // every thread's memory made before any loop: an allocation forgets every plan, and where
            // it lands among the other threads' calls would decide how many are remembered
            ++ready;
            while (ready < 4) std::this_thread::yield();
            for (int round = 0; round < 30; ++round) {
                op.Fill(round + k);
                bad += op.Launch(stream) != 0 || aclrtSynchronizeStream(stream) != 0;
                wrong += !op.Right();
            }
        });
    for (auto &t : threads) t.join();
    printf("bad=%d\nwrong=%d\nremembered=%llu\n", bad.load(), wrong.load(),
           static_cast<unsigned long long>(opsnnRememberedLaunches()));
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    int code = 2;
    if (mode == "loop") code = Loop();
    if (mode == "race") code = Race();
    if (mode == "twice") code = Twice();
    if (mode == "changed") code = Changed();
    if (mode == "threads") code = Threads(false);
    if (mode == "shared") code = Threads(true);
    fflush(stdout);
    return code;
}
