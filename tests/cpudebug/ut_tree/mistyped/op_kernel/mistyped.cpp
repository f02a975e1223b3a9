#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mistyped(GM_ADDR x) {
    GlobalTensor<DTYPE_X> xg;  // the UT's options name DTYPE_Y
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X *>(x), 8);
}
