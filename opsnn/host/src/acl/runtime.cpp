/* The acl runtime a program built from an operator's own C++ runs on (acl/acl.h, acl/acl_rt.h,
 * acl/acl_base.h from opsnn/capi/include: the same C declarations as opsnn's Python C ABI).
 *
 * One emulated device (id 0). Device memory is libopsnn_kt's GM (opsnn_kt_gm_alloc): real host
 * addresses the emulator also sees as GM, so the operator's kernel, compiled as `opsnn ut`
 * compiles it, runs on the very bytes the program copied in. Work an aclnn phase 2 queues runs in
 * order at aclrtSynchronizeStream (or aclrtDestroyStream).
 *
 * The rules restate opsnn's Python runtime (opsnn/acl/runtime.py, docs/c-abi.md) because this
 * runtime runs without Python; the same statuses and the same sense of message:
 *   100000 ACL_ERROR_INVALID_PARAM   a bad argument: size 0, a null out-pointer, an unknown kind or
 *                                    policy, count > destMax, an unknown $OPSNN_SOC
 *   100001 ACL_ERROR_UNINITIALIZE    a call before aclInit (or after aclFinalize)
 *   100002 / 100037                  aclInit twice / aclFinalize twice
 *   107000 ACL_ERROR_RT_PARAM_INVALID a device range not inside one live allocation, a pointer that
 *                                    is not the start of one (aclrtFree)
 *   107001 invalid device id; 107002 no device set on this thread; 107017 not a live stream
 *   207001 device memory exhausted (8 GiB, as the Python runtime's limit)
 *   507015 ACL_ERROR_RT_AICORE_EXCEPTION  queued work faulted (reported at synchronisation)
 * Differences: host pointers cannot be checked in C (the Python runtime knows its arrays); any
 * aclrtMemMallocPolicy value of the header (0..7, with the ACL_MEM_* bits) is accepted.
 *
 * Threads: libopsnn_kt's Python runs on the thread that first touched it, so one thread should make
 * the device calls (as CANN's samples do). */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "../opdev/executor_impl.h"
#include "../opdev/soc.h"
#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "opsnn/opsnn_capi.h"
#include "opsnn_host/diag.h"
#include "opsnn_host/float_format.h"
#include "opsnn_kt/abi.h"

