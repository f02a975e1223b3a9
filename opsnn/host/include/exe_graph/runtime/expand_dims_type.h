/* opsnn host twin: gert::ExpandDimsType -- how a shape of fewer dims is padded with 1s to a
 * format's full rank: a full size and a bit per position that is an inserted 1. Written as a
 * string ("1100": insert at 0 and 1, 4 dims) or packed in an int64 (size in the top 8 bits). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_

#include <cstdint>
#include <cstring>

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {
class ExpandDimsType {
public:
    using AxisIndex = uint64_t;
    static constexpr size_t kMaxExpandSize = 56;

    ExpandDimsType() : size_(0U), mask_(0U) {}
    explicit ExpandDimsType(const ge::char_t *const text) : ExpandDimsType() {
        if (text == nullptr || strlen(text) > kMaxExpandSize) {
            return;
        }
        size_ = strlen(text);
        for (AxisIndex i = 0; i < size_; ++i) {
            if (text[i] == '1') {
                SetExpandIndex(i);
            }
        }
    }
    explicit ExpandDimsType(const int64_t packed) : ExpandDimsType() {
        const uint64_t bits = static_cast<uint64_t>(packed);
        if (bits == 0U || (bits >> kMaxExpandSize) > kMaxExpandSize) {
            return;
        }
        size_ = bits >> kMaxExpandSize;
        mask_ = bits & 0xffU;
    }
    bool operator==(const ExpandDimsType &other) const { return size_ == other.size_ && mask_ == other.mask_; }
    AxisIndex GetFullSize() const { return size_; }
    void SetExpandIndex(const AxisIndex index) { mask_ |= (uint64_t{1} << index); }
    bool IsExpandIndex(const AxisIndex index) const { return ((uint64_t{1} << index) & mask_) != 0U; }

    /* `shape` with a 1 at each expand position; a shape already of full size is copied. */
    ge::graphStatus Expand(const Shape &shape, Shape &out_shape) const {
        if (shape.GetDimNum() == size_) {
            out_shape = shape;
            return ge::GRAPH_SUCCESS;
        }
        Shape result;
        size_t next = 0;
        for (AxisIndex pos = 0; pos < size_; ++pos) {
            if (IsExpandIndex(pos)) {
                result.AppendDim(1);
            } else if (next < shape.GetDimNum()) {
                result.AppendDim(shape.GetDim(next++));
            } else {
                return ge::GRAPH_FAILED;
            }
        }
        while (next < shape.GetDimNum()) {
            result.AppendDim(shape.GetDim(next++));
        }
        out_shape = result;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus Expand(Shape &shape) const {
        Shape out;
        const ge::graphStatus ret = Expand(shape, out);
        if (ret == ge::GRAPH_SUCCESS) {
            shape = out;
        }
        return ret;
    }

private:
    uint64_t size_ : 8;
    uint64_t mask_ : kMaxExpandSize;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_
