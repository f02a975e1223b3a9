/* RunTiling / RunInferShape / HasTiling (opsnn_host/launch.h): an l0 op's launch request turned
 * into the contexts CANN's runtime would give the operator's own registered functions. */
#include <exception>
#include <memory>
#include <type_traits>

#include "base/context_builder/op_infer_shape_context_builder.h"
#include "base/context_builder/op_tiling_context_builder.h"
#include "base/context_builder/op_tiling_parse_context_builder.h"
#include "graph/utils/type_utils.h"
#include "metadef/op_def_store.h"
#include "metadef/op_impl_store.h"
#include "metadef/soc_platform.h"
#include "op_common/captured_errors.h"
#include "opsnn_host/launch.h"

namespace opsnn_host {
namespace {
constexpr size_t kWorkspaceCapacity = 64;       // workspace-size entries a tiling may set
constexpr size_t kDefaultTilingCapacity = 2048;  // Tiling()'s default max tiling data size

/* "A; B" of the error lines a failing function logged ("" when it logged none). */
std::string Logged() {
    std::string text;
    for (const std::string &line : TakeCapturedErrors()) {
        text += (text.empty() ? "" : "; ") + line;
    }
    return text;
}

/* What a request resolves to: typed attributes and the IR instance counts of its tensors. */
struct Prepared {
    std::string error;
    const SocSpec *soc = nullptr;
    std::vector<RuntimeAttrValue> attrs;
    std::vector<uint32_t> input_instances;
    std::vector<uint32_t> output_instances;
};

const char *KindName(ops::AttrKind kind) {
    switch (kind) {
        case ops::AttrKind::kBool: return "Bool";
        case ops::AttrKind::kFloat: return "Float";
        case ops::AttrKind::kInt: return "Int";
        case ops::AttrKind::kString: return "String";
        case ops::AttrKind::kListBool: return "ListBool";
        case ops::AttrKind::kListFloat: return "ListFloat";
        case ops::AttrKind::kListInt: return "ListInt";
        case ops::AttrKind::kListListInt: return "ListListInt";
        default: return "an unset type";
    }
}

/* An OP_ATTR value as RuntimeAttrs stores it: by the OpDef's declared kind where there is an
 * OpDef (kUnset: by the value's own type); false where the value does not convert. */
bool ToRuntimeAttr(const AttrValue &value, ops::AttrKind kind, RuntimeAttrValue &out) {
    using K = ops::AttrKind;
    return std::visit(
        [&](const auto &v) -> bool {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, bool>) {
                if (kind == K::kBool || kind == K::kUnset) { out = v; return true; }
                return false;
            } else if constexpr (std::is_same_v<V, int64_t> || std::is_same_v<V, ge::DataType>) {
                if (kind == K::kInt || kind == K::kUnset) { out = static_cast<int64_t>(v); return true; }
                if (kind == K::kFloat) { out = static_cast<float>(v); return true; }
                return false;
            } else if constexpr (std::is_same_v<V, float> || std::is_same_v<V, double>) {
                if (kind == K::kFloat || kind == K::kUnset) { out = static_cast<float>(v); return true; }
                return false;
            } else if constexpr (std::is_same_v<V, std::string>) {
                if (kind == K::kString || kind == K::kUnset) { out = v; return true; }
                return false;
            } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
                if (kind == K::kListInt || kind == K::kUnset) { out = v; return true; }
                if (kind == K::kListFloat) { out = std::vector<float>(v.begin(), v.end()); return true; }
                return false;
            } else if constexpr (std::is_same_v<V, std::vector<float>>) {
                if (kind == K::kListFloat || kind == K::kUnset) { out = v; return true; }
                return false;
            } else {
                static_assert(std::is_same_v<V, std::vector<bool>>, "an AttrValue alternative is not handled");
                if (kind == K::kListBool || kind == K::kUnset) { out = v; return true; }
                return false;
            }
        },
        value);
}

/* IR instance counts from the OpDef's parameters: an absent optional input is 0, a dynamic
 * parameter takes what the others leave (one dynamic parameter per side at most). */
