/* opsnn host twin: gert::OpImplKernelRegistry::OpImplFunctions -- what is registered for one op
 * type, as GetOpImpl returns it: the functions (nullptr where none was registered) and the
 * compile-info creator/deleter TilingParse<T> recorded. */
#ifndef OPSNN_HOST_REGISTER_OP_IMPL_KERNEL_REGISTRY_H_
#define OPSNN_HOST_REGISTER_OP_IMPL_KERNEL_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/error_codes.h"
#include "register/op_impl_registry.h"

namespace gert {
#define OP_IMPL_MAIN_VERSION 2
struct OpImplKernelRegistry {
    using InferShapeKernelFunc = OpImplRegisterV2::InferShapeKernelFunc;
    using InferShapeRangeKernelFunc = OpImplRegisterV2::InferShapeRangeKernelFunc;
    using TilingKernelFunc = OpImplRegisterV2::TilingKernelFunc;
    using InferDataTypeKernelFunc = OpImplRegisterV2::InferDataTypeKernelFunc;
    using GenSimplifiedKeyKernelFunc = OpImplRegisterV2::GenSimplifiedKeyKernelFunc;
    using OpType = ge::AscendString;
    using CompileInfoCreatorFunc = OpImplRegisterV2::CompileInfoCreatorFunc;
    using CompileInfoDeleterFunc = OpImplRegisterV2::CompileInfoDeleterFunc;
    using KernelFunc = OpImplRegisterV2::KernelFunc;
    using TilingParseFunc = OpImplRegisterV2::TilingParseFunc;

    struct OpImplFunctions {
        static constexpr size_t kByteBitCount = 8UL;
        bool HasDataDependency() const { return inputs_dependency != 0U; }
        bool IsInputDataDependency(const size_t index) const { return Bit(inputs_dependency, index); }
        ge::graphStatus SetInputDataDependency(const size_t index) { return SetBit(inputs_dependency, index); }
        bool HasHostInput() const { return host_inputs != 0U; }
        bool IsHostInput(const size_t index) const { return Bit(host_inputs, index); }
        ge::graphStatus SetHostInputs(const size_t index) { return SetBit(host_inputs, index); }
        bool HasTilingInputDataDependency() const { return tiling_dependency != 0U; }
        bool IsTilingInputDataDependency(const size_t index) const { return Bit(tiling_dependency, index); }
        ge::graphStatus SetTilingInputDataDependency(const size_t index) { return SetBit(tiling_dependency, index); }
        bool IsOutputShapeDependOnCompute() const { return output_shape_depend_compute != 0U; }
        bool IsOutputShapeDependOnCompute(const size_t index) const { return Bit(output_shape_depend_compute, index); }
        ge::graphStatus SetOutputShapeDependOnCompute(const size_t index) {
            return SetBit(output_shape_depend_compute, index);
        }

        OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
        OpImplRegisterV2::InferShapeRangeKernelFunc infer_shape_range = nullptr;
        OpImplRegisterV2::InferDataTypeKernelFunc infer_datatype = nullptr;
        OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
        OpImplRegisterV2::KernelFunc tiling_parse = nullptr;
        OpImplRegisterV2::CompileInfoCreatorFunc compile_info_creator = nullptr;
        OpImplRegisterV2::CompileInfoDeleterFunc compile_info_deleter = nullptr;
        size_t max_tiling_data_size = 0UL;
        uint64_t inputs_dependency = 0UL;
        std::vector<std::string> private_attrs;  // names only (values are not modelled)
        uint64_t host_inputs = 0UL;
        OpImplRegisterV2::OpExecFunc op_execute_func = nullptr;
        uint64_t tiling_dependency = 0UL;
        OpImplRegisterV2::GenSimplifiedKeyKernelFunc gen_simplifiedkey = nullptr;
        uint8_t tiling_dependency_placements = 0U;
        uint64_t output_shape_depend_compute = 0UL;

    private:
        static bool Bit(uint64_t bits, size_t index) { return index < 64U && ((bits >> index) & 1U) != 0U; }
        static ge::graphStatus SetBit(uint64_t &bits, size_t index) {
            if (index >= 64U) {
                return ge::GRAPH_FAILED;
            }
            bits |= uint64_t{1} << index;
            return ge::GRAPH_SUCCESS;
        }
    };

    struct OpImplFunctionsV2 : OpImplFunctions {
        OpImplRegisterV2::InferFormatFunc infer_format_func = nullptr;
        OpImplRegisterV2::OpCalcParamKernelFunc calc_op_param = nullptr;
        OpImplRegisterV2::OpGenTaskKernelFunc gen_task = nullptr;
        OpImplRegisterV2::OP_CHECK_FUNC_V2 check_support = nullptr;
        OpImplRegisterV2::OP_CHECK_FUNC_V2 op_select_format = nullptr;
        OpImplRegisterV2::OpExecPrepareFunc op_execute_prepare_func = nullptr;
        OpImplRegisterV2::OpExecLaunchFunc op_execute_launch_func = nullptr;
        uint64_t nullable_outputs_ = 0UL;
        uint32_t version = OP_IMPL_MAIN_VERSION;
        bool IsNullableOutput(const size_t index) const {
            return index < 64U && ((nullable_outputs_ >> index) & 1U) != 0U;
        }
        ge::graphStatus NullableOutput(const size_t index) {
            if (index >= 64U) {
                return ge::GRAPH_FAILED;
            }
            nullable_outputs_ |= uint64_t{1} << index;
            return ge::GRAPH_SUCCESS;
        }
    };
};

}  // namespace gert

#endif  // OPSNN_HOST_REGISTER_OP_IMPL_KERNEL_REGISTRY_H_
