// One program, one mode per run (argv[1]), for what a CANN user meets beyond single calls:
//   fork        fork() while another thread is inside acl calls; the child calls acl (3 forks)
//   stderr      another thread writes 400 lines to stderr while aclInit starts Python
//   queued      aclrtDestroyStream right after a launch (the work runs); a D2H copy of an output
//               before aclrtSynchronizeStream (the queued work, its warning or finding)
//   misuse      launching a destroyed executor; aclrtFree(NULL); aclrtDestroyStream(NULL)
//   bench N R   GetWorkspaceSize + launch + sync of N float32 elements, R times: ns per call
//   threads T N R  T threads, each R calls of N elements on its own stream: seconds until every loop
//               ends (each thread's first 3 calls and its final check outside the clock)
//   diag        what a program can learn of the device: the SoC name, opsnnGetDeviceMode before
//               and after aclInit (and the INFO line aclInit prints under CANN's log switches)
// Prints key=value lines.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
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
    return m ? m : "(null)";
}

int Fork() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    std::atomic<bool> stop(false);
    std::thread busy([&stop] {  // inside acl calls all the time
        aclrtSetDevice(0);
        while (!stop) {
            void *p = nullptr;
            aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
            aclrtFree(p);
        }
    });
    int ok = 0;
    for (int i = 0; i < 3; ++i) {
        usleep(20000);
        pid_t pid = fork();
        if (pid == 0) {
            alarm(20);  // a hang ends the child with SIGALRM
            aclrtSetDevice(0);
            Op op(8);
            int s = op.Launch(nullptr);
            int sync = aclrtSynchronizeStream(nullptr);
            _exit(s == 0 && sync == 0 && op.Right() ? 0 : 3);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    stop = true;
    busy.join();
    printf("forks_ok=%d\n", ok);
    printf("parent_still_works=%d\n", Op(4).Launch(nullptr) == 0 && aclrtSynchronizeStream(nullptr) == 0);
    return 0;
}

int Stderr() {
    std::atomic<bool> go(false);
    std::thread writer([&go] {
        while (!go) {}
        for (int i = 0; i < 400; ++i) {
            fprintf(stderr, "line %d\n", i);
            usleep(500);
        }
    });
    go = true;
    usleep(1000);
    int s = aclInit(nullptr);  // starts Python meanwhile
    writer.join();
    printf("init=%d\n", s);
    return 0;
}

int Queued() {
    aclInit(nullptr);
    aclrtStream stream = OwnStream();
    Op a(16);
    printf("launch=%d\n", a.Launch(stream));
    printf("destroy=%d\n", aclrtDestroyStream(stream));
    printf("destroy_ran_the_work=%d\n", a.Right());
    Op b(16);
    printf("launch2=%d\n", b.Launch(nullptr));
    std::vector<float> out(16);
    int s = aclrtMemcpy(out.data(), sizeof(float) * 16, b.dout, sizeof(float) * 16, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("racing_copy=%d\n", s);
    printf("racing_copy_msg=%s\n", std::strstr(Msg(), "races work still queued") ? "race" : "none");
    printf("copy_after_sync=%d\n", aclrtSynchronizeStream(nullptr));
    printf("result_right=%d\n", b.Right());
    return 0;
}

int Misuse() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    Op a(4);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    aclnnThresholdBackwardGetWorkspaceSize(a.g, a.f, a.t, a.o, &ws, &ex);
    void *w = nullptr;
    if (ws > 0) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    printf("destroy_executor=%d\n", aclDestroyAclOpExecutor(ex));
    printf("launch_destroyed=%d\n", aclnnThresholdBackward(w, ws, ex, nullptr));
    printf("launch_destroyed_msg=%s\n", std::strstr(Msg(), "destroyed") ? "destroyed" : "other");
    aclrtSynchronizeStream(nullptr);
    printf("free_null=%d\n", aclrtFree(nullptr));
    printf("free_null_msg=%s\n", Msg());
    printf("destroy_stream_null=%d\n", aclrtDestroyStream(nullptr));
    printf("destroy_stream_null_msg=%s\n", Msg());
    return 0;
}

double Seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Bench(int n, int rounds) {
    auto start = std::chrono::steady_clock::now();
    aclInit(nullptr);
    aclrtSetDevice(0);
    Op op(n);
    int s = op.Launch(nullptr) || aclrtSynchronizeStream(nullptr);
    printf("first_result_s=%.4f\n", Seconds(start));
    for (int i = 0; i < 50; ++i) s |= op.Launch(nullptr) || aclrtSynchronizeStream(nullptr);
    start = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i) s |= op.Launch(nullptr) || aclrtSynchronizeStream(nullptr);
    printf("call_ns=%.0f\n", Seconds(start) * 1e9 / rounds);
    printf("status=%d\nright=%d\n", s, op.Right());
    return 0;
}

int Threads(int count, int n, int rounds) {
    aclInit(nullptr);
    std::vector<std::thread> threads;
    std::atomic<int> ready(0), bad(0);
    std::atomic<bool> go(false);
    int finished = 0;  // under done_lock; the last loop to end wakes the clock's thread
    std::mutex done_lock;
    std::condition_variable done;
    for (int k = 0; k < count; ++k)
        threads.emplace_back([&] {
            aclrtStream stream = OwnStream();
            Op op(n);
            for (int i = 0; i < 3; ++i)  // a loop's first calls teach the library (remembered launches)
                bad += op.Launch(stream) != 0 || aclrtSynchronizeStream(stream) != 0;
            ++ready;
            while (!go) {}
            for (int i = 0; i < rounds; ++i) bad += op.Launch(stream) != 0 || aclrtSynchronizeStream(stream) != 0;
            {  // the clock stops when every loop has ended: the checks below (after all of them) are not the loop
                std::unique_lock<std::mutex> lock(done_lock);
                if (++finished == count) done.notify_all();
                done.wait(lock, [&] { return finished == count; });
            }
            bad += !op.Right();
            aclrtDestroyStream(stream);
        });
    while (ready < count) usleep(100);
    auto start = std::chrono::steady_clock::now();
    go = true;
    {
        std::unique_lock<std::mutex> lock(done_lock);
        done.wait(lock, [&] { return finished == count; });
    }
    const double seconds = Seconds(start);
    for (auto &t : threads) t.join();
    printf("seconds=%.4f\nbad=%d\nremembered=%llu\n", seconds, bad.load(),
           static_cast<unsigned long long>(opsnnRememberedLaunches()));
    return 0;
}

int Diag() {
    const char *before = opsnnGetDeviceMode();
    printf("mode_before=%s\n", before ? before : "(null)");
    printf("mode_before_msg=%s\n", Msg());
    fflush(stdout);  // aclInit's INFO line, where asked for, comes after these
    printf("init=%d\n", aclInit(nullptr));
    const char *mode = opsnnGetDeviceMode();
    printf("mode=%s\n", mode ? mode : "(null)");
    printf("soc=%s\n", aclrtGetSocName());
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    int code = 2;
    if (mode == "fork") code = Fork();
    if (mode == "stderr") code = Stderr();
    if (mode == "queued") code = Queued();
    if (mode == "misuse") code = Misuse();
    if (mode == "bench" && argc > 3) code = Bench(atoi(argv[2]), atoi(argv[3]));
    if (mode == "diag") code = Diag();
    if (mode == "threads" && argc > 4) code = Threads(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    fflush(stdout);
    _exit(code);  // no aclFinalize: the modes test what comes before it
}
