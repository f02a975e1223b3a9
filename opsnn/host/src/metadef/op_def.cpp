/* ops::OpDef and its parts (register/op_def.h), OP_ADD's registry, and the launcher's view of a
 * definition (op_def_store.h). */
#include <algorithm>
#include <functional>
#include <mutex>

#include "metadef/op_def_store.h"
#include "register/op_def_factory.h"

namespace optiling {
OpCheckFuncHelper::OpCheckFuncHelper(const ge::AscendString &, const ge::AscendString &, OP_CHECK_FUNC) {}
OpCheckFuncHelper::OpCheckFuncHelper(const ge::AscendString &, PARAM_GENERALIZE_FUNC) {}
}  // namespace optiling

namespace ops {
namespace {
/* The parameter named `name` in `params`, appended when missing. */
OpParamDef &FindOrAdd(std::vector<OpParamDef> &params, const char *name) {
    const std::string key = name == nullptr ? "" : name;
    for (OpParamDef &p : params) {
        if (p.Impl().name == key) {
            return p;
        }
    }
    params.emplace_back(key.c_str());
    return params.back();
}
}  // namespace

/* ---- OpParamDef ---- */
OpParamDef::OpParamDef(const char *name) : impl_(std::make_unique<OpParamDefImpl>()) {
    impl_->name = name == nullptr ? "" : name;
}
OpParamDef::OpParamDef(const OpParamDef &def) : impl_(std::make_unique<OpParamDefImpl>(*def.impl_)) {}
OpParamDef::~OpParamDef() = default;
OpParamDef &OpParamDef::operator=(const OpParamDef &def) {
    if (this != &def) {
        *impl_ = *def.impl_;
    }
    return *this;
}
OpParamDef &OpParamDef::ParamType(Option param_type) {
    impl_->param_type = param_type;
    return *this;
}
OpParamDef &OpParamDef::DataType(std::vector<ge::DataType> types) {
    impl_->dtypes = std::move(types);
    impl_->dtypes_are_list = false;
    return *this;
}
OpParamDef &OpParamDef::DataTypeList(std::vector<ge::DataType> types) {
    impl_->dtypes = std::move(types);
    impl_->dtypes_are_list = true;
    return *this;
}
OpParamDef &OpParamDef::Format(std::vector<ge::Format> formats) {
    impl_->formats = std::move(formats);
    impl_->formats_are_list = false;
    return *this;
}
OpParamDef &OpParamDef::FormatList(std::vector<ge::Format> formats) {
    impl_->formats = std::move(formats);
    impl_->formats_are_list = true;
    return *this;
}
OpParamDef &OpParamDef::DataTypeForBinQuery(std::vector<ge::DataType> types) {
    impl_->bin_query_dtypes = std::move(types);
    return *this;
}
OpParamDef &OpParamDef::FormatForBinQuery(std::vector<ge::Format> formats) {
    impl_->bin_query_formats = std::move(formats);
    return *this;
}
OpParamDef &OpParamDef::UnknownShapeFormat(std::vector<ge::Format> formats) {
    impl_->unknown_shape_formats = std::move(formats);
    return *this;
}
OpParamDef &OpParamDef::ValueDepend(Option value_depend) { return ValueDepend(value_depend, DependScope::ALL); }
OpParamDef &OpParamDef::ValueDepend(Option value_depend, DependScope scope) {
    impl_->value_depend = value_depend == REQUIRED || value_depend == OPTIONAL;
    impl_->value_depend_option = value_depend;
    impl_->depend_scope = scope;
    return *this;
}
OpParamDef &OpParamDef::IgnoreContiguous(void) {
    impl_->ignore_contiguous = true;
    return *this;
}
OpParamDef &OpParamDef::AutoContiguous() {
    impl_->auto_contiguous = true;
    return *this;
}
OpParamDef &OpParamDef::Scalar() {
    impl_->scalar = true;
    return *this;
}
OpParamDef &OpParamDef::ScalarList() {
    impl_->scalar_list = true;
    return *this;
}
OpParamDef &OpParamDef::To(const ge::DataType type) {
    impl_->to_dtype = type;
    return *this;
}
OpParamDef &OpParamDef::To(const char *name) {
    impl_->to_name = name == nullptr ? "" : name;
    return *this;
}
OpParamDef &OpParamDef::Version(uint32_t version) {
    impl_->version = version;
    return *this;
}
OpParamDef &OpParamDef::InitValue(uint64_t value) { return InitValue(ScalarVar(ScalarType::UINT64, value)); }
OpParamDef &OpParamDef::InitValue(const ScalarVar &value) { return InitValue(std::vector<ScalarVar>{value}); }
OpParamDef &OpParamDef::InitValue(const std::vector<ScalarVar> &value) {
    impl_->init_values = value;
    return *this;
}
OpParamDef &OpParamDef::OutputShapeDependOnCompute() {
    impl_->output_shape_depend_on_compute = true;
    return *this;
}
OpParamDef &OpParamDef::Follow(const char *paramName) { return Follow(paramName, FollowType::ALL); }
OpParamDef &OpParamDef::Follow(const char *paramName, FollowType ftype) {
    impl_->follow = paramName == nullptr ? "" : paramName;
    impl_->follow_type = ftype;
    return *this;
}
OpParamDef &OpParamDef::Comment(const char *comment) {
    impl_->comment = comment == nullptr ? "" : comment;
    return *this;
}

/* ---- OpAttrDef ---- */
OpAttrDef::OpAttrDef(const char *name) : impl_(std::make_unique<OpAttrDefImpl>()) {
    impl_->name = ge::AscendString(name);
}
OpAttrDef::OpAttrDef(const OpAttrDef &other) : impl_(std::make_unique<OpAttrDefImpl>(*other.impl_)) {}
OpAttrDef::~OpAttrDef() = default;
OpAttrDef &OpAttrDef::operator=(const OpAttrDef &other) {
    if (this != &other) {
        *impl_ = *other.impl_;
    }
    return *this;
}
OpAttrDef &OpAttrDef::AttrType(Option attr_type) {
    impl_->required = attr_type == REQUIRED;
    return *this;
}
#define OPSNN_ATTR_KIND(Setter, Kind, ValueType, stored)      \
    OpAttrDef &OpAttrDef::Setter(void) {                      \
        impl_->kind = AttrKind::Kind;                         \
        return *this;                                         \
    }                                                         \
    OpAttrDef &OpAttrDef::Setter(ValueType value) {           \
        impl_->kind = AttrKind::Kind;                         \
        impl_->has_default = true;                            \
        impl_->default_value = stored;                        \
        return *this;                                         \
    }
OPSNN_ATTR_KIND(Bool, kBool, bool, value)
OPSNN_ATTR_KIND(Float, kFloat, float, value)
OPSNN_ATTR_KIND(Int, kInt, int64_t, value)
OPSNN_ATTR_KIND(String, kString, const char *, std::string(value == nullptr ? "" : value))
OPSNN_ATTR_KIND(ListBool, kListBool, std::vector<bool>, std::move(value))
OPSNN_ATTR_KIND(ListFloat, kListFloat, std::vector<float>, std::move(value))
OPSNN_ATTR_KIND(ListInt, kListInt, std::vector<int64_t>, std::move(value))
OPSNN_ATTR_KIND(ListListInt, kListListInt, std::vector<std::vector<int64_t>>, std::move(value))
#undef OPSNN_ATTR_KIND
OpAttrDef &OpAttrDef::Version(uint32_t version) {
    impl_->version = version;
    return *this;
}
OpAttrDef &OpAttrDef::Comment(const char *comment) {
    impl_->comment = comment == nullptr ? "" : comment;
    return *this;
}
ge::AscendString &OpAttrDef::GetName(void) const { return impl_->name; }
bool OpAttrDef::IsRequired(void) { return impl_->required; }

/* ---- OpAICoreConfig ---- */
OpAICoreConfig::OpAICoreConfig() : impl_(std::make_unique<OpAICoreConfigImpl>()) {}
OpAICoreConfig::OpAICoreConfig(const char *) : OpAICoreConfig() {}
OpAICoreConfig::OpAICoreConfig(const OpAICoreConfig &other)
    : impl_(std::make_unique<OpAICoreConfigImpl>(*other.impl_)) {}
OpAICoreConfig::~OpAICoreConfig() = default;
OpAICoreConfig &OpAICoreConfig::operator=(const OpAICoreConfig &other) {
    if (this != &other) {
        *impl_ = *other.impl_;
    }
    return *this;
}
OpParamDef &OpAICoreConfig::Input(const char *name) { return FindOrAdd(impl_->inputs, name); }
OpParamDef &OpAICoreConfig::Output(const char *name) { return FindOrAdd(impl_->outputs, name); }
#define OPSNN_CONFIG_FLAG(Setter)                        \
    OpAICoreConfig &OpAICoreConfig::Setter(bool flag) {  \
        impl_->flags[#Setter] = flag;                    \
        return *this;                                    \
    }
OPSNN_CONFIG_FLAG(DynamicCompileStaticFlag)
OPSNN_CONFIG_FLAG(DynamicFormatFlag)
OPSNN_CONFIG_FLAG(DynamicRankSupportFlag)
OPSNN_CONFIG_FLAG(DynamicShapeSupportFlag)
OPSNN_CONFIG_FLAG(NeedCheckSupportFlag)
OPSNN_CONFIG_FLAG(PrecisionReduceFlag)
#undef OPSNN_CONFIG_FLAG
OpAICoreConfig &OpAICoreConfig::ExtendCfgInfo(const char *key, const char *value) {
    const std::string k = key == nullptr ? "" : key;
    if (impl_->cfg.find(k) == impl_->cfg.end()) {
        impl_->cfg_keys.push_back(k);
    }
    impl_->cfg[k] = value == nullptr ? "" : value;
    return *this;
}

/* ---- OpAICoreDef ---- */
OpAICoreDef::OpAICoreDef() : impl_(std::make_unique<OpAICoreDefImpl>()) {}
OpAICoreDef::OpAICoreDef(const OpAICoreDef &other) : impl_(std::make_unique<OpAICoreDefImpl>(*other.impl_)) {}
OpAICoreDef::~OpAICoreDef() = default;
OpAICoreDef &OpAICoreDef::operator=(const OpAICoreDef &other) {
    if (this != &other) {
        *impl_ = *other.impl_;
    }
    return *this;
}
OpAICoreDef &OpAICoreDef::SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func) {
    impl_->tiling = func;
    return *this;
}
OpAICoreDef &OpAICoreDef::SetCheckSupport(optiling::OP_CHECK_FUNC func) {
    impl_->check_support = func;
    return *this;
}
OpAICoreDef &OpAICoreDef::SetOpSelectFormat(optiling::OP_CHECK_FUNC func) {
    impl_->op_select_format = func;
    return *this;
}
OpAICoreDef &OpAICoreDef::SetOpSupportInfo(optiling::OP_CHECK_FUNC func) {
    impl_->op_support_info = func;
    return *this;
}
OpAICoreDef &OpAICoreDef::SetOpSpecInfo(optiling::OP_CHECK_FUNC func) {
    impl_->op_spec_info = func;
    return *this;
}
OpAICoreDef &OpAICoreDef::SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC func) {
    impl_->param_generalize = func;
    return *this;
}
OpAICoreDef &OpAICoreDef::LaunchWithZeroEleOutputTensors(bool launchFlag) {
    impl_->launch_with_zero_ele_outputs = launchFlag;
    return *this;
}
gert::OpImplRegisterV2::TilingKernelFunc &OpAICoreDef::GetTiling(void) { return impl_->tiling; }
optiling::OP_CHECK_FUNC &OpAICoreDef::GetCheckSupport(void) { return impl_->check_support; }
optiling::OP_CHECK_FUNC &OpAICoreDef::GetOpSelectFormat(void) { return impl_->op_select_format; }
optiling::OP_CHECK_FUNC &OpAICoreDef::GetOpSupportInfo(void) { return impl_->op_support_info; }
optiling::OP_CHECK_FUNC &OpAICoreDef::GetOpSpecInfo(void) { return impl_->op_spec_info; }
optiling::PARAM_GENERALIZE_FUNC &OpAICoreDef::GetParamGeneralize(void) { return impl_->param_generalize; }
OpAICoreDef &OpAICoreDef::AddConfig(const char *soc) {
    OpAICoreConfig config;
    return AddConfig(soc, config);
}
OpAICoreDef &OpAICoreDef::AddConfig(const char *soc, OpAICoreConfig &aicore_config) {
    const std::string name = soc == nullptr ? "" : soc;
    if (impl_->configs.find(name) == impl_->configs.end()) {
        impl_->soc_order.push_back(name);
    }
    impl_->configs.erase(name);
    impl_->configs.emplace(name, aicore_config);
    return *this;
}

