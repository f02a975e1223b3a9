/* opsnn: data types, formats, fp16 helpers and the recent-error call of the acl runtime. */
#ifndef OPSNN_ACL_BASE_H_
#define OPSNN_ACL_BASE_H_

#include "acl/acl_base_rt.h"

/* __fp16, the half type host programs spell on the aarch64 hosts NPUs sit in (upstream's
 * log_softmax_v2 example: using half = __fp16): g++ has it on ARM only; on x86 (g++ 12 on) it is
 * the same IEEE binary16 as _Float16. */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__)) && __GNUC__ >= 12 && \
    !defined(__fp16)
#define __fp16 _Float16
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t aclFloat16;

/* Plain enums: C++ programs may still write aclDataType::ACL_FLOAT (C++11). */
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54
} aclFormat;

/* The most recent failure messages of this thread, newest first; reading clears them. NULL when
 * there are none. The pointer stays valid until this thread's next call of this function. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* fp16 <-> float as CANN converts: float -> fp16 saturates (NaN and +inf -> 0x7BFF, -inf ->
 * 0xFBFF); fp16 -> float reads the all-ones exponent as an ordinary one (+inf -> 65536.0). */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif

#endif /* OPSNN_ACL_BASE_H_ */
