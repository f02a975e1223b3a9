/* opdev's type, shape, format and op-type helpers (data_type_utils.h, shape_utils.h,
 * format_utils.h, tensor_view_utils.h, op_def.h). */
#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/format_utils.h"
#include "opdev/op_def.h"
#include "opdev/shape_utils.h"
#include "opdev/tensor_view_utils.h"
#include "tensor_storage.h"

namespace op {

ge::AscendString ToString(DataType dataType) {
    switch (dataType) {
#define OPSNN_DT_NAME(name, code, size) \
    case ge::name:                      \
        return ge::AscendString(#name);
        OPSNN_GE_DATA_TYPES(OPSNN_DT_NAME)
#undef OPSNN_DT_NAME
        default:
            return ge::AscendString(("DT_UNKNOWN(" + std::to_string(static_cast<int>(dataType)) + ")").c_str());
    }
}

DataType ToDataType(const std::string &dataTypeStr) {
    std::string key = dataTypeStr;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::toupper(c); });
    if (key.rfind("DT_", 0) != 0) {
        key = "DT_" + key;
    }
#define OPSNN_DT_FROM_NAME(name, code, size) \
    if (key == #name) {                      \
        return ge::name;                     \
    }
    OPSNN_GE_DATA_TYPES(OPSNN_DT_FROM_NAME)
#undef OPSNN_DT_FROM_NAME
    return DataType::DT_UNDEFINED;
}

size_t TypeSize(DataType dataType) {
    const int size = ge::GetSizeByDataType(dataType);
    return size > 0 ? static_cast<size_t>(size) : sizeof(std::complex<double>);
}

ge::AscendString ToString(const std::initializer_list<DataType> &dataTypes) {
    std::string text = "[";
    for (auto it = dataTypes.begin(); it != dataTypes.end(); ++it) {
        text += (it == dataTypes.begin() ? "" : ",") + std::string(ToString(*it).GetString());
    }
    return ge::AscendString((text + "]").c_str());
}

int64_t CalcShapeBytes(int64_t size, DataType dataType, bool ceil) {
    const int elem = ge::GetSizeByDataType(dataType);
    if (elem < 0 || size < 0) {
        return -1;
    }
    if (elem > ge::kDataTypeSizeBitOffset) {
        const int64_t bits = size * (elem - ge::kDataTypeSizeBitOffset);
        return ceil ? (bits + 7) / 8 : bits / 8;
    }
    return size * elem;
}

/* Promotion (torch's rules, as CANN tabulates them for its types). Classes rank bool < integer <
 * floating < complex and the higher class wins; within integers and floats the wider type wins,
 * uint8 with int8 gives int16, and float16 with bfloat16 gives float; a complex result is wide
 * enough for the float it meets (complex32 + float -> complex64, complex64 + double -> complex128).
 * uint16 / uint32 / uint64 promote only as the first operand with a complex type (uint64 with
 * complex64 -> complex128); everything else with them, and every other type, is DT_UNDEFINED. */
namespace {
enum Klass { kBoolClass, kIntClass, kFloatClass, kComplexClass, kNone };

Klass ClassOf(DataType t) {
    switch (t) {
        case DataType::DT_BOOL:
            return kBoolClass;
        case DataType::DT_UINT8:
        case DataType::DT_INT8:
        case DataType::DT_INT16:
        case DataType::DT_INT32:
        case DataType::DT_INT64:
            return kIntClass;
        case DataType::DT_FLOAT16:
        case DataType::DT_BF16:
        case DataType::DT_FLOAT:
        case DataType::DT_DOUBLE:
            return kFloatClass;
        case DataType::DT_COMPLEX32:
        case DataType::DT_COMPLEX64:
        case DataType::DT_COMPLEX128:
            return kComplexClass;
        default:
            return kNone;
    }
}

/* float precision a type needs in a complex: 1 half, 2 single, 3 double (bfloat16 needs single) */
int ComplexRank(DataType t) {
    switch (t) {
        case DataType::DT_COMPLEX32:
        case DataType::DT_FLOAT16:
            return 1;
        case DataType::DT_DOUBLE:
        case DataType::DT_COMPLEX128:
            return 3;
        case DataType::DT_FLOAT:
        case DataType::DT_BF16:
        case DataType::DT_COMPLEX64:
            return 2;
        default:
            return 0;  // integers and bool need no more than the complex has
    }
}

DataType ComplexOfRank(int rank) {
    return rank <= 1 ? DataType::DT_COMPLEX32 : (rank == 2 ? DataType::DT_COMPLEX64 : DataType::DT_COMPLEX128);
}

DataType PromoteIntegers(DataType a, DataType b) {
    if (a == DataType::DT_UINT8 || b == DataType::DT_UINT8) {
        const DataType other = a == DataType::DT_UINT8 ? b : a;
        return other == DataType::DT_INT8 ? DataType::DT_INT16 : other;
    }
    return TypeSize(a) >= TypeSize(b) ? a : b;
}

DataType PromoteFloats(DataType a, DataType b) {
    if ((a == DataType::DT_FLOAT16 && b == DataType::DT_BF16) || (a == DataType::DT_BF16 && b == DataType::DT_FLOAT16)) {
        return DataType::DT_FLOAT;
    }
    return TypeSize(a) >= TypeSize(b) ? a : b;
}
}  // namespace