std::string Instances(const std::vector<ParamView> &params, const std::vector<TensorArg> &tensors, const char *side,
                      std::vector<uint32_t> &counts) {
    size_t dynamic = 0;
    for (const ParamView &p : params) {
        dynamic += p.param_type == ops::DYNAMIC ? 1 : 0;
    }
    if (dynamic == 0) {
        if (tensors.size() != params.size()) {
            return "the OpDef declares " + std::to_string(params.size()) + " " + side + "s, the launch gives " +
                   std::to_string(tensors.size());
        }
        for (const TensorArg &t : tensors) {
            counts.push_back(t.present ? 1U : 0U);
        }
        return "";
    }
    if (dynamic > 1) {
        return std::string("the OpDef declares several dynamic ") + side + "s: their tensor counts are ambiguous";
    }
    if (tensors.size() + 1 < params.size()) {
        return "the OpDef declares " + std::to_string(params.size()) + " " + side + "s, the launch gives only " +
               std::to_string(tensors.size());
    }
    const uint32_t rest = static_cast<uint32_t>(tensors.size() - (params.size() - 1));
    for (const ParamView &p : params) {
        counts.push_back(p.param_type == ops::DYNAMIC ? rest : 1U);
    }
    return "";
}

Prepared Prepare(const LaunchRequest &request) {
    Prepared out;
    out.soc = FindSoc(request.soc);
    if (out.soc == nullptr) {
        out.error = "unknown SoC '" + request.soc + "' (known: " + KnownSocNames() + ")";
        return out;
    }
    OpDefView def;
    if (HasOpDef(request.op_type)) {
        out.error = ViewOpDef(request.op_type, out.soc->family, &def);
        if (!out.error.empty()) {
            return out;
        }
    } else {
        /* No OpDef linked in (an op_host built without its *_def.cpp): attributes by their own types,
         * one tensor per IR input/output. */
        for (const AttrValue &a : request.attrs) {
            out.attrs.emplace_back();
            ToRuntimeAttr(a, ops::AttrKind::kUnset, out.attrs.back());
        }
        for (const TensorArg &t : request.inputs) {
            out.input_instances.push_back(t.present ? 1U : 0U);
        }
        out.output_instances.assign(request.outputs.size(), 1U);
        return out;
    }
    if (request.attrs.size() > def.attrs.size()) {
        out.error = "the launch gives " + std::to_string(request.attrs.size()) + " attributes, the OpDef declares " +
                    std::to_string(def.attrs.size());
        return out;
    }
    for (size_t i = 0; i < def.attrs.size(); ++i) {
        const AttrView &a = def.attrs[i];
        if (i >= request.attrs.size()) {
            if (!a.has_default) {
                out.error = "attribute '" + a.name + "' (index " + std::to_string(i) + ") " +
                            (a.required ? "is required by the OpDef" : "has no default in the OpDef") +
                            " and the launch does not give it";
                return out;
            }
            out.attrs.push_back(a.default_value);
            continue;
        }
        RuntimeAttrValue converted;
        if (!ToRuntimeAttr(request.attrs[i], a.kind, converted)) {
            out.error = "attribute '" + a.name + "' (index " + std::to_string(i) + ") is declared " + KindName(a.kind) +
                        " and the launch gives a value of another type";
            return out;
        }
        out.attrs.push_back(converted);
    }
    out.error = Instances(def.inputs, request.inputs, "input", out.input_instances);
    if (out.error.empty()) {
        out.error = Instances(def.outputs, request.outputs, "output", out.output_instances);
    }
    return out;
}

/* The tensors a context points at, owned here. */
std::vector<std::unique_ptr<gert::Tensor>> MakeTensors(const std::vector<TensorArg> &args) {
    std::vector<std::unique_ptr<gert::Tensor>> out;
    for (const TensorArg &a : args) {
        if (!a.present) {
            continue;
        }
        auto t = std::make_unique<gert::Tensor>(gert::StorageShape(), gert::StorageFormat(a.format, a.format, {}),
                                                gert::kOnHost, a.dtype, a.addr);
        for (int64_t d : a.shape) {
            t->MutableOriginShape().AppendDim(d);
            t->MutableStorageShape().AppendDim(d);
        }
        const int64_t bytes = ge::GetSizeInBytes(t->GetShapeSize(), a.dtype);
        t->SetSize(bytes < 0 ? 0U : static_cast<size_t>(bytes));
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<gert::Tensor *> Pointers(const std::vector<std::unique_ptr<gert::Tensor>> &tensors) {
    std::vector<gert::Tensor *> out;
    for (const auto &t : tensors) {
        out.push_back(t.get());
    }
    return out;
}

template <typename Builder>
void AppendAttrs(Builder &builder, const std::vector<RuntimeAttrValue> &attrs) {
    for (const RuntimeAttrValue &a : attrs) {
        std::visit(
            [&](const auto &v) {
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::string>) {
                    builder.AppendAttr(ge::AscendString(v.c_str()));
                } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
                    std::vector<ge::AscendString> texts;
                    for (const auto &s : v) {
                        texts.emplace_back(s.c_str());
                    }
                    builder.AppendAttr(texts);
                } else {
                    builder.AppendAttr(v);
                }
            },
            a);
    }
}

