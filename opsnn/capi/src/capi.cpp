/* opsnn C ABI: the acl/aclnn C functions as a shim over the Python runtime and aclnn layers.
 *
 * Every call takes the GIL and calls one function of opsnn.capi.bridge, which calls the public
 * Python API (opsnn.acl, opsnn.aclnn, the operators' op_api). No check, tiling or kernel is
 * written here: this file converts arguments, keeps per-thread error messages and starts the
 * interpreter on the first call (docs/c-abi.md).
 *
 * The one thing run here: a launch the bridge planned and vouched for (remembered launches, below)
 * replayed without Python, bit for bit the Python launch's.
 *
 * Failure rules: Python that cannot start is one line on stderr (once) and an error status from
 * every call; a Python exception inside a call is a status (ACL_ERROR_INTERNAL_ERROR, or
 * ACLNN_ERR_INNER for aclnn/meta calls) and a message for aclGetRecentErrMsg, never a crash. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "capi_internal.h"

#ifndef OPSNN_CAPI_PYTHON
#define OPSNN_CAPI_PYTHON ""
#endif
#ifndef OPSNN_CAPI_ROOT
#define OPSNN_CAPI_ROOT ""
#endif
#ifndef OPSNN_CAPI_STDLIB
#define OPSNN_CAPI_STDLIB ""
#endif

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace opsnn_capi {
namespace {

/* The bridge functions, looked up once by name. */
enum Fn {
    F_INIT, F_FINALIZE, F_SET_DEVICE, F_RESET_DEVICE, F_DEVICE_COUNT, F_SOC_NAME, F_CREATE_STREAM,
    F_DESTROY_STREAM, F_SYNC_STREAM, F_MALLOC, F_FREE, F_MEMCPY, F_MEMSET, F_CREATE_TENSOR, F_INIT_TENSOR,
    F_CREATE_SCALAR, F_CREATE_ARRAY, F_DESTROY, F_TENSOR_INFO, F_DESTROY_EXECUTOR, F_TAKE_MESSAGE, F_APIS,
    F_DEVICE_MODE, F_WITH_DEVICE, F_RAN, F_COUNT
};
const char *const kFnNames[F_COUNT] = {
    "init", "finalize", "set_device", "reset_device", "device_count", "soc_name", "create_stream",
    "destroy_stream", "synchronize_stream", "malloc", "free", "memcpy", "memset", "create_tensor", "init_tensor",
    "create_scalar", "create_array", "destroy", "tensor_info", "destroy_executor", "take_message", "apis",
    "device_mode_query", "with_device", "ran"};

const int kAclnnInner = 561000;
const int kAclnnNullptr = 161001;

PyObject *g_fn[F_COUNT];
/* bridge.apis' list: per API a (phase1, phase2) pair, which the bridge replaces with the API's
 * own functions once its first call has found them (so later calls go there directly); read
 * under the GIL at every call, each function held while it runs */
PyObject *g_pairs;
std::once_flag g_once;
bool g_started = false;
std::string g_start_error;

thread_local std::string t_pending;   /* messages not yet read, newest first */
thread_local std::string t_returned;  /* what the last aclGetRecentErrMsg handed out */
thread_local bool t_pinned = false;   /* this thread's Python thread state is kept alive */

void Note(const std::string &message) {
    if (message.empty()) return;
    t_pending = t_pending.empty() ? message : message + "\n" + t_pending;
    if (t_pending.size() > 16384) t_pending.resize(16384);  /* an unread stack stays bounded */
}

/* The pending Python exception as one line, then cleared. */
std::string TakeException() {
    PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    std::string text = "Python error";
    if (type != nullptr) {
        const char *name = ((PyTypeObject *)type)->tp_name;
        text = name ? name : "exception";
    }
    if (value != nullptr) {
        PyObject *s = PyObject_Str(value);
        const char *utf8 = s ? PyUnicode_AsUTF8(s) : nullptr;
        if (utf8 != nullptr && *utf8) text += std::string(": ") + utf8;
        Py_XDECREF(s);
    }
    PyErr_Clear();
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return text;
}

/* Holds the GIL for one call. A thread's first call also keeps its Python thread state for the
 * thread's life (one PyGILState_Ensure never released), so threading.local data (the device
 * context, recent errors) survives between calls, as a C++ thread expects. */
class Gil {
public:
    Gil() : state_(PyGILState_Ensure()) {
        if (!t_pinned) {
            PyGILState_Ensure();
            t_pinned = true;
        }
    }
    ~Gil() { PyGILState_Release(state_); }
    Gil(const Gil &) = delete;
    Gil &operator=(const Gil &) = delete;

private:
    PyGILState_STATE state_;
};

/* The directory holding the `opsnn` package this library was built from (set by the build: the
 * library lives in a per-environment folder, not in the package). */
std::string PackageRoot() { return OPSNN_CAPI_ROOT; }

/* This library's own directory (its lib/ or lib64/ alias). */
std::string LibraryDir() {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&LibraryDir), &info) == 0 || info.dli_fname == nullptr) return "";
    std::string path = info.dli_fname;
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? "" : path.substr(0, slash);
}

/* The python of a virtual environment this library was built in (a pyvenv.cfg above its folder,
 * <prefix>/share/opsnn/capi/lib), else "": a copied build still starts in the venv it sits in. */
std::string VenvPython() {
    std::string dir = LibraryDir();
    for (int up = 0; up < 6 && !dir.empty(); ++up) {
        if (access((dir + "/pyvenv.cfg").c_str(), R_OK) == 0 && access((dir + "/bin/python3").c_str(), X_OK) == 0)
            return dir + "/bin/python3";
        size_t slash = dir.find_last_of('/');
        if (slash == std::string::npos || slash == 0) break;
        dir.resize(slash);
    }
    return "";
}

bool LoadBridge(std::string *error) {
    std::string root = PackageRoot();
    if (!root.empty()) {  /* found as a fallback when the interpreter's own path lacks opsnn */
        PyObject *sys_path = PySys_GetObject("path");  /* borrowed */
        PyObject *entry = PyUnicode_DecodeFSDefault(root.c_str());
        if (sys_path != nullptr && entry != nullptr && PySequence_Contains(sys_path, entry) == 0)
            PyList_Append(sys_path, entry);
        Py_XDECREF(entry);
        PyErr_Clear();
    }
    PyObject *bridge = PyImport_ImportModule("opsnn.capi.bridge");
    if (bridge == nullptr) {
        *error = "cannot import opsnn.capi.bridge: " + TakeException();
        return false;
    }
    for (int i = 0; i < F_COUNT; ++i) {
        g_fn[i] = PyObject_GetAttrString(bridge, kFnNames[i]);
        if (g_fn[i] == nullptr) {
            *error = std::string("opsnn.capi.bridge has no ") + kFnNames[i] + ": " + TakeException();
            Py_DECREF(bridge);
            return false;
        }
    }
    Py_DECREF(bridge);
    PyObject *names = PyTuple_New(kApiCount);
    for (int i = 0; i < kApiCount && names != nullptr; ++i) PyTuple_SET_ITEM(names, i, PyUnicode_FromString(kApiNames[i]));
    PyObject *pairs = names ? PyObject_CallOneArg(g_fn[F_APIS], names) : nullptr;
    Py_XDECREF(names);
    if (pairs == nullptr || !PyList_Check(pairs) || PyList_GET_SIZE(pairs) != kApiCount) {
        *error = "opsnn.capi.bridge.apis failed: " + (PyErr_Occurred() ? TakeException() : std::string("bad result"));
        Py_XDECREF(pairs);
        return false;
    }
    g_pairs = pairs;  /* kept for the process's life, as the interpreter is */
    return true;
}

/* Phase 1's result, (status, workspace size, executor handle[, C plan]), read without PyArg_ParseTuple's
 * format machinery (every call); false (an exception set) when it is not that. */
bool ParseStatusSizeHandle(PyObject *r, int *status, unsigned long long *size, unsigned long long *handle) {
    if (!PyTuple_Check(r) || (PyTuple_GET_SIZE(r) != 3 && PyTuple_GET_SIZE(r) != 4)) {
        PyErr_SetString(PyExc_TypeError, "phase 1 must return (status, workspace_size, executor)");
        return false;
    }
    long s = PyLong_AsLong(PyTuple_GET_ITEM(r, 0));
    *size = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(r, 1));
    *handle = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(r, 2));
    *status = static_cast<int>(s);
    return !PyErr_Occurred();
}

/* Phase `which` (0, 1) of API `api`: a new reference, or NULL where the bridge has none. GIL held. */
PyObject *PhaseFunction(int api, int which) {
    PyObject *pair = PyList_GET_ITEM(g_pairs, api);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) return nullptr;
    PyObject *function = PyTuple_GET_ITEM(pair, which);
    Py_INCREF(function);
    return function;
}

bool IsFile(const std::string &path) { return access(path.c_str(), R_OK) == 0; }

