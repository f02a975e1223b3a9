#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void unknown_api(GM_ADDR x) {
    AscendC::NoSuchVectorInstruction(x);  // no AscendC API has this name
}