/* A compile-info object for the tiling: TilingParse's, or (none registered) a zeroed block. */
struct CompileInfo {
    void *object = nullptr;
    void (*deleter)(void *) = nullptr;
    alignas(16) unsigned char placeholder[256] = {};
    ~CompileInfo() {
        if (object != nullptr && deleter != nullptr) {
            deleter(object);
        }
    }
};

/* Runs the op's TilingParse (where it has one) into info; "" or the failure. */
std::string Parse(const gert::OpImplKernelRegistry::OpImplFunctionsV2 &impl, const LaunchRequest &request,
                  const Prepared &prepared, fe::PlatFormInfos &platform, CompileInfo &info) {
    if (impl.compile_info_creator != nullptr) {
        info.object = impl.compile_info_creator();
        info.deleter = impl.compile_info_deleter;
    } else {
        info.object = info.placeholder;
    }
    if (impl.tiling_parse == nullptr) {
        return "";
    }
    gert::OpTilingParseContextBuilder builder;
    builder.OpType(request.op_type.c_str())
        .OpName(request.op_type.c_str())
        .IOInstanceNum(prepared.input_instances, prepared.output_instances);
    auto holder = builder.CompiledJson("{}").PlatformInfo(&platform).CompiledInfo(info.object).Build();
    auto *context = holder.GetContext();
    if (context == nullptr) {
        return "TilingParse: no context could be built: " + Logged();
    }
    const UINT32 ret = impl.tiling_parse(reinterpret_cast<gert::KernelContext *>(context));
    if (ret != ge::GRAPH_SUCCESS) {
        const std::string logged = Logged();
        return "TilingParse returned " + std::string(ret == ge::GRAPH_FAILED ? "GRAPH_FAILED" : std::to_string(ret)) +
               (logged.empty() ? "" : ": " + logged);
    }
    return "";
}
}  // namespace

bool HasTiling(const std::string &op_type) {
    const auto *impl = FindOpImpl(op_type);
    return impl != nullptr && impl->tiling != nullptr;
}