void TakeBridgeMessage();

/* ---- remembered launches --------------------------------------------------------------------
 * Why: a C++ program's threads otherwise enter Python four times a call (phase 1, phase 2, the
 * synchronize, the engine's return), and with more runnable threads than CPUs the GIL's hand-offs
 * serialise them (docs/c-abi.md "Threads").
 *
 * A phase 1 the bridge planned and found to be one engine Lane running flat over device memory
 * (device_mode.FastApi.c_plan) is remembered by its arguments and this thread's device. The same
 * call again, nothing changed since, gets a C executor without Python (phase 1 is a pure function of
 * those: the bridge's own memo answers it so); its phase 2 on a stream this library made queues the
 * plan there, and that stream's synchronize runs it with the engine's _flat_run, without the GIL.
 * Anything else reaches Python as before, after what is remembered has been settled there: a
 * queued launch is handed to its Python stream (its phase 1 replayed, then its phase 2), a C
 * executor becomes a Python one by the same replay; a call that changes what a plan assumes
 * (memory, handles, devices, the runtime) forgets every plan. Statuses and messages stay the
 * bridge's. Only where this library started the interpreter itself (inside a Python process the
 * caller may hold the GIL, which the settling below must be free to take). Lock order: g_settle,
 * the GIL, a stream's drain, then g_rl or an executor shard, then a stream's m; the hot path takes
 * only this thread's shard and its stream's locks. */
using FlatRun = void (*)(PyObject *, const void *, const void *, void *, size_t);
FlatRun g_flat_run = nullptr;
bool g_remember = false;                           // OPSNN_CAPI_REMEMBER=0 turns it off
std::atomic<unsigned long long> g_remembered{0};  // launches run without Python (opsnnRememberedLaunches)

struct Plan {
    int api;
    int device;
    uint64_t epoch;
    unsigned long long needed;   // the workspace phase 1 asks for
    const char *fmt;             // the generated entry's Py_BuildValue format (a string literal)
    std::vector<uint64_t> args;  // each argument's bits, in fmt's order: phase 1 replayed from them
    PyObject *lane;
    const void *a, *b;
    void *out;
    size_t n;
    /* the workspace arguments a phase 2 of this plan was accepted with: the same ones are
     * accepted again while nothing changes (the bridge's workspace check is a function of them and
     * of device memory, whose changes forget the plan) */
    mutable std::mutex m;
    mutable bool workspace_known = false;
    mutable unsigned long long workspace = 0, workspace_size = 0;

    bool Accepts(unsigned long long ws, unsigned long long size) const {
        std::lock_guard<std::mutex> lock(m);
        return workspace_known && workspace == ws && workspace_size == size;
    }
    void Accepted(unsigned long long ws, unsigned long long size) const {
        std::lock_guard<std::mutex> lock(m);
        workspace_known = true, workspace = ws, workspace_size = size;
    }
};
using PlanPtr = std::shared_ptr<const Plan>;
enum ExecState { kPlanned, kLaunched, kDestroyed };
struct CExec {
    PlanPtr plan;
    ExecState state;
    unsigned long long python;  // the bridge's executor it was made into (0: none yet)
};
struct Launch {  // a remembered launch queued on a stream, with its phase 2's workspace arguments
    PlanPtr plan;
    unsigned long long workspace, workspace_size;
};
struct CStream {
    int device;                  // -1: the runtime's default stream (every device's)
    std::mutex drain;            // one synchronizer runs the queue at a time
    std::mutex m;                // the fields below
    /* launches Python queued there, and how many of them a Python synchronize has seen run: while
     * they differ, the Python stream may hold work and remembered launches wait behind it */
    uint64_t python_launched = 0, python_synced = 0;
    bool PythonPending() const { return python_launched != python_synced; }
    std::deque<Launch> queue;
    std::atomic<bool> dead{false};  // destroyed, or its runtime's contexts gone: threads' caches drop it
};
using StreamPtr = std::shared_ptr<CStream>;

/* C executors, in one shard per thread that made them: a thread planning and launching its own
 * never waits for another (with more threads than CPUs, a lock's holder may be preempted and every
 * waiter then sleeps a timeslice). A handle names its shard. */
struct ExecShard {
    std::mutex m;
    std::unordered_map<unsigned long long, CExec> execs;
    std::deque<unsigned long long> spent;  // launched / destroyed ones, oldest first
};

const unsigned long long kExecBase = 0x0AC8000000000000ull;  // beside the bridge's 0x0AC1... handles
const size_t kPlansKept = 512;                               // as the bridge's memo
const size_t kShards = 4096;                                 // threads that remember (later ones do not)
const size_t kSpentKept = 1024;                              // launched / destroyed ones remembered per shard

std::mutex g_settle;
std::mutex g_rl;                             // the registries below
std::atomic<uint64_t> g_plan_epoch{1};      // a change of memory, handles or runtime: every plan forgotten
std::atomic<uint64_t> g_ctx_epoch{1};       // aclInit, aclFinalize, aclrtResetDevice: every context too
std::unordered_map<std::string, PlanPtr> g_plans;
std::unordered_map<unsigned long long, StreamPtr> g_streams;  // streams this library made; 0: the default
std::unordered_set<PyObject *> g_lanes;                        // one reference each, kept for good
std::atomic<ExecShard *> g_shards[kShards];  // made on a thread's first remembered call, kept for good
std::atomic<size_t> g_shard_count{0};
thread_local ExecShard *t_shard = nullptr;
thread_local size_t t_shard_index = 0;
thread_local unsigned long long t_exec_count = 0;
std::unordered_map<unsigned long long, PlanPtr> g_taught;  // the bridge's executor a plan was learnt from
thread_local int t_device = -1;  // set by aclrtSetDevice
thread_local uint64_t t_ctx_epoch = 0;
thread_local std::unordered_map<std::string, PlanPtr> t_plans;           // this thread's, checked by epoch
thread_local std::unordered_map<unsigned long long, StreamPtr> t_streams;  // this thread's, checked by dead

bool IsCExec(const void *h) { return (H(h) >> 48) == (kExecBase >> 48); }
bool DeviceSet() { return t_device >= 0 && t_ctx_epoch == g_ctx_epoch.load(std::memory_order_acquire); }
/* The shard a handle names (bits 32-43), or null. */
ExecShard *ShardOf(unsigned long long handle) {
    const size_t index = (handle >> 32) & 0xFFF;
    return index < g_shard_count.load(std::memory_order_acquire) ? g_shards[index].load(std::memory_order_acquire)
                                                                  : nullptr;
}

/* This thread's shard, made on first use (g_rl taken then); null past kShards threads. */
ExecShard *MyShard() {
    if (t_shard != nullptr) return t_shard;
    std::lock_guard<std::mutex> lock(g_rl);
    const size_t index = g_shard_count.load();
    if (index >= kShards) return nullptr;
    t_shard = new ExecShard;  /* kept for the process's life: handles may outlive the thread */
    t_shard_index = index;
    g_shards[index].store(t_shard, std::memory_order_release);
    g_shard_count.store(index + 1, std::memory_order_release);
    return t_shard;
}

/* Every shard made so far, locked in order (Settle, fork). */
void LockShards() {
    for (size_t i = 0, n = g_shard_count.load(); i < n; ++i) g_shards[i].load()->m.lock();
}
void UnlockShards() {
    for (size_t i = 0, n = g_shard_count.load(); i < n; ++i) g_shards[i].load()->m.unlock();
}

/* The varargs' bits as Py_BuildValue reads them from fmt; false for a code not known here. */
bool ReadArgs(const char *fmt, va_list va, std::vector<uint64_t> *out) {
    for (const char *c = fmt; *c; ++c) {
        double d = 0;
        uint64_t bits = 0;
        switch (*c) {
            case '(': case ')': continue;
            case 'K': bits = va_arg(va, unsigned long long); break;
            case 'L': bits = static_cast<uint64_t>(va_arg(va, long long)); break;
            case 'i': bits = static_cast<uint64_t>(static_cast<int64_t>(va_arg(va, int))); break;
            case 'd': d = va_arg(va, double); memcpy(&bits, &d, sizeof bits); break;
            default: return false;
        }
        out->push_back(bits);
    }
    return true;
}

std::string PlanKey(int api, int device, const std::vector<uint64_t> &args) {
    std::string key(reinterpret_cast<const char *>(&api), sizeof api);
    key.append(reinterpret_cast<const char *>(&device), sizeof device);
    key.append(reinterpret_cast<const char *>(args.data()), args.size() * sizeof(uint64_t));
    return key;
}

