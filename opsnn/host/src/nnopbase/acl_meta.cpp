/* The C calls that make and free the aclnn argument objects (aclnn/acl_meta.h from
 * opsnn/capi/include: the same declarations as opsnn's Python C ABI), over the C++ classes of
 * opdev/common_types.h.
 *
 * aclCreateTensor refuses what opsnn's Python layer refuses (opsnn/acl/tensor.py; restated because
 * this library runs without Python): NULL dims with a non-zero count, negative dims, strides or
 * offset, a stride count other than the view's, an unknown dtype or format, a view that reaches
 * past its storage -- NULL, with the reason for aclGetRecentErrMsg. A private (device-internal)
 * format is recorded with one line on stderr. Difference: every aclDataType the header lists is
 * accepted and recorded, ACL_DT_UNDEFINED and ACL_STRING included (the Python layer refuses what
 * numpy has no type for): CANN's aclCreateTensor records any of them, and upstream's op_api UTs
 * build such tensors to check that the operator refuses their dtype (swish's silu UT does). */
#include <cstdio>
#include <cstring>
#include <string>

#include "../opdev/executor_impl.h"
#include "../opdev/tensor_storage.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/format_utils.h"
#include "opdev/op_executor.h"
#include "opdev/shape_utils.h"
#include "opsnn_host/diag.h"

