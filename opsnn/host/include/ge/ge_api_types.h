/* opsnn host twin: ge::Status and its codes (graph-engine API results). */
#ifndef OPSNN_HOST_GE_GE_API_TYPES_H_
#define OPSNN_HOST_GE_GE_API_TYPES_H_

#include <cstdint>

#include "graph/types.h"

namespace ge {
using Status = uint32_t;
constexpr Status SUCCESS = 0U;
constexpr Status FAILED = 0xFFFFFFFFU;
}  // namespace ge

#endif  // OPSNN_HOST_GE_GE_API_TYPES_H_