/* Phase 1's argument tuple rebuilt from a plan's bits (GIL held): a new reference. */
PyObject *ArgsTuple(const Plan &p) {
    PyObject *t = PyTuple_New(static_cast<Py_ssize_t>(p.args.size()));
    size_t k = 0;
    for (const char *c = p.fmt; t != nullptr && *c; ++c) {
        if (*c == '(' || *c == ')') continue;
        const uint64_t bits = p.args[k];
        double d = 0;
        PyObject *v = nullptr;
        switch (*c) {
            case 'K': v = PyLong_FromUnsignedLongLong(bits); break;
            case 'L': v = PyLong_FromLongLong(static_cast<long long>(bits)); break;
            case 'i': v = PyLong_FromLong(static_cast<long>(static_cast<int64_t>(bits))); break;
            default: memcpy(&d, &bits, sizeof d); v = PyFloat_FromDouble(d); break;
        }
        if (v == nullptr) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(k++), v);
    }
    return t;
}

/* Remember what phase 1 vouched for: (lane, a, b, out, n) (GIL held). */
void Remember(int api, const char *fmt, std::vector<uint64_t> args, const std::string &key, uint64_t epoch,
              int device, unsigned long long needed, unsigned long long python, PyObject *c_plan) {
    PyObject *lane = nullptr;
    unsigned long long a = 0, b = 0, out = 0, n = 0;
    if (!PyArg_ParseTuple(c_plan, "OKKKK", &lane, &a, &b, &out, &n)) {
        PyErr_Clear();
        return;
    }
    if (g_flat_run == nullptr) {
        g_flat_run = reinterpret_cast<FlatRun>(PyCapsule_Import("opsnn.engine._select._flat_run", 0));
        if (g_flat_run == nullptr) {
            PyErr_Clear();
            return;
        }
    }
    auto plan = std::make_shared<Plan>();
    plan->api = api, plan->device = device, plan->epoch = epoch, plan->needed = needed, plan->fmt = fmt;
    plan->args = std::move(args), plan->lane = lane, plan->n = static_cast<size_t>(n);
    plan->a = reinterpret_cast<const void *>(static_cast<uintptr_t>(a));
    plan->b = reinterpret_cast<const void *>(static_cast<uintptr_t>(b));
    plan->out = reinterpret_cast<void *>(static_cast<uintptr_t>(out));
    std::lock_guard<std::mutex> lock(g_rl);
    if (epoch != g_plan_epoch.load()) return;  // something changed while Python planned it
    if (g_lanes.insert(lane).second) Py_INCREF(lane);
    if (g_plans.size() >= kPlansKept) g_plans.clear();
    if (g_taught.size() >= kPlansKept) g_taught.clear();
    g_taught[python] = plan;  /* its phase 2's workspace arguments will do for the plan */
    g_plans[key] = std::move(plan);
}

/* After the bridge's phase 2 of `python` succeeded: where a plan was learnt from that executor,
 * these workspace arguments do for the plan's launches. */
void AcceptedWorkspaceOf(unsigned long long python, unsigned long long workspace, unsigned long long size) {
    PlanPtr plan;
    {
        std::lock_guard<std::mutex> lock(g_rl);
        if (g_taught.empty()) return;
        auto it = g_taught.find(python);
        if (it == g_taught.end()) return;
        plan = std::move(it->second);
        g_taught.erase(it);
    }
    plan->Accepted(workspace, size);
}

/* A C executor of the remembered plan for this call and its workspace size, or 0. */
unsigned long long Recall(const std::string &key, uint64_t *needed) {
    if (!DeviceSet()) return 0;
    const uint64_t epoch = g_plan_epoch.load(std::memory_order_acquire);
    PlanPtr plan;
    auto mine = t_plans.find(key);
    if (mine != t_plans.end() && mine->second->epoch == epoch) {
        plan = mine->second;
    } else {
        {
            std::lock_guard<std::mutex> lock(g_rl);
            auto it = g_plans.find(key);
            if (it != g_plans.end() && it->second->epoch == epoch) plan = it->second;
        }
        if (plan == nullptr) return 0;
        if (t_plans.size() >= kPlansKept) t_plans.clear();
        t_plans[key] = plan;
    }
    ExecShard *own = MyShard();
    if (own == nullptr) return 0;
    const unsigned long long handle = kExecBase | static_cast<unsigned long long>(t_shard_index) << 32 |
                                      (++t_exec_count & 0xFFFFFFFull) << 4;
    ExecShard &shard = *own;
    std::lock_guard<std::mutex> lock(shard.m);
    if (plan->epoch != g_plan_epoch.load()) return 0;  // (Settle bumps it holding every shard)
    shard.execs.emplace(handle, CExec{plan, kPlanned, 0});
    *needed = plan->needed;
    return handle;
}

/* The C executor a handle names, its shard's lock held by `lock` (and *shard set); null where the
 * handle names none (not ours, or long spent). */
CExec *FindExec(unsigned long long handle, std::unique_lock<std::mutex> *lock, ExecShard **shard = nullptr) {
    ExecShard *found = ShardOf(handle);
    if (found == nullptr) return nullptr;
    *lock = std::unique_lock<std::mutex>(found->m);
    if (shard != nullptr) *shard = found;
    auto e = found->execs.find(handle);
    return e == found->execs.end() ? nullptr : &e->second;
}

void Spend(ExecShard &shard, unsigned long long handle) {  // shard.m held
    shard.spent.push_back(handle);
    if (shard.spent.size() > kSpentKept) {
        shard.execs.erase(shard.spent.front());
        shard.spent.pop_front();
    }
}

/* The registry's record of a stream handle (0: the default stream), or null. */
StreamPtr Registered(unsigned long long stream) {
    std::lock_guard<std::mutex> lock(g_rl);
    auto it = g_streams.find(stream);
    return it == g_streams.end() ? nullptr : it->second;
}

/* The same, through this thread's cache (the registry asked on a miss). */
StreamPtr FindStream(unsigned long long handle) {
    auto mine = t_streams.find(handle);
    if (mine != t_streams.end()) {
        if (!mine->second->dead.load(std::memory_order_acquire)) return mine->second;
        t_streams.erase(mine);
    }
    StreamPtr found = Registered(handle);
    if (found == nullptr) return nullptr;
    if (t_streams.size() >= 256) t_streams.clear();
    t_streams[handle] = found;
    return found;
}

/* Phase 2 of a C executor on a stream of ours (or the runtime's default one, handle 0), without
 * Python: true where it was queued. */
bool LaunchRemembered(unsigned long long handle, unsigned long long workspace, unsigned long long size,
                      aclrtStream stream) {
    if (!DeviceSet()) return false;
    StreamPtr cs = FindStream(H(stream));
    if (cs == nullptr) return false;
    std::unique_lock<std::mutex> lock;
    ExecShard *shard = nullptr;
    CExec *found = FindExec(handle, &lock, &shard);
    if (found == nullptr) return false;
    CExec &exec = *found;
    const Plan &plan = *exec.plan;
    if (exec.state != kPlanned || exec.python != 0 || plan.epoch != g_plan_epoch.load() ||
        (cs->device >= 0 && cs->device != plan.device) || !plan.Accepts(workspace, size))
        return false;
    {
        std::lock_guard<std::mutex> queue(cs->m);
        if (cs->PythonPending() || cs->dead.load()) return false;
        cs->queue.push_back(Launch{exec.plan, workspace, size});
    }
    exec.state = kLaunched;
    Spend(*shard, handle);
    return true;
}

/* Synchronize a stream of ours whose work is all remembered launches, without Python: true where
 * it did (every launch queued before it has run). */
bool SynchronizeRemembered(aclrtStream stream) {
    if (!g_remember || !DeviceSet()) return false;
    StreamPtr cs = FindStream(H(stream));
    if (cs == nullptr) return false;
    std::lock_guard<std::mutex> drain(cs->drain);
    for (bool first = true;; first = false) {
        PlanPtr plan;
        {
            std::lock_guard<std::mutex> lock(cs->m);
            if (first && (cs->PythonPending() || cs->dead.load())) return false;  // Python's to synchronize
            if (cs->queue.empty()) return true;
            plan = std::move(cs->queue.front().plan);
            cs->queue.pop_front();
        }
        g_flat_run(plan->lane, plan->a, plan->b, plan->out, plan->n);
        g_remembered.fetch_add(1, std::memory_order_relaxed);
    }
}

void PythonLaunched(unsigned long long stream) {
    if (StreamPtr cs = Registered(stream)) {
        std::lock_guard<std::mutex> lock(cs->m);
        ++cs->python_launched;
    }
}

/* Around a Python synchronize of `stream`: what it was launched with before (Before), then seen run
 * (After); a launch Python queued meanwhile stays pending. */
uint64_t PythonLaunchesBefore(unsigned long long stream) {
    StreamPtr cs = Registered(stream);
    if (cs == nullptr) return 0;
    std::lock_guard<std::mutex> lock(cs->m);
    return cs->python_launched;
}
void PythonSynchronized(unsigned long long stream, uint64_t launched) {
    if (StreamPtr cs = Registered(stream)) {
        std::lock_guard<std::mutex> lock(cs->m);
        if (launched > cs->python_synced) cs->python_synced = launched;
    }
}

