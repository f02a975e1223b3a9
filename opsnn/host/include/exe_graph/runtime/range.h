/* opsnn host twin: gert::Range<T> -- a [min, max] pair of pointers (shape ranges, tensor ranges). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_RANGE_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_RANGE_H_

#include "exe_graph/runtime/shape.h"

namespace gert {
template <typename T>
class Range {
public:
    Range() = default;
    Range(T *min, T *max) : min_(min), max_(max) {}
    explicit Range(T *same) : min_(same), max_(same) {}
    /* Equal when both bounds are the same objects or hold equal values. */
    bool operator==(const Range<T> &other) const {
        if (min_ == other.min_ && max_ == other.max_) {
            return true;
        }
        return *min_ == *other.min_ && *max_ == *other.max_;
    }
    void SetMin(T *min) { min_ = min; }
    void SetMax(T *max) { max_ = max; }
    const T *GetMin() const { return min_; }
    const T *GetMax() const { return max_; }
    T *GetMin() { return min_; }
    T *GetMax() { return max_; }

private:
    T *min_ = nullptr;
    T *max_ = nullptr;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_RANGE_H_
