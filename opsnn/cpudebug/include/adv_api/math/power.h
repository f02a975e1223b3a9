/* opsnn's adv_api/math/power.h: the name CANN gives the high-level Power's header. Power is declared
 * with the other high-level math in opsnn_kt/math_api.h (through kernel_operator.h). */
#ifndef OPSNN_ADV_API_MATH_POWER_H_
#define OPSNN_ADV_API_MATH_POWER_H_
#include "kernel_operator.h"
#endif  // OPSNN_ADV_API_MATH_POWER_H_
