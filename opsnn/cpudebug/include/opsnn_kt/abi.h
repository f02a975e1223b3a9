/* opsnn CPU-debug runtime: the calls kernel code makes into libopsnn_kt (src/runtime.cpp), which
 * hands them to opsnn's Python emulator (opsnn/cpudebug/bridge.py). Every AscendC instruction is
 * one opsnn_kt_call naming the instruction and describing its operands; nothing here computes. */
#ifndef OPSNN_KT_ABI_H_
#define OPSNN_KT_ABI_H_

#include <cstddef>
#include <cstdint>

extern "C" {

/* One operand. kind: what it is; dtype: its element or scalar type ("float32", "bfloat16", ...);
 * a, b: the values (see bridge.py's decode); s: a name (an enum member, a struct's name). */
enum OpsnnKtKind : int32_t {
    OPSNN_KT_NONE = 0,
    OPSNN_KT_LOCAL = 1,   /* a = buffer handle, b = byte offset */
    OPSNN_KT_GLOBAL = 2,  /* a = host address, b = the host address SetGlobalBuffer was given */
    OPSNN_KT_INT = 3,     /* a = value (signed) */
    OPSNN_KT_UINT = 4,    /* a = value (bits of a uint64) */
    OPSNN_KT_FLOAT = 5,   /* a = the value's bits in its own type (dtype) */
    OPSNN_KT_ENUM = 6,    /* s = "Type.MEMBER" */
    OPSNN_KT_INTS = 7,    /* s = struct name, a = pointer to int64 fields, b = how many */
    OPSNN_KT_HANDLE = 8,  /* a = a TPipe/TQue/TBuf handle */
};

struct OpsnnKtArg {
    int32_t kind;
    const char *dtype;
    int64_t a;
    int64_t b;
    const char *s;
};

/* Run instruction `name` on the current core; *result receives an integer result (bits) where the
 * instruction has one. Returns only on success: a failure unwinds the core (a C++ exception the
 * runtime catches where the core started). */
void opsnn_kt_call(const char *name, const OpsnnKtArg *args, int nargs, const char *file, int line,
                   int64_t *result);

void *opsnn_kt_gm_alloc(size_t nbytes, const char *file, int line);
void opsnn_kt_gm_free(void *ptr, const char *file, int line);
void opsnn_kt_set_tiling_key(uint64_t key);
uint64_t opsnn_kt_tiling_key(void);
void opsnn_kt_set_kernel_mode(int mode);
/* on != 0: the following launches are the host twin's aclnn launches (LaunchKernel) on device
 * memory, not a UT's ICPU_RUN_KF: traffic inside an allocation's pool padding is expected, as a
 * device tolerates it, and reports name the launch (bridge.Session.set_device_launch). */
void opsnn_kt_set_device_launch(int on);
int64_t opsnn_kt_block_idx(void);
int64_t opsnn_kt_block_num(void);
/* Vector cores per block: 1, or a mixed launch's AIC:AIV ratio (MIX_MODE: 2). */
int64_t opsnn_kt_task_ration(void);

/* Run body(closure) once per core of a launch of block_dim cores; args are the kernel's GM_ADDR
 * arguments (NULL where an argument is not a pointer), arg_names their source text. */
void opsnn_kt_run(const char *kernel_name, uint32_t block_dim, void (*body)(void *), void *closure,
                  const char *arg_names, void *const *args, int nargs, const char *file, int line);

/* A failure inside kernel code that is not an instruction (ASSERT, trap): stops the core. */
void opsnn_kt_fail(const char *what, const char *file, int line);

/* Set by tikicpulib.h when gtest is in the program: called with a launch's failure text. */
typedef void (*OpsnnKtFailureHook)(const char *text, const char *file, int line);
void opsnn_kt_set_failure_hook(OpsnnKtFailureHook hook);

/* The failure text of this thread's last opsnn_kt_run, NULL when it ran clean (valid until the
 * next run): how a caller that is not a UT (the host twin's LaunchKernel) learns the outcome. */
const char *opsnn_kt_last_failure(void);

/* module.function(argument) in the program's Python (started on first use), for the host twin's
 * runtime services written in Python (building an operator's kernel libraries). 0: *result is
 * the str it returned; else *result is "ExceptionType: message". *result is malloc'd: free() it. */
int opsnn_kt_python_call(const char *module, const char *function, const char *argument, char **result);
}

#endif  // OPSNN_KT_ABI_H_
