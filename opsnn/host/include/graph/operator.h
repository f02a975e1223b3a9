/* opsnn host twin: ge::Operator -- a graph node as graph-mode operator code and its UTs use it:
 * a type and name, named inputs (a dynamic input is several, "x0", "x1", ...) and outputs with
 * tensor descriptions, typed attributes (GetAllAttrNamesAndTypes names their types "VT_INT",
 * "VT_FLOAT", ...), and the operators feeding its inputs (SetInput), so a graph can read a
 * constant input's value. Copies share one node, as CANN's do. */
#ifndef OPSNN_HOST_GRAPH_OPERATOR_H_
#define OPSNN_HOST_GRAPH_OPERATOR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
struct OperatorImpl;

class Operator {
public:
    Operator();
    explicit Operator(const char *type);
    Operator(const char *name, const char *type);
    Operator(const AscendString &name, const AscendString &type);
    Operator(const std::string &name, const std::string &type);
    virtual ~Operator() = default;

    bool IsEmpty() const;
    std::string GetName() const;
    graphStatus GetName(AscendString &name) const;
    std::string GetOpType() const;
    graphStatus GetOpType(AscendString &type) const;

    /* Tensor counts (each instance of a dynamic input counts). */
    size_t GetInputsSize() const;
    size_t GetOutputsSize() const;
    /* An empty description past the last input/output or for an unknown name. */
    TensorDesc GetInputDesc(uint32_t index) const;
    TensorDesc GetInputDesc(const std::string &name) const;
    TensorDesc GetInputDescByName(const char *name) const;
    TensorDesc GetOutputDesc(uint32_t index) const;
    TensorDesc GetOutputDesc(const std::string &name) const;
    TensorDesc GetOutputDescByName(const char *name) const;
    /* GRAPH_FAILED for an unknown name or index. */
    graphStatus UpdateInputDesc(const std::string &name, const TensorDesc &desc);
    graphStatus UpdateInputDesc(const char *name, const TensorDesc &desc);
    graphStatus UpdateInputDesc(uint32_t index, const TensorDesc &desc);
    graphStatus UpdateOutputDesc(const std::string &name, const TensorDesc &desc);
    graphStatus UpdateOutputDesc(const char *name, const TensorDesc &desc);
    graphStatus UpdateOutputDesc(uint32_t index, const TensorDesc &desc);
    TensorDesc GetDynamicInputDesc(const std::string &name, uint32_t index) const;
    TensorDesc GetDynamicInputDesc(const char *name, uint32_t index) const;
    graphStatus UpdateDynamicInputDesc(const std::string &name, uint32_t index, const TensorDesc &desc);
    graphStatus UpdateDynamicInputDesc(const char *name, uint32_t index, const TensorDesc &desc);
    TensorDesc GetDynamicOutputDesc(const std::string &name, uint32_t index) const;
    TensorDesc GetDynamicOutputDesc(const char *name, uint32_t index) const;
    graphStatus UpdateDynamicOutputDesc(const std::string &name, uint32_t index, const TensorDesc &desc);
    graphStatus UpdateDynamicOutputDesc(const char *name, uint32_t index, const TensorDesc &desc);

    /* Input `name` is fed by `src` (its first output, or the named / indexed one). */
    Operator &SetInput(const std::string &name, const Operator &src);
    Operator &SetInput(const char *name, const Operator &src);
    Operator &SetInput(const std::string &name, const Operator &src, const std::string &src_output);
    Operator &SetInput(const char *name, const Operator &src, const char *src_output);
    Operator &SetInput(const std::string &name, const Operator &src, uint32_t src_index);
    Operator &SetInput(const char *name, const Operator &src, uint32_t src_index);
    Operator &SetInput(uint32_t index, const Operator &src, uint32_t src_index);
    /* The operator feeding input `index` (an empty one where none does). */
    Operator GetInputSource(uint32_t index) const;

#define OPSNN_OPERATOR_ATTR(T)                                  \
    Operator &SetAttr(const std::string &name, T value);        \
    Operator &SetAttr(const char *name, T value);               \
    graphStatus GetAttr(const std::string &name, T &value) const; \
    graphStatus GetAttr(const char *name, T &value) const;
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
    Operator &SetAttr(const std::string &name, const char *value);
    Operator &SetAttr(const char *name, const char *value);
    /* name -> "VT_INT", "VT_FLOAT", "VT_BOOL", "VT_STRING", "VT_LIST_INT", ... (declared attributes too). */
    std::map<std::string, std::string> GetAllAttrNamesAndTypes() const;
    graphStatus GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const;

    /* What REG_OP's generated constructor declares. */
    void InputRegister(const char *name);
    void OptionalInputRegister(const char *name);
    void DynamicInputRegister(const char *name, uint32_t num, bool is_push_back = true);
    void OutputRegister(const char *name);
    void DynamicOutputRegister(const char *name, uint32_t num, bool is_push_back = true);
    /* A declared attribute with no value yet (REQUIRED_ATTR): its type name only. */
    void RequiredAttrRegister(const char *name, const char *type_name);

private:
    std::shared_ptr<OperatorImpl> impl_;
};
}  // namespace ge

#endif  // OPSNN_HOST_GRAPH_OPERATOR_H_
