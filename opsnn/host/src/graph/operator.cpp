/* ge::Operator, its factory, ge::GNode (graph/operator.h, operator_factory.h, gnode.h). */
#include <map>
#include <mutex>
#include <variant>

#include "graph/gnode.h"
#include "graph/operator_factory.h"

namespace ge {
namespace {
using AttrHeld = std::variant<int64_t, float, bool, std::string, DataType, Tensor, std::vector<int64_t>,
                              std::vector<float>, std::vector<bool>, std::vector<std::string>, std::vector<DataType>,
                              std::vector<std::vector<int64_t>>>;

/* The name GetAllAttrNamesAndTypes reports for what an attribute holds. */
const char *TypeName(const AttrHeld &value) {
    static const char *const names[] = {"VT_INT",         "VT_FLOAT",       "VT_BOOL",      "VT_STRING",
                                        "VT_DATA_TYPE",   "VT_TENSOR",      "VT_LIST_INT",  "VT_LIST_FLOAT",
                                        "VT_LIST_BOOL",   "VT_LIST_STRING", "VT_LIST_DATA_TYPE", "VT_LIST_LIST_INT"};
    return names[value.index()];
}

/* One input or output slot: its name (a dynamic one's instances are "<name><i>"), description,
 * and for an input the operator that feeds it. */
struct Port {
    std::string name;
    std::string group;  // the IR name (a dynamic input's instances share it)
    TensorDesc desc;
    std::shared_ptr<Operator> source;
    uint32_t source_index = 0;
};
}  // namespace

struct OperatorImpl {
    std::string name;
    std::string type;
    std::vector<Port> inputs;
    std::vector<Port> outputs;
    std::map<std::string, AttrHeld> attrs;
    std::map<std::string, std::string> declared_types;  // REQUIRED_ATTRs not yet set
};

namespace {
Port *FindPort(std::vector<Port> &ports, const std::string &name) {
    for (Port &p : ports) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}
const Port *FindPort(const std::vector<Port> &ports, const std::string &name) {
    for (const Port &p : ports) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}
/* Adds `num` instances "<name><i>" of a dynamic port (after the group's last, or at the end). */
void AddInstances(std::vector<Port> &ports, const std::string &name, uint32_t num) {
    size_t at = ports.size();
    uint32_t existing = 0;
    for (size_t i = 0; i < ports.size(); ++i) {
        if (ports[i].group == name) {
            at = i + 1;
            ++existing;
        }
    }
    for (uint32_t k = 0; k < num; ++k) {
        Port p;
        p.group = name;
        p.name = name + std::to_string(existing + k);
        ports.insert(ports.begin() + static_cast<std::ptrdiff_t>(at + k), p);
    }
}
}  // namespace

Operator::Operator() : impl_(std::make_shared<OperatorImpl>()) {}
Operator::Operator(const char *type) : Operator(type, type) {}
Operator::Operator(const char *name, const char *type) : impl_(std::make_shared<OperatorImpl>()) {
    impl_->name = name == nullptr ? "" : name;
    impl_->type = type == nullptr ? "" : type;
}
Operator::Operator(const AscendString &name, const AscendString &type) : Operator(name.GetString(), type.GetString()) {}
Operator::Operator(const std::string &name, const std::string &type) : Operator(name.c_str(), type.c_str()) {}

bool Operator::IsEmpty() const { return impl_->type.empty(); }
std::string Operator::GetName() const { return impl_->name; }
graphStatus Operator::GetName(AscendString &name) const {
    name = AscendString(impl_->name.c_str());
    return GRAPH_SUCCESS;
}
std::string Operator::GetOpType() const { return impl_->type; }
graphStatus Operator::GetOpType(AscendString &type) const {
    type = AscendString(impl_->type.c_str());
    return GRAPH_SUCCESS;
}
size_t Operator::GetInputsSize() const { return impl_->inputs.size(); }
size_t Operator::GetOutputsSize() const { return impl_->outputs.size(); }

TensorDesc Operator::GetInputDesc(uint32_t index) const {
    return index < impl_->inputs.size() ? impl_->inputs[index].desc : TensorDesc();
}
TensorDesc Operator::GetInputDesc(const std::string &name) const {
    const Port *p = FindPort(impl_->inputs, name);
    return p == nullptr ? TensorDesc() : p->desc;
}
TensorDesc Operator::GetInputDescByName(const char *name) const { return GetInputDesc(std::string(name)); }
TensorDesc Operator::GetOutputDesc(uint32_t index) const {
    return index < impl_->outputs.size() ? impl_->outputs[index].desc : TensorDesc();
}
TensorDesc Operator::GetOutputDesc(const std::string &name) const {
    const Port *p = FindPort(impl_->outputs, name);
    return p == nullptr ? TensorDesc() : p->desc;
}
TensorDesc Operator::GetOutputDescByName(const char *name) const { return GetOutputDesc(std::string(name)); }

graphStatus Operator::UpdateInputDesc(const std::string &name, const TensorDesc &desc) {
    Port *p = FindPort(impl_->inputs, name);
    if (p == nullptr) {
        return GRAPH_FAILED;
    }
    p->desc = desc;
    return GRAPH_SUCCESS;
}
graphStatus Operator::UpdateInputDesc(const char *name, const TensorDesc &desc) {
    return UpdateInputDesc(std::string(name), desc);
}
graphStatus Operator::UpdateInputDesc(uint32_t index, const TensorDesc &desc) {
    if (index >= impl_->inputs.size()) {
        return GRAPH_FAILED;
    }
    impl_->inputs[index].desc = desc;
    return GRAPH_SUCCESS;
}
graphStatus Operator::UpdateOutputDesc(const std::string &name, const TensorDesc &desc) {
    Port *p = FindPort(impl_->outputs, name);
    if (p == nullptr) {
        return GRAPH_FAILED;
    }
    p->desc = desc;
    return GRAPH_SUCCESS;
}
graphStatus Operator::UpdateOutputDesc(const char *name, const TensorDesc &desc) {
    return UpdateOutputDesc(std::string(name), desc);
}
graphStatus Operator::UpdateOutputDesc(uint32_t index, const TensorDesc &desc) {
    if (index >= impl_->outputs.size()) {
        return GRAPH_FAILED;
    }
    impl_->outputs[index].desc = desc;
    return GRAPH_SUCCESS;
}
TensorDesc Operator::GetDynamicInputDesc(const std::string &name, uint32_t index) const {
    return GetInputDesc(name + std::to_string(index));
}
TensorDesc Operator::GetDynamicInputDesc(const char *name, uint32_t index) const {
    return GetDynamicInputDesc(std::string(name), index);
}
graphStatus Operator::UpdateDynamicInputDesc(const std::string &name, uint32_t index, const TensorDesc &desc) {
    return UpdateInputDesc(name + std::to_string(index), desc);
}
graphStatus Operator::UpdateDynamicInputDesc(const char *name, uint32_t index, const TensorDesc &desc) {
    return UpdateDynamicInputDesc(std::string(name), index, desc);
}
TensorDesc Operator::GetDynamicOutputDesc(const std::string &name, uint32_t index) const {
    return GetOutputDesc(name + std::to_string(index));
}
TensorDesc Operator::GetDynamicOutputDesc(const char *name, uint32_t index) const {
    return GetDynamicOutputDesc(std::string(name), index);
}
graphStatus Operator::UpdateDynamicOutputDesc(const std::string &name, uint32_t index, const TensorDesc &desc) {
    return UpdateOutputDesc(name + std::to_string(index), desc);
}
graphStatus Operator::UpdateDynamicOutputDesc(const char *name, uint32_t index, const TensorDesc &desc) {
    return UpdateDynamicOutputDesc(std::string(name), index, desc);
}

Operator &Operator::SetInput(const std::string &name, const Operator &src) { return SetInput(name, src, 0U); }
Operator &Operator::SetInput(const char *name, const Operator &src) { return SetInput(std::string(name), src, 0U); }
Operator &Operator::SetInput(const std::string &name, const Operator &src, const std::string &src_output) {
    uint32_t index = 0;
    for (size_t i = 0; i < src.impl_->outputs.size(); ++i) {
        if (src.impl_->outputs[i].name == src_output) {
            index = static_cast<uint32_t>(i);
        }
    }
    return SetInput(name, src, index);
}
Operator &Operator::SetInput(const char *name, const Operator &src, const char *src_output) {
    return SetInput(std::string(name), src, std::string(src_output == nullptr ? "" : src_output));
}
Operator &Operator::SetInput(const std::string &name, const Operator &src, uint32_t src_index) {
    Port *p = FindPort(impl_->inputs, name);
    if (p != nullptr) {
        p->source = std::make_shared<Operator>(src);
        p->source_index = src_index;
    }
    return *this;
}
Operator &Operator::SetInput(const char *name, const Operator &src, uint32_t src_index) {
    return SetInput(std::string(name), src, src_index);
}
Operator &Operator::SetInput(uint32_t index, const Operator &src, uint32_t src_index) {
    if (index < impl_->inputs.size()) {
        impl_->inputs[index].source = std::make_shared<Operator>(src);
        impl_->inputs[index].source_index = src_index;
    }
    return *this;
}
Operator Operator::GetInputSource(uint32_t index) const {
    if (index < impl_->inputs.size() && impl_->inputs[index].source != nullptr) {
        return *impl_->inputs[index].source;
    }
    return Operator();
}

/* Attributes: each C++ type is stored as the variant alternative it maps to (int32/uint32 as
 * int64, AscendString as std::string); a getter converts back and fails on another type. */
namespace {
template <typename Held, typename T>
graphStatus Read(const std::map<std::string, AttrHeld> &attrs, const std::string &name, T &value) {
    auto it = attrs.find(name);
    if (it == attrs.end()) {
        return GRAPH_FAILED;
    }
    const Held *held = std::get_if<Held>(&it->second);
    if (held == nullptr) {
        return GRAPH_FAILED;
    }
    if constexpr (std::is_same_v<T, AscendString>) {
        value = AscendString(held->c_str());
    } else if constexpr (std::is_same_v<T, std::vector<AscendString>>) {
        value.clear();
        for (const auto &s : *held) {
            value.emplace_back(s.c_str());
        }
    } else if constexpr (std::is_same_v<Held, std::vector<int64_t>> && !std::is_same_v<T, std::vector<int64_t>>) {
        value.assign(held->begin(), held->end());
    } else {
        value = static_cast<T>(*held);
    }
    return GRAPH_SUCCESS;
}
template <typename T>
AttrHeld Hold(const T &value) {
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>) {
        return static_cast<int64_t>(value);
    } else if constexpr (std::is_same_v<T, AscendString>) {
        return std::string(value.GetString());
    } else if constexpr (std::is_same_v<T, std::vector<AscendString>>) {
        std::vector<std::string> texts;
        for (const auto &s : value) {
            texts.emplace_back(s.GetString());
        }
        return texts;
    } else if constexpr (std::is_same_v<T, std::vector<int32_t>> || std::is_same_v<T, std::vector<uint32_t>>) {
        return std::vector<int64_t>(value.begin(), value.end());
    } else {
        return value;
    }
}
template <typename T>
struct HeldAs {
    using type = T;
};
template <> struct HeldAs<int32_t> { using type = int64_t; };
template <> struct HeldAs<uint32_t> { using type = int64_t; };
template <> struct HeldAs<AscendString> { using type = std::string; };
template <> struct HeldAs<std::vector<AscendString>> { using type = std::vector<std::string>; };
template <> struct HeldAs<std::vector<int32_t>> { using type = std::vector<int64_t>; };
template <> struct HeldAs<std::vector<uint32_t>> { using type = std::vector<int64_t>; };
}  // namespace

