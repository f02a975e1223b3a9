/* The registered OpDefs as the launcher reads them: per op type and SoC config, each parameter's
 * dtype/format columns (DataTypeList/FormatList and Follow resolved), the attributes with their
 * declared kinds and defaults, the config's ExtendCfgInfo. */
#ifndef OPSNN_HOST_SRC_METADEF_OP_DEF_STORE_H_
#define OPSNN_HOST_SRC_METADEF_OP_DEF_STORE_H_

#include <map>
#include <string>
#include <vector>

#include "metadef/op_def_impl.h"

namespace opsnn_host {
struct ParamView {
    std::string name;
    ops::Option param_type = ops::REQUIRED;  /* REQUIRED, OPTIONAL, DYNAMIC */
    std::vector<ge::DataType> dtypes;        /* one per column */
    std::vector<ge::Format> formats;         /* one per column (ND where the definition gave none) */
    bool value_depend = false;
};

struct AttrView {
    std::string name;
    bool required = true;
    ops::AttrKind kind = ops::AttrKind::kUnset;
    bool has_default = false;
    RuntimeAttrValue default_value;
};

struct OpDefView {
    std::string op_type;
    std::vector<ParamView> inputs;
    std::vector<ParamView> outputs;
    std::vector<AttrView> attrs;
    std::vector<std::string> configured_socs;   /* AddConfig's names, in order */
    bool soc_configured = false;                /* the SoC asked for has a config */
    std::map<std::string, std::string> config;  /* that config's ExtendCfgInfo */
};

/* "" with *view filled for op_type as configured for soc_family (ascend910b, ascend950: the
 * config's parameters replace the OpDef's), else why not. A definition whose columns disagree
 * in length is an error naming the parameters. */
std::string ViewOpDef(const std::string &op_type, const std::string &soc_family, OpDefView *view);
/* Whether OP_ADD registered op_type. */
bool HasOpDef(const std::string &op_type);
/* Every registered op type. */
std::vector<std::string> RegisteredOpDefs();
}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_METADEF_OP_DEF_STORE_H_
