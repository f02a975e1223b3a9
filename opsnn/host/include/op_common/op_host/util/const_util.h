/* opsnn host twin: opbase's readers of a constant (value-dependent) input: its first element as an
 * integer (GetConstInt), or its elements as a shape (GetConstIntToShape). int32/int64/uint32/uint64
 * data only; false (logged) otherwise or where the tensor or its data is missing. */
#ifndef OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_CONST_UTIL_H_
#define OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_CONST_UTIL_H_

#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "op_common/log/log.h"

namespace Ops {
namespace Base {
namespace detail {
template <typename C>
constexpr bool IsConstReadingContext() {
    using U = typename std::remove_const<C>::type;
    return std::is_same<U, gert::InferShapeContext>::value || std::is_same<U, gert::TilingContext>::value;
}

/* Calls f with a typed pointer to the tensor's data; false for another data type or no data. */
template <typename F>
bool WithIntegerData(const gert::Tensor *tensor, const char *who, F &&f) {
    if (tensor->GetAddr() == nullptr) {
        OP_LOGE(who, "the constant tensor has no data");
        return false;
    }
    switch (tensor->GetDataType()) {
        case ge::DT_INT32: return f(tensor->GetData<int32_t>());
        case ge::DT_INT64: return f(tensor->GetData<int64_t>());
        case ge::DT_UINT32: return f(tensor->GetData<uint32_t>());
        case ge::DT_UINT64: return f(tensor->GetData<uint64_t>());
        default:
            OP_LOGW(who, "constant inputs of int32, int64, uint32 and uint64 only, not %s",
                    ToString(tensor->GetDataType()).c_str());
            return false;
    }
}
}  // namespace detail

template <typename ContextType, typename T>
bool GetConstInt(const ContextType *context, int64_t inputIdx, T &value) {
    static_assert(detail::IsConstReadingContext<ContextType>(), "an InferShapeContext or a TilingContext");
    if (context == nullptr) {
        OP_LOGE("GetConstInt", "context is nullptr");
        return false;
    }
    const gert::Tensor *tensor = context->GetInputTensor(inputIdx);
    if (tensor == nullptr) {
        OP_LOGE("GetConstInt", "input %ld has no tensor", static_cast<long>(inputIdx));
        return false;
    }
    return detail::WithIntegerData(tensor, "GetConstInt", [&](const auto *data) {
        if (tensor->GetSize() == 0) {
            OP_LOGE("GetConstInt", "the constant tensor is empty");
            return false;
        }
        value = static_cast<T>(data[0]);
        return true;
    });
}

template <typename ContextType>
bool GetConstIntToShape(const ContextType *context, int64_t inputIdx, gert::Shape &shape) {
    static_assert(detail::IsConstReadingContext<ContextType>(), "an InferShapeContext or a TilingContext");
    if (context == nullptr) {
        OP_LOGE("GetConstIntToShape", "context is nullptr");
        return false;
    }
    const gert::Tensor *tensor = context->GetInputTensor(inputIdx);
    if (tensor == nullptr) {
        OP_LOGE("GetConstIntToShape", "input %ld has no tensor", static_cast<long>(inputIdx));
        return false;
    }
    return detail::WithIntegerData(tensor, "GetConstIntToShape", [&](const auto *data) {
        shape.SetDimNum(0);
        const int64_t count = tensor->GetShapeSize();
        for (int64_t i = 0; i < count; ++i) {
            shape.AppendDim(static_cast<int64_t>(data[i]));
        }
        return true;
    });
}
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_HOST_OP_COMMON_OP_HOST_UTIL_CONST_UTIL_H_
