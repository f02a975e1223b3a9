/* opsnn host twin: ge::OperatorFactory -- REG_OP'd operator classes by type name. */
#ifndef OPSNN_HOST_GRAPH_OPERATOR_FACTORY_H_
#define OPSNN_HOST_GRAPH_OPERATOR_FACTORY_H_

#include <functional>
#include <string>
#include <vector>

#include "graph/operator.h"

namespace ge {
using OpCreatorV2 = std::function<Operator(const AscendString &)>;

class OperatorFactory {
public:
    /* An operator of the registered type (an empty Operator where none is registered). */
    static Operator CreateOperator(const char *operator_name, const char *operator_type);
    static graphStatus GetOpsTypeList(std::vector<AscendString> &all_ops);
    static bool IsExistOp(const char *operator_type);
};

class OperatorCreatorRegister {
public:
    OperatorCreatorRegister(const char *operator_type, const OpCreatorV2 &op_creator);
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_OPERATOR_FACTORY_H_
