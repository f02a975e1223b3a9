// y = x + ADD_VALUE over perCore elements a core, its tiling struct generated from op_host.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void addone(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<DTYPE_X> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X *>(x) + GetBlockIdx() * td.perCore, td.perCore);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X *>(y) + GetBlockIdx() * td.perCore, td.perCore);
    pipe.InitBuffer(q, 1, td.perCore * sizeof(DTYPE_X));
    LocalTensor<DTYPE_X> t = q.AllocTensor<DTYPE_X>();
    DataCopy(t, xg, td.perCore);
    Adds(t, t, static_cast<DTYPE_X>(ADD_VALUE), td.perCore);
    DataCopy(yg, t, td.perCore);
    q.FreeTensor(t);
}
