/* The context builders (base/context_builder/*.h): collect a node's description and values, then
 * lay them out as one KernelRunContext that every context type reads. */
#include <cstdio>
#include <new>

#include "base/context_builder/context_holder.h"
#include "base/context_builder/op_context_builder_base.h"
#include "base/context_builder/op_infer_datatype_context_builder.h"
#include "base/context_builder/op_infer_shape_context_builder.h"
#include "base/context_builder/op_infer_shape_range_context_builder.h"
#include "base/context_builder/op_tiling_context_builder.h"
#include "base/context_builder/op_tiling_parse_context_builder.h"
#include "metadef/context_builder_impl.h"

namespace gert {
/* ---- what a built context owns ---- */
ContextHolderImpl::~ContextHolderImpl() {
    for (Chain &slot : slots) {
        slot.Set(nullptr, nullptr);  // frees the values the slot owns
    }
}

ContextHolderVoid::ContextHolderVoid() = default;
ContextHolderVoid::ContextHolderVoid(std::unique_ptr<ContextHolderImpl> impl) : impl_(std::move(impl)) {}
ContextHolderVoid::~ContextHolderVoid() = default;
ContextHolderVoid::ContextHolderVoid(ContextHolderVoid &&other) noexcept = default;
ContextHolderVoid &ContextHolderVoid::operator=(ContextHolderVoid &&other) noexcept {
    if (this != &other) {
        impl_ = std::move(other.impl_);
    }
    return *this;
}
void *ContextHolderVoid::GetContext() const { return impl_ == nullptr ? nullptr : impl_->context; }

/* ---- collecting ---- */
ContextBuilderImpl::~ContextBuilderImpl() { SetTilingData(nullptr, nullptr); }

void ContextBuilderImpl::Complain(const std::string &why) const {
    std::fprintf(stderr, "[opsnn host] %s %s: %s\n", builder_name_, op_type.empty() ? "(no op type)" : op_type.c_str(),
                 why.c_str());
}

void ContextBuilderImpl::SetTilingData(const void *data, Chain::Deleter deleter) {
    if (tiling_data.first != nullptr && tiling_data.second != nullptr) {
        tiling_data.second(const_cast<void *>(tiling_data.first));
    }
    tiling_data = {data, deleter};
}

bool ContextBuilderImpl::DescribeNode(ContextHolderImpl &holder) {
    if (op_type.empty() || op_name.empty() || input_ir_num == 0 || output_ir_num == 0) {
        Complain("no context: the node needs an op type, an op name and at least one IR input and output "
                 "(OpType/OpName, IONum or IOInstanceNum); got " +
                 std::to_string(input_ir_num) + " inputs, " + std::to_string(output_ir_num) + " outputs");
        return false;
    }
    holder.op_type = op_type;
    holder.op_name = op_name;
    auto instances = [](const std::vector<uint32_t> &counts) {
        std::vector<AnchorInstanceInfo> out;
        uint32_t start = 0;
        for (uint32_t n : counts) {
            out.emplace_back(start, n);
            start += n;
        }
        return out;
    };
    auto descs = [](const std::vector<TensorDescSpec> &specs, size_t count) {
        std::vector<CompileTimeTensorDesc> out(count);
        for (size_t i = 0; i < count && i < specs.size(); ++i) {
            out[i].SetDataType(specs[i].dtype);
            out[i].SetOriginFormat(specs[i].origin_format);
            out[i].SetStorageFormat(specs[i].storage_format);
            out[i].SetExpandDimsType(specs[i].expand_dims_type);
        }
        return out;
    };
    holder.input_instances = instances(input_instance);
    holder.output_instances = instances(output_instance);
    holder.input_descs = descs(input_descs, input_instance_num);
    holder.output_descs = descs(output_descs, output_instance_num);
    holder.attrs = opsnn_host::BuildRuntimeAttrs(attrs);
    ComputeNodeInfo::Parts parts{holder.op_type.c_str(),
                                 holder.op_name.c_str(),
                                 holder.input_instances.size(),
                                 holder.output_instances.size(),
                                 input_instance_num,
                                 output_instance_num,
                                 holder.input_instances.data(),
                                 holder.output_instances.data(),
                                 holder.input_descs.data(),
                                 holder.output_descs.data(),
                                 reinterpret_cast<RuntimeAttrs *>(holder.attrs.get())};
    holder.node = std::make_unique<ComputeNodeInfo>(parts);
    return true;
}

void ContextBuilderImpl::Assemble(ContextHolderImpl &holder, const std::vector<SlotValue> &inputs,
                                  const std::vector<SlotValue> &outputs) {
    const size_t count = inputs.size() + outputs.size();
    holder.run_context.reset(new uint8_t[sizeof(KernelRunContext) + sizeof(AsyncAnyValue *) * count]());
    auto *run = reinterpret_cast<KernelRunContext *>(holder.run_context.get());
    run->input_size = inputs.size();
    run->output_size = outputs.size();
    run->compute_node_info = holder.node.get();
    run->kernel_extend_info = nullptr;
    holder.slots.resize(count);
    for (size_t i = 0; i < count; ++i) {
        const SlotValue &v = i < inputs.size() ? inputs[i] : outputs[i - inputs.size()];
        holder.slots[i].Set(const_cast<void *>(v.first), v.second);
        run->values[i] = reinterpret_cast<AsyncAnyValue *>(&holder.slots[i]);
    }
    run->output_start = &run->values[inputs.size()];
    holder.context = holder.run_context.get();
}

/* ---- the shared builder surface ---- */
template <typename T>
OpContextBuilderBase<T>::OpContextBuilderBase() : impl_(std::make_unique<ContextBuilderImpl>("context builder")) {}
template <typename T>
OpContextBuilderBase<T>::OpContextBuilderBase(std::unique_ptr<ContextBuilderImpl> impl) : impl_(std::move(impl)) {}
template <typename T>
OpContextBuilderBase<T>::~OpContextBuilderBase() = default;

template <typename T>
T &OpContextBuilderBase<T>::OpType(const ge::AscendString &op_type) {
    impl_->op_type = op_type.GetString();
    return static_cast<T &>(*this);
}
template <typename T>
T &OpContextBuilderBase<T>::OpName(const ge::AscendString &op_name) {
    impl_->op_name = op_name.GetString();
    return static_cast<T &>(*this);
}
template <typename T>
T &OpContextBuilderBase<T>::IONum(size_t input_ir_num, size_t output_ir_num) {
    ContextBuilderImpl &b = *impl_;
    if (!b.input_instance.empty() || !b.output_instance.empty()) {
        b.Complain("IONum ignored: the inputs and outputs were already set");
        return static_cast<T &>(*this);
    }
    b.input_ir_num = b.input_instance_num = static_cast<uint32_t>(input_ir_num);
    b.output_ir_num = b.output_instance_num = static_cast<uint32_t>(output_ir_num);
    b.input_instance.assign(input_ir_num, 1U);
    b.output_instance.assign(output_ir_num, 1U);
    b.input_descs.resize(input_ir_num);
    b.output_descs.resize(output_ir_num);
    return static_cast<T &>(*this);
}
template <typename T>
T &OpContextBuilderBase<T>::IOInstanceNum(const std::vector<uint32_t> &input_instance_num,
                                          const std::vector<uint32_t> &output_instance_num) {
    ContextBuilderImpl &b = *impl_;
    b.input_instance = input_instance_num;
    b.output_instance = output_instance_num;
    b.input_ir_num = static_cast<uint32_t>(input_instance_num.size());
    b.output_ir_num = static_cast<uint32_t>(output_instance_num.size());
    b.input_instance_num = 0;
    for (uint32_t n : input_instance_num) {
        b.input_instance_num += n;
    }
    b.output_instance_num = 0;
    for (uint32_t n : output_instance_num) {
        b.output_instance_num += n;
    }
    b.input_descs.resize(b.input_instance_num);
    b.output_descs.resize(b.output_instance_num);
    return static_cast<T &>(*this);
}

#define OPSNN_APPEND_ATTR(ParamType, expr)                                 \
    template <typename T>                                                  \
    T &OpContextBuilderBase<T>::AppendAttr(ParamType attr) {               \
        impl_->attrs.emplace_back(expr);                                   \
        return static_cast<T &>(*this);                                    \
    }
OPSNN_APPEND_ATTR(bool, attr)
OPSNN_APPEND_ATTR(int64_t, attr)
OPSNN_APPEND_ATTR(float, attr)
OPSNN_APPEND_ATTR(const ge::AscendString &, std::string(attr.GetString()))
OPSNN_APPEND_ATTR(const std::vector<bool> &, attr)
OPSNN_APPEND_ATTR(const std::vector<int64_t> &, attr)
OPSNN_APPEND_ATTR(const std::vector<float> &, attr)
OPSNN_APPEND_ATTR(const std::vector<std::vector<int64_t>> &, attr)
#undef OPSNN_APPEND_ATTR
template <typename T>
T &OpContextBuilderBase<T>::AppendAttr(const std::vector<ge::AscendString> &attr) {
    std::vector<std::string> texts;
    for (const auto &s : attr) {
        texts.emplace_back(s.GetString());
    }
    impl_->attrs.emplace_back(std::move(texts));
    return static_cast<T &>(*this);
}

namespace {
/* A description field by index; past the declared count, a scratch value (the write goes nowhere). */
template <typename Field>
Field &DescField(ContextBuilderImpl &b, std::vector<TensorDescSpec> &descs, size_t index, Field TensorDescSpec::*member,
                 const char *what) {
    if (index < descs.size()) {
        return descs[index].*member;
    }
    b.Complain(std::string(what) + " index " + std::to_string(index) + " is past the " + std::to_string(descs.size()) +
               " tensors declared (IONum/IOInstanceNum); ignored");
    static thread_local TensorDescSpec scratch;
    scratch = TensorDescSpec();
    return scratch.*member;
}
}  // namespace

template <typename T>
ge::DataType &OpContextBuilderBase<T>::MutableInputDataType(size_t index) {
    return DescField(*impl_, impl_->input_descs, index, &TensorDescSpec::dtype, "input");
}
template <typename T>
ge::Format &OpContextBuilderBase<T>::MutableInputOriginalFormat(size_t index) {
    return DescField(*impl_, impl_->input_descs, index, &TensorDescSpec::origin_format, "input");
}
template <typename T>
ge::Format &OpContextBuilderBase<T>::MutableInputStorageFormat(size_t index) {
    return DescField(*impl_, impl_->input_descs, index, &TensorDescSpec::storage_format, "input");
}
template <typename T>
ExpandDimsType &OpContextBuilderBase<T>::MutableInputExpandDimsType(size_t index) {
    return DescField(*impl_, impl_->input_descs, index, &TensorDescSpec::expand_dims_type, "input");
}
template <typename T>
ge::DataType &OpContextBuilderBase<T>::MutableOutputDataType(size_t index) {
    return DescField(*impl_, impl_->output_descs, index, &TensorDescSpec::dtype, "output");
}
template <typename T>
ge::Format &OpContextBuilderBase<T>::MutableOutputOriginalFormat(size_t index) {
    return DescField(*impl_, impl_->output_descs, index, &TensorDescSpec::origin_format, "output");
}
template <typename T>
ge::Format &OpContextBuilderBase<T>::MutableOutputStorageFormat(size_t index) {
    return DescField(*impl_, impl_->output_descs, index, &TensorDescSpec::storage_format, "output");
}
template <typename T>
ExpandDimsType &OpContextBuilderBase<T>::MutableOutputExpandDimsType(size_t index) {
    return DescField(*impl_, impl_->output_descs, index, &TensorDescSpec::expand_dims_type, "output");
}

template class OpContextBuilderBase<OpTilingContextBuilder>;
template class OpContextBuilderBase<OpTilingParseContextBuilder>;
template class OpContextBuilderBase<OpInferShapeContextBuilder>;
template class OpContextBuilderBase<OpInferShapeRangeContextBuilder>;
template class OpContextBuilderBase<OpInferDataTypeContextBuilder>;

namespace {
template <typename ContextT>
ContextHolder<ContextT> Finish(std::unique_ptr<ContextHolderImpl> holder) {
    return ContextHolder<ContextT>(ContextHolderVoid(std::move(holder)));
}
}  // namespace

/* ---- tiling ---- */
OpTilingContextBuilder::OpTilingContextBuilder()
    : OpContextBuilderBase(std::make_unique<ContextBuilderImpl>("OpTilingContextBuilder")) {}
OpTilingContextBuilder::~OpTilingContextBuilder() = default;
OpTilingContextBuilder &OpTilingContextBuilder::CompileInfo(const void *compile_info) {
    impl_->compile_info = compile_info;
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::PlatformInfo(const void *platform_info) {
    impl_->platform_info = platform_info;
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::Deterministic(int32_t deterministic) {
    if (deterministic != 0 && deterministic != 1) {
        impl_->Complain("Deterministic(" + std::to_string(deterministic) + ") ignored: 0 or 1");
    } else {
        impl_->deterministic = deterministic;
    }
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::DeterministicLevel(int32_t level) {
    if (level < 0 || level > 3) {
        impl_->Complain("DeterministicLevel(" + std::to_string(level) + ") ignored: 0 to 3");
    } else {
        impl_->deterministic_level = level;
    }
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::TilingData(const gert::TilingData *tiling_data, Chain::Deleter deleter) {
    impl_->SetTilingData(tiling_data, deleter);
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::TilingDataSize(size_t tiling_data_size) {
    std::unique_ptr<uint8_t[]> buffer = gert::TilingData::CreateCap(tiling_data_size);
    impl_->SetTilingData(buffer.release(), [](void *p) { delete[] static_cast<uint8_t *>(p); });
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::Workspace(const ContinuousVector *workspace) {
    impl_->workspace = workspace;
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::SimtBlockDim(const Dim3 *block_dim) {
    impl_->simt_block_dim = block_dim;
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::SimtGridDim(const Dim3 *grid_dim) {
    impl_->simt_grid_dim = grid_dim;
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::InputTensors(const std::vector<Tensor *> &inputs) {
    for (size_t i = 0; i < inputs.size(); ++i) {
        MutableInputDataType(i) = inputs[i]->GetDataType();
        MutableInputOriginalFormat(i) = inputs[i]->GetOriginFormat();
        MutableInputStorageFormat(i) = inputs[i]->GetStorageFormat();
        MutableInputExpandDimsType(i) = inputs[i]->GetExpandDimsType();
        impl_->input_values.emplace_back(inputs[i], nullptr);
    }
    return *this;
}
OpTilingContextBuilder &OpTilingContextBuilder::OutputTensors(const std::vector<Tensor *> &outputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        MutableOutputDataType(i) = outputs[i]->GetDataType();
        MutableOutputOriginalFormat(i) = outputs[i]->GetOriginFormat();
        MutableOutputStorageFormat(i) = outputs[i]->GetStorageFormat();
        MutableOutputExpandDimsType(i) = outputs[i]->GetExpandDimsType();
        impl_->output_values.emplace_back(outputs[i], nullptr);
    }
    return *this;
}
ContextHolder<TilingContext> OpTilingContextBuilder::Build() {
    ContextBuilderImpl &b = *impl_;
    if (b.compile_info == nullptr || b.platform_info == nullptr) {
        b.Complain(std::string("no context: ") + (b.compile_info == nullptr ? "CompileInfo" : "PlatformInfo") +
                   " was not given (a TilingContext needs both)");
        return {};
    }
    auto holder = std::make_unique<ContextHolderImpl>();
    if (!b.DescribeNode(*holder)) {
        return {};
    }
    std::vector<SlotValue> inputs = b.input_values;
    inputs.insert(inputs.end(), b.output_values.begin(), b.output_values.end());
    inputs.emplace_back(b.compile_info, nullptr);
    inputs.emplace_back(b.platform_info, nullptr);
    inputs.emplace_back(nullptr, nullptr);  // the framework's slot: nothing here
    inputs.emplace_back(reinterpret_cast<void *>(static_cast<intptr_t>(b.deterministic)), nullptr);
    inputs.emplace_back(reinterpret_cast<void *>(static_cast<intptr_t>(b.deterministic_level)), nullptr);
    std::vector<SlotValue> outputs(TilingContext::kOutputNum, SlotValue{nullptr, nullptr});
    outputs[TilingContext::kOutputTilingData] = b.tiling_data;
    outputs[TilingContext::kOutputWorkspace] = {b.workspace, nullptr};
    outputs[TilingContext::kOutputSimtBlockDim] = {b.simt_block_dim, nullptr};
    outputs[TilingContext::kOutputSimtGridDim] = {b.simt_grid_dim, nullptr};
    b.tiling_data.second = nullptr;  // the context owns it now
    b.Assemble(*holder, inputs, outputs);
    return Finish<TilingContext>(std::move(holder));
}

/* ---- tiling parse ---- */
OpTilingParseContextBuilder::OpTilingParseContextBuilder()
    : OpContextBuilderBase(std::make_unique<ContextBuilderImpl>("OpTilingParseContextBuilder")) {}
OpTilingParseContextBuilder::~OpTilingParseContextBuilder() = default;
OpTilingParseContextBuilder &OpTilingParseContextBuilder::InputTensorDesc(size_t index, ge::DataType dtype,
                                                                          ge::Format origin_format,
                                                                          ge::Format storage_format,
                                                                          const ExpandDimsType &expand_dims_type) {
    MutableInputDataType(index) = dtype;
    MutableInputOriginalFormat(index) = origin_format;
    MutableInputStorageFormat(index) = storage_format;
    MutableInputExpandDimsType(index) = expand_dims_type;
    return *this;
}
OpTilingParseContextBuilder &OpTilingParseContextBuilder::OutputTensorDesc(size_t index, ge::DataType dtype,
                                                                           ge::Format origin_format,
                                                                           ge::Format storage_format,
                                                                           const ExpandDimsType &expand_dims_type) {
    MutableOutputDataType(index) = dtype;
    MutableOutputOriginalFormat(index) = origin_format;
    MutableOutputStorageFormat(index) = storage_format;
    MutableOutputExpandDimsType(index) = expand_dims_type;
    return *this;
}
OpTilingParseContextBuilder &OpTilingParseContextBuilder::CompiledJson(const ge::char_t *compiled_json) {
    impl_->compiled_json = compiled_json;
    return *this;
}
OpTilingParseContextBuilder &OpTilingParseContextBuilder::CompiledInfo(const void *compile_info) {
    impl_->compile_info = compile_info;
    return *this;
}
OpTilingParseContextBuilder &OpTilingParseContextBuilder::PlatformInfo(const void *platform_info) {
    impl_->platform_info = platform_info;
    return *this;
}
ContextHolder<TilingParseContext> OpTilingParseContextBuilder::Build() {
    ContextBuilderImpl &b = *impl_;
    if (b.compiled_json == nullptr || b.platform_info == nullptr) {
        b.Complain(std::string("no context: ") + (b.compiled_json == nullptr ? "CompiledJson" : "PlatformInfo") +
                   " was not given (a TilingParseContext needs both)");
        return {};
    }
    auto holder = std::make_unique<ContextHolderImpl>();
    if (!b.DescribeNode(*holder)) {
        return {};
    }
    const std::vector<SlotValue> inputs{{b.compiled_json, nullptr},
                                        {b.platform_info, nullptr},
                                        {holder->op_type.c_str(), nullptr}};
    b.Assemble(*holder, inputs, {{b.compile_info, nullptr}});
    return Finish<TilingParseContext>(std::move(holder));
}

/* ---- infershape ---- */
OpInferShapeContextBuilder::OpInferShapeContextBuilder()
    : OpContextBuilderBase(std::make_unique<ContextBuilderImpl>("OpInferShapeContextBuilder")) {}
OpInferShapeContextBuilder::~OpInferShapeContextBuilder() = default;
OpInferShapeContextBuilder &OpInferShapeContextBuilder::OutputTensorDesc(size_t index, ge::DataType dtype,
                                                                         ge::Format origin_format,
                                                                         ge::Format storage_format,
                                                                         const ExpandDimsType &expand_dims_type) {
    MutableOutputDataType(index) = dtype;
    MutableOutputOriginalFormat(index) = origin_format;
    MutableOutputStorageFormat(index) = storage_format;
    MutableOutputExpandDimsType(index) = expand_dims_type;
    return *this;
}
OpInferShapeContextBuilder &OpInferShapeContextBuilder::InputTensors(const std::vector<Tensor *> &inputs) {
    for (size_t i = 0; i < inputs.size(); ++i) {
        MutableInputDataType(i) = inputs[i]->GetDataType();
        MutableInputOriginalFormat(i) = inputs[i]->GetOriginFormat();
        MutableInputStorageFormat(i) = inputs[i]->GetStorageFormat();
        MutableInputExpandDimsType(i) = inputs[i]->GetExpandDimsType();
        impl_->input_values.emplace_back(inputs[i], nullptr);
    }
    return *this;
}
ContextHolder<InferShapeContext> OpInferShapeContextBuilder::Build() {
    ContextBuilderImpl &b = *impl_;
    auto holder = std::make_unique<ContextHolderImpl>();
    if (!b.DescribeNode(*holder)) {
        return {};
    }
    std::vector<SlotValue> inputs = b.input_values;
    inputs.emplace_back(nullptr, nullptr);  // the framework's slot: nothing here
    std::vector<SlotValue> outputs;
    for (uint32_t i = 0; i < b.output_instance_num; ++i) {
        outputs.emplace_back(new Shape(), [](void *p) { delete static_cast<Shape *>(p); });
    }
    b.Assemble(*holder, inputs, outputs);
    return Finish<InferShapeContext>(std::move(holder));
}

/* ---- infershape range ---- */
OpInferShapeRangeContextBuilder::OpInferShapeRangeContextBuilder()
    : OpContextBuilderBase(std::make_unique<ContextBuilderImpl>("OpInferShapeRangeContextBuilder")) {}
OpInferShapeRangeContextBuilder::~OpInferShapeRangeContextBuilder() = default;
OpInferShapeRangeContextBuilder &OpInferShapeRangeContextBuilder::OutputTensorDesc(
    size_t index, ge::DataType dtype, ge::Format origin_format, ge::Format storage_format,
    const ExpandDimsType &expand_dims_type) {
    MutableOutputDataType(index) = dtype;
    MutableOutputOriginalFormat(index) = origin_format;
    MutableOutputStorageFormat(index) = storage_format;
    MutableOutputExpandDimsType(index) = expand_dims_type;
    return *this;
}
OpInferShapeRangeContextBuilder &OpInferShapeRangeContextBuilder::InputTensorsRange(
    const std::vector<Range<Tensor> *> &inputs) {
    for (size_t i = 0; i < inputs.size(); ++i) {
        const Tensor *lo = inputs[i]->GetMin();
        const Tensor *hi = inputs[i]->GetMax();
        if (lo->GetDataType() != hi->GetDataType() || lo->GetFormat() != hi->GetFormat()) {
            impl_->Complain("input range " + std::to_string(i) +
                            ": its min and max tensors differ in data type or format; the ranges were not set");
            return *this;
        }
        MutableInputDataType(i) = lo->GetDataType();
        MutableInputOriginalFormat(i) = lo->GetOriginFormat();
        MutableInputStorageFormat(i) = lo->GetStorageFormat();
        MutableInputExpandDimsType(i) = lo->GetExpandDimsType();
    }
    for (Range<Tensor> *range : inputs) {
        impl_->input_values.emplace_back(range, nullptr);
    }
    return *this;
}
ContextHolder<InferShapeRangeContext> OpInferShapeRangeContextBuilder::Build() {
    ContextBuilderImpl &b = *impl_;
    auto holder = std::make_unique<ContextHolderImpl>();
    if (!b.DescribeNode(*holder)) {
        return {};
    }
    std::vector<SlotValue> outputs;
    for (uint32_t i = 0; i < b.output_instance_num; ++i) {
        outputs.emplace_back(new Range<Shape>(new Shape(), new Shape()), [](void *p) {
            auto *range = static_cast<Range<Shape> *>(p);
            delete range->GetMin();
            delete range->GetMax();
            delete range;
        });
    }
    b.Assemble(*holder, b.input_values, outputs);
    return Finish<InferShapeRangeContext>(std::move(holder));
}

/* ---- infer data type ---- */
OpInferDataTypeContextBuilder::OpInferDataTypeContextBuilder()
    : OpContextBuilderBase(std::make_unique<ContextBuilderImpl>("OpInferDataTypeContextBuilder")) {}
OpInferDataTypeContextBuilder::~OpInferDataTypeContextBuilder() = default;
OpInferDataTypeContextBuilder &OpInferDataTypeContextBuilder::InputTensorDesc(size_t index, ge::DataType dtype,
                                                                              ge::Format origin_format,
                                                                              ge::Format storage_format,
                                                                              const ExpandDimsType &expand_dims_type) {
    MutableInputDataType(index) = dtype;
    MutableInputOriginalFormat(index) = origin_format;
    MutableInputStorageFormat(index) = storage_format;
    MutableInputExpandDimsType(index) = expand_dims_type;
    return *this;
}
OpInferDataTypeContextBuilder &OpInferDataTypeContextBuilder::OutputTensorDesc(size_t index, ge::Format origin_format,
                                                                               ge::Format storage_format,
                                                                               const ExpandDimsType &expand_dims_type) {
    MutableOutputOriginalFormat(index) = origin_format;
    MutableOutputStorageFormat(index) = storage_format;
    MutableOutputExpandDimsType(index) = expand_dims_type;
    return *this;
}
ContextHolder<InferDataTypeContext> OpInferDataTypeContextBuilder::Build() {
    ContextBuilderImpl &b = *impl_;
    auto holder = std::make_unique<ContextHolderImpl>();
    if (!b.DescribeNode(*holder)) {
        return {};
    }
    /* A data type fits a slot: the slots hold the values themselves. */
    auto in_place = [](ge::DataType dt) {
        return SlotValue{reinterpret_cast<void *>(static_cast<intptr_t>(dt)), nullptr};
    };
    std::vector<SlotValue> inputs;
    for (uint32_t i = 0; i < b.input_instance_num; ++i) {
        inputs.push_back(in_place(b.input_descs[i].dtype));
    }
    std::vector<SlotValue> outputs(b.output_instance_num, in_place(ge::DT_MAX));
    b.Assemble(*holder, inputs, outputs);
    return Finish<InferDataTypeContext>(std::move(holder));
}
}  // namespace gert
