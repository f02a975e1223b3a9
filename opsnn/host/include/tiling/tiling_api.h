/* opsnn host twin: the name CANN gives the AscendC high-level APIs' host tiling header. Operator
 * tiling headers include it beside register/tilingdata_base.h, often for nothing more than the
 * platform; here it brings platform_ascendc.h. The high-level APIs' host tiling functions
 * (GetSoftMaxMaxTmpSize, MatmulApiTiling, ...) are not declared: code that calls one fails to
 * compile naming it. */
#ifndef OPSNN_HOST_TILING_TILING_API_H_
#define OPSNN_HOST_TILING_TILING_API_H_

#include "tiling/platform/platform_ascendc.h"

#endif  // OPSNN_HOST_TILING_TILING_API_H_
