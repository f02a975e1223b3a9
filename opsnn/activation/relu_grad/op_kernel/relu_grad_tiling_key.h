/* ReluGrad's tiling key: one template argument, the schedule mode, with one value (0). */
#ifndef OPSNN_RELU_GRAD_TILING_KEY_H_
#define OPSNN_RELU_GRAD_TILING_KEY_H_

#include "ascendc/host_api/tiling/template_argument.h"

#define RELU_GRAD_SCH_MODE_0 0

ASCENDC_TPL_ARGS_DECL(ReluGrad, ASCENDC_TPL_UINT_DECL(schMode, 1, ASCENDC_TPL_UI_LIST, RELU_GRAD_SCH_MODE_0));

ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, RELU_GRAD_SCH_MODE_0)));

#endif  // OPSNN_RELU_GRAD_TILING_KEY_H_