namespace opsnn_host {
namespace {

constexpr uint64_t kMemoryLimit = uint64_t{8} << 30;  // padded bytes one runtime may hold (as Python's)
constexpr uint64_t kAllocAlign = 32;

struct Stream {
    bool isDefault = false;
    std::deque<BoundWork> queue;
};

struct Runtime {
    std::recursive_mutex lock;
    bool initialized = false;
    bool everInitialized = false;
    uint64_t epoch = 0;
    std::string soc;
    int deviceRefs = 0;
    std::unique_ptr<Stream> defaultStream;
    std::set<Stream *> streams;
    std::map<uintptr_t, uint64_t> allocations;  // start -> requested bytes
    uint64_t used = 0;                          // padded bytes
    std::set<void *> hostAllocations;
    std::vector<std::string> notes;  // reclaimed by the last aclrtResetDevice, for aclFinalize's report
};
Runtime &Rt() {
    static Runtime *rt = new Runtime();  // never destroyed: a program may call acl from atexit handlers
    return *rt;
}

struct ThreadContext {
    bool set = false;
    uint64_t epoch = 0;
};
thread_local ThreadContext t_context;

uint64_t g_epochs = 0;  // under Rt().lock

aclError Fail(aclError status, const std::string &message) {
    diag::Emit(diag::kError, "acl", nullptr, 0, status, true, message);
    return status;
}

/* ACL_SUCCESS when this thread may use the device, else the status (and the message). */
aclError CheckContext(const char *what) {
    Runtime &rt = Rt();
    if (!rt.initialized) {
        return Fail(ACL_ERROR_UNINITIALIZE, std::string(what) + " before aclInit");
    }
    if (!t_context.set || t_context.epoch != rt.epoch || rt.deviceRefs == 0) {
        return Fail(ACL_ERROR_RT_CONTEXT_NULL, std::string(what) + ": no device set on this thread (call aclrtSetDevice)");
    }
    return ACL_SUCCESS;
}

uint64_t Padded(uint64_t bytes) { return (bytes + kAllocAlign - 1) / kAllocAlign * kAllocAlign + kAllocAlign; }

/* The allocation holding [p, p + n), or allocations.end(). */
std::map<uintptr_t, uint64_t>::iterator Holding(uintptr_t p, uint64_t n) {
    auto &a = Rt().allocations;
    auto it = a.upper_bound(p);
    if (it == a.begin()) {
        return a.end();
    }
    --it;
    if (p - it->first > it->second || n > it->second - (p - it->first)) {
        return a.end();
    }
    return it;
}

std::string Hex(const void *p) {
    char text[32];
    std::snprintf(text, sizeof(text), "%p", p);
    return text;
}

/* Runs `stream`'s queue; the first failing step faults the stream (the rest is dropped). */
aclError Drain(Stream *stream, const char *what) {
    Runtime &rt = Rt();
    for (;;) {
        BoundWork work;
        {
            std::lock_guard<std::recursive_mutex> g(rt.lock);
            if (stream->queue.empty()) {
                return ACL_SUCCESS;
            }
            work = std::move(stream->queue.front());
            stream->queue.pop_front();
        }
        for (const auto &step : work.steps) {
            const std::string error = step();
            if (!error.empty()) {
                std::lock_guard<std::recursive_mutex> g(rt.lock);
                stream->queue.clear();
                return Fail(ACL_ERROR_RT_AICORE_EXCEPTION, std::string(what) + ": queued work faulted: " + error);
            }
        }
    }
}

bool Overlaps(uintptr_t p, uint64_t n, const BoundWork &work) {
    for (const auto &r : work.deviceRanges) {
        if (p < r.first + r.second && r.first < p + n) {
            return true;
        }
    }
    return false;
}

/* A copy whose device side touches memory queued work reads or writes races that work: with
 * $OPSNN_SANITIZE=1 a finding (507015), else a warning, and the work runs first, so the copy sees
 * what a finished device holds (docs/c-abi.md, "Queued work and copies"). */
aclError SettleRaces(const char *what, uintptr_t p, uint64_t n) {
    Runtime &rt = Rt();
    std::vector<Stream *> racing;
    {
        std::lock_guard<std::recursive_mutex> g(rt.lock);
        std::vector<Stream *> all(rt.streams.begin(), rt.streams.end());
        if (rt.defaultStream) {
            all.push_back(rt.defaultStream.get());
        }
        for (Stream *s : all) {
            for (const BoundWork &w : s->queue) {
                if (Overlaps(p, n, w)) {
                    racing.push_back(s);
                    break;
                }
            }
        }
    }
    if (racing.empty()) {
        return ACL_SUCCESS;
    }
    const std::string text = std::string(what) + " [" + Hex(reinterpret_cast<void *>(p)) + ", +" + std::to_string(n) +
                             ") races work still queued on a stream (synchronize the stream before copying)";
    const char *sanitize = std::getenv("OPSNN_SANITIZE");
    if (sanitize != nullptr && std::strcmp(sanitize, "1") == 0) {
        std::fprintf(stderr, "opsnn sanitizer: %s\n", text.c_str());
        return Fail(ACL_ERROR_RT_AICORE_EXCEPTION, "opsnn sanitizer: " + text);
    }
    std::fprintf(stderr, "opsnn: warning: %s\n", text.c_str());
    diag::Keep("opsnn: warning: " + text);
    for (Stream *s : racing) {
        const aclError ret = Drain(s, what);
        if (ret != ACL_SUCCESS) {
            return ret;
        }
    }
    return ACL_SUCCESS;
}

Stream *ResolveStream(aclrtStream stream, aclError *status) {
    Runtime &rt = Rt();
    *status = CheckContext("stream use");
    if (*status != ACL_SUCCESS) {
        return nullptr;
    }
    if (stream == nullptr) {
        return rt.defaultStream.get();
    }
    auto *s = static_cast<Stream *>(stream);
    if (rt.streams.count(s) == 0) {
        *status = Fail(ACL_ERROR_RT_INVALID_HANDLE, "stream " + Hex(stream) + " is not a live stream of this runtime (destroyed or foreign)");
        return nullptr;
    }
    return s;
}

}  // namespace

std::string AclDeviceSoc() {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    const bool current = rt.initialized && t_context.set && t_context.epoch == rt.epoch && rt.deviceRefs > 0;
    return current ? rt.soc : std::string();
}

namespace acl {

uint64_t ThreadEpoch() {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    const bool current = rt.initialized && t_context.set && t_context.epoch == rt.epoch && rt.deviceRefs > 0;
    return current ? rt.epoch : 0;
}

bool Initialized() {
    std::lock_guard<std::recursive_mutex> g(Rt().lock);
    return Rt().initialized;
}

uint64_t Epoch() {
    std::lock_guard<std::recursive_mutex> g(Rt().lock);
    return Rt().epoch;
}

bool DeviceRange(const void *ptr, uint64_t bytes) {
    std::lock_guard<std::recursive_mutex> g(Rt().lock);
    return ptr != nullptr && Holding(reinterpret_cast<uintptr_t>(ptr), bytes) != Rt().allocations.end();
}

int Enqueue(void *stream, BoundWork work, std::string *why) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    aclError status = ACL_SUCCESS;
    Stream *s = ResolveStream(stream, &status);
    if (s == nullptr) {
        *why = diag::TakeRecentErrors();
        return status;
    }
    s->queue.push_back(std::move(work));
    return ACL_SUCCESS;
}

}  // namespace acl
}  // namespace opsnn_host

