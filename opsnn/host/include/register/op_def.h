/* opsnn host twin: ops::OpDef -- an operator's definition as its *_def.cpp writes it: inputs and
 * outputs (parameter type, the DataType/Format columns: column i of every parameter together is
 * one supported combination), attributes (type, required or default), per-SoC AI Core configs
 * (AddConfig, ExtendCfgInfo such as "opFile.value"), and the functions it names. OP_ADD
 * registers the definition by its class name; opsnn reads it back when it launches the op
 * (src/metadef/op_def_store.h). */
#ifndef OPSNN_HOST_REGISTER_OP_DEF_H_
#define OPSNN_HOST_REGISTER_OP_DEF_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"

namespace ge {
class Operator;
}  // namespace ge

namespace optiling {
#define FUNC_CHECK_SUPPORTED "check_supported"
#define FUNC_OP_SELECT_FORMAT "op_select_format"
#define FUNC_GET_OP_SUPPORT_INFO "get_op_support_info"
#define FUNC_GET_SPECIFIC_INFO "get_op_specific_info"
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator &op, ge::AscendString &result);
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator &op, const ge::AscendString &generalize_config,
                                                  ge::AscendString &generalized_op_params);
/* Graph-compilation check functions: accepted, not modelled (opsnn runs no graph compiler). */
class OpCheckFuncHelper {
public:
    OpCheckFuncHelper(const ge::AscendString &check_type, const ge::AscendString &op_type, OP_CHECK_FUNC func);
    OpCheckFuncHelper(const ge::AscendString &op_type, PARAM_GENERALIZE_FUNC func);
};
}  // namespace optiling

namespace ops {
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT = 1, MAX };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class AttrDataType {
    ATTR_DT_BOOL = 0, ATTR_DT_FLOAT = 1, ATTR_DT_INT = 2, ATTR_DT_STR = 3, ATTR_DT_LIST_BOOL = 4,
    ATTR_DT_LIST_FLOAT = 5, ATTR_DT_LIST_INT = 6, ATTR_DT_LIST_LIST_INT = 7, ATTR_DT_MAX
};
enum class InitValueType : uint32_t { INIT_VALUE_UINT64_T = 0, INIT_VALUE_DEFAULT = static_cast<uint32_t>(-1) };
enum class CommentSection : uint32_t { CATEGORY = 0, BRIEF, CONSTRAINTS, RESTRICTIONS, SEE, THIRDPARTYFWKCOMPAT, SECTION_MAX };
enum class ScalarType : uint32_t {
    UINT64 = 0, INT64 = 1, UINT32 = 2, INT32 = 3, UINT16 = 4, INT16 = 5, UINT8 = 6, INT8 = 7, FLOAT32 = 8,
    FLOAT16 = 9, INVALID_DTYPE = static_cast<uint32_t>(-1)
};
enum class HcclServerType : uint32_t { AICPU = 0, AICORE = 1, CCU = 2, MAX };

union ScalarNum {
    uint64_t value_u64;
    int64_t value_i64;
    float value_f32;
    ScalarNum() : value_u64(0) {}
    explicit ScalarNum(uint64_t value) : value_u64(value) {}
    explicit ScalarNum(int64_t value) : value_i64(value) {}
    explicit ScalarNum(float value) : value_f32(value) {}
};
using InitValueNum = ScalarNum;

/* A typed initial value: stored as float for the float types, as an integer otherwise. */
struct ScalarVar {
    ScalarType scalar_type;
    ScalarNum scalar_num;
    ScalarVar() : scalar_type(ScalarType::INVALID_DTYPE) {}
    ScalarVar(ScalarType type, uint64_t num) : ScalarVar(type, static_cast<double>(num), num) {}
    ScalarVar(ScalarType type, int64_t num) : ScalarVar(type, static_cast<double>(num), num) {}
    ScalarVar(ScalarType type, int num) : ScalarVar(type, static_cast<int64_t>(num)) {}
    ScalarVar(ScalarType type, unsigned int num) : ScalarVar(type, static_cast<uint64_t>(num)) {}
    ScalarVar(ScalarType type, float num) : ScalarVar(type, static_cast<double>(num)) {}
    ScalarVar(ScalarType type, double num) : ScalarVar(type, num, static_cast<int64_t>(num)) {}
    bool operator==(const ScalarVar &other) const {
        return scalar_type == other.scalar_type && scalar_num.value_u64 == other.scalar_num.value_u64;
    }

private:
    template <typename I>
    ScalarVar(ScalarType type, double as_real, I as_integer) : scalar_type(type) {
        if (type == ScalarType::FLOAT32 || type == ScalarType::FLOAT16) {
            scalar_num = ScalarNum(static_cast<float>(as_real));
        } else {
            scalar_num = ScalarNum(static_cast<int64_t>(as_integer));
        }
    }
};

enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

