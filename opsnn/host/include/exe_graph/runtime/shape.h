/* opsnn host twin: gert::Shape -- up to kMaxDimNum dimensions held inline (a context stores shapes
 * by value in its flat value array, so a Shape owns no heap memory). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_SHAPE_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <array>
#include <cstring>
#include <iostream>  // operator code relies on these arriving with Shape, as CANN's header brings them
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <vector>

#include "utils/extern_math_util.h"

namespace gert {
struct Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidDimValue = std::numeric_limits<int64_t>::min();

    Shape() = default;
    /* More than kMaxDimNum values give a scalar shape, as CANN's does. */
    Shape(const std::initializer_list<int64_t> &dims) {
        if (dims.size() <= kMaxDimNum) {
            for (const int64_t d : dims) {
                dims_[dim_num_++] = d;
            }
        }
    }
    bool operator==(const Shape &other) const {
        if (dim_num_ != other.dim_num_) {
            return false;
        }
        for (size_t i = 0; i < dim_num_; ++i) {
            if (dims_[i] != other.dims_[i]) {
                return false;
            }
        }
        return true;
    }
    bool operator!=(const Shape &other) const { return !(*this == other); }

    /* The element count (1 for a scalar), or kInvalidDimValue where the product overflows. */
    int64_t GetShapeSize() const {
        int64_t size = 1;
        for (size_t i = 0; i < dim_num_; ++i) {
            if (ge::MulOverflow(size, dims_[i], size)) {
                return kInvalidDimValue;
            }
        }
        return size;
    }
    bool IsScalar() const { return dim_num_ == 0U; }
    void SetScalar() { dim_num_ = 0U; }
    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(const size_t dim_num) { dim_num_ = dim_num; }
    /* kInvalidDimValue past the inline capacity (not past GetDimNum(): CANN reads the slot). */
    int64_t GetDim(const size_t idx) const { return idx < kMaxDimNum ? dims_[idx] : kInvalidDimValue; }
    const int64_t &operator[](const size_t idx) const { return dims_[idx]; }
    int64_t &operator[](const size_t idx) { return dims_[idx]; }
    /* Writes a slot; the dim count grows to idx (CANN's rule: not idx + 1). */
    void SetDim(size_t idx, const int64_t value) {
        if (idx >= kMaxDimNum) {
            return;
        }
        dims_[idx] = value;
        if (dim_num_ < idx) {
            dim_num_ = idx;
        }
    }
    Shape &AppendDim(const int64_t value) {
        if (dim_num_ < kMaxDimNum) {
            dims_[dim_num_++] = value;
        }
        return *this;
    }

private:
    size_t dim_num_ = 0U;
    int64_t dims_[kMaxDimNum] = {};
};
static_assert(std::is_standard_layout<Shape>::value, "a Shape is copied as bytes into contexts");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_SHAPE_H_
