/* aclTensor, aclScalar and the argument containers: their members, and how src/ makes them. */
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "element_cast.h"
#include "opdev/common_types.h"
#include "opdev/shape_utils.h"
#include "opsnn_host/float_format.h"
#include "tensor_storage.h"

namespace opsnn_host {

int64_t ViewExtent(const op::Shape &shape, const op::Strides &strides, int64_t offset) {
    int64_t last = offset;
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        if (shape.GetDim(i) == 0) {
            return 0;
        }
        const int64_t stride = i < strides.size() ? strides[i] : 0;
        last += (shape.GetDim(i) - 1) * stride;
    }
    return last + 1;
}

bool HasByteSize(op::DataType dtype) {
    const int size = ge::GetSizeByDataType(dtype);
    return size > 0 && size < ge::kDataTypeSizeBitOffset;
}

uint64_t ElementBytes(op::DataType dtype, int64_t count) {
    const int64_t bytes = ge::GetSizeInBytes(count, dtype);
    return bytes < 0 ? 0 : static_cast<uint64_t>(bytes);
}

aclTensor *TensorStorage::NewTensor(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dtype,
                                    op::Format storageFormat, op::Format originFormat,
                                    std::shared_ptr<TensorStorage> storage) {
    return new aclTensor(storageShape, originShape, dtype, storageFormat, originFormat, std::move(storage));
}

aclTensor *TensorStorage::NewView(const aclTensor &base, const op::Shape &viewShape, const op::Strides &strides,
                                  int64_t offset) {
    auto *view = new aclTensor(base.storageShape_, viewShape, base.dataType_, base.storageFormat_,
                               base.originFormat_, base.storage_);
    view->viewShape_ = viewShape;
    view->viewStrides_ = strides;
    view->viewOffset_ = offset;
    view->viewFormat_ = base.viewFormat_;
    view->placement_ = base.placement_;
    view->isView_ = true;
    return view;
}

aclTensor *TensorStorage::NewHostTensor(const op::Shape &shape, op::DataType dtype, op::Format format) {
    auto storage = std::make_shared<TensorStorage>();
    const int64_t count = shape.GetShapeSize() < 0 ? 0 : shape.GetShapeSize();
    storage->hostBytes = ElementBytes(dtype, count);
    storage->hostData.reset(new uint8_t[storage->hostBytes == 0 ? 1 : storage->hostBytes]());
    storage->addr = storage->hostData.get();
    aclTensor *t = NewTensor(shape, shape, dtype, format, format, std::move(storage));
    t->placement_ = op::TensorPlacement::kOnHost;
    return t;
}

void TensorStorage::Delete(const aclTensor *tensor) { delete tensor; }

void TensorStorage::SetPlacement(aclTensor *tensor, op::TensorPlacement placement) { tensor->placement_ = placement; }

}  // namespace opsnn_host

using opsnn_host::TensorStorage;

aclTensor::aclTensor() : storage_(std::make_shared<TensorStorage>()) {}

aclTensor::aclTensor(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dataType,
                     op::Format storageFormat, op::Format originFormat, std::shared_ptr<TensorStorage> storage)
    : storage_(storage ? std::move(storage) : std::make_shared<TensorStorage>()),
      viewShape_(originShape),
      storageShape_(storageShape),
      originShape_(originShape),
      dataType_(dataType),
      viewFormat_(originFormat),
      storageFormat_(storageFormat),
      originFormat_(originFormat) {
    op::ToContiguousStrides(viewShape_, viewStrides_);
}

aclTensor::~aclTensor() = default;

void *aclTensor::GetStorageAddr() const { return storage_->addr; }

void aclTensor::SetStorageAddr(void *addr) const { storage_->addr = addr; }

void *aclTensor::GetData() const {
    if (storage_->addr == nullptr) {
        return nullptr;
    }
    return static_cast<uint8_t *>(storage_->addr) + viewOffset_ * static_cast<int64_t>(op::TypeSize(dataType_));
}

bool aclTensor::IsFromWorkspace() const { return storage_->fromWorkspace; }

void aclTensor::SetFromWorkspace(bool fromWorkspace) const { storage_->fromWorkspace = fromWorkspace; }

ge::AscendString aclTensor::ToString() const {
    std::string text = std::string("aclTensor(") + op::ToString(dataType_).GetString() +
                       op::ToString(viewShape_).GetString() + ", strides " + op::ToString(viewStrides_).GetString() +
                       ", offset " + std::to_string(viewOffset_) + ", storage " +
                       op::ToString(storageShape_).GetString() + ")";
    return ge::AscendString(text.c_str());
}

void aclTensor::SetHostElement(int64_t index, double value, op::DataType dataType) {
    const int64_t count = storage_->hostBytes / (op::TypeSize(dataType) == 0 ? 1 : op::TypeSize(dataType));
    if (storage_->hostData == nullptr || index < 0 || index >= count || !opsnn_host::HasByteSize(dataType)) {
        return;  // only a host tensor's own elements, in range
    }
    opsnn_host::StoreDouble(value, storage_->hostData.get() + index * op::TypeSize(dataType), dataType);
}

