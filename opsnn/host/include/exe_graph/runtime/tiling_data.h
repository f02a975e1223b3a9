/* opsnn host twin: gert::TilingData -- the tiling function's output buffer: a fixed capacity, a
 * data size that grows as fields are appended, and the bytes (in the same allocation when made by
 * CreateCap). Its bytes are what the kernel receives as its tiling argument. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_DATA_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_DATA_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "exe_graph/runtime/continuous_vector.h"
#include "graph/error_codes.h"
#include "securec.h"
#include "utils/extern_math_util.h"

namespace gert {
/* Attribute value types (CANN's order) a tiling may convert attributes between. */
enum class AttrDataType : int32_t {
    kBool = 0, kString, kInt32, kInt64, kUint32, kFloat32, kFloat16, kListBool, kListString, kListInt32,
    kListInt64, kListUint32, kListFloat32, kListFloat16, kListListInt32, kListListInt64, kBfloat16, kInt8,
    kInt16, kListInt8, kListInt16, kListListBool, kListListFloat16, kListBfloat16, kListListBfloat16,
    kListListFloat32, kListListInt8, kListListInt16, kUint8, kListUint8, kListListUint8, kUint16, kListUint16,
    kListListUint16, kListListUint32, kUint64, kListUint64, kListListUint64, kTypeEnd
};

class TilingData {
public:
    size_t GetCapacity() const { return capacity_; }
    size_t GetDataSize() const { return data_size_; }
    void SetDataSize(const size_t size) { data_size_ = size; }
    void *GetData() { return data_; }
    const void *GetData() const { return data_; }

    /* Appends data's bytes; GRAPH_FAILED where they do not fit. */
    template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
    ge::graphStatus Append(const T &data) {
        void *slot = Expand(sizeof(T));
        if (slot == nullptr) {
            return ge::GRAPH_FAILED;
        }
        std::memcpy(slot, &data, sizeof(T));
        return ge::GRAPH_SUCCESS;
    }
    template <typename T, typename std::enable_if<std::is_standard_layout<T>::value, int>::type = 0>
    ge::graphStatus Append(const T *data, size_t count) {
        size_t bytes = 0;
        if (ge::MulOverflow(sizeof(T), count, bytes)) {
            return ge::GRAPH_MUL_OVERFLOW;
        }
        void *slot = Expand(bytes);
        if (slot == nullptr) {
            return ge::GRAPH_ADD_OVERFLOW;
        }
        if (bytes > 0U) {
            std::memcpy(slot, data, bytes);
        }
        return ge::GRAPH_SUCCESS;
    }
    /* Grows the data size by `size` and returns where those bytes start; nullptr past capacity. */
    void *Expand(size_t size) {
        size_t after = 0;
        if (ge::AddOverflow(data_size_, size, after) || after > capacity_) {
            return nullptr;
        }
        void *slot = static_cast<uint8_t *>(data_) + data_size_;
        data_size_ = after;
        return slot;
    }
    /* A zeroed buffer holding a TilingData and cap_size bytes of room after it. */
    static std::unique_ptr<uint8_t[]> CreateCap(const size_t cap_size) {
        size_t total = 0;
        if (CalcTotalSize(cap_size, total) != ge::GRAPH_SUCCESS) {
            return nullptr;
        }
        std::unique_ptr<uint8_t[]> buffer(new (std::nothrow) uint8_t[total]());
        if (buffer != nullptr) {
            reinterpret_cast<TilingData *>(buffer.get())->Init(cap_size, buffer.get() + sizeof(TilingData));
        }
        return buffer;
    }
    static ge::graphStatus CalcTotalSize(const size_t cap_size, size_t &total_size) {
        return ge::AddOverflow(sizeof(TilingData), cap_size, total_size) ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
    }
    void Init(const size_t cap_size, void *const data) {
        capacity_ = cap_size;
        data_size_ = 0U;
        data_ = data;
    }
    TilingData(const TilingData &) = delete;
    TilingData(TilingData &&) = delete;
    TilingData &operator=(const TilingData &) = delete;
    TilingData &operator=(TilingData &&) = delete;

private:
    TilingData() = default;
    size_t capacity_;
    size_t data_size_;
    void *data_;
};

/* Appends; a field that does not fit is dropped silently (CANN's operator, which cannot report). */
template <typename T>
TilingData &operator<<(TilingData &out, const T &data) {
    (void)out.Append(data);
    return out;
}
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_DATA_H_