#define OPSNN_OPERATOR_ATTR(T)                                                          \
    Operator &Operator::SetAttr(const std::string &name, T value) {                     \
        impl_->attrs[name] = Hold(value);                                               \
        impl_->declared_types.erase(name);                                              \
        return *this;                                                                   \
    }                                                                                   \
    Operator &Operator::SetAttr(const char *name, T value) { return SetAttr(std::string(name), value); } \
    graphStatus Operator::GetAttr(const std::string &name, T &value) const {            \
        return Read<HeldAs<T>::type>(impl_->attrs, name, value);                        \
    }                                                                                   \
    graphStatus Operator::GetAttr(const char *name, T &value) const { return GetAttr(std::string(name), value); }
OPSNN_OPERATOR_ATTR(int64_t)
OPSNN_OPERATOR_ATTR(int32_t)
OPSNN_OPERATOR_ATTR(uint32_t)
OPSNN_OPERATOR_ATTR(float)
OPSNN_OPERATOR_ATTR(bool)
OPSNN_OPERATOR_ATTR(std::string)
OPSNN_OPERATOR_ATTR(AscendString)
OPSNN_OPERATOR_ATTR(DataType)
OPSNN_OPERATOR_ATTR(Tensor)
OPSNN_OPERATOR_ATTR(std::vector<int64_t>)
OPSNN_OPERATOR_ATTR(std::vector<int32_t>)
OPSNN_OPERATOR_ATTR(std::vector<uint32_t>)
OPSNN_OPERATOR_ATTR(std::vector<float>)
OPSNN_OPERATOR_ATTR(std::vector<bool>)
OPSNN_OPERATOR_ATTR(std::vector<std::string>)
OPSNN_OPERATOR_ATTR(std::vector<AscendString>)
OPSNN_OPERATOR_ATTR(std::vector<DataType>)
OPSNN_OPERATOR_ATTR(std::vector<std::vector<int64_t>>)
#undef OPSNN_OPERATOR_ATTR
Operator &Operator::SetAttr(const std::string &name, const char *value) {
    return SetAttr(name, std::string(value == nullptr ? "" : value));
}
Operator &Operator::SetAttr(const char *name, const char *value) { return SetAttr(std::string(name), value); }