struct OpParamDefImpl;
class OpParamDef {
public:
    explicit OpParamDef(const char *name);
    OpParamDef(const OpParamDef &def);
    ~OpParamDef();
    OpParamDef &operator=(const OpParamDef &def);
    OpParamDef &ParamType(Option param_type);
    OpParamDef &DataType(std::vector<ge::DataType> types);
    /* Any of these types, independently of the other parameters' columns. */
    OpParamDef &DataTypeList(std::vector<ge::DataType> types);
    OpParamDef &Format(std::vector<ge::Format> formats);
    OpParamDef &FormatList(std::vector<ge::Format> formats);
    OpParamDef &DataTypeForBinQuery(std::vector<ge::DataType> types);
    OpParamDef &FormatForBinQuery(std::vector<ge::Format> formats);
    OpParamDef &UnknownShapeFormat(std::vector<ge::Format> formats);
    OpParamDef &ValueDepend(Option value_depend);
    OpParamDef &ValueDepend(Option value_depend, DependScope scope);
    OpParamDef &IgnoreContiguous(void);
    OpParamDef &AutoContiguous();
    OpParamDef &Scalar();
    OpParamDef &ScalarList();
    OpParamDef &To(const ge::DataType type);
    OpParamDef &To(const char *name);
    OpParamDef &Version(uint32_t version);
    OpParamDef &InitValue(uint64_t value);
    OpParamDef &InitValue(const ScalarVar &value);
    OpParamDef &InitValue(const std::vector<ScalarVar> &value);
    OpParamDef &OutputShapeDependOnCompute();
    /* Data types, formats (and shape) as another parameter's. */
    OpParamDef &Follow(const char *paramName);
    OpParamDef &Follow(const char *paramName, FollowType ftype);
    OpParamDef &Comment(const char *comment);

    const OpParamDefImpl &Impl() const { return *impl_; }

private:
    std::unique_ptr<OpParamDefImpl> impl_;
};

struct OpAttrDefImpl;
class OpAttrDef {
public:
    explicit OpAttrDef(const char *name);
    OpAttrDef(const OpAttrDef &attr_def);
    ~OpAttrDef();
    OpAttrDef &operator=(const OpAttrDef &attr_def);
    OpAttrDef &AttrType(Option attr_type);
    OpAttrDef &Bool(void);
    OpAttrDef &Bool(bool value);
    OpAttrDef &Float(void);
    OpAttrDef &Float(float value);
    OpAttrDef &Int(void);
    OpAttrDef &Int(int64_t value);
    OpAttrDef &String(void);
    OpAttrDef &String(const char *value);
    OpAttrDef &ListBool(void);
    OpAttrDef &ListBool(std::vector<bool> value);
    OpAttrDef &ListFloat(void);
    OpAttrDef &ListFloat(std::vector<float> value);
    OpAttrDef &ListInt(void);
    OpAttrDef &ListInt(std::vector<int64_t> value);
    OpAttrDef &ListListInt(void);
    OpAttrDef &ListListInt(std::vector<std::vector<int64_t>> value);
    OpAttrDef &Version(uint32_t version);
    OpAttrDef &Comment(const char *comment);
    ge::AscendString &GetName(void) const;
    bool IsRequired(void);

    const OpAttrDefImpl &Impl() const { return *impl_; }

private:
    std::unique_ptr<OpAttrDefImpl> impl_;
};

struct OpAICoreConfigImpl;
class OpAICoreConfig {
public:
    OpAICoreConfig();
    OpAICoreConfig(const char *soc);
    OpAICoreConfig(const OpAICoreConfig &aicore_config);
    ~OpAICoreConfig();
    OpAICoreConfig &operator=(const OpAICoreConfig &aicore_config);
    /* This SoC's own definition of a parameter (replaces the OpDef's for this SoC). */
    OpParamDef &Input(const char *name);
    OpParamDef &Output(const char *name);
    OpAICoreConfig &DynamicCompileStaticFlag(bool flag);
    OpAICoreConfig &DynamicFormatFlag(bool flag);
    OpAICoreConfig &DynamicRankSupportFlag(bool flag);
    OpAICoreConfig &DynamicShapeSupportFlag(bool flag);
    OpAICoreConfig &NeedCheckSupportFlag(bool flag);
    OpAICoreConfig &PrecisionReduceFlag(bool flag);
    OpAICoreConfig &ExtendCfgInfo(const char *key, const char *value);

    const OpAICoreConfigImpl &Impl() const { return *impl_; }

private:
    std::unique_ptr<OpAICoreConfigImpl> impl_;
};

