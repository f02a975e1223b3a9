/* opsnn CPU-debug runtime: ListTensorDesc and TensorDesc (kernel_operator_list_tensor_intf.h), the
 * decoder of a tensor list passed to a kernel as one GM block. The block, as AscendC's A2 decoder
 * reads it (all 64-bit words):
 *
 *   word 0                      the byte offset from the block's start to the data-pointer array
 *   then one record per tensor  a head word (low 32 bits: dim; high 32 bits: the record's index,
 *                               the first record's holding the count where it is not 0), then dim
 *                               shape words; with dim 0 the record is two words (the second
 *                               0xffffffff) and only the pointers are there
 *   then the data pointers      count GM addresses
 *
 * The words are read through GlobalTensor<uint64_t>::GetValue, so the sanitizer sees every read;
 * the decoder's checks are ASSERTs (CANN's CPU debug asserts on the same conditions). */
#ifndef OPSNN_KT_LIST_TENSOR_H_
#define OPSNN_KT_LIST_TENSOR_H_

#include <cstdint>

#include "opsnn_kt/instructions.h"
#include "opsnn_kt/tensors.h"

namespace AscendC {
class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    __aicore__ inline TensorDesc() {}
    __aicore__ inline void SetShapeAddr(uint64_t *shapePtr) { shape_ = shapePtr; }
    __aicore__ inline uint64_t *GetShapeAddr() { return shape_; }
    __aicore__ inline uint64_t GetDim() { return dim_; }
    __aicore__ inline uint64_t GetIndex() { return index_; }
    __aicore__ inline uint64_t GetShape(uint32_t offset) {
        ASSERT(offset < dim_);
        return shape_[offset];
    }
    __aicore__ inline __gm__ T *GetDataPtr() { return ptr_; }
    /* the tensor as a GlobalTensor of its elements (the shape's product of them) */
    __aicore__ inline GlobalTensor<T> GetDataObj() {
        uint64_t n = 1;
        for (uint32_t i = 0; i < dim_; ++i) n *= shape_[i];
        GlobalTensor<T> g;
        g.SetGlobalBuffer(ptr_, n);
        return g;
    }

private:
    friend class ListTensorDesc;
    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    uint64_t *shape_ = nullptr;
    __gm__ T *ptr_ = nullptr;
};

class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ListTensorDesc(__gm__ void *data, uint32_t length = 0xffffffff,
                                     uint32_t shapeSize = 0xffffffff) {
        Init(data, length, shapeSize);
    }
    /* length and shapeSize only check the block (0xffffffff: unchecked) */
    __aicore__ inline void Init(__gm__ void *data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        ASSERT(data != nullptr);
        words_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(data));
        const uint64_t pointersAt = words_.GetValue(0);
        const uint64_t head = words_.GetValue(1);
        dim_ = static_cast<uint32_t>(head & 0xffffffffu);
        const uint32_t stated = static_cast<uint32_t>(head >> 32);
        pointers_ = static_cast<uint32_t>(pointersAt / sizeof(uint64_t));
        record_ = dim_ == 0 ? 2 : 1 + dim_;
        count_ = stated != 0 ? stated : static_cast<uint32_t>(words_.GetValue(pointers_ - record_) >> 32) + 1;
        ASSERT((dim_ != 0 && count_ == (pointersAt - sizeof(uint64_t)) / (record_ * sizeof(uint64_t))) ||
               (dim_ == 0 && words_.GetValue(2) == 0xffffffffu && pointersAt == 24));
        if (length != 0xffffffff && shapeSize != 0xffffffff) {
            ASSERT(count_ == shapeSize);
            ASSERT(length == pointersAt + count_ * sizeof(uint64_t));
        }
    }
    /* desc gets tensor index's dim, data pointer and shape (into the address SetShapeAddr gave it) */
    template <class T>
    __aicore__ inline void GetDesc(TensorDesc<T> &desc, uint32_t index) {
        ASSERT(index < count_ && dim_ != 0);
        ASSERT(desc.shape_ != nullptr);
        desc.dim_ = dim_;
        desc.index_ = index;
        desc.ptr_ = GetDataPtr<T>(index);
        const uint64_t record = 1 + static_cast<uint64_t>(index) * record_;
        for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = words_.GetValue(record + 1 + i);
    }
    template <class T>
    __aicore__ inline __gm__ T *GetDataPtr(uint32_t index) {
        ASSERT(index < count_);
        return reinterpret_cast<__gm__ T *>(static_cast<uintptr_t>(words_.GetValue(pointers_ + index)));
    }
    __aicore__ inline uint32_t GetSize() { return count_; }

private:
    GlobalTensor<uint64_t> words_;
    uint32_t dim_ = 0, record_ = 0, count_ = 0, pointers_ = 0;
};
}  // namespace AscendC

#endif  // OPSNN_KT_LIST_TENSOR_H_
