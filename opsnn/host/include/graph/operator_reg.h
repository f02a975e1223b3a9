/* opsnn host twin: REG_OP -- an IR operator prototype as a class ge::op::<Name> deriving from
 * ge::Operator, declared by a chain:
 *
 *   REG_OP(Swish).INPUT(x, TensorType(...)).OUTPUT(y, ...).ATTR(scale, Float, 1.0).OP_END_FACTORY_REG(Swish)
 *
 * Each link closes one private member function of the class and opens the next (the first is
 * called by the constructors, each calls the next), so constructing the class registers its
 * inputs, outputs and attributes (with their defaults) in declaration order; each link also adds
 * the accessors CANN generates (set_input_x, update_input_desc_x, get_attr_scale, ...). The
 * tensor types an input accepts are not recorded (nothing here checks them). */
#ifndef OPSNN_HOST_GRAPH_OPERATOR_REG_H_
#define OPSNN_HOST_GRAPH_OPERATOR_REG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/operator.h"
#include "graph/operator_factory.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
/* The object each link's `.` applies to. */
class OpReg {
public:
    OpReg &N() { return *this; }
};

/* ATTR's type names: the C++ type of the value and the name GetAllAttrNamesAndTypes reports. */
namespace opsnn_reg {
#define OPSNN_REG_ATTR_TYPE(Tag, CppType, Name) \
    struct Attr_##Tag {                         \
        using type = CppType;                   \
        static constexpr const char *name = Name; \
    };
OPSNN_REG_ATTR_TYPE(Int, int64_t, "VT_INT")
OPSNN_REG_ATTR_TYPE(Float, float, "VT_FLOAT")
OPSNN_REG_ATTR_TYPE(Bool, bool, "VT_BOOL")
OPSNN_REG_ATTR_TYPE(String, std::string, "VT_STRING")
OPSNN_REG_ATTR_TYPE(AscendString, std::string, "VT_STRING")
OPSNN_REG_ATTR_TYPE(Type, ge::DataType, "VT_DATA_TYPE")
OPSNN_REG_ATTR_TYPE(Tensor, ge::Tensor, "VT_TENSOR")
OPSNN_REG_ATTR_TYPE(ListInt, std::vector<int64_t>, "VT_LIST_INT")
OPSNN_REG_ATTR_TYPE(ListFloat, std::vector<float>, "VT_LIST_FLOAT")
OPSNN_REG_ATTR_TYPE(ListBool, std::vector<bool>, "VT_LIST_BOOL")
OPSNN_REG_ATTR_TYPE(ListString, std::vector<std::string>, "VT_LIST_STRING")
OPSNN_REG_ATTR_TYPE(ListAscendString, std::vector<std::string>, "VT_LIST_STRING")
OPSNN_REG_ATTR_TYPE(ListType, std::vector<ge::DataType>, "VT_LIST_DATA_TYPE")
OPSNN_REG_ATTR_TYPE(ListListInt, std::vector<std::vector<int64_t>>, "VT_LIST_LIST_INT")
#undef OPSNN_REG_ATTR_TYPE
}  // namespace opsnn_reg
}  // namespace ge

#define OPSNN_REG_PASTE_(a, b) a##b
#define OPSNN_REG_PASTE(a, b) OPSNN_REG_PASTE_(a, b)

