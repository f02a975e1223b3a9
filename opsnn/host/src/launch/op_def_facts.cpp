/* DescribeOpDef (op_def_facts.h): provisional until the OpDef registry (register/op_def_registry.h,
 * src/metadef) lands -- it says so instead of pretending. */
#include "launch/op_def_facts.h"

namespace opsnn_host {
std::string DescribeOpDef(const std::string &op_type, const std::string &soc_family, OpDefFacts *facts) {
    (void)soc_family;
    (void)facts;
    return "no OpDef registry in this build of the host twin yet (looking up " + op_type + ")";
}
}  // namespace opsnn_host