/* ---- other engines ---- */
#define OPSNN_ENGINE_DEF(Class)                                                                              \
    Class::Class() : impl_(std::make_unique<OpEngineDefImpl>()) {}                                          \
    Class::Class(const Class &other) : impl_(std::make_unique<OpEngineDefImpl>(*other.impl_)) {}            \
    Class::~Class() = default;                                                                              \
    Class &Class::operator=(const Class &other) {                                                           \
        if (this != &other) {                                                                               \
            *impl_ = *other.impl_;                                                                          \
        }                                                                                                   \
        return *this;                                                                                       \
    }
#define OPSNN_ENGINE_TEXT(Class, Setter)                   \
    Class &Class::Setter(const char *value) {              \
        impl_->cfg[#Setter] = value == nullptr ? "" : value; \
        return *this;                                      \
    }
#define OPSNN_ENGINE_FLAG(Class, Setter)                   \
    Class &Class::Setter(bool flag) {                      \
        impl_->cfg[#Setter] = flag ? "true" : "false";     \
        return *this;                                      \
    }
#define OPSNN_ENGINE_ALL(Class)                                                  \
    OPSNN_ENGINE_DEF(Class)                                                      \
    OPSNN_ENGINE_TEXT(Class, Engine)                                             \
    OPSNN_ENGINE_FLAG(Class, FlagPartial)                                        \
    OPSNN_ENGINE_TEXT(Class, ComputeCost)                                        \
    OPSNN_ENGINE_FLAG(Class, FlagAsync)                                          \
    OPSNN_ENGINE_TEXT(Class, OpKernelLib)                                        \
    OPSNN_ENGINE_TEXT(Class, KernelSo)                                           \
    OPSNN_ENGINE_TEXT(Class, FunctionName)                                       \
    OPSNN_ENGINE_FLAG(Class, UserDefined)                                        \
    Class &Class::ExtendCfgInfo(const char *key, const char *value) {            \
        impl_->cfg[key == nullptr ? "" : key] = value == nullptr ? "" : value;   \
        return *this;                                                            \
    }
OPSNN_ENGINE_ALL(OpAICPUDef)
OPSNN_ENGINE_ALL(OpHostCPUDef)
OPSNN_ENGINE_DEF(OpMC2Def)
#undef OPSNN_ENGINE_ALL
#undef OPSNN_ENGINE_FLAG
#undef OPSNN_ENGINE_TEXT
#undef OPSNN_ENGINE_DEF
OpMC2Def &OpMC2Def::HcclGroup(const char *value) {
    impl_->cfg["HcclGroup"] = value == nullptr ? "" : value;
    return *this;
}
OpMC2Def &OpMC2Def::HcclGroup(std::vector<const char *> value) {
    std::string joined;
    for (const char *v : value) {
        joined += (joined.empty() ? "" : ",") + std::string(v == nullptr ? "" : v);
    }
    impl_->cfg["HcclGroup"] = joined;
    return *this;
}
void OpMC2Def::HcclServerType(enum HcclServerType type, const char *soc) {
    impl_->cfg[std::string("HcclServerType:") + (soc == nullptr ? "" : soc)] = std::to_string(static_cast<int>(type));
}

/* ---- OpDef ---- */
OpDef::OpDef(const char *type) : impl_(std::make_unique<OpDefImpl>()) { impl_->op_type = type == nullptr ? "" : type; }
OpDef::OpDef(const OpDef &other) : impl_(std::make_unique<OpDefImpl>(*other.impl_)) {}
OpDef::~OpDef() = default;
OpDef &OpDef::operator=(const OpDef &other) {
    if (this != &other) {
        *impl_ = *other.impl_;
    }
    return *this;
}
OpParamDef &OpDef::Input(const char *name) { return FindOrAdd(impl_->inputs, name); }
OpParamDef &OpDef::Output(const char *name) { return FindOrAdd(impl_->outputs, name); }
OpAttrDef &OpDef::Attr(const char *name) {
    const std::string key = name == nullptr ? "" : name;
    for (OpAttrDef &a : impl_->attrs) {
        if (std::string(a.GetName().GetString()) == key) {
            return a;
        }
    }
    impl_->attrs.emplace_back(key.c_str());
    return impl_->attrs.back();
}
OpDef &OpDef::Comment(CommentSection section, const char *comment) {
    impl_->comments[section].emplace_back(comment == nullptr ? "" : comment);
    return *this;
}
OpDef &OpDef::SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func) {
    impl_->infer_shape = func;
    return *this;
}
OpDef &OpDef::SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc func) {
    impl_->infer_shape_range = func;
    return *this;
}
OpDef &OpDef::SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func) {
    impl_->infer_datatype = func;
    return *this;
}
gert::OpImplRegisterV2::InferShapeKernelFunc &OpDef::GetInferShape(void) { return impl_->infer_shape; }
gert::OpImplRegisterV2::InferShapeRangeKernelFunc &OpDef::GetInferShapeRange(void) { return impl_->infer_shape_range; }
gert::OpImplRegisterV2::InferDataTypeKernelFunc &OpDef::GetInferDataType(void) { return impl_->infer_datatype; }
OpAICoreDef &OpDef::AICore(void) { return impl_->aicore; }
OpAICPUDef &OpDef::AICPU(void) { return impl_->aicpu; }
OpHostCPUDef &OpDef::HostCPU(void) { return impl_->hostcpu; }
OpMC2Def &OpDef::MC2(void) { return impl_->mc2; }
OpDef &OpDef::FormatMatchMode(FormatCheckOption option) {
    impl_->format_match_mode = option;
    return *this;
}
OpDef &OpDef::EnableFallBack(void) {
    impl_->fallback = true;
    return *this;
}