/* Python's phase 2 of `executor` (GIL held): its status, any message noted. With a device, as if it
 * were this thread's (a launch settled by whichever thread settles it). */
int PythonPhase2(int api, unsigned long long workspace, unsigned long long size, unsigned long long executor,
                 unsigned long long stream, int device = -1) {
    const char *name = kApiNames[api];
    PyObject *phase2 = PhaseFunction(api, 1);
    if (phase2 == nullptr) {
        Note(std::string("opsnn: ") + name + " is declared but no operator provides it");
        return kAclnnInner;
    }
    /* a vectorcall of four ints: no argument tuple, no format string to read (every launch) */
    PyObject *args[4] = {PyLong_FromUnsignedLongLong(workspace), PyLong_FromUnsignedLongLong(size),
                         PyLong_FromUnsignedLongLong(executor), PyLong_FromUnsignedLongLong(stream)};
    PyObject *r = nullptr;
    if (args[0] && args[1] && args[2] && args[3]) {
        if (device < 0) {
            r = PyObject_Vectorcall(phase2, args, 4, nullptr);
        } else {
            PyObject *d = PyLong_FromLong(device);
            if (d != nullptr)
                r = PyObject_CallFunctionObjArgs(g_fn[F_WITH_DEVICE], d, phase2, args[0], args[1], args[2], args[3],
                                                 nullptr);
            Py_XDECREF(d);
        }
    }
    for (PyObject *a : args) Py_XDECREF(a);
    Py_DECREF(phase2);
    long status = kAclnnInner;
    if (r != nullptr) status = PyLong_AsLong(r);
    if (r == nullptr || PyErr_Occurred()) {
        Note(std::string("opsnn: ") + name + ": " + TakeException());
        status = kAclnnInner;
    } else if (status != 0) {
        TakeBridgeMessage();
    }
    Py_XDECREF(r);
    if (status == 0 && g_remember) PythonLaunched(stream);
    return static_cast<int>(status);
}

/* The bridge's executor for a plan: its phase 1 replayed on the plan's device (GIL held); 0 where
 * the replay did not plan (its message noted). */
unsigned long long Replay(const Plan &p) {
    PyObject *phase1 = PhaseFunction(p.api, 0);
    PyObject *args = ArgsTuple(p);
    PyObject *device = PyLong_FromLong(p.device);
    PyObject *r = phase1 && args && device ? PyObject_CallFunctionObjArgs(g_fn[F_WITH_DEVICE], device, phase1, args,
                                                                          nullptr)
                                           : nullptr;
    Py_XDECREF(phase1);
    Py_XDECREF(args);
    Py_XDECREF(device);
    int status = kAclnnInner;
    unsigned long long size = 0, handle = 0;
    const bool parsed = r != nullptr && ParseStatusSizeHandle(r, &status, &size, &handle);
    Py_XDECREF(r);
    if (!parsed) {
        Note(std::string("opsnn: ") + kApiNames[p.api] + "GetWorkspaceSize (replayed): " + TakeException());
        return 0;
    }
    if (status != 0) {
        TakeBridgeMessage();
        return 0;
    }
    return handle;
}

/* What the bridge is to see for an executor handle (GIL held): a C executor made a Python one
 * (once), a launched one marked run there; any other handle as it is. 0 where the replay failed. */
unsigned long long PythonExecutor(unsigned long long handle) {
    PlanPtr plan;
    ExecState state;
    {
        std::unique_lock<std::mutex> lock;
        CExec *exec = FindExec(handle, &lock);
        if (exec == nullptr) return handle;  // not ours, or long spent: the bridge judges it
        if (exec->python != 0) return exec->python;
        plan = exec->plan;
        state = exec->state;
    }
    const unsigned long long python = Replay(*plan);
    if (python != 0 && state != kPlanned) {
        PyObject *h = PyLong_FromUnsignedLongLong(python);
        PyObject *r = h ? PyObject_CallOneArg(g_fn[F_RAN], h) : nullptr;
        Py_XDECREF(h);
        Py_XDECREF(r);
        if (PyErr_Occurred()) PyErr_Clear();
    }
    std::unique_lock<std::mutex> lock;
    CExec *exec = FindExec(handle, &lock);
    if (exec != nullptr && python != 0) exec->python = python;
    return python;
}

/* After a Python phase 2 of a C executor succeeded: its workspace arguments do for the plan. */
void AcceptedWorkspace(unsigned long long handle, unsigned long long workspace, unsigned long long size) {
    std::unique_lock<std::mutex> lock;
    if (CExec *exec = FindExec(handle, &lock)) exec->plan->Accepted(workspace, size);
}

void DestroyedExecutor(unsigned long long handle) {
    std::unique_lock<std::mutex> lock;
    ExecShard *shard = nullptr;
    CExec *exec = FindExec(handle, &lock, &shard);
    if (exec != nullptr && exec->state == kPlanned) {
        exec->state = kDestroyed;
        Spend(*shard, handle);
    }
}

enum Settling { kObserving, kChanging, kContext };

/* Before Python sees memory or streams (kObserving): every queued remembered launch handed to its
 * Python stream, in order. Before it changes what plans assume (kChanging; kContext: device
 * contexts too): first every plan forgotten (no call is remembered from here on), then the queued
 * launches handed over, then every C executor not yet launched made a Python one, while what it
 * planned still holds. g_settle held by the caller, the GIL not. */
void Settle(Settling how) {
    Gil gil;
    std::vector<unsigned long long> planned;
    if (how != kObserving) {
        LockShards();
        g_plan_epoch.fetch_add(1);
        if (how == kContext) g_ctx_epoch.fetch_add(1);
        for (size_t i = 0, n = g_shard_count.load(); i < n; ++i)
            for (auto &[handle, exec] : g_shards[i].load()->execs)
                if (exec.state == kPlanned && exec.python == 0) planned.push_back(handle);
        UnlockShards();
        std::lock_guard<std::mutex> lock(g_rl);
        g_plans.clear();
        g_taught.clear();
    }
    std::vector<std::pair<unsigned long long, StreamPtr>> streams;
    {
        std::lock_guard<std::mutex> lock(g_rl);
        streams.assign(g_streams.begin(), g_streams.end());
    }
    for (auto &[handle, cs] : streams) {
        std::deque<Launch> queued;
        {
            std::lock_guard<std::mutex> drain(cs->drain);
            std::lock_guard<std::mutex> lock(cs->m);
            queued.swap(cs->queue);  // (each counted as Python's by its PythonPhase2 below)
        }
        for (const Launch &launch : queued) {
            const Plan &plan = *launch.plan;
            const unsigned long long python = Replay(plan);
            if (python != 0) PythonPhase2(plan.api, launch.workspace, launch.workspace_size, python, handle, plan.device);
        }
    }
    for (unsigned long long handle : planned) PythonExecutor(handle);
    if (how == kContext) {
        std::lock_guard<std::mutex> lock(g_rl);
        for (auto &entry : g_streams) entry.second->dead.store(true);
        g_streams.clear();
    }
}

/* The stream registry's side of the runtime calls (after Python succeeded). */
void SetDeviceDone(int device) {
    t_device = device;
    t_ctx_epoch = g_ctx_epoch.load();
    std::lock_guard<std::mutex> lock(g_rl);
    if (g_remember && g_streams.count(0) == 0) {  /* the runtime's default stream, as NULL names it */
        auto made = std::make_shared<CStream>();
        made->device = -1;
        made->python_launched = 1;  /* what Python queued there is not known here: pending */
        g_streams[0] = std::move(made);
    }
}

void StreamCreated(unsigned long long handle) {
    if (!g_remember || !DeviceSet()) return;  /* made on this thread's device (the runtime's rule) */
    auto made = std::make_shared<CStream>();
    made->device = t_device;
    std::lock_guard<std::mutex> lock(g_rl);
    g_streams[handle] = std::move(made);
}

void StreamDestroyed(unsigned long long handle) {
    std::lock_guard<std::mutex> lock(g_rl);
    auto it = g_streams.find(handle);
    if (it == g_streams.end()) return;
    it->second->dead.store(true);
    g_streams.erase(it);
}

/* Settles (above) for the length of one call that goes to Python. */
class Settled {
public:
    explicit Settled(Settling how) {
        if (!g_remember) return;
        lock_ = std::unique_lock<std::mutex>(g_settle);
        Settle(how);
    }

private:
    std::unique_lock<std::mutex> lock_;
};


/* The standard library `program` would start with: $PYTHONHOME's, else a venv's base (the `home`
 * of its pyvenv.cfg), else the one beside the (resolved) program, else the building Python's.
 * Checked before starting, so a Python that cannot start is our one line: CPython's own failure
 * dumps its whole path configuration on stderr, and hiding that would mean pointing fd 2 away
 * from the program's other threads. */
