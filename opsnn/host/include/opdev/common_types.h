/* opsnn host twin: opdev/common_types.h -- the C++ side of the aclnn argument types.
 *
 * aclTensor, aclScalar, aclIntArray, aclFloatArray, aclBoolArray, aclTensorList, aclScalarList are
 * opaque structs to C programs (aclnn/acl_meta.h from opsnn/capi/include, whose declarations are
 * reused here); op_api code sees them as these classes, with CANN's methods. Constructors and
 * destructors are private where CANN's are (the C create/destroy calls and the executor are
 * friends); upstream's UT helpers reach them with -fno-access-control, as their build does.
 *
 * A tensor is a view (shape, element strides, element offset, dtype, formats) onto a storage that
 * several views may share: a user tensor's storage is the device address the program passed to
 * aclCreateTensor; an executor's intermediate gets its address in the workspace at phase 2. */
#ifndef OPSNN_HOST_OPDEV_COMMON_TYPES_H_
#define OPSNN_HOST_OPDEV_COMMON_TYPES_H_

#include <unistd.h>  // upstream's op_api UT helpers call access() and cout with no include
                     // of their own: on the toolkit both arrive through its headers

#include <cassert>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#if __has_include("securec.h")
#include "securec.h"
#endif

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/storage_format.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor_data.h"
#include "graph/ascend_string.h"
#include "graph/types.h"
#include "opdev/bfloat16.h"
#include "opdev/fast_vector.h"
#include "opdev/fp16_t.h"
#include "opdev/object.h"
#include "opdev/op_def.h"
#include "opdev/op_errno.h"

namespace op {
constexpr uint64_t MAX_DIM_NUM = 25;

using Strides = FVector<int64_t, MAX_DIM_NUM>;
using ShapeVector = FVector<int64_t, MAX_DIM_NUM>;
using Shape = gert::Shape;
using Format = ge::Format;
using DataType = ge::DataType;
using StorageShape = gert::StorageShape;
using StorageFormat = gert::StorageFormat;
using TensorPlacement = gert::TensorPlacement;

ge::AscendString ToString(DataType dataType);
/* Bytes per element; sub-byte types give kDataTypeSizeBitOffset + bits (CANN's convention);
 * a type without a size (strings, DT_UNDEFINED) gives the size of a complex128. */
size_t TypeSize(DataType dataType);
/* Row-major element strides of `shape` (a 0-length dim steps as 1). */
void ToContiguousStrides(const Shape &shape, Strides &strides);
}  // namespace op

namespace opsnn_host {
struct TensorStorage;  // src/opdev/tensor.cpp
}

template <typename T>
class aclArray : public op::Object {
public:
    ~aclArray() override = default;
    T &operator[](uint64_t i) { return values_[i]; }
    const T &operator[](uint64_t i) const { return values_[i]; }
    uint64_t Size() const { return size_; }
    const T *GetData() const { return values_.get(); }
    ge::AscendString ToString() const {
        std::string text = "[";
        for (uint64_t i = 0; i < size_; ++i) {
            text += i ? "," : "";
            if (std::is_integral<T>::value) {
                text += std::to_string(static_cast<long long>(values_[i]));
            } else {
                text += std::to_string(static_cast<double>(static_cast<float>(values_[i])));
            }
        }
        return ge::AscendString((text + "]").c_str());
    }

protected:
    aclArray(const T *value, uint64_t size) : values_(new T[size == 0 ? 1 : size]()), size_(size) {
        for (uint64_t i = 0; i < size && value != nullptr; ++i) {
            values_[i] = value[i];
        }
    }

private:
    std::unique_ptr<T[]> values_;  // a copy: the caller's array may go away
    uint64_t size_ = 0;
};

/* One class per element type, constructed by the C create call or by the executor. */
#define OPSNN_ACL_ARRAY_CLASS(Name, T)                                             \
    class acl##Name##Array : public aclArray<T> {                                  \
        friend struct aclOpExecutor;                                               \
        friend acl##Name##Array *aclCreate##Name##Array(const T *value, uint64_t size); \
        friend aclnnStatus aclDestroy##Name##Array(const acl##Name##Array *array); \
                                                                                   \
    private:                                                                       \
        acl##Name##Array(const T *value, uint64_t size) : aclArray<T>(value, size) {} \
        ~acl##Name##Array() override = default;                                    \
    }