std::map<std::string, std::string> Operator::GetAllAttrNamesAndTypes() const {
    std::map<std::string, std::string> out = impl_->declared_types;
    for (const auto &entry : impl_->attrs) {
        out[entry.first] = TypeName(entry.second);
    }
    return out;
}
graphStatus Operator::GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const {
    for (const auto &entry : GetAllAttrNamesAndTypes()) {
        attr_name_types[AscendString(entry.first.c_str())] = AscendString(entry.second.c_str());
    }
    return GRAPH_SUCCESS;
}

void Operator::InputRegister(const char *name) {
    Port p;
    p.name = p.group = name;
    impl_->inputs.push_back(p);
}
void Operator::OptionalInputRegister(const char *name) { InputRegister(name); }
void Operator::DynamicInputRegister(const char *name, uint32_t num, bool) { AddInstances(impl_->inputs, name, num); }
void Operator::OutputRegister(const char *name) {
    Port p;
    p.name = p.group = name;
    impl_->outputs.push_back(p);
}
void Operator::DynamicOutputRegister(const char *name, uint32_t num, bool) { AddInstances(impl_->outputs, name, num); }
void Operator::RequiredAttrRegister(const char *name, const char *type_name) {
    if (impl_->attrs.find(name) == impl_->attrs.end()) {
        impl_->declared_types[name] = type_name;
    }
}

