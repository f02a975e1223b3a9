/* opsnn host twin: ops::OpDefFactory -- where OP_ADD registers an OpDef by op type. */
#ifndef OPSNN_HOST_REGISTER_OP_DEF_FACTORY_H_
#define OPSNN_HOST_REGISTER_OP_DEF_FACTORY_H_

#include <functional>

#include "register/op_def.h"

namespace ops {
using OpDefCreator = std::function<OpDef(const char *)>;
class OpDefFactory {
public:
    /* Records how to make op_type's definition (made on first lookup); returns 0. */
    static int OpDefRegister(const char *op_type, OpDefCreator creator);
};
}  // namespace ops

#endif  // OPSNN_HOST_REGISTER_OP_DEF_FACTORY_H_
