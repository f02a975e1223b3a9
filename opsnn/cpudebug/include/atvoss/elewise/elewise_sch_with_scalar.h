/* opsnn's atvoss: ElementwiseSchWithScalar (elewise_sch_16b.h says how it splits): the DAG's
 * Vars come from the tiling's scalarData, packed in Var order (EleBaseTilingData24B / 32B). */
#ifndef OPSNN_ATVOSS_ELEWISE_SCH_WITH_SCALAR_H_
#define OPSNN_ATVOSS_ELEWISE_SCH_WITH_SCALAR_H_

#include "atvoss/elewise/elewise_sch_16b.h"

namespace Ops {
namespace Base {

template <typename EleBaseTilingDataStruct, uint64_t schMode, class ElemDag>
class ElementwiseSchWithScalar
    : public opsnn_detail::ElementwiseSelfSplit<EleBaseTilingDataStruct, ElemDag, true> {
public:
    __aicore__ inline explicit ElementwiseSchWithScalar(const EleBaseTilingDataStruct *tiling)
        : opsnn_detail::ElementwiseSelfSplit<EleBaseTilingDataStruct, ElemDag, true>(tiling) {}
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_ELEWISE_SCH_WITH_SCALAR_H_
