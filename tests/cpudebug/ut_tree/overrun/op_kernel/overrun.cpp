// Copies 72 floats into a 64-float output: the last 32 bytes lie past the tensor.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void overrun(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 72);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 72);
    pipe.InitBuffer(q, 1, 72 * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, 72);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(yg, t, 72);
    q.FreeTensor(t);
}
