/* The same header by the path op_host code also spells it with (opbase's pkg_inc holds atvoss
 * under op_common/). */
#include "atvoss/broadcast/broadcast_tiling.h"
