/* gert::OpImplRegisterV2 and the space registries: registrations merge into one table per
 * process, read by every space registry. */
#include <map>
#include <mutex>

#include "base/registry/op_impl_space_registry_v2.h"
#include "metadef/op_impl_store.h"

namespace opsnn_host {
namespace {
struct Table {
    std::mutex mutex;
    std::map<std::string, gert::OpImplKernelRegistry::OpImplFunctionsV2> by_type;
};
Table &TheTable() {
    static Table table;  // first use may be a static initialiser in another library: built on demand
    return table;
}

template <typename T>
void TakeIfSet(T &into, const T &from) {
    if (from) {
        into = from;
    }
}

/* Fields the later registration set replace the earlier ones; flags accumulate. */
void Merge(gert::OpImplKernelRegistry::OpImplFunctionsV2 &into, const gert::OpImplKernelRegistry::OpImplFunctionsV2 &from) {
    TakeIfSet(into.infer_shape, from.infer_shape);
    TakeIfSet(into.infer_shape_range, from.infer_shape_range);
    TakeIfSet(into.infer_datatype, from.infer_datatype);
    TakeIfSet(into.tiling, from.tiling);
    TakeIfSet(into.tiling_parse, from.tiling_parse);
    TakeIfSet(into.compile_info_creator, from.compile_info_creator);
    TakeIfSet(into.compile_info_deleter, from.compile_info_deleter);
    TakeIfSet(into.max_tiling_data_size, from.max_tiling_data_size);
    TakeIfSet(into.op_execute_func, from.op_execute_func);
    TakeIfSet(into.gen_simplifiedkey, from.gen_simplifiedkey);
    TakeIfSet(into.infer_format_func, from.infer_format_func);
    TakeIfSet(into.calc_op_param, from.calc_op_param);
    TakeIfSet(into.gen_task, from.gen_task);
    TakeIfSet(into.check_support, from.check_support);
    TakeIfSet(into.op_select_format, from.op_select_format);
    TakeIfSet(into.op_execute_prepare_func, from.op_execute_prepare_func);
    TakeIfSet(into.op_execute_launch_func, from.op_execute_launch_func);
    into.inputs_dependency |= from.inputs_dependency;
    into.host_inputs |= from.host_inputs;
    into.tiling_dependency |= from.tiling_dependency;
    into.tiling_dependency_placements |= from.tiling_dependency_placements;
    into.output_shape_depend_compute |= from.output_shape_depend_compute;
    into.nullable_outputs_ |= from.nullable_outputs_;
    into.private_attrs.insert(into.private_attrs.end(), from.private_attrs.begin(), from.private_attrs.end());
}

void Record(const gert::OpImplRecord &record) {
    Table &table = TheTable();
    std::lock_guard<std::mutex> lock(table.mutex);
    Merge(table.by_type[record.op_type], record.functions);
}

/* The InferDataType InferOutDataTypeSameWithFirstInput registers. */
UINT32 OutputsTakeFirstInputType(gert::InferDataTypeContext *context) {
    const ge::DataType dt = context->GetInputDataType(0);
    for (size_t i = 0; i < context->GetComputeNodeOutputNum(); ++i) {
        if (context->SetOutputDataType(i, dt) != ge::GRAPH_SUCCESS) {
            return ge::GRAPH_FAILED;
        }
    }
    return ge::GRAPH_SUCCESS;
}
}  // namespace

const gert::OpImplKernelRegistry::OpImplFunctionsV2 *FindOpImpl(const std::string &op_type) {
    Table &table = TheTable();
    std::lock_guard<std::mutex> lock(table.mutex);
    auto it = table.by_type.find(op_type);
    return it == table.by_type.end() ? nullptr : &it->second;  // std::map nodes do not move
}
}  // namespace opsnn_host