bool StdlibFound(const std::string &program, std::string *why) {
    const std::string tail = "/lib/python" + std::to_string(PY_MAJOR_VERSION) + "." +
                             std::to_string(PY_MINOR_VERSION) + "/os.py";
    const char *home = getenv("PYTHONHOME");
    if (home != nullptr && *home != '\0') {
        std::string prefix(home);
        prefix = prefix.substr(0, prefix.find(':'));
        if (IsFile(prefix + tail)) return true;
        *why = "PYTHONHOME=" + std::string(home) + " holds no Python " + std::to_string(PY_MAJOR_VERSION) + "." +
               std::to_string(PY_MINOR_VERSION) + " standard library";
        return false;
    }
    if (access(program.c_str(), X_OK) != 0) {
        *why = "no Python at " + program + " (OPSNN_CAPI_PYTHON names the interpreter to start)";
        return false;
    }
    std::string dir = program.substr(0, program.find_last_of('/'));
    for (const std::string &cfg : {dir + "/pyvenv.cfg", dir + "/../pyvenv.cfg"}) {
        FILE *f = fopen(cfg.c_str(), "r");
        if (f == nullptr) continue;
        char line[4096];
        while (fgets(line, sizeof line, f) != nullptr) {
            std::string text(line);
            if (text.compare(0, 4, "home") != 0) continue;
            size_t eq = text.find('=');
            if (eq == std::string::npos) continue;
            std::string value = text.substr(eq + 1);
            value.erase(0, value.find_first_not_of(" \t"));
            value.erase(value.find_last_not_of(" \t\r\n") + 1);
            if (IsFile(value + "/.." + tail)) {
                fclose(f);
                return true;
            }
        }
        fclose(f);
    }
    char resolved[PATH_MAX];
    if (realpath(program.c_str(), resolved) != nullptr) {
        std::string real(resolved);
        if (IsFile(real.substr(0, real.find_last_of('/')) + "/.." + tail)) return true;
    }
    if (IsFile(dir + "/.." + tail) || IsFile(std::string(OPSNN_CAPI_STDLIB) + "/os.py")) return true;
    *why = "cannot find the standard library of " + program;
    return false;
}

/* fork(): the child must not inherit a GIL another thread holds (its first acl call would wait
 * for it forever). The forking thread takes the GIL before the fork and each side puts the
 * interpreter right after it, as os.fork does (the child keeps only the forking thread's state). */
PyGILState_STATE g_fork_gil;
bool g_fork_held = false;

void ForkPrepare() {
    if (!g_started) return;
    g_settle.lock();  /* the remembered launches' locks too, in their order (g_settle, GIL, g_rl, shards) */
    g_fork_gil = PyGILState_Ensure();
    PyOS_BeforeFork();
    g_rl.lock();
    LockShards();
    g_fork_held = true;
}

void ForkParent() {
    if (!g_fork_held) return;
    g_fork_held = false;
    UnlockShards();
    g_rl.unlock();
    PyOS_AfterFork_Parent();
    PyGILState_Release(g_fork_gil);
    g_settle.unlock();
}

void ForkChild() {
    if (!g_fork_held) return;
    g_fork_held = false;
    /* a stream's drain may be held by a thread the child does not have: each stream anew, its
     * queued launches kept */
    for (auto &entry : g_streams) {
        auto fresh = std::make_shared<CStream>();
        fresh->device = entry.second->device;
        fresh->python_launched = entry.second->python_launched;
        fresh->python_synced = entry.second->python_synced;
        fresh->queue = entry.second->queue;
        entry.second->dead.store(true);  /* (this thread's cache looks again) */
        static auto *abandoned = new std::vector<StreamPtr>;  /* never destroyed: a held mutex may not be */
        abandoned->push_back(std::move(entry.second));
        entry.second = std::move(fresh);
    }
    UnlockShards();
    g_rl.unlock();
    PyOS_AfterFork_Child();  /* runs the bridge's os.register_at_fork hook: its locks made anew */
    PyGILState_Release(g_fork_gil);
    g_settle.unlock();
}

void StartOnce() {
    std::string error;
    if (Py_IsInitialized()) {  /* loaded into a running Python (ctypes): share its interpreter */
        /* (its os.fork already prepares the interpreter; no fork handlers of ours) */
        PyGILState_STATE state = PyGILState_Ensure();
        g_started = LoadBridge(&error);
        PyGILState_Release(state);
    } else {
        PyConfig config;
        PyConfig_InitPythonConfig(&config);
        config.install_signal_handlers = 0;  /* Ctrl-C and friends stay the program's */
        config.parse_argv = 0;
        /* The interpreter finds its prefix (a venv through pyvenv.cfg) from its program name:
         * $OPSNN_CAPI_PYTHON, else the Python that built this library (its environment's), else
         * the venv this library sits in. */
        std::string program = getenv("OPSNN_CAPI_PYTHON") ? getenv("OPSNN_CAPI_PYTHON") : "";
        if (program.empty()) program = access(OPSNN_CAPI_PYTHON, X_OK) == 0 ? OPSNN_CAPI_PYTHON : VenvPython();
        PyStatus status = PyStatus_Ok();
        if (program.empty() || !StdlibFound(program, &error)) {
            if (error.empty()) error = "no Python to start (set OPSNN_CAPI_PYTHON)";
            PyConfig_Clear(&config);
        } else {
            status = PyConfig_SetBytesString(&config, &config.program_name, program.c_str());
            if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
            PyConfig_Clear(&config);
            if (PyStatus_Exception(status)) {
                error = std::string("Python did not start: ") + (status.err_msg ? status.err_msg : "unknown error");
            } else {
                g_started = LoadBridge(&error);
                /* (not inside a Python process: see remembered launches) */
                const char *remember = getenv("OPSNN_CAPI_REMEMBER");
                g_remember = g_started && !(remember != nullptr && std::strcmp(remember, "0") == 0);
                t_pinned = true;  /* the main thread state of the new interpreter is this thread's */
                PyEval_SaveThread();
                if (g_started) pthread_atfork(ForkPrepare, ForkParent, ForkChild);
            }
        }
    }
    if (!g_started) {
        g_start_error = "opsnn: the acl C interface cannot start Python: " + error;
        fprintf(stderr, "%s\n", g_start_error.c_str());
        fflush(stderr);
    }
}

bool Start() {
    std::call_once(g_once, StartOnce);
    if (!g_started) Note(g_start_error);
    return g_started;
}

/* The bridge's message for the failure it just reported (it keeps one per thread). */
void TakeBridgeMessage() {
    PyObject *m = PyObject_CallNoArgs(g_fn[F_TAKE_MESSAGE]);
    const char *utf8 = (m != nullptr && PyUnicode_Check(m)) ? PyUnicode_AsUTF8(m) : nullptr;
    if (utf8 != nullptr) Note(utf8);
    if (PyErr_Occurred()) PyErr_Clear();
    Py_XDECREF(m);
}

/* Call bridge function `fn` with Py_BuildValue arguments; NULL (and the message noted) on an
 * exception. The GIL must be held. */
PyObject *CallV(Fn fn, const char *where, const char *fmt, va_list va) {
    PyObject *args = Py_VaBuildValue(fmt, va);
    PyObject *result = nullptr;
    if (args != nullptr) {
        result = PyObject_Call(g_fn[fn], args, nullptr);
        Py_DECREF(args);
    }
    if (result == nullptr) Note(std::string("opsnn: ") + where + ": " + TakeException());
    return result;
}

PyObject *Call(Fn fn, const char *where, const char *fmt, ...) {
    va_list va;
    va_start(va, fmt);
    PyObject *r = CallV(fn, where, fmt, va);
    va_end(va);
    return r;
}

/* A call whose result is a status; `internal` is returned on an exception. */
int CallStatus(int internal, Fn fn, const char *where, const char *fmt, ...) {
    if (!Start()) return internal == kAclnnInner ? kAclnnInner : ACL_ERROR_FAILURE;
    Gil gil;
    va_list va;
    va_start(va, fmt);
    PyObject *r = CallV(fn, where, fmt, va);
    va_end(va);
    if (r == nullptr) return internal;
    long status = PyLong_AsLong(r);
    Py_DECREF(r);
    if (PyErr_Occurred()) {
        Note(std::string("opsnn: ") + where + ": " + TakeException());
        return internal;
    }
    if (status != 0) TakeBridgeMessage();
    return static_cast<int>(status);
}

/* Parse a (status, value) result: the status, and *value when it is 0. */
int StatusAndULL(PyObject *r, int internal, const char *where, unsigned long long *value) {
    int status = internal;
    unsigned long long v = 0;
    if (r != nullptr && PyArg_ParseTuple(r, "iK", &status, &v)) {
        if (status == 0) *value = v;
        else TakeBridgeMessage();
    } else {
        if (r != nullptr) Note(std::string("opsnn: ") + where + ": " + TakeException());
        status = internal;
    }
    Py_XDECREF(r);
    return status;
}

