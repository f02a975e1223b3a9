/* opsnn host twin: gert::OpImplRegisterV2 and IMPL_OP_* -- how an operator's op_host registers its
 * infershape, tiling, TilingParse (with its compile-info type) and related functions for an op
 * type. The chain `IMPL_OP_OPTILING(X).Tiling(f).TilingParse<CI>(g)` initialises a static object;
 * copying or moving a register object records what it holds (later fields merge into earlier
 * ones: the infershape and the tiling files register the same op type separately). Registered
 * functions are found with gert::DefaultOpImplSpaceRegistryV2 (base/registry/...). */
#ifndef OPSNN_HOST_REGISTER_OP_IMPL_REGISTRY_H_
#define OPSNN_HOST_REGISTER_OP_IMPL_REGISTRY_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "exe_graph/runtime/base_type.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "graph/ascend_string.h"
#include "graph/compiler_def.h"
#include "graph/types.h"

namespace gert {
class OpExecuteContext;
class OpExecutePrepareContext;
class OpExecuteLaunchContext;
class InferFormatContext;
class ExeResGenerationContext;
class OpCheckContext;

enum TilingPlacement { TILING_ON_HOST = 0, TILING_ON_AICPU = 1 };

struct OpImplRecord;  // what one register object holds (defined in the library)

class OpImplRegisterV2 {
public:
    using InferShapeKernelFunc = UINT32 (*)(InferShapeContext *);
    using InferShapeRangeKernelFunc = UINT32 (*)(InferShapeRangeContext *);
    using TilingKernelFunc = UINT32 (*)(TilingContext *);
    using InferDataTypeKernelFunc = UINT32 (*)(InferDataTypeContext *);
    using GenSimplifiedKeyKernelFunc = UINT32 (*)(TilingContext *, ge::char_t *);
    using OpExecFunc = UINT32 (*)(OpExecuteContext *);
    using OpExecPrepareFunc = UINT32 (*)(OpExecutePrepareContext *);
    using OpExecLaunchFunc = UINT32 (*)(OpExecuteLaunchContext *);
    using OpType = ge::AscendString;
    using CompileInfoCreatorFunc = void *(*)();
    using CompileInfoDeleterFunc = void (*)(void *);
    using KernelFunc = UINT32 (*)(KernelContext *context);
    using TilingParseFunc = UINT32 (*)(TilingParseContext *context);
    using InferFormatFunc = UINT32 (*)(InferFormatContext *context);
    using OpCalcParamKernelFunc = UINT32 (*)(ExeResGenerationContext *context);
    using OpGenTaskKernelFunc = UINT32 (*)(const ExeResGenerationContext *context,
                                           std::vector<std::vector<uint8_t>> &tasks);
    using OP_CHECK_FUNC_V2 = ge::graphStatus (*)(const OpCheckContext *context, ge::AscendString &result);

    explicit OpImplRegisterV2(const ge::char_t *op_type);
    OpImplRegisterV2(OpImplRegisterV2 &&other) noexcept;
    OpImplRegisterV2(const OpImplRegisterV2 &other);
    OpImplRegisterV2 &operator=(const OpImplRegisterV2 &) = delete;
    OpImplRegisterV2 &operator=(OpImplRegisterV2 &&) = delete;
    ~OpImplRegisterV2();