/* ---- the registry ---- */
struct Registered {
    OpDefCreator creator;
    std::unique_ptr<OpDef> made;  // on first lookup
};
struct Registry {
    std::mutex mutex;
    std::map<std::string, Registered> by_type;
};
Registry &TheRegistry() {
    static Registry registry;  // OP_ADD runs in static initialisers of other objects
    return registry;
}

int OpDefFactory::OpDefRegister(const char *op_type, OpDefCreator creator) {
    Registry &r = TheRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    Registered &entry = r.by_type[op_type == nullptr ? "" : op_type];
    entry.creator = std::move(creator);
    entry.made.reset();
    return 0;
}
}  // namespace ops

namespace opsnn_host {
namespace {
const ops::OpDef *MadeOpDef(const std::string &op_type) {
    ops::Registry &r = ops::TheRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.by_type.find(op_type);
    if (it == r.by_type.end()) {
        return nullptr;
    }
    if (it->second.made == nullptr) {
        it->second.made = std::make_unique<ops::OpDef>(it->second.creator(op_type.c_str()));
    }
    return it->second.made.get();  // entries are never removed: the pointer stays valid
}

/* The OpDef's parameters with those the SoC config redefines replaced (by name). */
std::vector<ops::OpParamDef> Merged(const std::vector<ops::OpParamDef> &base, const std::vector<ops::OpParamDef> &config) {
    std::vector<ops::OpParamDef> out = base;
    for (const ops::OpParamDef &c : config) {
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const ops::OpParamDef &p) { return p.Impl().name == c.Impl().name; });
        if (same != out.end()) {
            *same = c;
        } else {
            out.push_back(c);
        }
    }
    return out;
}

