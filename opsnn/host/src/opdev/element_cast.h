/* Element type conversion on host memory: what l0op::Cast does at phase 2 and what host tensors
 * are filled with. The rules (the NPU's, as opsnn's emulator states them; src/opdev/element_cast.cpp
 * says where each comes from) in one place. */
#ifndef OPSNN_HOST_SRC_OPDEV_ELEMENT_CAST_H_
#define OPSNN_HOST_SRC_OPDEV_ELEMENT_CAST_H_

#include <cstdint>
#include <string>

#include "opdev/common_types.h"

namespace opsnn_host {

/* Whether src converts to dst; else why not. */
bool CastSupported(op::DataType src, op::DataType dst, std::string *why);
/* One element at src (of type s) written at dst (of type d); the pair must be supported. */
void ConvertOne(const void *src, op::DataType s, void *dst, op::DataType d);
/* `count` contiguous elements. */
void ConvertElements(const void *src, op::DataType s, void *dst, op::DataType d, int64_t count);
/* One element of type d from a double / an int64 (host tensors' SetData). */
void StoreDouble(double value, void *dst, op::DataType d);
void StoreInt64(int64_t value, void *dst, op::DataType d);

}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_OPDEV_ELEMENT_CAST_H_