namespace {
void FillHost(aclTensor *t, const std::shared_ptr<TensorStorage> &storage, const void *values, op::DataType from,
              uint64_t size, op::DataType to) {
    const uint64_t capacity = storage->hostBytes / (op::TypeSize(to) == 0 ? 1 : op::TypeSize(to));
    if (storage->hostData == nullptr || !opsnn_host::HasByteSize(to)) {
        return;
    }
    (void)t;
    opsnn_host::ConvertElements(values, from, storage->hostData.get(), to,
                                static_cast<int64_t>(size < capacity ? size : capacity));
}
}  // namespace

void aclTensor::SetBoolData(const bool *value, uint64_t size, op::DataType dataType) {
    FillHost(this, storage_, value, op::DataType::DT_BOOL, size, dataType);
}
void aclTensor::SetIntData(const int64_t *value, uint64_t size, op::DataType dataType) {
    FillHost(this, storage_, value, op::DataType::DT_INT64, size, dataType);
}
void aclTensor::SetFloatData(const float *value, uint64_t size, op::DataType dataType) {
    FillHost(this, storage_, value, op::DataType::DT_FLOAT, size, dataType);
}
void aclTensor::SetFp16Data(const op::fp16_t *value, uint64_t size, op::DataType dataType) {
    FillHost(this, storage_, value, op::DataType::DT_FLOAT16, size, dataType);
}
void aclTensor::SetBf16Data(const op::bfloat16 *value, uint64_t size, op::DataType dataType) {
    FillHost(this, storage_, value, op::DataType::DT_BF16, size, dataType);
}

void aclTensor::InitTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorDataAddr) {
    op::ToShape(viewDims, viewDimsNum, viewShape_);
    op::ToShape(storageDims, storageDimsNum, storageShape_);
    originShape_ = viewShape_;
    if (stride == nullptr) {
        op::ToContiguousStrides(viewShape_, viewStrides_);
    } else {
        viewStrides_.assign(stride, stride + viewDimsNum);
    }
    viewOffset_ = offset;
    dataType_ = op::ToOpDataType(dataType);
    const op::Format f = static_cast<op::Format>(format);
    viewFormat_ = storageFormat_ = originFormat_ = f;
    placement_ = op::TensorPlacement::kOnDeviceHbm;
    storage_ = std::make_shared<TensorStorage>();
    storage_->addr = tensorDataAddr;
    isView_ = false;
}

/* ---- aclTensorList / aclScalarList ---- */

aclTensorList::aclTensorList(const aclTensor *const *tensors, uint64_t size, bool owns) : owns_(owns) {
    for (uint64_t i = 0; i < size; ++i) {
        tensors_.push_back(const_cast<aclTensor *>(tensors[i]));
    }
}

aclTensorList::~aclTensorList() {
    if (owns_) {
        for (aclTensor *t : tensors_) {
            delete t;
        }
    }
}

ge::AscendString aclTensorList::ToString() const {
    std::string text = "[";
    for (size_t i = 0; i < tensors_.size(); ++i) {
        text += (i ? ", " : "") + std::string(tensors_[i] ? tensors_[i]->ToString().GetString() : "nullptr");
    }
    return ge::AscendString((text + "]").c_str());
}

aclScalarList::aclScalarList(const aclScalar *const *scalars, uint64_t size, bool owns) : owns_(owns) {
    for (uint64_t i = 0; i < size; ++i) {
        scalars_.push_back(const_cast<aclScalar *>(scalars[i]));
    }
}

aclScalarList::~aclScalarList() {
    if (owns_) {
        for (aclScalar *s : scalars_) {
            delete s;
        }
    }
}

ge::AscendString aclScalarList::ToString() const {
    std::string text = "[";
    for (size_t i = 0; i < scalars_.size(); ++i) {
        text += (i ? ", " : "") + std::string(scalars_[i] ? scalars_[i]->ToString().GetString() : "nullptr");
    }
    return ge::AscendString((text + "]").c_str());
}

/* ---- aclScalar ---- */

aclScalar::aclScalar(const void *data, op::DataType dataType) : dataType_(dataType) {
    const size_t size = op::TypeSize(dataType);
    if (data != nullptr && size <= sizeof(v_)) {
        std::memcpy(&v_, data, size);
    }
}

