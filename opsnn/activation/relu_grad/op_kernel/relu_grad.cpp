/* ReluGrad's kernel entry (Atlas A2): the tiling from GM, one KernelReluGrad per core. The element
 * type is DTYPE_GRADIENTS, which the build defines per dtype combination of the definition. */
#include "relu_grad.h"
#include "relu_grad_tiling_key.h"

#ifndef DTYPE_GRADIENTS
#define DTYPE_GRADIENTS float
#endif

template <uint32_t schMode>
__global__ __aicore__ void relu_grad(GM_ADDR gradients, GM_ADDR features, GM_ADDR backprops, GM_ADDR workspace,
                                     GM_ADDR tiling) {
    (void)workspace;
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(ReluGradTilingData);
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    opsnn_relu_grad::KernelReluGrad<DTYPE_GRADIENTS> op;
    op.Init(gradients, features, backprops, tilingData, &pipe);
    op.Process();
}
