/* libopsnn_kt: the CPU-debug runtime's C side. It starts CPython inside the test program, keeps one
 * opsnn.cpudebug.bridge.Session, and turns each call of the kernel headers (opsnn_kt/abi.h) into a
 * call of that session; the emulator (opsnn/ascendc) does the work. The GIL is taken at start and
 * held by the program's main thread whenever it runs: a launch runs its cores on it, one after
 * another, except that a core waiting at SyncAll hands the run to the next core on a Python thread
 * of the launch's (opsnn/ascendc/cores.py); a core's state here is therefore per thread.
 *
 * A Python exception inside a core's instruction unwinds the core's C++ frames as KtUnwind (kernel
 * code is plain C++), and is raised again in Python where the core started (Trampoline), so the
 * emulator's launch sees what it would see from a Python kernel. */
#include <Python.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include "opsnn_kt/abi.h"

#ifndef OPSNN_KT_PYTHON
#define OPSNN_KT_PYTHON ""
#endif

namespace {

struct KtUnwind {};

PyObject *g_session = nullptr;
PyObject *g_call = nullptr;
thread_local PyObject *t_pending_type = nullptr, *t_pending_value = nullptr, *t_pending_tb = nullptr;
OpsnnKtFailureHook g_failure_hook = nullptr;
uint64_t g_tiling_key = 0;
thread_local std::string t_last_failure;
thread_local bool t_last_failed = false;
thread_local int64_t t_block_idx = 0;
thread_local int64_t t_block_num = 1;
thread_local int64_t t_task_ration = 1;
thread_local bool t_in_core = false;

[[noreturn]] void Die(const std::string &what) {
    fprintf(stderr, "opsnn ut: %s\n", what.c_str());
    if (PyErr_Occurred()) PyErr_Print();
    fflush(stderr);
    _exit(70);  // EX_SOFTWARE: the runtime itself could not go on
}

void Finish();

/* An integer division by zero (or INT_MIN / -1) in kernel or test code: say where, as a module and
 * offset `opsnn ut` turns into a source line (addr2line), then die of the signal as before. */
void OnArithmeticFault(int sig, siginfo_t *info, void *) {
    Dl_info where;
    if (info != nullptr && dladdr(info->si_addr, &where) != 0 && where.dli_fname != nullptr) {
        char line[1024];
        const unsigned long offset = static_cast<unsigned long>(static_cast<char *>(info->si_addr) -
                                                                 static_cast<char *>(where.dli_fbase));
        const int n = snprintf(line, sizeof line, "opsnn ut: SIGFPE at %s+0x%lx\n", where.dli_fname, offset);
        if (n > 0) (void)!write(2, line, static_cast<size_t>(n) < sizeof line ? n : sizeof line - 1);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void Start() {
    if (g_session != nullptr) return;
    const bool inside_python = Py_IsInitialized();  // loaded into a running Python (ctypes.PyDLL)
    if (!inside_python) {
        PyConfig config;
        PyConfig_InitPythonConfig(&config);
        config.install_signal_handlers = 0;
        config.parse_argv = 0;
        const char *program = getenv("OPSNN_KT_PYTHON");
        if (program == nullptr || *program == '\0') program = OPSNN_KT_PYTHON;
        PyStatus status = PyStatus_Ok();
        if (*program != '\0') status = PyConfig_SetBytesString(&config, &config.program_name, program);
        if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(status))
            Die(std::string("cannot start Python: ") + (status.err_msg ? status.err_msg : "unknown error"));
    }
    PyObject *bridge = PyImport_ImportModule("opsnn.cpudebug.bridge");
    if (bridge == nullptr) Die("cannot import opsnn.cpudebug.bridge (is OPSNN_KT_PYTHON the Python opsnn is installed in?)");
    PyObject *cls = PyObject_GetAttrString(bridge, "Session");
    Py_DECREF(bridge);
    g_session = cls ? PyObject_CallMethod(cls, "from_environ", nullptr) : nullptr;
    Py_XDECREF(cls);
    if (g_session == nullptr) Die("the emulator session did not start");
    g_call = PyObject_GetAttrString(g_session, "call");
    if (g_call == nullptr) Die("the session has no call()");
    if (!inside_python) {
        atexit(Finish);
        struct sigaction action {};
        action.sa_sigaction = OnArithmeticFault;
        action.sa_flags = SA_SIGINFO;
        sigaction(SIGFPE, &action, nullptr);
        return;
    }
    /* Inside a running Python the interpreter is finalized before C's atexit handlers run, and the
     * exit status is that Python's: the session's record is written at Python's own exit instead. */
    PyObject *atexit_module = PyImport_ImportModule("atexit");
    PyObject *finish = PyObject_GetAttrString(g_session, "finish");
    PyObject *r = (atexit_module && finish) ? PyObject_CallMethod(atexit_module, "register", "O", finish) : nullptr;
    if (r == nullptr) Die("cannot register the session's finish with Python's atexit");
    Py_DECREF(r);
    Py_XDECREF(finish);
    Py_XDECREF(atexit_module);
}

/* At exit: the session's summary, and a failing exit status where the sanitizer found errors in a
 * program whose own status would not say so (a program without gtest). */
void Finish() {
    if (g_session == nullptr) return;
    PyObject *r = PyObject_CallMethod(g_session, "finish", nullptr);
    long code = r ? PyLong_AsLong(r) : 70;
    if (r == nullptr) PyErr_Print();
    Py_XDECREF(r);
    fflush(stdout);
    fflush(stderr);
    if (code != 0) _exit(static_cast<int>(code));
}

/* Call a session method; a Python exception is kept and unwinds the core (in a core) or ends the
 * program (outside one: host code misusing the runtime). */
PyObject *Checked(PyObject *result, const char *what) {
    if (result != nullptr) return result;
    if (t_in_core) {
        PyErr_Fetch(&t_pending_type, &t_pending_value, &t_pending_tb);
        throw KtUnwind{};
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *text = value ? PyObject_Str(value) : nullptr;
    const char *utf8 = text ? PyUnicode_AsUTF8(text) : nullptr;
    std::string message = std::string(what) + ": " + (utf8 ? utf8 : "error");
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    Die(message);
}

/* The instruction names and source files are string literals of the program: one Python string
 * each, made on first use (the calls are many; the literals few). The GIL guards the caches. */
PyObject *Str(const char *text) {
    static std::unordered_map<const char *, PyObject *> cache;
    auto it = cache.find(text);
    if (it != cache.end()) return it->second;
    PyObject *s = PyUnicode_InternFromString(text);
    if (s == nullptr) Die("cannot make a Python string");
    cache.emplace(text, s);
    return s;
}

/* An operand's name (an enum member, a struct's name): usually a literal, but a header may hand a
 * buffer it rewrites (a thread's EnumName text), so a cached string is checked against the text. */
PyObject *Text(const char *text) {
    static std::unordered_map<const char *, std::pair<std::string, PyObject *>> cache;
    auto it = cache.find(text);
    if (it != cache.end() && it->second.first == text) return it->second.second;
    PyObject *s = PyUnicode_InternFromString(text);
    if (s == nullptr) Die("cannot make a Python string");
    if (it != cache.end()) {
        Py_DECREF(it->second.second);
        it->second = {text, s};
    } else {
        cache.emplace(text, std::make_pair(std::string(text), s));
    }
    return s;
}

/* "file.cpp:line" for a call site, as findings name it: made once per site. */
PyObject *Where(const char *file, int line) {
    struct Hash {
        size_t operator()(const std::pair<const char *, int> &k) const {
            return std::hash<const void *>()(k.first) * 31u + static_cast<size_t>(k.second);
        }
    };
    static std::unordered_map<std::pair<const char *, int>, PyObject *, Hash> cache;
    auto key = std::make_pair(file, line);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const char *base = file ? strrchr(file, '/') : nullptr;
    std::string text = std::string(base ? base + 1 : (file ? file : "?")) + ":" + std::to_string(line);
    PyObject *s = PyUnicode_InternFromString(text.c_str());
    if (s == nullptr) Die("cannot make a Python string");
    cache.emplace(key, s);
    return s;
}

inline PyObject *Owned(PyObject *o) {
    Py_INCREF(o);
    return o;
}

/* One operand as the bridge reads it: (kind, dtype, a, b, s, ints). Built field by field from
 * cached strings (one instruction call builds several: this is the hot path). */
PyObject *ArgTuple(const OpsnnKtArg &a) {
    PyObject *t = PyTuple_New(6);
    if (t == nullptr) Die("cannot make a Python tuple");
    PyTuple_SET_ITEM(t, 0, PyLong_FromLong(a.kind));
    PyTuple_SET_ITEM(t, 1, Owned(a.dtype ? Str(a.dtype) : Py_None));
    PyTuple_SET_ITEM(t, 2, PyLong_FromLongLong(a.a));
    PyTuple_SET_ITEM(t, 3, PyLong_FromLongLong(a.b));
    PyTuple_SET_ITEM(t, 4, Owned(a.s ? Text(a.s) : Py_None));
    PyObject *ints = Py_None;
    if (a.kind == OPSNN_KT_INTS) {
        ints = PyTuple_New(a.b);
        const int64_t *v = reinterpret_cast<const int64_t *>(a.a);
        for (int64_t i = 0; i < a.b; ++i) PyTuple_SET_ITEM(ints, i, PyLong_FromLongLong(v[i]));
    } else {
        Py_INCREF(ints);
    }
    PyTuple_SET_ITEM(t, 5, ints);
    return t;
}

struct Closure {
    void (*body)(void *);
    void *closure;
};

/* Python calls this once per core: (block_idx, block_num, task_ration), on the thread the core runs on. */
PyObject *Trampoline(PyObject *capsule, PyObject *args) {
    long long idx = 0, num = 1, ration = 1;
    if (!PyArg_ParseTuple(args, "LL|L", &idx, &num, &ration)) return nullptr;
    auto *c = static_cast<Closure *>(PyCapsule_GetPointer(capsule, "opsnn_kt.closure"));
    if (c == nullptr) return nullptr;
    t_block_idx = idx;
    t_block_num = num;
    t_task_ration = ration > 0 ? ration : 1;
    t_in_core = true;
    try {
        c->body(c->closure);
    } catch (const KtUnwind &) {
        t_in_core = false;
        PyErr_Restore(t_pending_type, t_pending_value, t_pending_tb);
        t_pending_type = t_pending_value = t_pending_tb = nullptr;
        return nullptr;
    } catch (const std::exception &e) {
        t_in_core = false;
        PyErr_Format(PyExc_RuntimeError, "the kernel threw a C++ exception: %s", e.what());
        return nullptr;
    } catch (...) {
        t_in_core = false;
        PyErr_SetString(PyExc_RuntimeError, "the kernel threw a C++ exception");
        return nullptr;
    }
    t_in_core = false;
    Py_RETURN_NONE;
}

PyMethodDef g_trampoline_def = {"opsnn_kt_core", Trampoline, METH_VARARGS, "run one core of a C++ kernel"};

}  // namespace

extern "C" {

void opsnn_kt_call(const char *name, const OpsnnKtArg *args, int nargs, const char *file, int line,
                   int64_t *result) {
    Start();
    PyObject *tuple = PyTuple_New(nargs);
    for (int i = 0; i < nargs; ++i) PyTuple_SET_ITEM(tuple, i, ArgTuple(args[i]));
    PyObject *stack[4] = {nullptr, Str(name), tuple, Where(file, line)};  // [0]: room for vectorcall's self
    PyObject *r = PyObject_Vectorcall(g_call, stack + 1, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
    Py_DECREF(tuple);
    Checked(r, name);
    if (result != nullptr && r != Py_None) {
        long long v = PyLong_AsLongLong(r);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            v = static_cast<long long>(PyLong_AsUnsignedLongLongMask(r));
        }
        *result = v;
    }
    Py_DECREF(r);
}

void *opsnn_kt_gm_alloc(size_t nbytes, const char *file, int line) {
    Start();
    PyObject *r = Checked(PyObject_CallMethod(g_session, "gm_alloc", "nsi", static_cast<Py_ssize_t>(nbytes),
                                              file ? file : "?", line), "GmAlloc");
    void *p = reinterpret_cast<void *>(PyLong_AsUnsignedLongLongMask(r));
    Py_DECREF(r);
    return p;
}

void opsnn_kt_gm_free(void *ptr, const char *file, int line) {
    Start();
    PyObject *r = Checked(PyObject_CallMethod(g_session, "gm_free", "Ksi",
                                              static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(ptr)),
                                              file ? file : "?", line), "GmFree");
    Py_DECREF(r);
}

void opsnn_kt_set_tiling_key(uint64_t key) { g_tiling_key = key; }
uint64_t opsnn_kt_tiling_key(void) { return g_tiling_key; }

void opsnn_kt_set_kernel_mode(int mode) {
    Start();
    PyObject *r = Checked(PyObject_CallMethod(g_session, "set_kernel_mode", "i", mode), "SetKernelMode");
    Py_DECREF(r);
}

void opsnn_kt_set_device_launch(int on) {
    Start();
    PyObject *r = Checked(PyObject_CallMethod(g_session, "set_device_launch", "i", on), "set_device_launch");
    Py_DECREF(r);
}

int64_t opsnn_kt_block_idx(void) { return t_block_idx; }
int64_t opsnn_kt_block_num(void) { return t_block_num; }
int64_t opsnn_kt_task_ration(void) { return t_task_ration; }

void opsnn_kt_set_failure_hook(OpsnnKtFailureHook hook) { g_failure_hook = hook; }

void opsnn_kt_fail(const char *what, const char *file, int line) {
    Start();
    PyObject *r = PyObject_CallMethod(g_session, "fail", "ssi", what, file ? file : "?", line);
    Checked(r, "ASSERT");  // fail() raises: this unwinds the core
    Py_XDECREF(r);
    Die(std::string(what) + " outside a kernel launch");
}

void opsnn_kt_run(const char *kernel_name, uint32_t block_dim, void (*body)(void *), void *closure,
                  const char *arg_names, void *const *args, int nargs, const char *file, int line) {
    Start();
    Closure c{body, closure};
    PyObject *capsule = PyCapsule_New(&c, "opsnn_kt.closure", nullptr);
    PyObject *core = capsule ? PyCFunction_New(&g_trampoline_def, capsule) : nullptr;
    Py_XDECREF(capsule);
    PyObject *ptrs = PyTuple_New(nargs);
    for (int i = 0; i < nargs; ++i) {
        PyObject *v = args[i] ? PyLong_FromUnsignedLongLong(reinterpret_cast<uintptr_t>(args[i])) : Py_None;
        if (!args[i]) Py_INCREF(Py_None);
        PyTuple_SET_ITEM(ptrs, i, v);
    }
    PyObject *r = core ? PyObject_CallMethod(g_session, "run", "sIOsOsiK", kernel_name, block_dim, core, arg_names,
                                             ptrs, file ? file : "?", line,
                                             static_cast<unsigned long long>(g_tiling_key))
                       : nullptr;
    Py_XDECREF(core);
    Py_DECREF(ptrs);
    r = Checked(r, "ICPU_RUN_KF");
    t_last_failed = r != Py_None && PyUnicode_Check(r);
    if (t_last_failed) {
        const char *text = PyUnicode_AsUTF8(r);
        t_last_failure = text ? text : "the launch failed";
        if (g_failure_hook != nullptr) g_failure_hook(t_last_failure.c_str(), file, line);
    }
    Py_DECREF(r);
}

const char *opsnn_kt_last_failure(void) { return t_last_failed ? t_last_failure.c_str() : nullptr; }

int opsnn_kt_python_call(const char *module, const char *function, const char *argument, char **result) {
    Start();
    PyObject *mod = PyImport_ImportModule(module);
    PyObject *fn = mod ? PyObject_GetAttrString(mod, function) : nullptr;
    Py_XDECREF(mod);
    PyObject *r = fn ? PyObject_CallFunction(fn, "s", argument ? argument : "") : nullptr;
    Py_XDECREF(fn);
    std::string text;
    int status = 0;
    if (r != nullptr && PyUnicode_Check(r)) {
        const char *utf8 = PyUnicode_AsUTF8(r);
        text = utf8 ? utf8 : "";
    } else {
        if (r != nullptr) PyErr_Format(PyExc_TypeError, "%s.%s returned no str", module, function);
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        PyObject *name = type ? PyObject_GetAttrString(type, "__name__") : nullptr;
        PyObject *message = value ? PyObject_Str(value) : nullptr;
        const char *n = name ? PyUnicode_AsUTF8(name) : nullptr;
        const char *m = message ? PyUnicode_AsUTF8(message) : nullptr;
        text = std::string(n ? n : "Error") + ": " + (m ? m : "");
        PyErr_Clear();
        Py_XDECREF(name);
        Py_XDECREF(message);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        status = 1;
    }
    Py_XDECREF(r);
    *result = static_cast<char *>(malloc(text.size() + 1));
    if (*result != nullptr) memcpy(*result, text.c_str(), text.size() + 1);
    return status;
}

}  // extern "C"
