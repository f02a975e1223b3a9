// A plain C entry for CPU debug, a template for the device build (as upstream's arch35
// soft_shrink_grad is written): under __CCE_KT_TEST__ only the former exists.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, int MODE>
__aicore__ inline void Fill(GM_ADDR y) {
    GlobalTensor<T> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), 16);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * sizeof(T));
    LocalTensor<T> t = buf.Get<T>();
    Duplicate(t, static_cast<T>(MODE), 16);
    DataCopy(yg, t, 16);
}

#ifdef __CCE_KT_TEST__
extern "C" __global__ __aicore__ void branches(GM_ADDR y) {
    GET_TILING_DATA(mode, y);  // the UT's tiling_def.h defines it
    Fill<DTYPE_X, mode>(y);
}
#else
template <int MODE>
__global__ __aicore__ void branches(GM_ADDR y) { Fill<DTYPE_X, MODE>(y); }
#endif
