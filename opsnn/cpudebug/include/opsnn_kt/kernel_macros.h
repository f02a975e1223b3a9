/* opsnn CPU-debug runtime: the kernel-side macros of an AscendC build -- tiling data, tiling keys,
 * kernel types -- as a host build defines them. */
#ifndef OPSNN_KT_KERNEL_MACROS_H_
#define OPSNN_KT_KERNEL_MACROS_H_

#include <cstdint>
#include <cstring>

#include "opsnn_kt/abi.h"

namespace opsnn_kt {
/* GET_TILING_DATA*: the struct's bytes from the tiling pointer (read through the emulator, so a
 * struct larger than the tiling buffer is a finding). */
inline void ReadTiling(void *dst, const uint8_t *tiling, size_t nbytes, const char *file, int line) {
    OpsnnKtArg args[2] = {{OPSNN_KT_UINT, "uint64", reinterpret_cast<int64_t>(tiling), 0, nullptr},
                          {OPSNN_KT_UINT, "uint64", static_cast<int64_t>(nbytes), 0, nullptr}};
    int64_t ignored = 0;
    opsnn_kt_call("GetTilingData", args, 2, file, line, &ignored);
    std::memcpy(dst, tiling, nbytes);
}
}  // namespace opsnn_kt

/* The core type a kernel declares: no effect here (the launch's KernelMode decides how many vector
 * cores run; cube work is refused where it is used). */
enum KernelMetaType : int32_t { KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0,
                                KERNEL_TYPE_MIX_AIC_1_0, KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2,
                                KERNEL_TYPE_MIX_VECTOR_CORE };

#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)(type))
#define KERNEL_TASK_TYPE(key, type) ((void)(key), (void)(type))
#define REGISTER_TILING_DEFAULT(Struct) using OpsnnKtDefaultTiling_ = Struct
#define REGISTER_TILING_FOR_TILINGKEY(cond, Struct)
/* a kernel that registers no tiling struct of its own (only the build reads it) */
#define REGISTER_NONE_TILING
/* A UT's tiling header, force-included before any kernel header (upstream's build -includes the
 * UT folder's <op>_tiling_def.h or the header it generates), may define these as the UT needs
 * (foreach's copies its struct field by field): its definitions stand. */
#ifndef GET_TILING_DATA_WITH_STRUCT
#define GET_TILING_DATA_WITH_STRUCT(Struct, var, tiling) \
    Struct var;                                          \
    ::opsnn_kt::ReadTiling(&var, (const uint8_t *)(tiling), sizeof(Struct), __FILE__, __LINE__)
#endif
#ifndef GET_TILING_DATA
#define GET_TILING_DATA(var, tiling) GET_TILING_DATA_WITH_STRUCT(OpsnnKtDefaultTiling_, var, tiling)
#endif
#ifndef GET_TILING_DATA_PTR_WITH_STRUCT
#define GET_TILING_DATA_PTR_WITH_STRUCT(Struct, var, tiling) \
    GET_TILING_DATA_WITH_STRUCT(Struct, var##_opsnn_copy, tiling); const Struct *var = &var##_opsnn_copy
#endif
#define TILING_KEY_IS(key) (opsnn_kt_tiling_key() == static_cast<uint64_t>(key))

#endif  // OPSNN_KT_KERNEL_MACROS_H_
