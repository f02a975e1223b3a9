/* opsnn host twin: gert::Tensor (and TensorV2, a Tensor with strides and an offset) -- shape,
 * format, data type and data of one runtime tensor.
 *
 * Layout rules callers rely on: a Tensor begins with its StorageShape (UT helpers hand a
 * StorageShape* where a Tensor* is read), and a kFollowing tensor's bytes sit right after the
 * object (CreateFollowing allocates both in one buffer). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_

#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "exe_graph/runtime/storage_format.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/stride.h"
#include "exe_graph/runtime/tensor_data.h"
#include "graph/error_codes.h"
#include "graph/types.h"

namespace gert {
using ConstTensorAddress = void *const;
enum TensorVersion : uint8_t { kTensorV1 = 0, kTensorV2 = 1 };

class Tensor {
public:
    Tensor() = default;
    Tensor(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
           const ge::DataType data_type, TensorAddress addr)
        : Tensor(storage_shape, storage_format, placement, data_type, addr, nullptr) {}
    Tensor(const StorageShape &storage_shape, const StorageFormat &storage_format, ge::DataType data_type)
        : storage_shape_(storage_shape), storage_format_(storage_format), data_type_(data_type) {}
    /* The data size is the storage shape's element count in data_type (0 where unknown). */
    Tensor(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
           const ge::DataType data_type, TensorAddress addr, TensorAddrManager manager)
        : storage_shape_(storage_shape),
          storage_format_(storage_format),
          data_type_(data_type),
          tensor_data_(addr, manager, ByteSize(storage_shape.GetStorageShape().GetShapeSize(), data_type), placement) {}

    int64_t GetShapeSize() const { return storage_shape_.GetStorageShape().GetShapeSize(); }
    template <class T>
    const T *GetData() const { return static_cast<const T *>(GetAddr()); }
    template <class T>
    T *GetData() { return static_cast<T *>(GetAddr()); }
    void SetData(TensorData &&data) { tensor_data_ = std::move(data); }
    const void *GetAddr() const {
        return tensor_data_.GetPlacement() == kFollowing ? static_cast<const void *>(this + 1) : tensor_data_.GetAddr();
    }
    void *GetAddr() {
        return tensor_data_.GetPlacement() == kFollowing ? static_cast<void *>(this + 1) : tensor_data_.GetAddr();
    }
    size_t GetSize() const { return tensor_data_.GetSize(); }
    void SetSize(const size_t size) { tensor_data_.SetSize(size); }
    ge::DataType GetDataType() const { return data_type_; }
    void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }

    /* One buffer: a kFollowing Tensor of dt, then room for shape_size elements. total_size gets
     * the buffer's size; nullptr where the size overflows. */
    static std::unique_ptr<uint8_t[]> CreateFollowing(const int64_t shape_size, const ge::DataType dt,
                                                      size_t &total_size) {
        const int64_t bytes = ge::GetSizeInBytes(shape_size, dt);
        if (bytes < 0) {
            return nullptr;
        }
        return CreateFollowing(dt, static_cast<size_t>(bytes), total_size);
    }
    static std::unique_ptr<uint8_t[]> CreateFollowing(const ge::DataType dt, const size_t tensor_size,
                                                      size_t &total_size) {
        return NewFollowing<Tensor>(dt, tensor_size, total_size);
    }

    const Shape &GetStorageShape() const { return storage_shape_.GetStorageShape(); }
    Shape &MutableStorageShape() { return storage_shape_.MutableStorageShape(); }
    const Shape &GetOriginShape() const { return storage_shape_.GetOriginShape(); }
    Shape &MutableOriginShape() { return storage_shape_.MutableOriginShape(); }
    const StorageShape &GetShape() const { return storage_shape_; }
    StorageShape &GetShape() { return storage_shape_; }
    ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
    void SetStorageFormat(const ge::Format format) { storage_format_.SetStorageFormat(format); }
    ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
    void SetOriginFormat(const ge::Format format) { storage_format_.SetOriginFormat(format); }
    const StorageFormat &GetFormat() const { return storage_format_; }
    StorageFormat &MutableFormat() { return storage_format_; }
    ExpandDimsType GetExpandDimsType() const { return storage_format_.GetExpandDimsType(); }
    void SetExpandDimsType(const ExpandDimsType &expand_dims_type) { storage_format_.SetExpandDimsType(expand_dims_type); }
    TensorPlacement GetPlacement() const { return tensor_data_.GetPlacement(); }
    void SetPlacement(const TensorPlacement placement) { tensor_data_.SetPlacement(placement); }
    const TensorData &GetTensorData() const { return tensor_data_; }
    TensorData &MutableTensorData() { return tensor_data_; }
    TensorVersion GetVersion() const { return version_; }

    /* Shared by Tensor and TensorV2: T's object, then `bytes` of data, in one buffer. */
    template <typename T>
    static std::unique_ptr<uint8_t[]> NewFollowing(const ge::DataType dt, const size_t bytes, size_t &total_size) {
        if (ge::AddOverflow(bytes, sizeof(T), total_size)) {
            return nullptr;
        }
        std::unique_ptr<uint8_t[]> holder(new (std::nothrow) uint8_t[total_size]());
        if (holder == nullptr) {
            return nullptr;
        }
        T *obj = new (holder.get()) T(StorageShape(), StorageFormat(), dt);
        obj->MutableTensorData() = TensorData(nullptr, nullptr, bytes, kFollowing);
        return holder;
    }

