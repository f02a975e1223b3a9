/* ThresholdGradV2D's kernel entry (Atlas A2): the tiling from GM, one KernelThresholdGradV2D per
 * core. The element type is DTYPE_INPUT_GRADIENT, which the build defines per dtype; schMode is
 * the tiling key's template argument (one schedule: 0). */
#include "threshold_grad_v2_d.h"
#include "threshold_grad_v2_d_tiling_key.h"

#ifndef DTYPE_INPUT_GRADIENT
#define DTYPE_INPUT_GRADIENT float
#endif

template <uint32_t schMode>
__global__ __aicore__ void threshold_grad_v2_d(GM_ADDR input_gradient, GM_ADDR input_feature,
                                               GM_ADDR output_backprops, GM_ADDR workspace, GM_ADDR tiling) {
    (void)workspace;
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(ThresholdGradV2DTilingData);
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    opsnn_threshold_grad_v2_d::KernelThresholdGradV2D<DTYPE_INPUT_GRADIENT> op;
    op.Init(input_gradient, input_feature, output_backprops, tilingData, &pipe);
    op.Process();
}
