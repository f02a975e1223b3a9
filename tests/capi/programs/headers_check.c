/* Compiled (not run) as C and as C++11..20 with -Wall -Wextra -Werror: every header, and the
 * facts a program relies on: values, typedefs, exact function types. */
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnn_threshold.h"               /* the bare name one upstream example uses */
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "opsnn/opsnn_capi.h"

#ifdef __cplusplus
#define CHECK(cond) static_assert(cond, #cond)
#else
#define CHECK(cond) _Static_assert(cond, #cond)
#endif

CHECK(ACL_FLOAT == 0 && ACL_FLOAT16 == 1 && ACL_INT32 == 3 && ACL_BF16 == 27 && ACL_FLOAT4_E1M2 == 41);
CHECK(ACL_DT_UNDEFINED == -1 && ACL_BOOL == 12 && ACL_COMPLEX32 == 33 && ACL_HIFLOAT8 == 34);
CHECK(ACL_FORMAT_ND == 2 && ACL_FRACTAL_Z_3D == 33 && ACL_FORMAT_NCL == 47 && ACL_FORMAT_FRACTAL_NZ_C0_8 == 54);
CHECK(ACL_MEMCPY_HOST_TO_DEVICE == 1 && ACL_MEMCPY_DEVICE_TO_HOST == 2 && ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7);
CHECK(ACL_MEM_MALLOC_HUGE_FIRST == 0 && ACL_MEM_MALLOC_HUGE1G_ONLY_P2P == 7 &&
      ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000);
CHECK(sizeof(aclFloat16) == 2 && sizeof(aclError) == sizeof(int) && sizeof(aclnnStatus) == 4);
CHECK(sizeof(aclrtStream) == sizeof(void *));
CHECK(ACLNN_ERR_PARAM_NULLPTR == 161001 && ACLNN_ERR_PARAM_INVALID == 161002);

/* exact types: the assignments fail to compile if a signature differs */
aclError (*const free_fn)(void *) = aclrtFree;
aclnnStatus (*const destroy_fn)(const aclTensor *) = aclDestroyTensor;
aclError (*const memcpy_fn)(void *, size_t, const void *, size_t, aclrtMemcpyKind) = aclrtMemcpy;
aclError (*const malloc_fn)(void **, size_t, aclrtMemMallocPolicy) = aclrtMalloc;
aclTensor *(*const create_fn)(const int64_t *, uint64_t, aclDataType, const int64_t *, int64_t, aclFormat,
                              const int64_t *, uint64_t, void *) = aclCreateTensor;
aclScalar *(*const scalar_fn)(void *, aclDataType) = aclCreateScalar;
aclTensorList *(*const list_fn)(const aclTensor *const *, uint64_t) = aclCreateTensorList;
aclnnStatus (*const shape_fn)(const aclTensor *, int64_t **, uint64_t *) = aclGetViewShape;
const char *(*const msg_fn)(void) = aclGetRecentErrMsg;
const char *(*const mode_fn)(void) = opsnnGetDeviceMode;
aclnnStatus (*const tb1)(const aclTensor *, const aclTensor *, const aclScalar *, aclTensor *, uint64_t *,
                         aclOpExecutor **) = aclnnThresholdBackwardGetWorkspaceSize;
aclnnStatus (*const tb2)(void *, uint64_t, aclOpExecutor *, aclrtStream) = aclnnThresholdBackward;
aclnnStatus (*const it1)(aclTensor *, const aclScalar *, const aclScalar *, uint64_t *, aclOpExecutor **) =
    aclnnInplaceThresholdGetWorkspaceSize;
aclnnStatus (*const t1)(const aclTensor *, const aclScalar *, const aclScalar *, aclTensor *, uint64_t *,
                        aclOpExecutor **) = aclnnThresholdGetWorkspaceSize;

#ifdef __cplusplus
/* upstream programs qualify the enumerators */
static_assert(aclDataType::ACL_FLOAT == ACL_FLOAT && aclFormat::ACL_FORMAT_ND == ACL_FORMAT_ND, "qualified");
#endif

int headers_check_anchor(void);
int headers_check_anchor(void) { return ACL_SUCCESS + ACL_ERROR_INVALID_PARAM * 0; }
