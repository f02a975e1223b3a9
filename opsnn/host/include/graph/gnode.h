/* opsnn host twin: ge::GNode -- a graph node; GetInputConstData gives the value of an input fed
 * by a "Const"/"Constant" operator (its "value" Tensor attribute). */
#ifndef OPSNN_HOST_GRAPH_GNODE_H_
#define OPSNN_HOST_GRAPH_GNODE_H_

#include <cstdint>

#include "graph/operator.h"
#include "graph/tensor.h"

namespace ge {
class GNode {
public:
    GNode() = default;
    explicit GNode(const Operator &op) : op_(op) {}
    /* GRAPH_FAILED where input `index` is not fed by a constant. */
    graphStatus GetInputConstData(const int32_t index, Tensor &data) const;
    graphStatus GetType(AscendString &type) const { return op_.GetOpType(type); }
    graphStatus GetName(AscendString &name) const { return op_.GetName(name); }

private:
    Operator op_;
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_GNODE_H_
