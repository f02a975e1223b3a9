// Splits rows by a tiling field the UT leaves 0: an integer division by zero in the kernel's own
// scalar code (the toolkit's CPU build traps there too).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void divzero(GM_ADDR y, GM_ADDR tiling) {
    const uint32_t rowsPerCore = reinterpret_cast<__gm__ uint32_t *>(tiling)[0];
    const uint32_t tail = static_cast<uint32_t>(GetBlockIdx()) % rowsPerCore;
    reinterpret_cast<__gm__ uint32_t *>(y)[0] = tail;
}