/* A parameter's data types and formats after Follow (the followed parameter's, where its own are empty). */
void ResolveFollow(std::vector<const ops::OpParamDefImpl *> &all, std::vector<ops::OpParamDefImpl> &resolved) {
    for (size_t i = 0; i < all.size(); ++i) {
        resolved.push_back(*all[i]);
    }
    for (ops::OpParamDefImpl &p : resolved) {
        if (p.follow.empty()) {
            continue;
        }
        for (const ops::OpParamDefImpl &q : resolved) {
            if (q.name != p.follow) {
                continue;
            }
            const bool dtype = p.follow_type == ops::FollowType::ALL || p.follow_type == ops::FollowType::DTYPE;
            const bool format = p.follow_type == ops::FollowType::ALL || p.follow_type == ops::FollowType::FORMAT;
            if (dtype && p.dtypes.empty()) {
                p.dtypes = q.dtypes;
                p.dtypes_are_list = q.dtypes_are_list;
            }
            if (format && p.formats.empty()) {
                p.formats = q.formats;
                p.formats_are_list = q.formats_are_list;
            }
        }
    }
}

/* One supported combination: the plain columns' index, and each list parameter's pick. */
struct Combo {
    size_t base = 0;
    std::map<size_t, size_t> dtype_pick;
    std::map<size_t, size_t> format_pick;
};

