/* opsnn host twin: gert::InferDataTypeContext -- input data types by index or IR index, and the
 * output data types an InferDataType function sets. Each slot holds a ge::DataType in place. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_

#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "graph/types.h"

namespace gert {
class InferDataTypeContext : public ExtendedKernelContext {
public:
    /* DT_UNDEFINED where there is no such input. */
    ge::DataType GetInputDataType(const size_t index) const {
        const ge::DataType *dt = GetInputPointer<ge::DataType>(index);
        return dt == nullptr ? ge::DT_UNDEFINED : *dt;
    }
    ge::DataType GetOptionalInputDataType(const size_t ir_index) const { return GetDynamicInputDataType(ir_index, 0); }
    ge::DataType GetDynamicInputDataType(const size_t ir_index, const size_t relative_index) const {
        const ge::DataType *dt = GetDynamicInputPointer<ge::DataType>(ir_index, relative_index);
        return dt == nullptr ? ge::DT_UNDEFINED : *dt;
    }
    ge::DataType GetRequiredInputDataType(const size_t ir_index) const { return GetDynamicInputDataType(ir_index, 0); }
    ge::DataType GetOutputDataType(const size_t index) const {
        const ge::DataType *dt = GetOutputPointer<ge::DataType>(index);
        return dt == nullptr ? ge::DT_UNDEFINED : *dt;
    }
    ge::graphStatus SetOutputDataType(const size_t index, const ge::DataType datatype) {
        ge::DataType *dt = GetOutputPointer<ge::DataType>(index);
        if (dt == nullptr) {
            return ge::GRAPH_FAILED;
        }
        *dt = datatype;
        return ge::GRAPH_SUCCESS;
    }
};
static_assert(std::is_standard_layout<InferDataTypeContext>::value, "contexts are views of one KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