using opsnn_host::Fail;
using opsnn_host::Rt;
using opsnn_host::Runtime;

extern "C" {

aclError aclInit(const char *configPath) {
    (void)configPath;  // not read, as the Python runtime
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (rt.initialized) {
        return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
    }
    const char *name = std::getenv("OPSNN_SOC");
    /* opsnn's names (and upstream's spellings of them, as `opsnn ut --soc` takes them) */
    const opsnn_host::SocSpec *soc = (name == nullptr || *name == '\0') ? opsnn_host::FindSoc(opsnn_host::kDefaultSoc)
                                                                        : opsnn_host::FindSpelledSoc(name);
    if (soc == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclInit: unknown SoC '") + name + "' in OPSNN_SOC; known: " +
                                                 opsnn_host::KnownSocNames());
    }
    const char *sanitize = std::getenv("OPSNN_SANITIZE");
    if (sanitize != nullptr && *sanitize != '\0' && std::strcmp(sanitize, "0") != 0 && std::strcmp(sanitize, "1") != 0) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    std::string("aclInit: OPSNN_SANITIZE must be 1 (on), 0 or empty (off), got '") + sanitize + "'");
    }
    rt.soc = soc->name;
    rt.epoch = ++opsnn_host::g_epochs;
    rt.initialized = rt.everInitialized = true;
    rt.deviceRefs = 0;
    rt.notes.clear();
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (!rt.initialized) {
        return rt.everInitialized ? Fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalized")
                                  : Fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was never called");
    }
    std::vector<std::string> leaks = rt.notes;
    for (const auto &a : rt.allocations) {
        leaks.push_back("device memory " + opsnn_host::Hex(reinterpret_cast<void *>(a.first)) + " (" +
                        std::to_string(a.second) + " bytes) was not freed");
        opsnn_kt_gm_free(reinterpret_cast<void *>(a.first), "aclFinalize", 0);
    }
    leaks.insert(leaks.end(), rt.streams.size(), "a stream was not destroyed");
    if (rt.deviceRefs > 0) {
        leaks.push_back("device 0 was set " + std::to_string(rt.deviceRefs) + " more time(s) than reset");
    }
    for (opsnn_host::Stream *s : rt.streams) {
        delete s;
    }
    rt.streams.clear();
    rt.defaultStream.reset();
    rt.allocations.clear();
    rt.used = 0;
    rt.deviceRefs = 0;
    rt.initialized = false;
    opsnn_host::t_context = {};
    if (!leaks.empty()) {
        std::string text = "opsnn: aclFinalize: leaked resources:";
        for (const std::string &l : leaks) {
            text += "\n  " + l;
        }
        std::fprintf(stderr, "%s\n", text.c_str());
    }
    return ACL_SUCCESS;
}

