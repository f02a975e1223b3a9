/* opsnn host twin: OP_ADD(OpClass) -- registers the operator definition class OpClass (an ops::OpDef
 * subclass whose constructor takes the op type) under the op type "OpClass". */
#ifndef OPSNN_HOST_REGISTER_OP_DEF_REGISTRY_H_
#define OPSNN_HOST_REGISTER_OP_DEF_REGISTRY_H_

#include "register/op_def.h"
#include "register/op_def_factory.h"

#define OP_ADD(opType, ...)                                                                          \
    static int g_##opType##_added VAR_UNUSED =                                                       \
        ops::OpDefFactory::OpDefRegister(#opType, [](const char *name) -> ops::OpDef { return opType(name); })

#endif  // OPSNN_HOST_REGISTER_OP_DEF_REGISTRY_H_