aclScalar::aclScalar(int32_t value) : dataType_(op::DataType::DT_INT32) { v_.i32 = value; }
aclScalar::aclScalar(int64_t value) : dataType_(op::DataType::DT_INT64) { v_.i64 = value; }
aclScalar::aclScalar(int16_t value) : dataType_(op::DataType::DT_INT16) { v_.i16 = value; }
aclScalar::aclScalar(int8_t value) : dataType_(op::DataType::DT_INT8) { v_.i8 = value; }
aclScalar::aclScalar(uint32_t value) : dataType_(op::DataType::DT_UINT32) { v_.u32 = value; }
aclScalar::aclScalar(uint64_t value) : dataType_(op::DataType::DT_UINT64) { v_.u64 = value; }
aclScalar::aclScalar(uint16_t value) : dataType_(op::DataType::DT_UINT16) { v_.u16 = value; }
aclScalar::aclScalar(uint8_t value) : dataType_(op::DataType::DT_UINT8) { v_.u8 = value; }
aclScalar::aclScalar(float value) : dataType_(op::DataType::DT_FLOAT) { v_.f = value; }
aclScalar::aclScalar(double value) : dataType_(op::DataType::DT_DOUBLE) { v_.d = value; }
aclScalar::aclScalar(op::fp16_t value) : dataType_(op::DataType::DT_FLOAT16) { v_.u16 = value.val; }
aclScalar::aclScalar(op::bfloat16 value) : dataType_(op::DataType::DT_BF16) { v_.u16 = value.value; }
aclScalar::aclScalar(bool value) : dataType_(op::DataType::DT_BOOL) { v_.b = value; }

bool aclScalar::IsUnsignedIntegral() const {
    return dataType_ == op::DataType::DT_UINT8 || dataType_ == op::DataType::DT_UINT16 ||
           dataType_ == op::DataType::DT_UINT32 || dataType_ == op::DataType::DT_UINT64;
}

bool aclScalar::IsIntegral() const {
    return IsUnsignedIntegral() || dataType_ == op::DataType::DT_INT8 || dataType_ == op::DataType::DT_INT16 ||
           dataType_ == op::DataType::DT_INT32 || dataType_ == op::DataType::DT_INT64 ||
           dataType_ == op::DataType::DT_BOOL;
}

int64_t aclScalar::AsInt64() const {
    switch (dataType_) {
        case op::DataType::DT_INT8:
            return v_.i8;
        case op::DataType::DT_INT16:
            return v_.i16;
        case op::DataType::DT_INT32:
            return v_.i32;
        case op::DataType::DT_INT64:
            return v_.i64;
        case op::DataType::DT_BOOL:
            return v_.u8 != 0 ? 1 : 0;  // one byte, as aclCreateScalar reads a bool
        default:
            return static_cast<int64_t>(AsUint64());
    }
}

uint64_t aclScalar::AsUint64() const {
    switch (dataType_) {
        case op::DataType::DT_UINT8:
            return v_.u8;
        case op::DataType::DT_UINT16:
            return v_.u16;
        case op::DataType::DT_UINT32:
            return v_.u32;
        case op::DataType::DT_UINT64:
            return v_.u64;
        default:
            return static_cast<uint64_t>(AsInt64());
    }
}

double aclScalar::AsDouble() const {
    switch (dataType_) {
        case op::DataType::DT_FLOAT:
            return v_.f;
        case op::DataType::DT_DOUBLE:
            return v_.d;
        case op::DataType::DT_FLOAT16:
            return opsnn_host::HalfBitsToFloat(v_.u16);
        case op::DataType::DT_BF16:
            return opsnn_host::Bf16BitsToFloat(v_.u16);
        case op::DataType::DT_COMPLEX64:
            return v_.c64[0];
        case op::DataType::DT_COMPLEX128:
            return v_.c128[0];
        default:
            if (IsUnsignedIntegral()) {
                return static_cast<double>(AsUint64());
            }
            if (IsIntegral()) {
                return static_cast<double>(AsInt64());
            }
            return 0.0;  // a type opsnn reads no value of (fp8, ...)
    }
}

std::complex<float> aclScalar::ToComplex64() const {
    if (dataType_ == op::DataType::DT_COMPLEX64) {
        return {v_.c64[0], v_.c64[1]};
    }
    if (dataType_ == op::DataType::DT_COMPLEX128) {
        return {static_cast<float>(v_.c128[0]), static_cast<float>(v_.c128[1])};
    }
    return {ToFloat(), 0.0f};
}

std::complex<double> aclScalar::ToComplex128() const {
    if (dataType_ == op::DataType::DT_COMPLEX64) {
        return {v_.c64[0], v_.c64[1]};
    }
    if (dataType_ == op::DataType::DT_COMPLEX128) {
        return {v_.c128[0], v_.c128[1]};
    }
    return {ToDouble(), 0.0};
}

ge::AscendString aclScalar::ToString() const {
    char text[64];
    if (IsUnsignedIntegral()) {
        std::snprintf(text, sizeof(text), "%" PRIu64, AsUint64());
    } else if (IsIntegral()) {
        std::snprintf(text, sizeof(text), "%" PRId64, AsInt64());
    } else {
        std::snprintf(text, sizeof(text), "%.9g", AsDouble());
    }
    return ge::AscendString(text);
}

/* ---- ToString of pointers ---- */

ge::AscendString ToString(const aclTensor *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclTensorList *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclIntArray *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclBoolArray *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclFloatArray *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclFp16Array *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclBf16Array *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclScalar *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(const aclScalarList *t) { return t ? t->ToString() : ge::AscendString("nullptr"); }
ge::AscendString ToString(aclDataType dataType) { return op::ToString(op::ToOpDataType(dataType)); }