OPSNN_ACL_ARRAY_CLASS(Bool, bool);
OPSNN_ACL_ARRAY_CLASS(Int, int64_t);
OPSNN_ACL_ARRAY_CLASS(Float, float);
OPSNN_ACL_ARRAY_CLASS(Fp16, op::fp16_t);
OPSNN_ACL_ARRAY_CLASS(Bf16, op::bfloat16);
#undef OPSNN_ACL_ARRAY_CLASS

class aclTensor : public op::Object {
    friend struct aclOpExecutor;
    friend class aclTensorList;
    friend struct opsnn_host::TensorStorage;
    friend aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                      const int64_t *stride, int64_t offset, aclFormat format,
                                      const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData);
    friend aclnnStatus aclDestroyTensor(const aclTensor *tensor);

public:
    const op::Shape &GetStorageShape() const { return storageShape_; }
    void SetStorageShape(const op::Shape &shape) const { storageShape_ = shape; }
    const op::Shape &GetOriginalShape() const { return originShape_; }
    void SetOriginalShape(const op::Shape &shape) const { originShape_ = shape; }
    const op::Shape &GetViewShape() const { return viewShape_; }
    void SetViewShape(const op::Shape &shape) { viewShape_ = shape; }

    op::Format GetStorageFormat() const { return storageFormat_; }
    void SetStorageFormat(op::Format format) { storageFormat_ = format; }
    op::Format GetOriginalFormat() const { return originFormat_; }
    void SetOriginalFormat(op::Format format) { originFormat_ = format; }
    op::Format GetViewFormat() const { return viewFormat_; }
    void SetViewFormat(op::Format format) { viewFormat_ = format; }

    const op::Strides &GetViewStrides() const { return viewStrides_; }
    void SetViewStrides(const op::Strides &strides) { viewStrides_ = strides; }
    void SetViewStrides(op::Strides &&strides) { viewStrides_ = std::move(strides); }

    aclTensor &operator=(const aclTensor &other) = delete;
    aclTensor &operator=(aclTensor &&other) = delete;
    aclTensor(aclTensor &&other) = delete;

    /* The address of the view's first element (storage address + offset): what a kernel reads. */
    void *GetData() const;
    /* The storage's address (device address, or host memory for a host tensor). */
    void *GetStorageAddr() const;
    void SetStorageAddr(void *addr) const;
    /* Elements of the view (a 0-d tensor has one). */
    int64_t Size() const { return viewShape_.GetShapeSize(); }
    int64_t Numel() const { return viewShape_.GetShapeSize(); }
    op::DataType GetDataType() const { return dataType_; }
    void SetDataType(op::DataType dataType) { dataType_ = dataType; }
    int64_t GetViewOffset() const { return viewOffset_; }
    void SetViewOffset(int64_t offset) const { viewOffset_ = offset; }
    int64_t GetStorageOffset() const { return viewOffset_; }
    void SetStorageOffset(int64_t offset) { viewOffset_ = offset; }
    op::TensorPlacement GetPlacement() const { return placement_; }
    /* A view with a zero-length dimension. */
    bool IsEmpty() const { return viewShape_.GetShapeSize() == 0; }
    bool IsFromWorkspace() const;
    void SetFromWorkspace(bool fromWorkspace) const;
    ge::AscendString ToString() const;

    /* Host tensors only (AllocHostTensor, ConvertToTensor): element `index` set to `value`. */
    template <typename T>
    void SetData(int64_t index, const T value, op::DataType dataType) {
        SetHostElement(index, static_cast<double>(value), dataType);
    }
    void SetBoolData(const bool *value, uint64_t size, op::DataType dataType);
    void SetIntData(const int64_t *value, uint64_t size, op::DataType dataType);
    void SetFloatData(const float *value, uint64_t size, op::DataType dataType);
    void SetFp16Data(const op::fp16_t *value, uint64_t size, op::DataType dataType);
    void SetBf16Data(const op::bfloat16 *value, uint64_t size, op::DataType dataType);
    void InitTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                    int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                    void *tensorDataAddr);

    /* opsnn: the storage this view reads (shared by the views of one buffer). */
    const std::shared_ptr<opsnn_host::TensorStorage> &Storage() const { return storage_; }

