/* The process-wide table of registered op implementations (register/op_impl_registry.h). */
#ifndef OPSNN_HOST_SRC_METADEF_OP_IMPL_STORE_H_
#define OPSNN_HOST_SRC_METADEF_OP_IMPL_STORE_H_

#include <string>

#include "register/op_impl_kernel_registry.h"

namespace gert {
/* One register object's content: the op type and what it set. */
struct OpImplRecord {
    std::string op_type;
    OpImplKernelRegistry::OpImplFunctionsV2 functions;
};
}  // namespace gert

namespace opsnn_host {
/* What is registered for op_type, or nullptr. */
const gert::OpImplKernelRegistry::OpImplFunctionsV2 *FindOpImpl(const std::string &op_type);
}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_METADEF_OP_IMPL_STORE_H_
