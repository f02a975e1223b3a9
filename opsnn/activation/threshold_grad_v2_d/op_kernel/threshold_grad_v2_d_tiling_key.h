/* ThresholdGradV2D's tiling key: one template argument, the schedule mode, with one value (0).
 * The host tiling sets GET_TPL_TILING_KEY(0); the kernel is instantiated as
 * threshold_grad_v2_d<0>. */
#ifndef OPSNN_THRESHOLD_GRAD_V2_D_TILING_KEY_H_
#define OPSNN_THRESHOLD_GRAD_V2_D_TILING_KEY_H_

#include "ascendc/host_api/tiling/template_argument.h"

#define THRESHOLD_GRAD_V2D_SCH_MODE_0 0

ASCENDC_TPL_ARGS_DECL(ThresholdGradV2D,
                      ASCENDC_TPL_UINT_DECL(schMode, 1, ASCENDC_TPL_UI_LIST, THRESHOLD_GRAD_V2D_SCH_MODE_0));

ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST,
                                                          THRESHOLD_GRAD_V2D_SCH_MODE_0)));

#endif  // OPSNN_THRESHOLD_GRAD_V2_D_TILING_KEY_H_
