/* What the ops::OpDef classes record (register/op_def.h); op_def_store.h reads it. */
#ifndef OPSNN_HOST_SRC_METADEF_OP_DEF_IMPL_H_
#define OPSNN_HOST_SRC_METADEF_OP_DEF_IMPL_H_

#include <map>
#include <string>
#include <vector>

#include "metadef/attr_buffer.h"
#include "register/op_def.h"

namespace ops {
struct OpParamDefImpl {
    std::string name;
    Option param_type = REQUIRED;
    std::vector<ge::DataType> dtypes;
    bool dtypes_are_list = false;
    std::vector<ge::Format> formats;
    bool formats_are_list = false;
    std::vector<ge::DataType> bin_query_dtypes;
    std::vector<ge::Format> bin_query_formats;
    std::vector<ge::Format> unknown_shape_formats;
    bool value_depend = false;
    Option value_depend_option = IGNORE;
    DependScope depend_scope = DependScope::ALL;
    bool ignore_contiguous = false;
    bool auto_contiguous = false;
    bool scalar = false;
    bool scalar_list = false;
    ge::DataType to_dtype = ge::DT_UNDEFINED;
    std::string to_name;
    uint32_t version = 0;
    std::vector<ScalarVar> init_values;
    bool output_shape_depend_on_compute = false;
    std::string follow;
    FollowType follow_type = FollowType::ALL;
    std::string comment;
};

/* An attribute's declared kind, from the type setter its definition called. */
enum class AttrKind { kUnset, kBool, kFloat, kInt, kString, kListBool, kListFloat, kListInt, kListListInt };

struct OpAttrDefImpl {
    ge::AscendString name;
    bool required = true;
    AttrKind kind = AttrKind::kUnset;
    bool has_default = false;
    opsnn_host::RuntimeAttrValue default_value;
    uint32_t version = 0;
    std::string comment;
};

struct OpAICoreConfigImpl {
    std::vector<OpParamDef> inputs;
    std::vector<OpParamDef> outputs;
    std::map<std::string, bool> flags;
    std::vector<std::string> cfg_keys;  // in the order given
    std::map<std::string, std::string> cfg;
};

struct OpAICoreDefImpl {
    gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
    optiling::OP_CHECK_FUNC check_support = nullptr;
    optiling::OP_CHECK_FUNC op_select_format = nullptr;
    optiling::OP_CHECK_FUNC op_support_info = nullptr;
    optiling::OP_CHECK_FUNC op_spec_info = nullptr;
    optiling::PARAM_GENERALIZE_FUNC param_generalize = nullptr;
    bool launch_with_zero_ele_outputs = false;
    std::vector<std::string> soc_order;  // AddConfig's SoCs, in order
    std::map<std::string, OpAICoreConfig> configs;
};

struct OpEngineDefImpl {
    std::map<std::string, std::string> cfg;
};

struct OpDefImpl {
    std::string op_type;
    std::vector<OpParamDef> inputs;
    std::vector<OpParamDef> outputs;
    std::vector<OpAttrDef> attrs;
    gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
    gert::OpImplRegisterV2::InferShapeRangeKernelFunc infer_shape_range = nullptr;
    gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_datatype = nullptr;
    OpAICoreDef aicore;
    OpAICPUDef aicpu;
    OpHostCPUDef hostcpu;
    OpMC2Def mc2;
    FormatCheckOption format_match_mode = FormatCheckOption::DEFAULT;
    bool fallback = false;
    std::map<CommentSection, std::vector<std::string>> comments;
};
}  // namespace ops

#endif  // OPSNN_HOST_SRC_METADEF_OP_DEF_IMPL_H_
