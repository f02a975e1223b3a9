/* opsnn host twin: gert::InferShapeContext -- input tensors (shapes, and data for constant
 * inputs) by index or IR index, and the output shapes an infershape function fills. Input slots:
 * the input tensors (a tensor's first member is its shape), then a framework slot; output slots:
 * one Shape per output tensor. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_

#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/shape.h"

namespace gert {
enum class InputExternLayout : uint32_t { kInferShapeFunc = 1, kInferenceContext = 2 };

class InferShapeContext : public ExtendedKernelContext {
public:
    /* A tensor's origin shape is at its start, so the tensor slot reads as its shape. */
    const Shape *GetInputShape(const size_t index) const { return GetInputPointer<Shape>(index); }
    const Tensor *GetInputTensor(const size_t index) const { return GetInputPointer<Tensor>(index); }
    const Tensor *GetOptionalInputTensor(const size_t ir_index) const { return GetDynamicInputPointer<Tensor>(ir_index, 0); }
    const Shape *GetOptionalInputShape(const size_t ir_index) const { return GetDynamicInputPointer<Shape>(ir_index, 0); }
    const Shape *GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
        return GetDynamicInputPointer<Shape>(ir_index, relative_index);
    }
    const Tensor *GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
        return GetDynamicInputPointer<Tensor>(ir_index, relative_index);
    }
    const Tensor *GetRequiredInputTensor(const size_t ir_index) const { return GetDynamicInputPointer<Tensor>(ir_index, 0); }
    const Shape *GetRequiredInputShape(const size_t ir_index) const { return GetDynamicInputPointer<Shape>(ir_index, 0); }
    Shape *GetOutputShape(const size_t index) { return GetOutputPointer<Shape>(index); }
};
static_assert(std::is_standard_layout<InferShapeContext>::value, "contexts are views of one KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