const char *aclGetRecentErrMsg(void) {
    thread_local std::string text;  // valid until this thread's next call
    text = opsnn_host::diag::TakeRecentErrors();
    return text.empty() ? nullptr : text.c_str();
}

aclError aclrtSetDevice(int32_t deviceId) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (!rt.initialized) {
        return Fail(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice before aclInit");
    }
    if (deviceId != 0) {
        return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice: invalid device id " + std::to_string(deviceId) + " (this machine has 1)");
    }
    if (rt.deviceRefs == 0) {
        rt.defaultStream.reset(new opsnn_host::Stream());
        rt.defaultStream->isDefault = true;
    }
    ++rt.deviceRefs;
    opsnn_host::t_context = {true, rt.epoch};
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (!rt.initialized) {
        return Fail(ACL_ERROR_UNINITIALIZE, "aclrtResetDevice before aclInit");
    }
    if (deviceId != 0 || rt.deviceRefs == 0) {
        return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice: device " + std::to_string(deviceId) + " is not set");
    }
    --rt.deviceRefs;
    opsnn_host::t_context = {};
    if (rt.deviceRefs == 0) {  // the last reset releases the device's streams, as ACL does
        for (opsnn_host::Stream *s : rt.streams) {
            rt.notes.push_back("a stream was not destroyed before the last aclrtResetDevice");
            delete s;
        }
        rt.streams.clear();
        rt.defaultStream.reset();
    }
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (!rt.initialized) {
        return Fail(ACL_ERROR_UNINITIALIZE, "aclrtGetDeviceCount before aclInit");
    }
    if (count == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is nullptr");
    }
    *count = 1;
    return ACL_SUCCESS;
}

const char *aclrtGetSocName(void) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    return rt.initialized ? rt.soc.c_str() : nullptr;
}