std::string Expand(const std::string &op_type, const std::vector<ops::OpParamDefImpl> &params, size_t input_count,
                   std::vector<ParamView> &views) {
    auto label = [&](size_t i) {
        return std::string(i < input_count ? "input '" : "output '") + params[i].name + "'";
    };
    size_t columns = 0;
    std::string first;
    for (size_t i = 0; i < params.size(); ++i) {
        const auto &p = params[i];
        const bool plain_dtypes = !p.dtypes_are_list && !p.dtypes.empty();
        if (!plain_dtypes) {
            continue;
        }
        if (columns == 0) {
            columns = p.dtypes.size();
            first = label(i);
        } else if (p.dtypes.size() != columns) {
            return "OpDef " + op_type + ": " + label(i) + " lists " + std::to_string(p.dtypes.size()) +
                   " data types where " + first + " lists " + std::to_string(columns);
        }
    }
    for (size_t i = 0; i < params.size(); ++i) {
        const auto &p = params[i];
        if (!p.formats_are_list && !p.formats.empty() && columns != 0 && p.formats.size() != columns) {
            return "OpDef " + op_type + ": " + label(i) + " lists " + std::to_string(p.formats.size()) +
                   " formats where its data types make " + std::to_string(columns) + " columns";
        }
    }
    std::vector<Combo> combos(columns == 0 ? 1 : columns);
    for (size_t c = 0; c < combos.size(); ++c) {
        combos[c].base = c;
    }
    for (size_t i = 0; i < params.size(); ++i) {
        for (int kind = 0; kind < 2; ++kind) {
            const bool is_list = kind == 0 ? params[i].dtypes_are_list : params[i].formats_are_list;
            const size_t n = kind == 0 ? params[i].dtypes.size() : params[i].formats.size();
            if (!is_list || n == 0) {
                continue;
            }
            std::vector<Combo> grown;
            for (const Combo &c : combos) {
                for (size_t v = 0; v < n; ++v) {
                    Combo next = c;
                    (kind == 0 ? next.dtype_pick : next.format_pick)[i] = v;
                    grown.push_back(next);
                }
            }
            combos = grown;
        }
    }
    views.clear();
    for (size_t i = 0; i < params.size(); ++i) {
        const auto &p = params[i];
        ParamView v;
        v.name = p.name;
        v.param_type = p.param_type;
        v.value_depend = p.value_depend;
        for (const Combo &c : combos) {
            if (!p.dtypes.empty()) {
                v.dtypes.push_back(p.dtypes[p.dtypes_are_list ? c.dtype_pick.at(i) : c.base]);
            }
            if (p.formats.empty()) {
                v.formats.push_back(ge::FORMAT_ND);
            } else {
                v.formats.push_back(p.formats[p.formats_are_list ? c.format_pick.at(i) : c.base]);
            }
        }
        views.push_back(v);
    }
    return "";
}
}  // namespace