#define REG_OP(x)                                                                                      \
    namespace op {                                                                                     \
    class x : public Operator {                                                                        \
        typedef x _THIS_TYPE;                                                                          \
                                                                                                       \
    public:                                                                                            \
        explicit x(const char *name) : Operator(name, #x) { OpsnnDeclare_(); }                         \
        explicit x(const AscendString &name) : Operator(name, AscendString(#x)) { OpsnnDeclare_(); }   \
        explicit x(const std::string &name) : Operator(name, std::string(#x)) { OpsnnDeclare_(); }     \
        x() : Operator(#x, #x) { OpsnnDeclare_(); }                                                    \
                                                                                                       \
    private:                                                                                           \
        void OpsnnDeclare_() {                                                                         \
            OpReg()

#define OPSNN_REG_INPUT_ACCESSORS(n)                                                                   \
public:                                                                                                \
    static const std::string name_in_##n() { return #n; }                                              \
    _THIS_TYPE &set_input_##n(const Operator &v) {                                                     \
        Operator::SetInput(#n, v);                                                                     \
        return *this;                                                                                  \
    }                                                                                                  \
    _THIS_TYPE &set_input_##n(const Operator &v, const char *src_name) {                               \
        Operator::SetInput(#n, v, src_name);                                                           \
        return *this;                                                                                  \
    }                                                                                                  \
    _THIS_TYPE &set_input_##n(const Operator &v, uint32_t index) {                                     \
        Operator::SetInput(#n, v, index);                                                              \
        return *this;                                                                                  \
    }                                                                                                  \
    TensorDesc get_input_desc_##n() const { return Operator::GetInputDescByName(#n); }                 \
    graphStatus update_input_desc_##n(const TensorDesc &desc) { return Operator::UpdateInputDesc(#n, desc); }

#define INPUT(n, t)                  \
    N();                             \
    OpsnnIn_##n();                   \
    }                                \
    OPSNN_REG_INPUT_ACCESSORS(n)     \
                                     \
private:                             \
    void OpsnnIn_##n() {             \
        Operator::InputRegister(#n); \
        OpReg()

#define OPTIONAL_INPUT(n, t)                 \
    N();                                     \
    OpsnnIn_##n();                           \
    }                                        \
    OPSNN_REG_INPUT_ACCESSORS(n)             \
                                             \
private:                                     \
    void OpsnnIn_##n() {                     \
        Operator::OptionalInputRegister(#n); \
        OpReg()

#define DYNAMIC_INPUT(n, t)                                                                            \
    N();                                                                                               \
    OpsnnIn_##n();                                                                                     \
    }                                                                                                  \
                                                                                                       \
public:                                                                                                \
    _THIS_TYPE &create_dynamic_input_##n(uint32_t num, bool is_push_back = true) {                     \
        Operator::DynamicInputRegister(#n, num, is_push_back);                                         \
        return *this;                                                                                  \
    }                                                                                                  \
    TensorDesc get_dynamic_input_desc_##n(uint32_t index) const {                                      \
        return Operator::GetDynamicInputDesc(#n, index);                                               \
    }                                                                                                  \
    graphStatus update_dynamic_input_desc_##n(uint32_t index, const TensorDesc &desc) {                \
        return Operator::UpdateDynamicInputDesc(#n, index, desc);                                      \
    }                                                                                                  \
    _THIS_TYPE &set_dynamic_input_##n(uint32_t dst_index, const Operator &v) {                         \
        Operator::SetInput((std::string(#n) + std::to_string(dst_index)).c_str(), v);                 \
        return *this;                                                                                  \
    }                                                                                                  \
                                                                                                       \
private:                                                                                               \
    void OpsnnIn_##n() {                                                                               \
        Operator::DynamicInputRegister(#n, 0);                                                         \
        OpReg()

#define OUTPUT(n, t)                                                                                   \
    N();                                                                                               \
    OpsnnOut_##n();                                                                                    \
    }                                                                                                  \
                                                                                                       \
public:                                                                                                \
    static const std::string name_out_##n() { return #n; }                                            \
    TensorDesc get_output_desc_##n() const { return Operator::GetOutputDescByName(#n); }               \
    graphStatus update_output_desc_##n(const TensorDesc &desc) { return Operator::UpdateOutputDesc(#n, desc); } \
                                                                                                       \
private:                                                                                               \
    void OpsnnOut_##n() {                                                                              \
        Operator::OutputRegister(#n);                                                                  \
        OpReg()

#define DYNAMIC_OUTPUT(n, t)                                                                           \
    N();                                                                                               \
    OpsnnOut_##n();                                                                                    \
    }                                                                                                  \
                                                                                                       \
public:                                                                                                \
    _THIS_TYPE &create_dynamic_output_##n(uint32_t num, bool is_push_back = true) {                    \
        Operator::DynamicOutputRegister(#n, num, is_push_back);                                        \
        return *this;                                                                                  \
    }                                                                                                  \
    TensorDesc get_dynamic_output_desc_##n(uint32_t index) const {                                     \
        return Operator::GetDynamicOutputDesc(#n, index);                                              \
    }                                                                                                  \
    graphStatus update_dynamic_output_desc_##n(uint32_t index, const TensorDesc &desc) {               \
        return Operator::UpdateDynamicOutputDesc(#n, index, desc);                                     \
    }                                                                                                  \
                                                                                                       \
private:                                                                                               \
    void OpsnnOut_##n() {                                                                              \
        Operator::DynamicOutputRegister(#n, 0);                                                        \
        OpReg()

#define OPSNN_REG_ATTR_ACCESSORS(n, T)                                                                 \
public:                                                                                                \
    static const std::string name_attr_##n() { return #n; }                                            \
    ge::opsnn_reg::Attr_##T::type get_attr_##n() const {                                               \
        ge::opsnn_reg::Attr_##T::type value{};                                                         \
        (void)Operator::GetAttr(#n, value);                                                            \
        return value;                                                                                  \
    }                                                                                                  \
    _THIS_TYPE &set_attr_##n(const ge::opsnn_reg::Attr_##T::type &value) {                             \
        Operator::SetAttr(#n, value);                                                                  \
        return *this;                                                                                  \
    }

#define ATTR(n, T, ...)                                                        \
    N();                                                                       \
    OpsnnAttr_##n();                                                           \
    }                                                                          \
    OPSNN_REG_ATTR_ACCESSORS(n, T)                                             \
                                                                               \
private:                                                                       \
    void OpsnnAttr_##n() {                                                     \
        Operator::SetAttr(#n, ge::opsnn_reg::Attr_##T::type(__VA_ARGS__));     \
        OpReg()

#define REQUIRED_ATTR(n, T)                                                        \
    N();                                                                           \
    OpsnnAttr_##n();                                                               \
    }                                                                              \
    OPSNN_REG_ATTR_ACCESSORS(n, T)                                                 \
                                                                                   \
private:                                                                           \
    void OpsnnAttr_##n() {                                                         \
        Operator::RequiredAttrRegister(#n, ge::opsnn_reg::Attr_##T::name);         \
        OpReg()

/* Subgraph and data-type declarations: accepted, not recorded. */
#define OPSNN_REG_IGNORED(kind, n) \
    N();                           \
    Opsnn##kind##_##n();           \
    }                              \
                                   \
private:                           \
    void Opsnn##kind##_##n() {     \
        OpReg()
#define GRAPH(n) OPSNN_REG_IGNORED(Graph, n)
#define DYNAMIC_GRAPH(n) OPSNN_REG_IGNORED(DynGraph, n)
#define DATATYPE(n, ...) OPSNN_REG_IGNORED(Dtype, n)

#define OP_END_FACTORY_REG(x)                                                                             \
    N();                                                                                                  \
    }                                                                                                     \
    }                                                                                                     \
    ;                                                                                                     \
    static const OperatorCreatorRegister OPSNN_REG_PASTE(g_opsnn_op_creator_, __COUNTER__)(               \
        #x, [](const AscendString &name) -> Operator { return x(name); });                                \
    }

#endif  // OPSNN_HOST_GRAPH_OPERATOR_REG_H_