DataType PromoteType(DataType typeA, DataType typeB) {
    if (typeA == typeB) {
        return (typeA >= 0 && typeA < DataType::DT_MAX) ? typeA : DataType::DT_UNDEFINED;
    }
    const bool wideUnsigned = typeA == DataType::DT_UINT16 || typeA == DataType::DT_UINT32 ||
                              typeA == DataType::DT_UINT64;
    if (wideUnsigned) {
        if (typeB == DataType::DT_COMPLEX128 || (typeB == DataType::DT_COMPLEX64 && typeA == DataType::DT_UINT64)) {
            return DataType::DT_COMPLEX128;
        }
        return typeB == DataType::DT_COMPLEX64 ? DataType::DT_COMPLEX64 : DataType::DT_UNDEFINED;
    }
    const Klass ka = ClassOf(typeA);
    const Klass kb = ClassOf(typeB);
    if (ka == kNone || kb == kNone) {
        return DataType::DT_UNDEFINED;
    }
    if (ka == kComplexClass || kb == kComplexClass) {
        return ComplexOfRank(std::max(ComplexRank(typeA), ComplexRank(typeB)));
    }
    if (ka != kb) {
        return ka > kb ? typeA : typeB;
    }
    if (ka == kIntClass) {
        return PromoteIntegers(typeA, typeB);
    }
    return PromoteFloats(typeA, typeB);
}

/* ---- shapes ---- */

namespace {
template <typename Dims>
ge::AscendString DimsText(const Dims &dims, size_t n) {
    std::string text = "[";
    for (size_t i = 0; i < n; ++i) {
        text += (i ? "," : "") + std::to_string(dims[i]);
    }
    return ge::AscendString((text + "]").c_str());
}
}  // namespace

ge::AscendString ToString(const Shape &shape) { return DimsText(shape, shape.GetDimNum()); }
ge::AscendString ToString(const Strides &strides) { return DimsText(strides, strides.size()); }

void ToShape(const int64_t *dims, uint64_t dimNum, Shape &shape) {
    shape.SetDimNum(0);
    for (uint64_t i = 0; i < dimNum && dims != nullptr; ++i) {
        shape.AppendDim(dims[i]);
    }
}

void ToShape(const ShapeVector &shapeVector, Shape &shape) { ToShape(shapeVector.data(), shapeVector.size(), shape); }

ShapeVector ToShapeVector(const Shape &shape) {
    ShapeVector v;
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        v.push_back(shape.GetDim(i));
    }
    return v;
}

void ToContiguousStrides(const Shape &shape, Strides &strides) {
    const size_t n = shape.GetDimNum();
    strides.assign(n, 1);
    int64_t step = 1;
    for (size_t i = n; i-- > 0;) {
        strides[i] = step;
        step *= std::max<int64_t>(shape.GetDim(i), 1);
    }
}

bool BroadcastInferShape(const Shape &self, const Shape &other, Shape &broadcastShape) {
    const size_t a = self.GetDimNum();
    const size_t b = other.GetDimNum();
    const size_t n = std::max(a, b);
    Shape out;
    for (size_t k = 0; k < n; ++k) {  // k-th dim from the left of the result
        const int64_t da = k + a >= n ? self.GetDim(k + a - n) : 1;
        const int64_t db = k + b >= n ? other.GetDim(k + b - n) : 1;
        if (da != db && da != 1 && db != 1) {
            return false;
        }
        out.AppendDim(da == 1 ? db : da);
    }
    broadcastShape = out;
    return true;
}

