/* opsnn host twin: gert::ContinuousVector -- a header (capacity, size) followed in the same buffer
 * by its elements, so a list (workspace sizes, a list attribute) is one block a context can point
 * at. TypedContinuousVector<T> is the same bytes read as T. ContinuousVectorVector packs several
 * ContinuousVectors back to back behind a table of their offsets (list-of-list attributes). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

#include "graph/error_codes.h"
#include "securec.h"  // operator code relies on memcpy_s arriving with the runtime types, as CANN's
#include "utils/extern_math_util.h"

namespace gert {
class ContinuousVector {
public:
    /* A buffer holding an empty vector with room for `capacity` T; total_size its byte size. */
    template <typename T>
    static std::unique_ptr<uint8_t[]> Create(size_t capacity, size_t &total_size) {
        if (ge::MulOverflow(capacity, sizeof(T), total_size) ||
            ge::AddOverflow(total_size, sizeof(ContinuousVector), total_size)) {
            return nullptr;
        }
        std::unique_ptr<uint8_t[]> holder(new (std::nothrow) uint8_t[total_size]());
        if (holder != nullptr) {
            reinterpret_cast<ContinuousVector *>(holder.get())->Init(capacity);
        }
        return holder;
    }
    template <typename T>
    static std::unique_ptr<uint8_t[]> Create(const size_t capacity) {
        size_t total_size = 0;
        return Create<T>(capacity, total_size);
    }
    void Init(const size_t capacity) {
        capacity_ = capacity;
        size_ = 0U;
    }
    size_t GetSize() const { return size_; }
    ge::graphStatus SetSize(const size_t size) {
        if (size > capacity_) {
            return ge::GRAPH_PARAM_OUT_OF_RANGE;
        }
        size_ = size;
        return ge::GRAPH_SUCCESS;
    }
    size_t GetCapacity() const { return capacity_; }
    const void *GetData() const { return elements_; }
    void *MutableData() { return elements_; }

private:
    size_t capacity_;
    size_t size_;
    alignas(8) uint8_t elements_[8];  // the first elements; the rest follow in the same buffer
};
static_assert(std::is_standard_layout<ContinuousVector>::value, "a ContinuousVector is built in raw buffers");

template <typename T>
class TypedContinuousVector : private ContinuousVector {
public:
    using ContinuousVector::GetCapacity;
    using ContinuousVector::GetSize;
    using ContinuousVector::SetSize;
    T *MutableData() { return static_cast<T *>(ContinuousVector::MutableData()); }
    const T *GetData() const { return static_cast<const T *>(ContinuousVector::GetData()); }
};

class ContinuousVectorVector {
public:
    void Init(const size_t capacity) {
        capacity_ = capacity;
        size_ = 0U;
        if (capacity_ > 0U) {
            offsets_[0] = GetOverHeadLength(capacity_);
        }
    }
    /* The next inner vector, sized (and filled to) inner_capacity T; nullptr when full. */
    template <typename T>
    ContinuousVector *Add(size_t inner_capacity) {
        if (size_ >= capacity_) {
            return nullptr;
        }
        size_t inner_bytes = 0;
        if (ge::MulOverflow(inner_capacity, sizeof(T), inner_bytes) ||
            ge::AddOverflow(inner_bytes, sizeof(ContinuousVector), inner_bytes)) {
            return nullptr;
        }
        auto *inner = reinterpret_cast<ContinuousVector *>(reinterpret_cast<uint8_t *>(this) + offsets_[size_]);
        inner->Init(inner_capacity);
        (void)inner->SetSize(inner_capacity);
        ++size_;
        if (size_ < capacity_) {
            offsets_[size_] = offsets_[size_ - 1U] + inner_bytes;
        }
        return inner;
    }
    const ContinuousVector *Get(const size_t index) const {
        if (index >= size_) {
            return nullptr;
        }
        return reinterpret_cast<const ContinuousVector *>(reinterpret_cast<const uint8_t *>(this) + offsets_[index]);
    }
    size_t GetSize() const { return size_; }
    /* Bytes before the first inner vector: the header and the offset table. */
    static size_t GetOverHeadLength(const size_t capacity) {
        return offsetof(ContinuousVectorVector, offsets_) + sizeof(size_t) * (capacity == 0U ? 1U : capacity);
    }

private:
    size_t capacity_ = 0U;
    size_t size_ = 0U;
    size_t offsets_[1];  // capacity_ entries in the buffer
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_
