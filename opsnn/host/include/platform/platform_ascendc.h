/* opsnn host twin: the other path operator code includes PlatformAscendC by. */
#ifndef OPSNN_HOST_PLATFORM_PLATFORM_ASCENDC_H_
#define OPSNN_HOST_PLATFORM_PLATFORM_ASCENDC_H_
#include "tiling/platform/platform_ascendc.h"
#endif  // OPSNN_HOST_PLATFORM_PLATFORM_ASCENDC_H_