aclError aclrtCreateStream(aclrtStream *stream) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    const aclError ret = opsnn_host::CheckContext("aclrtCreateStream");
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    if (stream == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is nullptr");
    }
    auto *s = new opsnn_host::Stream();
    rt.streams.insert(s);
    *stream = s;
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    Runtime &rt = Rt();
    std::unique_lock<std::recursive_mutex> g(rt.lock);
    if (!rt.initialized) {
        return Fail(ACL_ERROR_UNINITIALIZE, "aclrtDestroyStream before aclInit");
    }
    auto *s = static_cast<opsnn_host::Stream *>(stream);
    if (stream == nullptr || rt.streams.count(s) == 0) {
        return Fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream: " + opsnn_host::Hex(stream) +
                                " is not a live stream created by this runtime");
    }
    /* queued work is never dropped: it runs first (CANN asks for a synchronize first; a device
     * finishes the work either way), and its fault is the destroy's status */
    g.unlock();
    const aclError ran = opsnn_host::Drain(s, "aclrtDestroyStream");
    g.lock();
    rt.streams.erase(s);
    delete s;
    return ran;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    aclError status = ACL_SUCCESS;
    opsnn_host::Stream *s;
    {
        std::lock_guard<std::recursive_mutex> g(Rt().lock);
        s = opsnn_host::ResolveStream(stream, &status);
    }
    if (s == nullptr) {
        return status;
    }
    return opsnn_host::Drain(s, "aclrtSynchronizeStream");
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    const aclError ret = opsnn_host::CheckContext("aclrtMalloc");
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    if (devPtr == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is nullptr");
    }
    if (size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be positive, got 0");
    }
    const uint32_t base = static_cast<uint32_t>(policy) & ~(0x0100U | 0x1000U | 0x100000U);
    if (base > 7U) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown memory policy " + std::to_string(policy));
    }
    const uint64_t padded = opsnn_host::Padded(size);
    if (padded > opsnn_host::kMemoryLimit || rt.used + padded > opsnn_host::kMemoryLimit) {
        return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: " + std::to_string(size) + " bytes do not fit (" + std::to_string(rt.used) +
                                " of " + std::to_string(opsnn_host::kMemoryLimit) + " in use)");
    }
    void *p = opsnn_kt_gm_alloc(size, "aclrtMalloc", 0);
    rt.allocations[reinterpret_cast<uintptr_t>(p)] = size;
    rt.used += padded;
    *devPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    const aclError ret = opsnn_host::CheckContext("aclrtFree");
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    auto it = rt.allocations.find(reinterpret_cast<uintptr_t>(devPtr));
    if (it == rt.allocations.end()) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    "aclrtFree: " + opsnn_host::Hex(devPtr) + " is not the start of a live allocation (double free?)");
    }
    rt.used -= opsnn_host::Padded(it->second);
    rt.allocations.erase(it);
    opsnn_kt_gm_free(devPtr, "aclrtFree", 0);
    return ACL_SUCCESS;
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (hostPtr == nullptr || size == 0) {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr must not be nullptr and size must be positive");
    }
    void *p = nullptr;
    if (posix_memalign(&p, 64, size) != 0) {
        return Fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: " + std::to_string(size) + " bytes are not available");
    }
    rt.hostAllocations.insert(p);
    *hostPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr) {
    Runtime &rt = Rt();
    std::lock_guard<std::recursive_mutex> g(rt.lock);
    if (rt.hostAllocations.erase(hostPtr) == 0) {
        return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost: " + opsnn_host::Hex(hostPtr) +
                                                    " is not memory aclrtMallocHost returned (or freed already)");
    }
    std::free(hostPtr);
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    Runtime &rt = Rt();
    bool srcDevice = false, dstDevice = false;
    {
        std::lock_guard<std::recursive_mutex> g(rt.lock);
        const aclError ret = opsnn_host::CheckContext("aclrtMemcpy");
        if (ret != ACL_SUCCESS) {
            return ret;
        }
        if (count > destMax) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "aclrtMemcpy: count " + std::to_string(count) + " exceeds destMax " + std::to_string(destMax));
        }
        switch (static_cast<int>(kind)) {
            case ACL_MEMCPY_HOST_TO_HOST:
                break;
            case ACL_MEMCPY_HOST_TO_DEVICE:
            case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:  // through a staging buffer: a host-to-device copy
                dstDevice = true;
                break;
            case ACL_MEMCPY_DEVICE_TO_HOST:
                srcDevice = true;
                break;
            case ACL_MEMCPY_DEVICE_TO_DEVICE:
            case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
            case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:  // one emulated device: one address space
                srcDevice = dstDevice = true;
                break;
            case ACL_MEMCPY_DEFAULT:  // host or device by the address
                srcDevice = opsnn_host::Holding(reinterpret_cast<uintptr_t>(src), 0) != rt.allocations.end();
                dstDevice = opsnn_host::Holding(reinterpret_cast<uintptr_t>(dst), 0) != rt.allocations.end();
                break;
            default:
                return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown copy kind " + std::to_string(kind));
        }
        if (count == 0) {
            return ACL_SUCCESS;
        }
        const struct {
            const void *p;
            bool device;
            const char *side;
        } sides[] = {{src, srcDevice, "source"}, {dst, dstDevice, "destination"}};
        for (const auto &s : sides) {
            if (s.p == nullptr) {
                return Fail(ACL_ERROR_RT_PARAM_INVALID, std::string("aclrtMemcpy ") + s.side + " is nullptr");
            }
            if (s.device &&
                opsnn_host::Holding(reinterpret_cast<uintptr_t>(s.p), count) == rt.allocations.end()) {
                return Fail(ACL_ERROR_RT_PARAM_INVALID, std::string("aclrtMemcpy ") + s.side + ": device range [" +
                                                            opsnn_host::Hex(s.p) + ", +" + std::to_string(count) +
                                                            ") is not inside one live allocation");
            }
        }
    }
    if (srcDevice) {
        const aclError ret = opsnn_host::SettleRaces("aclrtMemcpy source", reinterpret_cast<uintptr_t>(src), count);
        if (ret != ACL_SUCCESS) {
            return ret;
        }
    }
    if (dstDevice) {
        const aclError ret = opsnn_host::SettleRaces("aclrtMemcpy destination", reinterpret_cast<uintptr_t>(dst), count);
        if (ret != ACL_SUCCESS) {
            return ret;
        }
    }
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    {
        Runtime &rt = Rt();
        std::lock_guard<std::recursive_mutex> g(rt.lock);
        const aclError ret = opsnn_host::CheckContext("aclrtMemset");
        if (ret != ACL_SUCCESS) {
            return ret;
        }
        if (count > maxCount) {
            return Fail(ACL_ERROR_INVALID_PARAM,
                        "aclrtMemset: count " + std::to_string(count) + " exceeds maxCount " + std::to_string(maxCount));
        }
        if (count == 0) {
            return ACL_SUCCESS;
        }
        if (opsnn_host::Holding(reinterpret_cast<uintptr_t>(devPtr), count) == rt.allocations.end()) {
            return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset: device range [" + opsnn_host::Hex(devPtr) + ", +" +
                                                        std::to_string(count) + ") is not inside one live allocation");
        }
    }
    const aclError ret = opsnn_host::SettleRaces("aclrtMemset", reinterpret_cast<uintptr_t>(devPtr), count);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    std::memset(devPtr, value & 0xFF, count);  // value's low byte, as a copy of that byte
    return ACL_SUCCESS;
}