PyObject *Int64Tuple(const int64_t *values, uint64_t n) {
    PyObject *t = PyTuple_New(static_cast<Py_ssize_t>(n));
    for (uint64_t i = 0; t != nullptr && i < n; ++i) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (v == nullptr) {
            Py_DECREF(t);
            return nullptr;
        }
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), v);
    }
    return t;
}

/* Host bytes as a memoryview for the bridge to wrap (None for NULL or an impossible size). */
PyObject *HostView(const void *p, size_t n, bool writable) {
    if (p == nullptr || n == 0 || n > static_cast<size_t>(PY_SSIZE_T_MAX)) Py_RETURN_NONE;
    return PyMemoryView_FromMemory(static_cast<char *>(const_cast<void *>(p)), static_cast<Py_ssize_t>(n),
                                   writable ? PyBUF_WRITE : PyBUF_READ);
}

/* The bytes aclCreateScalar reads for a data type (0: a type it does not take). */
size_t ScalarBytes(aclDataType t) {
    switch (t) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        default: return 0;
    }
}

/* A tensor/array description as a handle (0: refused). The GIL must be held. */
void *HandleFrom(PyObject *r, const char *where) {
    unsigned long long h = 0;
    if (r == nullptr) return nullptr;
    h = PyLong_AsUnsignedLongLong(r);
    Py_DECREF(r);
    if (PyErr_Occurred()) {
        Note(std::string("opsnn: ") + where + ": " + TakeException());
        return nullptr;
    }
    if (h == 0) TakeBridgeMessage();
    return reinterpret_cast<void *>(static_cast<uintptr_t>(h));
}

PyObject *TensorArgs(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                     int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                     void *tensorData) {
    PyObject *dims = Int64Tuple(viewDims, viewDimsNum);
    PyObject *strides = nullptr;
    if (stride == nullptr) {
        strides = Py_None;
        Py_INCREF(strides);
    } else {
        strides = Int64Tuple(stride, viewDimsNum);
    }
    PyObject *storage = Int64Tuple(storageDims, storageDimsNum);
    PyObject *args = nullptr;
    if (dims != nullptr && strides != nullptr && storage != nullptr)
        args = Py_BuildValue("(OiOLiOK)", dims, static_cast<int>(dataType), strides, static_cast<long long>(offset),
                             static_cast<int>(format), storage, H(tensorData));
    Py_XDECREF(dims);
    Py_XDECREF(strides);
    Py_XDECREF(storage);
    return args;
}

/* aclGetViewShape and its family: a tuple of int64 into a new[] array. */
aclnnStatus GetDims(const aclTensor *tensor, const char *what, int64_t **out, uint64_t *num, const char *where) {
    if (tensor == nullptr || out == nullptr || num == nullptr) {
        Note(std::string(where) + ": tensor and the output pointers must not be nullptr");
        return kAclnnNullptr;
    }
    if (!Start()) return kAclnnInner;
    Gil gil;
    PyObject *r = Call(F_TENSOR_INFO, where, "(Ks)", H(tensor), what);
    int status = kAclnnInner;
    PyObject *values = nullptr;
    if (r != nullptr && PyArg_ParseTuple(r, "iO", &status, &values)) {
        if (status == 0) {
            Py_ssize_t n = PyTuple_Check(values) ? PyTuple_GET_SIZE(values) : 0;
            int64_t *dims = new int64_t[n > 0 ? n : 0];
            for (Py_ssize_t i = 0; i < n; ++i) dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(values, i));
            *out = dims;
            *num = static_cast<uint64_t>(n);
        } else {
            TakeBridgeMessage();
        }
    } else if (r != nullptr) {
        Note(std::string("opsnn: ") + where + ": " + TakeException());
        status = kAclnnInner;
    }
    Py_XDECREF(r);
    return status;
}

aclnnStatus GetInt(const aclTensor *tensor, const char *what, long long *out, const char *where) {
    if (tensor == nullptr || out == nullptr) {
        Note(std::string(where) + ": tensor and the output pointer must not be nullptr");
        return kAclnnNullptr;
    }
    if (!Start()) return kAclnnInner;
    Gil gil;
    PyObject *r = Call(F_TENSOR_INFO, where, "(Ks)", H(tensor), what);
    int status = kAclnnInner;
    long long v = 0;
    if (r != nullptr && PyArg_ParseTuple(r, "iL", &status, &v)) {
        if (status == 0) *out = v;
        else TakeBridgeMessage();
    } else if (r != nullptr) {
        Note(std::string("opsnn: ") + where + ": " + TakeException());
        status = kAclnnInner;
    }
    Py_XDECREF(r);
    return status;
}

void *CreateArray(const char *kind, PyObject *values, const char *where) {
    if (values == nullptr) {
        Note(std::string("opsnn: ") + where + ": " + TakeException());
        return nullptr;
    }
    PyObject *r = Call(F_CREATE_ARRAY, where, "(sO)", kind, values);
    Py_DECREF(values);
    return HandleFrom(r, where);
}

aclnnStatus Destroy(const char *kind, const void *handle, const char *where) {
    if (handle == nullptr) return 0;
    Settled settled(kChanging);
    return CallStatus(kAclnnInner, F_DESTROY, where, "(sK)", kind, H(handle));
}

}  // namespace

aclnnStatus Phase1(int api, uint64_t *workspaceSize, aclOpExecutor **executor, const char *fmt, ...) {
    const char *name = (api >= 0 && api < kApiCount) ? kApiNames[api] : "aclnn";
    if (workspaceSize == nullptr || executor == nullptr) {
        Note(std::string(name) + "GetWorkspaceSize: workspaceSize and executor must not be nullptr");
        return kAclnnNullptr;
    }
    *workspaceSize = 0;
    *executor = nullptr;
    if (!Start()) return kAclnnInner;
    va_list va;
    va_start(va, fmt);
    std::vector<uint64_t> bits;
    std::string key;
    const int device = t_device;
    if (g_remember && device >= 0) {
        va_list copy;
        va_copy(copy, va);
        if (ReadArgs(fmt, copy, &bits)) key = PlanKey(api, device, bits);
        va_end(copy);
        if (const unsigned long long remembered = key.empty() ? 0 : Recall(key, workspaceSize)) {
            va_end(va);
            *executor = reinterpret_cast<aclOpExecutor *>(static_cast<uintptr_t>(remembered));
            return 0;
        }
    }
    Gil gil;
    const uint64_t epoch = g_plan_epoch.load();  /* before Python plans: a change meanwhile outdates it */
    PyObject *phase1 = PhaseFunction(api, 0);
    if (phase1 == nullptr) {
        va_end(va);
        Note(std::string("opsnn: ") + name + " is declared but no operator provides it");
        return kAclnnInner;
    }
    PyObject *args = Py_VaBuildValue(fmt, va);
    va_end(va);
    PyObject *r = args ? PyObject_CallOneArg(phase1, args) : nullptr;
    Py_XDECREF(args);
    Py_DECREF(phase1);
    int status = kAclnnInner;
    unsigned long long size = 0, handle = 0;
    if (r != nullptr && ParseStatusSizeHandle(r, &status, &size, &handle)) {
        if (status == 0) {
            *workspaceSize = size;
            *executor = reinterpret_cast<aclOpExecutor *>(static_cast<uintptr_t>(handle));
            if (!key.empty() && PyTuple_GET_SIZE(r) == 4 && PyTuple_GET_ITEM(r, 3) != Py_None)
                Remember(api, fmt, std::move(bits), key, epoch, device, size, handle, PyTuple_GET_ITEM(r, 3));
        } else {
            TakeBridgeMessage();
        }
    } else {
        Note(std::string("opsnn: ") + name + "GetWorkspaceSize: " + TakeException());
        status = kAclnnInner;
    }
    Py_XDECREF(r);
    return status;
}

aclnnStatus Phase2(int api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    const unsigned long long size = static_cast<unsigned long long>(workspaceSize);
    if (g_remember && IsCExec(executor) && LaunchRemembered(H(executor), H(workspace), size, stream)) return 0;
    if (!Start()) return kAclnnInner;
    Settled settled(kObserving);  // remembered launches queued before this one go first
    Gil gil;
    const unsigned long long handle = IsCExec(executor) ? PythonExecutor(H(executor)) : H(executor);
    const int status = PythonPhase2(api, H(workspace), size, handle, H(stream));
    if (status == 0 && IsCExec(executor)) AcceptedWorkspace(H(executor), H(workspace), size);
    else if (status == 0 && g_remember) AcceptedWorkspaceOf(handle, H(workspace), size);
    return status;
}

}  // namespace opsnn_capi

using namespace opsnn_capi;

/* ---- runtime ------------------------------------------------------------------------------ */

EXPORT aclError aclInit(const char *configPath) {
    (void)configPath;  /* a JSON of dump/profiling options on a device: nothing to configure here */
    Settled settled(kContext);
    return CallStatus(ACL_ERROR_INTERNAL_ERROR, F_INIT, "aclInit", "()");
}