private:
    aclTensor();
    aclTensor(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dataType,
              op::Format storageFormat, op::Format originFormat, std::shared_ptr<opsnn_host::TensorStorage> storage);
    ~aclTensor() override;
    bool IsView() const { return isView_; }
    void SetView(bool isView) { isView_ = isView; }
    void SetHostElement(int64_t index, double value, op::DataType dataType);

    std::shared_ptr<opsnn_host::TensorStorage> storage_;
    op::Shape viewShape_;
    mutable op::Shape storageShape_;
    mutable op::Shape originShape_;
    op::Strides viewStrides_;
    mutable int64_t viewOffset_ = 0;
    op::DataType dataType_ = op::DataType::DT_FLOAT;
    op::Format viewFormat_ = op::Format::FORMAT_ND;
    op::Format storageFormat_ = op::Format::FORMAT_ND;
    op::Format originFormat_ = op::Format::FORMAT_ND;
    op::TensorPlacement placement_ = op::TensorPlacement::kOnDeviceHbm;
    bool isView_ = false;
};

class aclTensorList : public op::Object {
    friend struct aclOpExecutor;
    friend aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
    friend aclnnStatus aclDestroyTensorList(const aclTensorList *array);

public:
    aclTensor *&operator[](uint64_t i) { return tensors_[i]; }
    const aclTensor *operator[](uint64_t i) const { return tensors_[i]; }
    uint64_t Size() const { return tensors_.size(); }
    const aclTensor *const *GetData() const { return tensors_.data(); }
    ge::AscendString ToString() const;

private:
    /* owns: the list destroys its tensors (CANN: they are not destroyed again) */
    aclTensorList(const aclTensor *const *tensors, uint64_t size, bool owns = true);
    ~aclTensorList() override;
    std::vector<aclTensor *> tensors_;
    bool owns_ = true;
};

class aclScalar : public op::Object {
    friend struct aclOpExecutor;
    friend class aclScalarList;

public:
    /* Reads one value of `dataType` from `data` now (the caller's variable may die after). */
    aclScalar(const void *data, op::DataType dataType);
    ~aclScalar() override = default;
    const void *GetData() const { return &v_; }
    uint64_t Size() const { return op::TypeSize(dataType_); }
    op::DataType GetDataType() const { return dataType_; }

    /* The value converted as C++ converts it (static_cast), as CANN's do: a float to an
     * integer truncates, an out-of-range value is the cast's result. CheckOverflows says when. */
    float ToFloat() const { return To<float>(); }
    double ToDouble() const { return To<double>(); }
    bool ToBool() const { return To<bool>(); }
    int8_t ToInt8() const { return To<int8_t>(); }
    int16_t ToInt16() const { return To<int16_t>(); }
    int32_t ToInt32() const { return To<int32_t>(); }
    int64_t ToInt64() const { return To<int64_t>(); }
    uint8_t ToUint8() const { return To<uint8_t>(); }
    uint16_t ToUint16() const { return To<uint16_t>(); }
    uint32_t ToUint32() const { return To<uint32_t>(); }
    uint64_t ToUint64() const { return To<uint64_t>(); }
    op::fp16_t ToFp16() const { return op::fp16_t(ToDouble()); }
    op::bfloat16 ToBf16() const { return op::bfloat16(ToDouble()); }
    std::complex<float> ToComplex64() const;
    std::complex<double> ToComplex128() const;
    ge::AscendString ToString() const;

    /* Whether the value is outside what `To` can hold (a finite range check on the value as a
     * double or an integer; NaN and infinity overflow an integer type, not a floating one). */
    template <typename Target>
    bool CheckOverflows() const;

private:
    explicit aclScalar(int32_t value);
    explicit aclScalar(int64_t value);
    explicit aclScalar(int16_t value);
    explicit aclScalar(int8_t value);
    explicit aclScalar(uint32_t value);
    explicit aclScalar(uint64_t value);
    explicit aclScalar(uint16_t value);
    explicit aclScalar(uint8_t value);
    explicit aclScalar(float value);
    explicit aclScalar(double value);
    explicit aclScalar(op::fp16_t value);
    explicit aclScalar(op::bfloat16 value);
    explicit aclScalar(bool value);

    template <typename T>
    T To() const;
    /* The value as a real number class: integers exactly, floats as double. */
    bool IsIntegral() const;
    bool IsUnsignedIntegral() const;
    int64_t AsInt64() const;
    uint64_t AsUint64() const;
    double AsDouble() const;