bool CheckBroadcastShape(const Shape &self, const Shape &other) {
    Shape unused;
    return BroadcastInferShape(self, other, unused);
}

/* ---- formats ---- */

bool IsPrivateFormat(Format format) {
    switch (GetPrimaryFormat(format)) {
        case Format::FORMAT_NC1HWC0:
        case Format::FORMAT_FRACTAL_Z:
        case Format::FORMAT_NC1C0HWPAD:
        case Format::FORMAT_NHWC1C0:
        case Format::FORMAT_FRACTAL_DECONV:
        case Format::FORMAT_C1HWNC0:
        case Format::FORMAT_FRACTAL_DECONV_TRANSPOSE:
        case Format::FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS:
        case Format::FORMAT_NC1HWC0_C04:
        case Format::FORMAT_FRACTAL_Z_C04:
        case Format::FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS:
        case Format::FORMAT_NC1KHKWHWC0:
        case Format::FORMAT_C1HWNCoC0:
        case Format::FORMAT_FRACTAL_ZZ:
        case Format::FORMAT_FRACTAL_NZ:
        case Format::FORMAT_NDC1HWC0:
        case Format::FORMAT_FRACTAL_Z_3D:
        case Format::FORMAT_FRACTAL_Z_3D_TRANSPOSE:
        case Format::FORMAT_FRACTAL_ZN_LSTM:
        case Format::FORMAT_FRACTAL_Z_G:
        case Format::FORMAT_ND_RNN_BIAS:
        case Format::FORMAT_FRACTAL_ZN_RNN:
        case Format::FORMAT_FRACTAL_Z_WINO:
        case Format::FORMAT_C1HWC0:
        case Format::FORMAT_FRACTAL_NZ_C0_16:
        case Format::FORMAT_FRACTAL_NZ_C0_32:
        case Format::FORMAT_FRACTAL_NZ_C0_2:
        case Format::FORMAT_FRACTAL_NZ_C0_4:
        case Format::FORMAT_FRACTAL_NZ_C0_8:
            return true;
        default:
            return false;
    }
}

ge::AscendString ToString(Format format) { return ge::AscendString(ge::GetFormatName(format)); }

Format ToFormat(const std::string &formatStr) {
    std::string key = formatStr;
    if (key.rfind("FORMAT_", 0) == 0) {
        key = key.substr(7);
    }
    for (int code = 0; code < static_cast<int>(Format::FORMAT_END); ++code) {
        if (key == ge::GetFormatName(static_cast<Format>(code))) {
            return static_cast<Format>(code);
        }
    }
    return Format::FORMAT_MAX;
}

/* ---- views ---- */

bool IsContiguous(const aclTensor *tensor) {
    if (tensor == nullptr) {
        return true;
    }
    const Shape &shape = tensor->GetViewShape();
    const Strides &strides = tensor->GetViewStrides();
    if (strides.size() != shape.GetDimNum()) {
        return false;
    }
    int64_t expected = 1;
    for (size_t i = shape.GetDimNum(); i-- > 0;) {
        const int64_t d = shape.GetDim(i);
        if (d == 0) {
            return true;  // an empty view reads nothing
        }
        if (d != 1 && strides[i] != expected) {
            return false;
        }
        expected *= d;
    }
    return true;
}

bool CanPickViewAsContiguous(const aclTensor *tensor) {
    if (tensor == nullptr || IsContiguous(tensor)) {
        return true;
    }
    /* the dims of length > 1 ordered by stride must step like a dense block */
    const Shape &shape = tensor->GetViewShape();
    const Strides &strides = tensor->GetViewStrides();
    std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        if (shape.GetDim(i) != 1) {
            dims.emplace_back(strides[i], shape.GetDim(i));
        }
    }
    std::sort(dims.begin(), dims.end());
    int64_t expected = 1;
    for (const auto &d : dims) {
        if (d.first != expected) {
            return false;
        }
        expected *= d.second;
    }
    return true;
}

bool CanPickViewAsContiguous(std::initializer_list<const aclTensor *> tensorList) {
    return std::all_of(tensorList.begin(), tensorList.end(),
                       [](const aclTensor *t) { return CanPickViewAsContiguous(t); });
}