    OpImplRegisterV2 &InferShape(InferShapeKernelFunc infer_shape_func);
    OpImplRegisterV2 &InferShapeRange(InferShapeRangeKernelFunc infer_shape_range_func);
    OpImplRegisterV2 &InferDataType(InferDataTypeKernelFunc infer_datatype_func);
    /* Registers an InferDataType that gives every output the first input's data type. */
    OpImplRegisterV2 &InferOutDataTypeSameWithFirstInput();
    OpImplRegisterV2 &Tiling(TilingKernelFunc tiling_func, size_t max_tiling_data_size = 2048);
    OpImplRegisterV2 &GenSimplifiedKey(GenSimplifiedKeyKernelFunc gen_simplifiedkey_func);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr, int64_t private_attr_val);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr, const std::vector<int64_t> &private_attr_val);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr, const ge::char_t *private_attr_val);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr, ge::float32_t private_attr_val);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr, bool private_attr_val);
    OpImplRegisterV2 &PrivateAttr(const ge::char_t *private_attr, const std::vector<ge::float32_t> &private_attr_val);
    /* T is the compile-info type: the framework creates one before TilingParse fills it. */
    template <typename T>
    OpImplRegisterV2 &TilingParse(KernelFunc const tiling_parse_func) {
        return TilingParse(tiling_parse_func, CreateCompileInfo<T>, DeleteCompileInfo<T>);
    }
    template <typename T>
    OpImplRegisterV2 &TilingParse(TilingParseFunc const tiling_parse_func) {
        return TilingParse(reinterpret_cast<KernelFunc>(tiling_parse_func), CreateCompileInfo<T>, DeleteCompileInfo<T>);
    }
    OpImplRegisterV2 &InputsDataDependency(std::initializer_list<int32_t> inputs);
    OpImplRegisterV2 &OpExecuteFunc(OpExecFunc op_execute_func);
    OpImplRegisterV2 &Op2StageExecuteFuncs(OpExecPrepareFunc prepare_func, OpExecLaunchFunc launch_func);
    OpImplRegisterV2 &HostInputs(std::initializer_list<int32_t> inputs);
    OpImplRegisterV2 &TilingInputsDataDependency(std::initializer_list<int32_t> inputs);
    OpImplRegisterV2 &TilingInputsDataDependency(std::initializer_list<int32_t> inputs,
                                                 std::initializer_list<TilingPlacement> placements);
    OpImplRegisterV2 &OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs);
    OpImplRegisterV2 &InferFormat(InferFormatFunc infer_format_func);
    OpImplRegisterV2 &CalcOpParam(OpCalcParamKernelFunc calc_op_param_func);
    OpImplRegisterV2 &GenerateTask(OpGenTaskKernelFunc gen_task_func);
    OpImplRegisterV2 &CheckSupport(OP_CHECK_FUNC_V2 check_support_func);
    OpImplRegisterV2 &OpSelectFormat(OP_CHECK_FUNC_V2 op_select_format_func);
    OpImplRegisterV2 &NullableOutputs(std::initializer_list<int32_t> outputs);

private:
    OpImplRegisterV2 &TilingParse(KernelFunc tiling_parse_func, CompileInfoCreatorFunc creator_func,
                                  CompileInfoDeleterFunc deleter_func);
    template <typename T, typename std::enable_if<(!std::is_array<T>::value), int32_t>::type = 0>
    static void *CreateCompileInfo() {
        return new T();
    }
    template <typename T>
    static void DeleteCompileInfo(void *const obj) {
        delete reinterpret_cast<T *>(obj);
    }
    std::unique_ptr<OpImplRecord> record_;
};
}  // namespace gert

#define IMPL_OP_COUNTER(op_type, name, counter) \
    static gert::OpImplRegisterV2 VAR_UNUSED name##counter = gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_COUNTER_NUMBER(op_type, name, counter) IMPL_OP_COUNTER(op_type, name, counter)
#define IMPL_OP(op_type) IMPL_OP_COUNTER_NUMBER(op_type, op_impl_register_##op_type, __COUNTER__)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)
#define IMPL_OP_INFERSHAPE(op_type) \
    gert::OpImplRegisterV2 VAR_UNUSED op_impl_register_infershape_##op_type = gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) \
    gert::OpImplRegisterV2 VAR_UNUSED op_impl_register_optiling_##op_type = gert::OpImplRegisterV2(#op_type)

#endif  // OPSNN_HOST_REGISTER_OP_IMPL_REGISTRY_H_