std::string ViewOpDef(const std::string &op_type, const std::string &soc_family, OpDefView *view) {
    const ops::OpDef *def = MadeOpDef(op_type);
    if (def == nullptr) {
        return "no OpDef is registered for op type '" + op_type + "' (OP_ADD(" + op_type +
               ") in an op_host *_def.cpp that is linked in)";
    }
    const ops::OpDefImpl &d = def->Impl();
    const ops::OpAICoreDefImpl &core = d.aicore.Impl();
    OpDefView out;
    out.op_type = op_type;
    out.configured_socs = core.soc_order;
    auto config = core.configs.find(soc_family);
    std::vector<ops::OpParamDef> inputs = d.inputs;
    std::vector<ops::OpParamDef> outputs = d.outputs;
    if (config != core.configs.end()) {
        out.soc_configured = true;
        out.config = config->second.Impl().cfg;
        inputs = Merged(d.inputs, config->second.Impl().inputs);
        outputs = Merged(d.outputs, config->second.Impl().outputs);
    }
    std::vector<const ops::OpParamDefImpl *> all;
    for (const auto &p : inputs) {
        all.push_back(&p.Impl());
    }
    for (const auto &p : outputs) {
        all.push_back(&p.Impl());
    }
    std::vector<ops::OpParamDefImpl> resolved;
    ResolveFollow(all, resolved);
    std::vector<ParamView> params;
    const std::string error = Expand(op_type, resolved, inputs.size(), params);
    if (!error.empty()) {
        return error;
    }
    out.inputs.assign(params.begin(), params.begin() + static_cast<std::ptrdiff_t>(inputs.size()));
    out.outputs.assign(params.begin() + static_cast<std::ptrdiff_t>(inputs.size()), params.end());
    for (const ops::OpAttrDef &a : d.attrs) {
        const ops::OpAttrDefImpl &ai = a.Impl();
        out.attrs.push_back({ai.name.GetString(), ai.required, ai.kind, ai.has_default, ai.default_value});
    }
    *view = std::move(out);
    return "";
}

bool HasOpDef(const std::string &op_type) {
    ops::Registry &r = ops::TheRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.by_type.count(op_type) != 0;
}

std::vector<std::string> RegisteredOpDefs() {
    ops::Registry &r = ops::TheRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> names;
    for (const auto &entry : r.by_type) {
        names.push_back(entry.first);
    }
    return names;
}
}  // namespace opsnn_host