private:
    friend class TensorV2;
    static size_t ByteSize(int64_t count, ge::DataType dt) {
        const int64_t bytes = ge::GetSizeInBytes(count, dt);
        return bytes < 0 ? 0U : static_cast<size_t>(bytes);
    }
    void SetVersion(const TensorVersion version) { version_ = version; }

    StorageShape storage_shape_;
    StorageFormat storage_format_;
    TensorVersion version_ = kTensorV1;
    ge::DataType data_type_ = ge::DT_FLOAT;
    TensorData tensor_data_;
};
static_assert(std::is_standard_layout<Tensor>::value, "a Tensor heads its kFollowing data");

class TensorV2 {
public:
    TensorV2() { tensor_.SetVersion(kTensorV2); }
    TensorV2(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
             const ge::DataType data_type, TensorAddress addr)
        : TensorV2(storage_shape, storage_format, placement, data_type, addr, nullptr) {}
    TensorV2(const StorageShape &storage_shape, const StorageFormat &storage_format, ge::DataType data_type)
        : tensor_(storage_shape, storage_format, data_type) {
        tensor_.SetVersion(kTensorV2);
    }
    TensorV2(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
             const ge::DataType data_type, TensorAddress addr, TensorAddrManager manager)
        : tensor_(storage_shape, storage_format, placement, data_type, addr, manager) {
        tensor_.SetVersion(kTensorV2);
    }
    TensorV2(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
             const ge::DataType data_type, TensorAddress addr, TensorAddrManager manager, const Stride &stride,
             const int64_t offset)
        : tensor_(storage_shape, storage_format, placement, data_type, addr, manager), stride_(stride), offset_(offset) {
        tensor_.SetVersion(kTensorV2);
    }

    int64_t GetShapeSize() const { return tensor_.GetShapeSize(); }
    template <class T>
    const T *GetData() const { return static_cast<const T *>(GetAddr()); }
    template <class T>
    T *GetData() { return static_cast<T *>(GetAddr()); }
    void SetData(TensorData &&data) { tensor_.SetData(std::move(data)); }
    /* kFollowing data follows the TensorV2 (not the Tensor inside it). */
    const void *GetAddr() const {
        return GetPlacement() == kFollowing ? static_cast<const void *>(this + 1) : tensor_.tensor_data_.GetAddr();
    }
    void *GetAddr() {
        return GetPlacement() == kFollowing ? static_cast<void *>(this + 1) : tensor_.tensor_data_.GetAddr();
    }
    size_t GetSize() const { return tensor_.GetSize(); }
    void SetSize(const size_t size) { tensor_.SetSize(size); }
    ge::DataType GetDataType() const { return tensor_.GetDataType(); }
    void SetDataType(const ge::DataType data_type) { tensor_.SetDataType(data_type); }
    static std::unique_ptr<uint8_t[]> CreateFollowing(const int64_t shape_size, const ge::DataType dt,
                                                      size_t &total_size) {
        const int64_t bytes = ge::GetSizeInBytes(shape_size, dt);
        if (bytes < 0) {
            return nullptr;
        }
        return CreateFollowing(dt, static_cast<size_t>(bytes), total_size);
    }
    static std::unique_ptr<uint8_t[]> CreateFollowing(const ge::DataType dt, const size_t tensor_size,
                                                      size_t &total_size) {
        return Tensor::NewFollowing<TensorV2>(dt, tensor_size, total_size);
    }
    const Shape &GetStorageShape() const { return tensor_.GetStorageShape(); }
    Shape &MutableStorageShape() { return tensor_.MutableStorageShape(); }
    const Shape &GetOriginShape() const { return tensor_.GetOriginShape(); }
    Shape &MutableOriginShape() { return tensor_.MutableOriginShape(); }
    const StorageShape &GetShape() const { return tensor_.GetShape(); }
    StorageShape &GetShape() { return tensor_.GetShape(); }
    ge::Format GetStorageFormat() const { return tensor_.GetStorageFormat(); }
    void SetStorageFormat(const ge::Format format) { tensor_.SetStorageFormat(format); }
    ge::Format GetOriginFormat() const { return tensor_.GetOriginFormat(); }
    void SetOriginFormat(const ge::Format format) { tensor_.SetOriginFormat(format); }
    const StorageFormat &GetFormat() const { return tensor_.GetFormat(); }
    StorageFormat &MutableFormat() { return tensor_.MutableFormat(); }
    ExpandDimsType GetExpandDimsType() const { return tensor_.GetExpandDimsType(); }
    void SetExpandDimsType(const ExpandDimsType &expand_dims_type) { tensor_.SetExpandDimsType(expand_dims_type); }
    TensorPlacement GetPlacement() const { return tensor_.GetPlacement(); }
    void SetPlacement(const TensorPlacement placement) { tensor_.SetPlacement(placement); }
    const TensorData &GetTensorData() const { return tensor_.GetTensorData(); }
    TensorData &MutableTensorData() { return tensor_.MutableTensorData(); }
    TensorVersion GetVersion() const { return tensor_.GetVersion(); }
    const Stride &GetStride() const { return stride_; }
    Stride &MutableStride() { return stride_; }
    int64_t GetOffset() const { return offset_; }
    void SetOffset(const int64_t offset) { offset_ = offset; }

private:
    Tensor tensor_;
    Stride stride_;
    int64_t offset_ = 0;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_