/* ---- factory ---- */
namespace {
struct Creators {
    std::mutex mutex;
    std::map<std::string, OpCreatorV2> by_type;
};
Creators &TheCreators() {
    static Creators creators;
    return creators;
}
}  // namespace

OperatorCreatorRegister::OperatorCreatorRegister(const char *operator_type, const OpCreatorV2 &op_creator) {
    Creators &c = TheCreators();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.by_type[operator_type == nullptr ? "" : operator_type] = op_creator;
}
Operator OperatorFactory::CreateOperator(const char *operator_name, const char *operator_type) {
    Creators &c = TheCreators();
    OpCreatorV2 creator;
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        auto it = c.by_type.find(operator_type == nullptr ? "" : operator_type);
        if (it == c.by_type.end()) {
            return Operator();
        }
        creator = it->second;
    }
    return creator(AscendString(operator_name));
}
graphStatus OperatorFactory::GetOpsTypeList(std::vector<AscendString> &all_ops) {
    Creators &c = TheCreators();
    std::lock_guard<std::mutex> lock(c.mutex);
    for (const auto &entry : c.by_type) {
        all_ops.emplace_back(entry.first.c_str());
    }
    return GRAPH_SUCCESS;
}
bool OperatorFactory::IsExistOp(const char *operator_type) {
    Creators &c = TheCreators();
    std::lock_guard<std::mutex> lock(c.mutex);
    return c.by_type.count(operator_type == nullptr ? "" : operator_type) != 0;
}

/* ---- nodes ---- */
graphStatus GNode::GetInputConstData(const int32_t index, Tensor &data) const {
    if (index < 0) {
        return GRAPH_FAILED;
    }
    const Operator source = op_.GetInputSource(static_cast<uint32_t>(index));
    const std::string type = source.GetOpType();
    if (type != "Const" && type != "Constant") {
        return GRAPH_FAILED;
    }
    return source.GetAttr("value", data);
}
}  // namespace ge
