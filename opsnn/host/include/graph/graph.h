/* opsnn host twin: ge::Graph -- as far as UT helpers use one: a node for an operator. */
#ifndef OPSNN_HOST_GRAPH_GRAPH_H_
#define OPSNN_HOST_GRAPH_GRAPH_H_

#include <string>

#include "graph/gnode.h"
#include "graph/operator.h"

namespace ge {
class Graph {
public:
    Graph() = default;
    explicit Graph(const char *name) : name_(name == nullptr ? "" : name) {}
    explicit Graph(const std::string &name) : name_(name) {}
    GNode AddNodeByOp(const Operator &op) { return GNode(op); }

private:
    std::string name_;
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_GRAPH_H_