TilingResult RunTiling(const LaunchRequest &request) {
    TilingResult result;
    const std::string where = "op_host tiling: " + request.op_type + ": ";
    const auto *impl = FindOpImpl(request.op_type);
    if (impl == nullptr || impl->tiling == nullptr) {
        result.error = where + "no tiling function is registered (IMPL_OP_OPTILING(" + request.op_type +
                       ").Tiling(...) in an op_host *_tiling.cpp that is linked in)";
        return result;
    }
    const Prepared prepared = Prepare(request);
    if (!prepared.error.empty()) {
        result.error = where + prepared.error;
        return result;
    }
    fe::PlatFormInfos platform;
    FillPlatformInfos(*prepared.soc, platform);
    (void)TakeCapturedErrors();
    try {
        CompileInfo compile_info;
        const std::string parse_error = Parse(*impl, request, prepared, platform, compile_info);
        if (!parse_error.empty()) {
            result.error = where + parse_error;
            return result;
        }
        auto inputs = MakeTensors(request.inputs);
        auto outputs = MakeTensors(request.outputs);
        auto workspace = gert::ContinuousVector::Create<size_t>(kWorkspaceCapacity);
        gert::OpTilingContextBuilder builder;
        builder.OpType(request.op_type.c_str())
            .OpName(request.op_type.c_str())
            .IOInstanceNum(prepared.input_instances, prepared.output_instances);
        AppendAttrs(builder, prepared.attrs);
        builder.InputTensors(Pointers(inputs)).OutputTensors(Pointers(outputs));
        builder.CompileInfo(compile_info.object)
            .PlatformInfo(&platform)
            .TilingDataSize(impl->max_tiling_data_size == 0 ? kDefaultTilingCapacity : impl->max_tiling_data_size)
            .Workspace(reinterpret_cast<gert::ContinuousVector *>(workspace.get()));
        auto holder = builder.Build();
        gert::TilingContext *context = holder.GetContext();
        if (context == nullptr) {
            result.error = where + "no tiling context could be built: " + Logged();
            return result;
        }
        const UINT32 ret = impl->tiling(context);
        if (ret != ge::GRAPH_SUCCESS) {
            const std::string logged = Logged();
            result.error = where + "tiling function returned " +
                           (ret == ge::GRAPH_FAILED ? std::string("GRAPH_FAILED") : std::to_string(ret)) +
                           (logged.empty() ? " (it logged no error)" : ": " + logged);
            return result;
        }
        const gert::TilingData *data = context->GetRawTilingData();
        const auto *bytes = static_cast<const uint8_t *>(data->GetData());
        result.tiling_data.assign(bytes, bytes + data->GetDataSize());
        result.block_dim = context->GetBlockDim();
        result.tiling_key = context->GetTilingKey();
        const size_t count = context->GetWorkspaceNum();
        const size_t *sizes = context->GetWorkspaceSizes(count);
        result.workspace_sizes.assign(sizes, sizes + count);
        result.schedule_mode = static_cast<int32_t>(context->GetScheduleMode());
        result.atomic_clean = context->NeedAtomic();
        result.ok = true;
    } catch (const std::exception &e) {
        result.error = where + "the tiling threw " + e.what();
    }
    return result;
}

InferShapeResult RunInferShape(const LaunchRequest &request) {
    InferShapeResult result;
    const std::string where = "op_host infershape: " + request.op_type + ": ";
    const auto *impl = FindOpImpl(request.op_type);
    if (impl == nullptr || impl->infer_shape == nullptr) {
        result.error = where + "no InferShape is registered (IMPL_OP_INFERSHAPE(" + request.op_type +
                       ").InferShape(...) in an op_host *_infershape.cpp that is linked in)";
        return result;
    }
    const Prepared prepared = Prepare(request);
    if (!prepared.error.empty()) {
        result.error = where + prepared.error;
        return result;
    }
    (void)TakeCapturedErrors();
    try {
        auto inputs = MakeTensors(request.inputs);
        gert::OpInferShapeContextBuilder builder;
        builder.OpType(request.op_type.c_str())
            .OpName(request.op_type.c_str())
            .IOInstanceNum(prepared.input_instances, prepared.output_instances);
        AppendAttrs(builder, prepared.attrs);
        for (size_t i = 0; i < request.outputs.size(); ++i) {
            const TensorArg &o = request.outputs[i];
            builder.OutputTensorDesc(i, o.dtype, o.format, o.format);
        }
        builder.InputTensors(Pointers(inputs));
        auto holder = builder.Build();
        gert::InferShapeContext *context = holder.GetContext();
        if (context == nullptr) {
            result.error = where + "no infershape context could be built: " + Logged();
            return result;
        }
        const UINT32 ret = impl->infer_shape(context);
        if (ret != ge::GRAPH_SUCCESS) {
            const std::string logged = Logged();
            result.error = where + "InferShape returned " +
                           (ret == ge::GRAPH_FAILED ? std::string("GRAPH_FAILED") : std::to_string(ret)) +
                           (logged.empty() ? " (it logged no error)" : ": " + logged);
            return result;
        }
        for (size_t i = 0; i < request.outputs.size(); ++i) {
            const gert::Shape *shape = context->GetOutputShape(i);
            std::vector<int64_t> dims;
            for (size_t d = 0; shape != nullptr && d < shape->GetDimNum(); ++d) {
                dims.push_back(shape->GetDim(d));
            }
            result.output_shapes.push_back(dims);
        }
        result.ok = true;
    } catch (const std::exception &e) {
        result.error = where + "InferShape threw " + e.what();
    }
    return result;
}
}  // namespace opsnn_host