/* CANN's header says: float -> fp16 saturates (NaN and +inf give 0x7BFF, -inf 0xFBFF), and
 * fp16 -> float reads the all-ones exponent as an ordinary one (+inf 65536, NaN 98304). */
float aclFloat16ToFloat(aclFloat16 value) {
    const bool neg = (value & 0x8000U) != 0;
    const uint32_t exponent = (value >> 10) & 0x1FU;
    if (exponent != 0x1FU) {
        return opsnn_host::HalfBitsToFloat(value);
    }
    const float magnitude = 65536.0f * (1.0f + static_cast<float>(value & 0x3FFU) / 1024.0f);
    return neg ? -magnitude : magnitude;
}

aclFloat16 aclFloatToFloat16(float value) {
    if (value != value) {
        return 0x7BFF;
    }
    const uint16_t bits = opsnn_host::FloatToHalfBits(value);
    if ((bits & 0x7FFFU) == 0x7C00U) {  // overflowed to infinity: saturate
        return (bits & 0x8000U) != 0 ? 0xFBFF : 0x7BFF;
    }
    return bits;
}

aclnnStatus aclnnInit(const char *configPath) {
    (void)configPath;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }

const char *opsnnGetDeviceMode(void) {
    std::lock_guard<std::recursive_mutex> g(Rt().lock);
    if (!Rt().initialized) {
        Fail(ACL_ERROR_UNINITIALIZE, "opsnnGetDeviceMode: aclInit has not been called");
        return nullptr;
    }
    return "emulator";  // the C++ chain always runs the operator's own kernel on the emulator
}

}  // extern "C"