struct OpAICoreDefImpl;
class OpAICoreDef {
public:
    OpAICoreDef();
    OpAICoreDef(const OpAICoreDef &aicore_def);
    ~OpAICoreDef();
    OpAICoreDef &operator=(const OpAICoreDef &aicore_def);
    OpAICoreDef &SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func);
    OpAICoreDef &SetCheckSupport(optiling::OP_CHECK_FUNC func);
    OpAICoreDef &SetOpSelectFormat(optiling::OP_CHECK_FUNC func);
    OpAICoreDef &SetOpSupportInfo(optiling::OP_CHECK_FUNC func);
    OpAICoreDef &SetOpSpecInfo(optiling::OP_CHECK_FUNC func);
    OpAICoreDef &SetParamGeneralize(optiling::PARAM_GENERALIZE_FUNC func);
    OpAICoreDef &LaunchWithZeroEleOutputTensors(bool launchFlag);
    gert::OpImplRegisterV2::TilingKernelFunc &GetTiling(void);
    optiling::OP_CHECK_FUNC &GetCheckSupport(void);
    optiling::OP_CHECK_FUNC &GetOpSelectFormat(void);
    optiling::OP_CHECK_FUNC &GetOpSupportInfo(void);
    optiling::OP_CHECK_FUNC &GetOpSpecInfo(void);
    optiling::PARAM_GENERALIZE_FUNC &GetParamGeneralize(void);
    /* soc: a compute unit as CMake names it (ascend910b, ascend950). */
    OpAICoreDef &AddConfig(const char *soc);
    OpAICoreDef &AddConfig(const char *soc, OpAICoreConfig &aicore_config);

    const OpAICoreDefImpl &Impl() const { return *impl_; }

private:
    std::unique_ptr<OpAICoreDefImpl> impl_;
};

/* Other engines' definitions: recorded, not modelled (opsnn runs AI Core kernels only). */
struct OpEngineDefImpl;
class OpAICPUDef {
public:
    OpAICPUDef();
    OpAICPUDef(const OpAICPUDef &other);
    ~OpAICPUDef();
    OpAICPUDef &operator=(const OpAICPUDef &other);
    OpAICPUDef &Engine(const char *value);
    OpAICPUDef &FlagPartial(bool flag);
    OpAICPUDef &ComputeCost(const char *value);
    OpAICPUDef &FlagAsync(bool flag);
    OpAICPUDef &OpKernelLib(const char *value);
    OpAICPUDef &KernelSo(const char *value);
    OpAICPUDef &FunctionName(const char *value);
    OpAICPUDef &UserDefined(bool flag);
    OpAICPUDef &ExtendCfgInfo(const char *key, const char *value);

private:
    std::unique_ptr<OpEngineDefImpl> impl_;
};
class OpHostCPUDef {
public:
    OpHostCPUDef();
    OpHostCPUDef(const OpHostCPUDef &other);
    ~OpHostCPUDef();
    OpHostCPUDef &operator=(const OpHostCPUDef &other);
    OpHostCPUDef &Engine(const char *value);
    OpHostCPUDef &FlagPartial(bool flag);
    OpHostCPUDef &ComputeCost(const char *value);
    OpHostCPUDef &FlagAsync(bool flag);
    OpHostCPUDef &OpKernelLib(const char *value);
    OpHostCPUDef &KernelSo(const char *value);
    OpHostCPUDef &FunctionName(const char *value);
    OpHostCPUDef &UserDefined(bool flag);
    OpHostCPUDef &ExtendCfgInfo(const char *key, const char *value);

private:
    std::unique_ptr<OpEngineDefImpl> impl_;
};
class OpMC2Def {
public:
    OpMC2Def();
    OpMC2Def(const OpMC2Def &other);
    ~OpMC2Def();
    OpMC2Def &operator=(const OpMC2Def &other);
    OpMC2Def &HcclGroup(const char *value);
    OpMC2Def &HcclGroup(std::vector<const char *> value);
    void HcclServerType(enum HcclServerType type, const char *soc = nullptr);

private:
    std::unique_ptr<OpEngineDefImpl> impl_;
};

struct OpDefImpl;
class OpDef {
public:
    explicit OpDef(const char *type);
    OpDef(const OpDef &op_def);
    ~OpDef();
    OpDef &operator=(const OpDef &op_def);
    /* The named input (created at the end of the list on first use). */
    OpParamDef &Input(const char *name);
    OpParamDef &Output(const char *name);
    OpAttrDef &Attr(const char *name);
    OpDef &Comment(CommentSection section, const char *comment);
    OpDef &SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func);
    OpDef &SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc func);
    OpDef &SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func);
    gert::OpImplRegisterV2::InferShapeKernelFunc &GetInferShape(void);
    gert::OpImplRegisterV2::InferShapeRangeKernelFunc &GetInferShapeRange(void);
    gert::OpImplRegisterV2::InferDataTypeKernelFunc &GetInferDataType(void);
    OpAICoreDef &AICore(void);
    OpAICPUDef &AICPU(void);
    OpHostCPUDef &HostCPU(void);
    OpMC2Def &MC2(void);
    OpDef &FormatMatchMode(FormatCheckOption option);
    OpDef &EnableFallBack(void);

    const OpDefImpl &Impl() const { return *impl_; }

private:
    std::unique_ptr<OpDefImpl> impl_;
};
}  // namespace ops

#endif  // OPSNN_HOST_REGISTER_OP_DEF_H_
