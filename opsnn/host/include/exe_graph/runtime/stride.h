/* opsnn host twin: gert::Stride -- per-dimension element strides, held inline like Shape. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_STRIDE_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_STRIDE_H_

#include <cstddef>
#include <cstdint>
#include <array>
#include <cstring>
#include <iostream>
#include <initializer_list>
#include <limits>

namespace gert {
struct Stride {
public:
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidStrideValue = std::numeric_limits<int64_t>::min();

    Stride() = default;
    Stride(const std::initializer_list<int64_t> &strides) {
        if (strides.size() <= kMaxDimNum) {
            for (const int64_t s : strides) {
                strides_[dim_num_++] = s;
            }
        }
    }
    bool operator==(const Stride &other) const {
        if (dim_num_ != other.dim_num_) {
            return false;
        }
        for (size_t i = 0; i < dim_num_; ++i) {
            if (strides_[i] != other.strides_[i]) {
                return false;
            }
        }
        return true;
    }
    bool operator!=(const Stride &other) const { return !(*this == other); }
    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(const size_t dim_num) { dim_num_ = dim_num; }
    int64_t GetStride(const size_t idx) const { return idx < kMaxDimNum ? strides_[idx] : kInvalidStrideValue; }
    const int64_t &operator[](const size_t idx) const { return strides_[idx]; }
    int64_t &operator[](const size_t idx) { return strides_[idx]; }
    void SetStride(size_t idx, const int64_t value) {
        if (idx >= kMaxDimNum) {
            return;
        }
        strides_[idx] = value;
        if (dim_num_ < idx) {
            dim_num_ = idx;
        }
    }
    Stride &AppendStride(const int64_t value) {
        if (dim_num_ < kMaxDimNum) {
            strides_[dim_num_++] = value;
        }
        return *this;
    }

private:
    size_t dim_num_ = 0U;
    int64_t strides_[kMaxDimNum] = {};
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_STRIDE_H_
