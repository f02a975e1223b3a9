/* opsnn's atvoss reduce framework: the reduce kernels' selectable template arguments (every row
 * of reduce_tiling_key_table.h). */
#ifndef OPSNN_ATVOSS_REDUCE_REDUCE_TILING_KEY_SEL_H_
#define OPSNN_ATVOSS_REDUCE_REDUCE_TILING_KEY_SEL_H_

#include "atvoss/reduce/reduce_tiling_key_decl.h"

ASCENDC_TPL_SEL(OPSNN_REDUCE_ALL_ROWS((C1), (C0), (C1), (C0)));

#endif  // OPSNN_ATVOSS_REDUCE_REDUCE_TILING_KEY_SEL_H_