EXPORT aclError aclFinalize(void) {
    Settled settled(kContext);
    return CallStatus(ACL_ERROR_INTERNAL_ERROR, F_FINALIZE, "aclFinalize", "()");
}

EXPORT aclnnStatus aclnnInit(const char *configPath) {
    (void)configPath;
    return Start() ? 0 : kAclnnInner;
}

EXPORT aclnnStatus aclnnFinalize(void) { return 0; }

EXPORT const char *aclGetRecentErrMsg(void) {
    if (t_pending.empty()) return nullptr;
    t_returned.swap(t_pending);
    t_pending.clear();
    return t_returned.c_str();
}

EXPORT aclError aclrtSetDevice(int32_t deviceId) {
    const int status = CallStatus(ACL_ERROR_INTERNAL_ERROR, F_SET_DEVICE, "aclrtSetDevice", "(i)", deviceId);
    if (status == ACL_SUCCESS) SetDeviceDone(deviceId);
    return status;
}

EXPORT aclError aclrtResetDevice(int32_t deviceId) {
    Settled settled(kContext);
    return CallStatus(ACL_ERROR_INTERNAL_ERROR, F_RESET_DEVICE, "aclrtResetDevice", "(i)", deviceId);
}

EXPORT aclError aclrtGetDeviceCount(uint32_t *count) {
    if (count == nullptr) {
        Note("aclrtGetDeviceCount: count must not be nullptr");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!Start()) return ACL_ERROR_FAILURE;
    Gil gil;
    unsigned long long n = 0;
    int status = StatusAndULL(Call(F_DEVICE_COUNT, "aclrtGetDeviceCount", "()"), ACL_ERROR_INTERNAL_ERROR,
                              "aclrtGetDeviceCount", &n);
    if (status == 0) *count = static_cast<uint32_t>(n);
    return status;
}

/* opsnn_capi.h: how many aclnn launches ran without Python (remembered launches). */
EXPORT uint64_t opsnnRememberedLaunches(void) { return g_remembered.load(std::memory_order_relaxed); }

/* opsnn_capi.h: "fast" or "emulator" (static strings), NULL before aclInit. */
EXPORT const char *opsnnGetDeviceMode(void) {
    if (!Start()) return nullptr;
    Gil gil;
    PyObject *r = Call(F_DEVICE_MODE, "opsnnGetDeviceMode", "()");
    if (r == nullptr) return nullptr;
    const char *utf8 = PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : nullptr;
    const char *mode = nullptr;
    if (utf8 != nullptr && std::strcmp(utf8, "fast") == 0) mode = "fast";
    if (utf8 != nullptr && std::strcmp(utf8, "emulator") == 0) mode = "emulator";
    if (mode == nullptr) TakeBridgeMessage();
    if (PyErr_Occurred()) PyErr_Clear();
    Py_DECREF(r);
    return mode;
}

EXPORT const char *aclrtGetSocName(void) {
    static std::mutex lock;
    static std::unordered_set<std::string> names;  /* node-based: each name's storage is stable */
    if (!Start()) return nullptr;
    std::string name;
    {
        Gil gil;
        PyObject *r = Call(F_SOC_NAME, "aclrtGetSocName", "()");
        if (r == nullptr) return nullptr;
        const char *utf8 = PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : nullptr;
        if (utf8 == nullptr) TakeBridgeMessage();
        else name = utf8;
        if (PyErr_Occurred()) PyErr_Clear();
        Py_DECREF(r);
        if (utf8 == nullptr) return nullptr;
    }
    std::lock_guard<std::mutex> guard(lock);
    return names.insert(name).first->c_str();
}

EXPORT aclError aclrtCreateStream(aclrtStream *stream) {
    if (stream == nullptr) {
        Note("aclrtCreateStream: stream must not be nullptr");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!Start()) return ACL_ERROR_FAILURE;
    Gil gil;
    unsigned long long h = 0;
    int status = StatusAndULL(Call(F_CREATE_STREAM, "aclrtCreateStream", "()"), ACL_ERROR_INTERNAL_ERROR,
                              "aclrtCreateStream", &h);
    if (status == 0) {
        *stream = reinterpret_cast<aclrtStream>(static_cast<uintptr_t>(h));
        StreamCreated(h);
    }
    return status;
}

EXPORT aclError aclrtDestroyStream(aclrtStream stream) {
    if (stream == nullptr) {  /* the default stream is the device's: not a program's to destroy */
        Note("aclrtDestroyStream: stream is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    Settled settled(kChanging);
    const int status =
        CallStatus(ACL_ERROR_INTERNAL_ERROR, F_DESTROY_STREAM, "aclrtDestroyStream", "(K)", H(stream));
    if (status == ACL_SUCCESS) StreamDestroyed(H(stream));
    return status;
}

EXPORT aclError aclrtSynchronizeStream(aclrtStream stream) {
    if (SynchronizeRemembered(stream)) return ACL_SUCCESS;
    Settled settled(kObserving);
    const uint64_t launched = g_remember ? PythonLaunchesBefore(H(stream)) : 0;
    const int status =
        CallStatus(ACL_ERROR_INTERNAL_ERROR, F_SYNC_STREAM, "aclrtSynchronizeStream", "(K)", H(stream));
    if (g_remember) PythonSynchronized(H(stream), launched);  /* drained, or dropped on a fault */
    return status;
}

EXPORT aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    if (devPtr == nullptr) {
        Note("aclrtMalloc: devPtr must not be nullptr");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!Start()) return ACL_ERROR_FAILURE;
    Settled settled(kChanging);
    Gil gil;
    unsigned long long p = 0;
    int status = StatusAndULL(Call(F_MALLOC, "aclrtMalloc", "(Ki)", static_cast<unsigned long long>(size),
                                   static_cast<int>(policy)),
                              ACL_ERROR_INTERNAL_ERROR, "aclrtMalloc", &p);
    if (status == 0) *devPtr = reinterpret_cast<void *>(static_cast<uintptr_t>(p));
    return status;
}

EXPORT aclError aclrtFree(void *devPtr) {
    if (devPtr == nullptr) {
        Note("aclrtFree: devPtr is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    Settled settled(kChanging);
    return CallStatus(ACL_ERROR_INTERNAL_ERROR, F_FREE, "aclrtFree", "(K)", H(devPtr));
}

EXPORT aclError aclrtMallocHost(void **hostPtr, size_t size) {
    /* Host memory is the program's own: plain aligned malloc; aclrtMemcpy takes any host address. */
    if (hostPtr == nullptr || size == 0) {
        Note("aclrtMallocHost: hostPtr must not be nullptr and size must be > 0");
        return ACL_ERROR_INVALID_PARAM;
    }
    void *p = nullptr;
    if (posix_memalign(&p, 64, size) != 0) {
        Note("aclrtMallocHost: out of host memory");
        return ACL_ERROR_BAD_ALLOC;
    }
    *hostPtr = p;
    return ACL_SUCCESS;
}

EXPORT aclError aclrtFreeHost(void *hostPtr) {
    if (hostPtr == nullptr) {
        Note("aclrtFreeHost: hostPtr must not be nullptr");
        return ACL_ERROR_INVALID_PARAM;
    }
    free(hostPtr);
    return ACL_SUCCESS;
}

EXPORT aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    if (!Start()) return ACL_ERROR_FAILURE;
    Settled settled(kObserving);
    Gil gil;
    /* The sides the kind says may be host memory go as memoryviews; the runtime decides. */
    bool src_host = kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEFAULT;
    bool dst_host = kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEFAULT;
    PyObject *dst_view = dst_host && count <= destMax ? HostView(dst, count, true) : (Py_INCREF(Py_None), Py_None);
    PyObject *src_view = src_host ? HostView(src, count, false) : (Py_INCREF(Py_None), Py_None);
    int status = ACL_ERROR_INTERNAL_ERROR;
    if (dst_view != nullptr && src_view != nullptr) {
        PyObject *r = Call(F_MEMCPY, "aclrtMemcpy", "(KKKKiOO)", H(dst), static_cast<unsigned long long>(destMax),
                           H(src), static_cast<unsigned long long>(count), static_cast<int>(kind), dst_view, src_view);
        if (r != nullptr) {
            status = static_cast<int>(PyLong_AsLong(r));
            Py_DECREF(r);
            if (PyErr_Occurred()) {
                Note(std::string("opsnn: aclrtMemcpy: ") + TakeException());
                status = ACL_ERROR_INTERNAL_ERROR;
            } else {
                TakeBridgeMessage();  /* a failure's reason, or a successful copy's race warning */
            }
        }
    } else {
        Note(std::string("opsnn: aclrtMemcpy: ") + TakeException());
    }
    Py_XDECREF(dst_view);
    Py_XDECREF(src_view);
    return status;
}

EXPORT aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    Settled settled(kObserving);
    return CallStatus(ACL_ERROR_INTERNAL_ERROR, F_MEMSET, "aclrtMemset", "(KKiK)", H(devPtr),
                      static_cast<unsigned long long>(maxCount), value, static_cast<unsigned long long>(count));
}

/* ---- fp16 ---------------------------------------------------------------------------------- */

EXPORT float aclFloat16ToFloat(aclFloat16 value) {
    int exponent = (value >> 10) & 0x1f;
    int mantissa = value & 0x3ff;
    /* The all-ones exponent is read as an ordinary one, as CANN does: +inf -> 65536, NaN -> 98304. */
    float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                    : std::ldexp(1.0f + mantissa / 1024.0f, exponent - 15);
    return (value & 0x8000) ? -magnitude : magnitude;
}

EXPORT aclFloat16 aclFloatToFloat16(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
    if (std::isnan(value)) return 0x7bff;
    uint32_t magnitude = bits & 0x7fffffff;
    int exponent = static_cast<int>(magnitude >> 23) - 127;
    uint32_t mantissa = magnitude & 0x7fffff;
    if (exponent < -25) return sign;  /* below half the smallest subnormal: zero */
    if (exponent < -14) {             /* an fp16 subnormal: round(|value| * 2^24), ties to even */
        mantissa |= 0x800000;
        int shift = -(exponent + 1);
        uint32_t half = mantissa >> shift, rest = mantissa & ((1u << shift) - 1), tie = 1u << (shift - 1);
        if (rest > tie || (rest == tie && (half & 1))) ++half;
        return static_cast<aclFloat16>(sign | half);
    }
    if (exponent > 15) return static_cast<aclFloat16>(sign | 0x7bff);  /* saturates, +-inf included */
    uint32_t h = (static_cast<uint32_t>(exponent + 15) << 10) | (mantissa >> 13), rest = mantissa & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
    if (h >= 0x7c00) h = 0x7bff;
    return static_cast<aclFloat16>(sign | h);
}

/* ---- meta ---------------------------------------------------------------------------------- */

EXPORT aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                  const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                                  uint64_t storageDimsNum, void *tensorData) {
    if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0)) {
        Note("aclCreateTensor: viewDims/storageDims is nullptr with a non-zero length");
        return nullptr;
    }
    if (!Start()) return nullptr;
    Gil gil;
    PyObject *args = TensorArgs(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                                tensorData);
    if (args == nullptr) {
        Note(std::string("opsnn: aclCreateTensor: ") + TakeException());
        return nullptr;
    }
    PyObject *r = PyObject_Call(g_fn[F_CREATE_TENSOR], args, nullptr);
    Py_DECREF(args);
    if (r == nullptr) Note(std::string("opsnn: aclCreateTensor: ") + TakeException());
    return static_cast<aclTensor *>(HandleFrom(r, "aclCreateTensor"));
}