namespace {

const void *Refused(const std::string &what) {
    opsnn_host::diag::Emit(opsnn_host::diag::kError, "acl", nullptr, 0, ACL_ERROR_INVALID_PARAM, true, what);
    return nullptr;
}

bool KnownDataType(aclDataType t) {
    switch (t) {
        case ACL_DT_UNDEFINED: case ACL_STRING:
        case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32: case ACL_UINT8: case ACL_INT16:
        case ACL_UINT16: case ACL_UINT32: case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_BOOL:
        case ACL_COMPLEX64: case ACL_COMPLEX128: case ACL_BF16: case ACL_INT4: case ACL_UINT1: case ACL_COMPLEX32:
        case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
        case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3: case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2:
            return true;
        default:
            return false;
    }
}

bool KnownFormat(aclFormat f) {
    return f == ACL_FORMAT_UNDEFINED || op::ToAclFormat(static_cast<op::Format>(f)) == f;
}

/* "" when the description is one aclCreateTensor accepts, else why not. */
std::string CheckDescription(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                             int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum) {
    if (viewDims == nullptr && viewDimsNum > 0) {
        return "viewDims is nullptr with viewDimsNum " + std::to_string(viewDimsNum);
    }
    if (storageDims == nullptr && storageDimsNum > 0) {
        return "storageDims is nullptr with storageDimsNum " + std::to_string(storageDimsNum);
    }
    if (viewDimsNum > op::MAX_DIM_NUM || storageDimsNum > op::MAX_DIM_NUM) {
        return "at most " + std::to_string(op::MAX_DIM_NUM) + " dims are supported";
    }
    if (!KnownDataType(dataType)) {
        return "unknown aclDataType " + std::to_string(static_cast<int>(dataType));
    }
    if (!KnownFormat(format)) {
        return "unknown aclFormat " + std::to_string(static_cast<int>(format));
    }
    int64_t last = offset;
    bool empty = false;
    for (uint64_t i = 0; i < viewDimsNum; ++i) {
        const int64_t s = stride == nullptr ? 0 : stride[i];
        if (viewDims[i] < 0 || s < 0) {
            return "view dims and strides must not be negative";
        }
        empty = empty || viewDims[i] == 0;
    }
    int64_t storage = 1;
    for (uint64_t i = 0; i < storageDimsNum; ++i) {
        if (storageDims[i] < 0) {
            return "storage dims must not be negative";
        }
        storage *= storageDims[i];
    }
    if (offset < 0) {
        return "offset must not be negative";
    }
    if (empty) {
        return "";
    }
    op::Shape view;
    op::ToShape(viewDims, viewDimsNum, view);
    op::Strides strides;
    if (stride == nullptr) {
        op::ToContiguousStrides(view, strides);
    } else {
        strides.assign(stride, stride + viewDimsNum);
    }
    last = opsnn_host::ViewExtent(view, strides, offset) - 1;
    if (last >= storage) {
        return "the view " + std::string(op::ToString(view).GetString()) + " (strides " +
               op::ToString(strides).GetString() + ", offset " + std::to_string(offset) + ") reaches element " +
               std::to_string(last) + ", past the storage of " + std::to_string(storage) + " elements";
    }
    return "";
}

void WarnPrivateFormat(aclFormat format) {
    if (format != ACL_FORMAT_UNDEFINED && !op::IsPrivateFormat(static_cast<op::Format>(format))) {
        return;
    }
    const char *name = format == ACL_FORMAT_UNDEFINED ? "UNDEFINED" : ge::GetFormatName(static_cast<op::Format>(format));
    std::fprintf(stderr,
                 "opsnn: aclCreateTensor: format %s (%d) is private to the device; it is recorded, and the operators "
                 "read the data as ND\n",
                 name, static_cast<int>(format));
}

aclnnStatus GetDims(const aclTensor *tensor, int64_t **dims, uint64_t *num, const char *what, bool strides) {
    if (tensor == nullptr || dims == nullptr || num == nullptr) {
        opsnn_host::diag::Emit(opsnn_host::diag::kError, "acl", nullptr, 0, ACLNN_ERR_PARAM_NULLPTR, true,
                               std::string(what) + ": a null argument");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    std::vector<int64_t> values;
    if (strides) {
        values.assign(tensor->GetViewStrides().begin(), tensor->GetViewStrides().end());
    } else {
        const op::Shape &shape = std::strcmp(what, "aclGetStorageShape") == 0 ? tensor->GetStorageShape()
                                                                              : tensor->GetViewShape();
        for (size_t i = 0; i < shape.GetDimNum(); ++i) {
            values.push_back(shape.GetDim(i));
        }
    }
    *dims = new int64_t[values.empty() ? 1 : values.size()];  // the caller frees it with delete[]
    std::copy(values.begin(), values.end(), *dims);
    *num = values.size();
    return ACLNN_SUCCESS;
}

aclnnStatus NullArgument(const char *what) {
    opsnn_host::diag::Emit(opsnn_host::diag::kError, "acl", nullptr, 0, ACLNN_ERR_PARAM_NULLPTR, true,
                           std::string(what) + ": a null argument");
    return ACLNN_ERR_PARAM_NULLPTR;
}

}  // namespace

extern "C" {

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData) {
    const std::string why =
        CheckDescription(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum);
    if (!why.empty()) {
        Refused("aclCreateTensor: " + why);
        return nullptr;
    }
    WarnPrivateFormat(format);
    auto *t = new aclTensor();
    t->InitTensor(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum, tensorData);
    return t;
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorData) {
    if (tensor == nullptr) {
        return NullArgument("aclInitTensor");
    }
    const std::string why =
        CheckDescription(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum);
    if (!why.empty()) {
        Refused("aclInitTensor: " + why);
        return ACLNN_ERR_PARAM_INVALID;
    }
    WarnPrivateFormat(format);
    tensor->InitTensor(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                       tensorData);
    return ACLNN_SUCCESS;
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    if (value == nullptr) {
        Refused("aclCreateScalar: value is nullptr");
        return nullptr;
    }
    if (!KnownDataType(dataType) || !opsnn_host::HasByteSize(op::ToOpDataType(dataType))) {
        Refused("aclCreateScalar: unknown or sizeless aclDataType " + std::to_string(static_cast<int>(dataType)));
        return nullptr;
    }
    return new aclScalar(value, op::ToOpDataType(dataType));  // read now: the caller's variable may die
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    if (value == nullptr && size > 0) {
        Refused("aclCreateIntArray: value is nullptr");
        return nullptr;
    }
    return new aclIntArray(value, size);
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
    if (value == nullptr && size > 0) {
        Refused("aclCreateFloatArray: value is nullptr");
        return nullptr;
    }
    return new aclFloatArray(value, size);
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
    if (value == nullptr && size > 0) {
        Refused("aclCreateBoolArray: value is nullptr");
        return nullptr;
    }
    return new aclBoolArray(value, size);
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    if (value == nullptr && size > 0) {
        Refused("aclCreateTensorList: value is nullptr");
        return nullptr;
    }
    return new aclTensorList(value, size);  // it owns the tensors from now on
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
    if (value == nullptr && size > 0) {
        Refused("aclCreateScalarList: value is nullptr");
        return nullptr;
    }
    return new aclScalarList(value, size);
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    delete tensor;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
    delete scalar;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
    delete array;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    return GetDims(tensor, viewDims, viewDimsNum, "aclGetViewShape", false);
}
aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
    return GetDims(tensor, stridesValue, stridesNum, "aclGetViewStrides", true);
}
aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
    return GetDims(tensor, storageDims, storageDimsNum, "aclGetStorageShape", false);
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
    if (tensor == nullptr || offset == nullptr) {
        return NullArgument("aclGetViewOffset");
    }
    *offset = tensor->GetViewOffset();
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
    if (tensor == nullptr || format == nullptr) {
        return NullArgument("aclGetFormat");
    }
    *format = static_cast<aclFormat>(tensor->GetViewFormat());
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
    if (tensor == nullptr || dataType == nullptr) {
        return NullArgument("aclGetDataType");
    }
    *dataType = op::ToAclDataType(tensor->GetDataType());
    return ACLNN_SUCCESS;
}

/* An executor never run (a repeatable one, on CANN); a run one is freed by its run. */
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    if (executor != nullptr && !opsnn_host::IsLiveExecutor(executor)) {
        return ACLNN_SUCCESS;  // already freed by its run (or never an executor): nothing to free
    }
    delete executor;
    return ACLNN_SUCCESS;
}

}  // extern "C"
