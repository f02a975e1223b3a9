/* What LaunchKernel reads of an op type's OpDef (register/op_def_registry.h, src/metadef): the
 * parameters' names and DataType columns (one column = one dtype combination the device build
 * compiles a kernel for) and the SoC's AICore config (its opFile). */
#ifndef OPSNN_HOST_SRC_LAUNCH_OP_DEF_FACTS_H_
#define OPSNN_HOST_SRC_LAUNCH_OP_DEF_FACTS_H_

#include <string>
#include <vector>

#include "graph/types.h"

namespace opsnn_host {

struct OpDefFacts {
    std::vector<std::string> input_names;
    std::vector<std::string> output_names;
    std::vector<std::vector<ge::DataType>> input_dtypes;   /* [input][column] */
    std::vector<std::vector<ge::DataType>> output_dtypes;  /* [output][column] */
    std::vector<std::string> configured_socs;              /* AddConfig's SoC names, as written */
    bool soc_configured = false;                           /* AddConfig names the launch's SoC family */
    std::string op_file;                                   /* that config's ExtendCfgInfo("opFile.value") */
};

/* "" with *facts filled, else why not (no OpDef registered for op_type). soc_family: the SoC's
 * AddConfig name (ascend910b, ascend950). The DataType columns are the SoC config's where it
 * redefines a parameter, else the OpDef's. */
std::string DescribeOpDef(const std::string &op_type, const std::string &soc_family, OpDefFacts *facts);

}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_LAUNCH_OP_DEF_FACTS_H_