EXPORT aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                 const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                                 uint64_t storageDimsNum, void *tensorData) {
    if (tensor == nullptr || (viewDims == nullptr && viewDimsNum > 0) ||
        (storageDims == nullptr && storageDimsNum > 0)) {
        Note("aclInitTensor: tensor is nullptr, or viewDims/storageDims is nullptr with a non-zero length");
        return kAclnnNullptr;
    }
    if (!Start()) return kAclnnInner;
    Settled settled(kChanging);
    Gil gil;
    PyObject *desc = TensorArgs(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                                tensorData);
    PyObject *r = desc ? Call(F_INIT_TENSOR, "aclInitTensor", "(KO)", H(tensor), desc) : nullptr;
    Py_XDECREF(desc);
    if (r == nullptr) {
        if (PyErr_Occurred()) Note(std::string("opsnn: aclInitTensor: ") + TakeException());
        return kAclnnInner;
    }
    long status = PyLong_AsLong(r);
    Py_DECREF(r);
    if (PyErr_Occurred()) {
        Note(std::string("opsnn: aclInitTensor: ") + TakeException());
        return kAclnnInner;
    }
    if (status != 0) TakeBridgeMessage();
    return static_cast<aclnnStatus>(status);
}

EXPORT aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    if (value == nullptr) {
        Note("aclCreateScalar: value is nullptr");
        return nullptr;
    }
    if (!Start()) return nullptr;
    Gil gil;
    /* Read now, by the data type's size: the caller's variable may die after this call. */
    size_t n = ScalarBytes(dataType);
    PyObject *r = Call(F_CREATE_SCALAR, "aclCreateScalar", "(y#i)", static_cast<const char *>(value),
                       static_cast<Py_ssize_t>(n), static_cast<int>(dataType));
    return static_cast<aclScalar *>(HandleFrom(r, "aclCreateScalar"));
}

EXPORT aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    if (value == nullptr && size > 0) return nullptr;
    if (!Start()) return nullptr;
    Gil gil;
    return static_cast<aclIntArray *>(CreateArray("int", Int64Tuple(value, size), "aclCreateIntArray"));
}

EXPORT aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
    if (value == nullptr && size > 0) return nullptr;
    if (!Start()) return nullptr;
    Gil gil;
    PyObject *t = PyTuple_New(static_cast<Py_ssize_t>(size));
    for (uint64_t i = 0; t != nullptr && i < size; ++i)
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyFloat_FromDouble(value[i]));
    return static_cast<aclFloatArray *>(CreateArray("float", t, "aclCreateFloatArray"));
}

EXPORT aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
    if (value == nullptr && size > 0) return nullptr;
    if (!Start()) return nullptr;
    Gil gil;
    PyObject *t = PyTuple_New(static_cast<Py_ssize_t>(size));
    for (uint64_t i = 0; t != nullptr && i < size; ++i)
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyBool_FromLong(value[i]));
    return static_cast<aclBoolArray *>(CreateArray("bool", t, "aclCreateBoolArray"));
}

namespace {
PyObject *HandleTuple(const void *const *value, uint64_t size) {
    PyObject *t = PyTuple_New(static_cast<Py_ssize_t>(size));
    for (uint64_t i = 0; t != nullptr && i < size; ++i)
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyLong_FromUnsignedLongLong(H(value[i])));
    return t;
}
}  // namespace

EXPORT aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    if (value == nullptr && size > 0) return nullptr;
    if (!Start()) return nullptr;
    Gil gil;
    return static_cast<aclTensorList *>(
        CreateArray("tensor", HandleTuple(reinterpret_cast<const void *const *>(value), size), "aclCreateTensorList"));
}

EXPORT aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
    if (value == nullptr && size > 0) return nullptr;
    if (!Start()) return nullptr;
    Gil gil;
    return static_cast<aclScalarList *>(
        CreateArray("scalar", HandleTuple(reinterpret_cast<const void *const *>(value), size), "aclCreateScalarList"));
}

EXPORT aclnnStatus aclDestroyTensor(const aclTensor *tensor) { return Destroy("tensor", tensor, "aclDestroyTensor"); }
EXPORT aclnnStatus aclDestroyScalar(const aclScalar *scalar) { return Destroy("scalar", scalar, "aclDestroyScalar"); }
EXPORT aclnnStatus aclDestroyIntArray(const aclIntArray *array) { return Destroy("int", array, "aclDestroyIntArray"); }
EXPORT aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
    return Destroy("float", array, "aclDestroyFloatArray");
}
EXPORT aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) { return Destroy("bool", array, "aclDestroyBoolArray"); }
EXPORT aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    return Destroy("tensor", array, "aclDestroyTensorList");
}
EXPORT aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
    return Destroy("scalar", array, "aclDestroyScalarList");
}

EXPORT aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    if (executor == nullptr) return 0;
    unsigned long long handle = H(executor);
    if (g_remember && IsCExec(executor)) {  /* the bridge's rules for it: made a Python executor first */
        Settled settled(kObserving);
        Gil gil;
        handle = PythonExecutor(handle);
        DestroyedExecutor(H(executor));
    }
    return CallStatus(kAclnnInner, F_DESTROY_EXECUTOR, "aclDestroyAclOpExecutor", "(K)", handle);
}

EXPORT aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    return GetDims(tensor, "view_dims", viewDims, viewDimsNum, "aclGetViewShape");
}

EXPORT aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
    return GetDims(tensor, "strides", stridesValue, stridesNum, "aclGetViewStrides");
}

EXPORT aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
    return GetDims(tensor, "storage_dims", storageDims, storageDimsNum, "aclGetStorageShape");
}

EXPORT aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
    long long v = 0;
    aclnnStatus status = GetInt(tensor, "offset", offset ? &v : nullptr, "aclGetViewOffset");
    if (status == 0) *offset = v;
    return status;
}

EXPORT aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
    long long v = 0;
    aclnnStatus status = GetInt(tensor, "format", format ? &v : nullptr, "aclGetFormat");
    if (status == 0) *format = static_cast<aclFormat>(v);
    return status;
}

EXPORT aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
    long long v = 0;
    aclnnStatus status = GetInt(tensor, "data_type", dataType ? &v : nullptr, "aclGetDataType");
    if (status == 0) *dataType = static_cast<aclDataType>(v);
    return status;
}
