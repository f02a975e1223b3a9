/* opsnn host twin: ge::AttrValue -- one attribute value of a graph node (the types
 * ge::Operator's attributes take); UT helpers include the header for the type. */
#ifndef OPSNN_HOST_GRAPH_ATTR_VALUE_H_
#define OPSNN_HOST_GRAPH_ATTR_VALUE_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
class AttrValue {
public:
    using INT = int64_t;
    using FLOAT = float;
    using BOOL = bool;
    using STR = std::string;
    using TENSOR = Tensor;
    using LIST_INT = std::vector<int64_t>;
    using LIST_FLOAT = std::vector<float>;
    using LIST_BOOL = std::vector<bool>;
    using LIST_STR = std::vector<std::string>;
    using LIST_LIST_INT = std::vector<std::vector<int64_t>>;
    using DATA_TYPE = ge::DataType;

    AttrValue() = default;
    template <typename T>
    static AttrValue CreateFrom(const T &value) {
        AttrValue v;
        v.value_ = value;
        return v;
    }
    /* GRAPH_FAILED where the value holds another type. */
    template <typename T>
    graphStatus GetValue(T &out) const {
        if (const T *held = std::get_if<T>(&value_)) {
            out = *held;
            return GRAPH_SUCCESS;
        }
        return GRAPH_FAILED;
    }
    template <typename T>
    graphStatus SetValue(const T &value) {
        value_ = value;
        return GRAPH_SUCCESS;
    }

private:
    std::variant<std::monostate, INT, FLOAT, BOOL, STR, TENSOR, LIST_INT, LIST_FLOAT, LIST_BOOL, LIST_STR, LIST_LIST_INT,
                 DATA_TYPE>
        value_;
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_ATTR_VALUE_H_