bool Validate(const aclTensor *tensor) {
    if (tensor == nullptr) {
        return false;
    }
    const int64_t extent =
        opsnn_host::ViewExtent(tensor->GetViewShape(), tensor->GetViewStrides(), tensor->GetViewOffset());
    return extent <= tensor->GetStorageShape().GetShapeSize();
}

/* ---- op types ---- */

namespace {
struct OpTypeTable {
    std::mutex lock;
    std::vector<std::string> names;
    std::unordered_map<std::string, uint32_t> ids;
};
OpTypeTable &Table() {
    static OpTypeTable *table = new OpTypeTable();  // never destroyed: static initialisers register into it
    return *table;
}
}  // namespace

aclnnStatus OpTypeDict::Add(uint32_t &id, const char *opName) {
    id = GenOpTypeId(opName);
    return ACLNN_SUCCESS;
}

uint32_t OpTypeDict::ToOpType(const std::string &opName) {
    OpTypeTable &t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    auto it = t.ids.find(opName);
    return it == t.ids.end() ? INVALID_OP_TYPE_ID : it->second;
}

const ge::AscendString OpTypeDict::ToString(uint32_t opType) {
    OpTypeTable &t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    return opType < t.names.size() ? ge::AscendString(t.names[opType].c_str()) : ge::AscendString("");
}

size_t OpTypeDict::GetAllOpTypeSize() {
    OpTypeTable &t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    return t.names.size();
}

uint32_t GenOpTypeId(const char *name) {
    OpTypeTable &t = Table();
    std::lock_guard<std::mutex> guard(t.lock);
    const std::string key = name == nullptr ? "" : name;
    auto it = t.ids.find(key);
    if (it != t.ids.end()) {
        return it->second;
    }
    const uint32_t id = static_cast<uint32_t>(t.names.size());
    t.names.push_back(key);
    t.ids.emplace(key, id);
    return id;
}

OpImplMode ToOpImplMode(const std::string &implModeStr) {
    if (implModeStr == "high_performance") {
        return OpImplMode::IMPL_MODE_HIGH_PERFORMANCE;
    }
    if (implModeStr == "high_precision") {
        return OpImplMode::IMPL_MODE_HIGH_PRECISION;
    }
    if (implModeStr == "super_performance") {
        return OpImplMode::IMPL_MODE_SUPER_PERFORMANCE;
    }
    if (implModeStr == "support_out_of_bound_index") {
        return OpImplMode::IMPL_MODE_SUPPORT_OUT_OF_BOUND_INDEX;
    }
    if (implModeStr == "enable_float_32_execution") {
        return OpImplMode::IMPL_MODE_ENABLE_FLOAT32_EXECUTION;
    }
    if (implModeStr == "enable_hi_float_32_execution") {
        return OpImplMode::IMPL_MODE_ENABLE_HI_FLOAT32_EXECUTION;
    }
    if (implModeStr == "keep_fp16") {
        return OpImplMode::IMPL_MODE_KEEP_FP16;
    }
    return implModeStr.empty() ? OpImplMode::IMPL_MODE_DEFAULT : OpImplMode::IMPL_MODE_RESERVED;
}

ge::AscendString ToString(OpImplMode implMode) {
    switch (implMode) {
        case OpImplMode::IMPL_MODE_DEFAULT:
            return "default";
        case OpImplMode::IMPL_MODE_HIGH_PERFORMANCE:
            return "high_performance";
        case OpImplMode::IMPL_MODE_HIGH_PRECISION:
            return "high_precision";
        case OpImplMode::IMPL_MODE_SUPER_PERFORMANCE:
            return "super_performance";
        case OpImplMode::IMPL_MODE_SUPPORT_OUT_OF_BOUND_INDEX:
            return "support_out_of_bound_index";
        case OpImplMode::IMPL_MODE_ENABLE_FLOAT32_EXECUTION:
            return "enable_float_32_execution";
        case OpImplMode::IMPL_MODE_ENABLE_HI_FLOAT32_EXECUTION:
            return "enable_hi_float_32_execution";
        case OpImplMode::IMPL_MODE_KEEP_FP16:
            return "keep_fp16";
        default:
            return "reserved";
    }
}

}  // namespace op
