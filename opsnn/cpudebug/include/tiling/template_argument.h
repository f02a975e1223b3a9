/* opsnn's tiling/template_argument.h: the other name CANN installs the tiling-template declarations
 * under (ASCENDC_TPL_*); the declarations are ascendc/host_api/tiling/template_argument.h's. */
#ifndef OPSNN_TILING_TEMPLATE_ARGUMENT_H_
#define OPSNN_TILING_TEMPLATE_ARGUMENT_H_
#include "ascendc/host_api/tiling/template_argument.h"
#endif  // OPSNN_TILING_TEMPLATE_ARGUMENT_H_
