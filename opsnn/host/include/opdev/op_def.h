/* opsnn host twin: opdev/op_def.h -- the op type registry (OP_TYPE_REGISTER's ids) and the kernel
 * implementation-mode enums op_api code may name. */
#ifndef OPSNN_HOST_OPDEV_OP_DEF_H_
#define OPSNN_HOST_OPDEV_OP_DEF_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "graph/ascend_string.h"
#include "opdev/fast_vector.h"

namespace op {
enum CoreType { AI_CORE = 0, AI_CPU, DVPP, NO_CALC };
enum OpIOType { OpInputType, OpOutputType, OpWorkspaceType };

enum class OpImplMode : uint32_t {
    IMPL_MODE_DEFAULT = 0x1,
    IMPL_MODE_HIGH_PERFORMANCE = 0x2,
    IMPL_MODE_HIGH_PRECISION = 0x4,
    IMPL_MODE_SUPER_PERFORMANCE = 0x8,
    IMPL_MODE_SUPPORT_OUT_OF_BOUND_INDEX = 0x10,
    IMPL_MODE_ENABLE_FLOAT32_EXECUTION = 0x20,
    IMPL_MODE_ENABLE_HI_FLOAT32_EXECUTION = 0x40,
    IMPL_MODE_KEEP_FP16 = 0x80,
    IMPL_MODE_RESERVED = 0xFFFFFFFF
};

enum class OpExecMode : uint32_t { OP_EXEC_MODE_DEFAULT = 0, OP_EXEC_MODE_HF32 = 1, OP_EXEC_MODE_RESERVED = 0xFFFFFFFF };

constexpr const uint32_t INVALID_OP_TYPE_ID = 0xFFFFFFFF;

/* Op type names <-> the small integer ids OP_TYPE_REGISTER hands out (in order of first use). */
struct OpTypeDict {
    static aclnnStatus Add(uint32_t &id, const char *opName);
    static uint32_t ToOpType(const std::string &opName);  // INVALID_OP_TYPE_ID when unknown
    static const ge::AscendString ToString(uint32_t opType);
    static size_t GetAllOpTypeSize();
};

/* The id of op type `name`, registering it on first use. */
uint32_t GenOpTypeId(const char *name);

OpImplMode ToOpImplMode(const std::string &implModeStr);
ge::AscendString ToString(OpImplMode implMode);
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_OP_DEF_H_
