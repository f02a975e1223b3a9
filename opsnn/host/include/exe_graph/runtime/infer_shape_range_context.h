/* opsnn host twin: gert::InferShapeRangeContext -- input tensor ranges (min/max tensors) and the
 * output shape ranges an InferShapeRange function fills. Slots hold Range pointers. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_SHAPE_RANGE_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_SHAPE_RANGE_CONTEXT_H_

#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/range.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace gert {
using TensorRange = Range<Tensor>;

class InferShapeRangeContext : public ExtendedKernelContext {
public:
    /* A Range<Tensor> reads as a Range<Shape>: a tensor's origin shape is at its start. */
    const Range<Shape> *GetInputShapeRange(const size_t index) const { return GetInputPointer<Range<Shape>>(index); }
    const TensorRange *GetInputTensorRange(const size_t index) const { return GetInputPointer<TensorRange>(index); }
    const TensorRange *GetOptionalInputTensorRange(const size_t ir_index) const {
        return GetDynamicInputPointer<TensorRange>(ir_index, 0);
    }
    const Range<Shape> *GetRequiredInputShapeRange(const size_t ir_index) const {
        return GetDynamicInputPointer<Range<Shape>>(ir_index, 0);
    }
    const TensorRange *GetRequiredInputTensorRange(const size_t ir_index) const {
        return GetDynamicInputPointer<TensorRange>(ir_index, 0);
    }
    const TensorRange *GetDynamicInputTensorRange(const size_t ir_index, const size_t relative_index) const {
        return GetDynamicInputPointer<TensorRange>(ir_index, relative_index);
    }
    const Range<Shape> *GetOptionalInputShapeRange(const size_t ir_index) const {
        return GetDynamicInputPointer<Range<Shape>>(ir_index, 0);
    }
    const Range<Shape> *GetDynamicInputShapeRange(const size_t ir_index, const size_t relative_index) const {
        return GetDynamicInputPointer<Range<Shape>>(ir_index, relative_index);
    }
    Range<Shape> *GetOutputShapeRange(const size_t index) { return GetOutputPointer<Range<Shape>>(index); }
};
static_assert(std::is_standard_layout<InferShapeRangeContext>::value, "contexts are views of one KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_SHAPE_RANGE_CONTEXT_H_