namespace gert {
OpImplRegisterV2::OpImplRegisterV2(const ge::char_t *op_type) : record_(std::make_unique<OpImplRecord>()) {
    record_->op_type = op_type == nullptr ? "" : op_type;
}
OpImplRegisterV2::OpImplRegisterV2(OpImplRegisterV2 &&other) noexcept : record_(std::move(other.record_)) {
    if (record_ != nullptr) {
        opsnn_host::Record(*record_);
    }
}
OpImplRegisterV2::OpImplRegisterV2(const OpImplRegisterV2 &other)
    : record_(std::make_unique<OpImplRecord>(*other.record_)) {
    opsnn_host::Record(*record_);
}
OpImplRegisterV2::~OpImplRegisterV2() = default;

OpImplRegisterV2 &OpImplRegisterV2::InferShape(InferShapeKernelFunc f) {
    record_->functions.infer_shape = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InferShapeRange(InferShapeRangeKernelFunc f) {
    record_->functions.infer_shape_range = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InferDataType(InferDataTypeKernelFunc f) {
    record_->functions.infer_datatype = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InferOutDataTypeSameWithFirstInput() {
    record_->functions.infer_datatype = opsnn_host::OutputsTakeFirstInputType;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::Tiling(TilingKernelFunc f, size_t max_tiling_data_size) {
    record_->functions.tiling = f;
    record_->functions.max_tiling_data_size = max_tiling_data_size;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::GenSimplifiedKey(GenSimplifiedKeyKernelFunc f) {
    record_->functions.gen_simplifiedkey = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name) {
    record_->functions.private_attrs.emplace_back(name == nullptr ? "" : name);
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name, int64_t) { return PrivateAttr(name); }
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name, const std::vector<int64_t> &) {
    return PrivateAttr(name);
}
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name, const ge::char_t *) { return PrivateAttr(name); }
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name, ge::float32_t) { return PrivateAttr(name); }
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name, bool) { return PrivateAttr(name); }
OpImplRegisterV2 &OpImplRegisterV2::PrivateAttr(const ge::char_t *name, const std::vector<ge::float32_t> &) {
    return PrivateAttr(name);
}
OpImplRegisterV2 &OpImplRegisterV2::TilingParse(KernelFunc f, CompileInfoCreatorFunc creator,
                                                CompileInfoDeleterFunc deleter) {
    record_->functions.tiling_parse = f;
    record_->functions.compile_info_creator = creator;
    record_->functions.compile_info_deleter = deleter;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InputsDataDependency(std::initializer_list<int32_t> inputs) {
    for (int32_t i : inputs) {
        (void)record_->functions.SetInputDataDependency(static_cast<size_t>(i));
    }
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::OpExecuteFunc(OpExecFunc f) {
    record_->functions.op_execute_func = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::Op2StageExecuteFuncs(OpExecPrepareFunc prepare, OpExecLaunchFunc launch) {
    record_->functions.op_execute_prepare_func = prepare;
    record_->functions.op_execute_launch_func = launch;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::HostInputs(std::initializer_list<int32_t> inputs) {
    for (int32_t i : inputs) {
        (void)record_->functions.SetHostInputs(static_cast<size_t>(i));
    }
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::TilingInputsDataDependency(std::initializer_list<int32_t> inputs) {
    for (int32_t i : inputs) {
        (void)record_->functions.SetTilingInputDataDependency(static_cast<size_t>(i));
    }
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::TilingInputsDataDependency(std::initializer_list<int32_t> inputs,
                                                               std::initializer_list<TilingPlacement> placements) {
    for (TilingPlacement p : placements) {
        record_->functions.tiling_dependency_placements |= static_cast<uint8_t>(1U << static_cast<uint32_t>(p));
    }
    return TilingInputsDataDependency(inputs);
}
OpImplRegisterV2 &OpImplRegisterV2::OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs) {
    for (int32_t i : outputs) {
        (void)record_->functions.SetOutputShapeDependOnCompute(static_cast<size_t>(i));
    }
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::InferFormat(InferFormatFunc f) {
    record_->functions.infer_format_func = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::CalcOpParam(OpCalcParamKernelFunc f) {
    record_->functions.calc_op_param = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::GenerateTask(OpGenTaskKernelFunc f) {
    record_->functions.gen_task = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::CheckSupport(OP_CHECK_FUNC_V2 f) {
    record_->functions.check_support = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::OpSelectFormat(OP_CHECK_FUNC_V2 f) {
    record_->functions.op_select_format = f;
    return *this;
}
OpImplRegisterV2 &OpImplRegisterV2::NullableOutputs(std::initializer_list<int32_t> outputs) {
    for (int32_t i : outputs) {
        (void)record_->functions.NullableOutput(static_cast<size_t>(i));
    }
    return *this;
}

/* ---- lookups ---- */
ge::graphStatus OpImplSpaceRegistryV2::AddSoToRegistry(const OppSoDesc &) { return ge::GRAPH_SUCCESS; }
const OpImplKernelRegistry::OpImplFunctionsV2 *OpImplSpaceRegistryV2::GetOpImpl(const char_t *op_type) const {
    return op_type == nullptr ? nullptr : opsnn_host::FindOpImpl(op_type);
}

DefaultOpImplSpaceRegistryV2::DefaultOpImplSpaceRegistryV2() {
    registries_[static_cast<size_t>(OppImplVersionTag::kOpp)] = std::make_shared<OpImplSpaceRegistryV2>();
}
DefaultOpImplSpaceRegistryV2 &DefaultOpImplSpaceRegistryV2::GetInstance() {
    static DefaultOpImplSpaceRegistryV2 instance;
    return instance;
}
const std::shared_ptr<OpImplSpaceRegistryV2> DefaultOpImplSpaceRegistryV2::GetSpaceRegistry(OppImplVersionTag tag) const {
    const size_t i = static_cast<size_t>(tag);
    return i < registries_.size() ? registries_[i] : nullptr;
}
ge::graphStatus DefaultOpImplSpaceRegistryV2::SetSpaceRegistry(const std::shared_ptr<OpImplSpaceRegistryV2> &registry,
                                                               OppImplVersionTag tag) {
    const size_t i = static_cast<size_t>(tag);
    if (i >= registries_.size()) {
        return ge::GRAPH_PARAM_INVALID;
    }
    registries_[i] = registry;
    return ge::GRAPH_SUCCESS;
}
void DefaultOpImplSpaceRegistryV2::ClearSpaceRegistry() {
    for (auto &r : registries_) {
        r.reset();
    }
}
}  // namespace gert