    op::DataType dataType_ = op::DataType::DT_FLOAT;
    union Value {
        bool b;
        int8_t i8;
        uint8_t u8;
        int16_t i16;
        uint16_t u16;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f;
        double d;
        float c64[2];
        double c128[2];
    } v_{};
};

class aclScalarList : public op::Object {
    friend struct aclOpExecutor;
    friend aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size);
    friend aclnnStatus aclDestroyScalarList(const aclScalarList *array);

public:
    aclScalar *&operator[](uint64_t i) { return scalars_[i]; }
    const aclScalar *operator[](uint64_t i) const { return scalars_[i]; }
    uint64_t Size() const { return scalars_.size(); }
    const aclScalar *const *GetData() const { return scalars_.data(); }
    ge::AscendString ToString() const;

private:
    aclScalarList(const aclScalar *const *scalars, uint64_t size, bool owns = true);
    ~aclScalarList() override;
    std::vector<aclScalar *> scalars_;
    bool owns_ = true;
};

template <typename T>
T aclScalar::To() const {
    if (dataType_ == op::DataType::DT_COMPLEX64) {
        return static_cast<T>(v_.c64[0]);
    }
    if (dataType_ == op::DataType::DT_COMPLEX128) {
        return static_cast<T>(v_.c128[0]);
    }
    if (IsUnsignedIntegral()) {
        return static_cast<T>(AsUint64());
    }
    if (IsIntegral()) {
        return static_cast<T>(AsInt64());
    }
    return static_cast<T>(AsDouble());
}

namespace opsnn_host {
/* Whether `value` (a double) lies outside the range of arithmetic type To. */
template <typename To>
bool DoubleOverflows(double value) {
    if (value != value) {  // NaN: no integer holds it
        return std::is_integral<To>::value;
    }
    if (std::is_same<To, bool>::value) {
        return false;
    }
    if (std::is_same<To, op::fp16_t>::value) {
        return value > 65504.0 || value < -65504.0;
    }
    if (std::is_same<To, op::bfloat16>::value || std::is_same<To, float>::value) {
        return value > 3.4028234663852886e38 || value < -3.4028234663852886e38;
    }
    if (std::is_floating_point<To>::value) {
        return false;
    }
    if (std::is_signed<To>::value) {
        /* the bounds as doubles: -2^(n-1) is exact; 2^(n-1) is one past the top */
        const double top = static_cast<double>(static_cast<uint64_t>(1) << (sizeof(To) * 8 - 1));
        return value < -top || value >= top;
    }
    const double top = sizeof(To) == 8 ? 18446744073709551616.0
                                       : static_cast<double>(static_cast<uint64_t>(1) << (sizeof(To) * 8));
    return value < 0 || value >= top;
}
}  // namespace opsnn_host

template <typename Target>
bool aclScalar::CheckOverflows() const {
    constexpr bool kInteger = std::is_integral<Target>::value && !std::is_same<Target, bool>::value;
    if (IsUnsignedIntegral()) {
        const uint64_t u = AsUint64();
        if (kInteger) {
            return u > static_cast<uint64_t>(std::numeric_limits<Target>::max());
        }
        return opsnn_host::DoubleOverflows<Target>(static_cast<double>(u));
    }
    if (IsIntegral()) {
        const int64_t i = AsInt64();
        if (kInteger && std::is_signed<Target>::value) {
            return i < static_cast<int64_t>(std::numeric_limits<Target>::min()) ||
                   i > static_cast<int64_t>(std::numeric_limits<Target>::max());
        }
        if (kInteger) {
            return i < 0 || static_cast<uint64_t>(i) > static_cast<uint64_t>(std::numeric_limits<Target>::max());
        }
        return opsnn_host::DoubleOverflows<Target>(static_cast<double>(i));
    }
    return opsnn_host::DoubleOverflows<Target>(ToDouble());
}

ge::AscendString ToString(const aclTensor *t);
ge::AscendString ToString(const aclTensorList *t);
ge::AscendString ToString(const aclIntArray *t);
ge::AscendString ToString(const aclBoolArray *t);
ge::AscendString ToString(const aclFloatArray *t);
ge::AscendString ToString(const aclFp16Array *t);
ge::AscendString ToString(const aclBf16Array *t);
ge::AscendString ToString(const aclScalar *t);
ge::AscendString ToString(const aclScalarList *t);
ge::AscendString ToString(aclDataType dataType);

#endif  // OPSNN_HOST_OPDEV_COMMON_TYPES_H_
