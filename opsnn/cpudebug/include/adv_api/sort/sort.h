/* opsnn's adv_api/sort/sort.h: the name CANN gives the sort APIs' header (Sort, MrgSort, Extract,
 * ...); opsnn declares them in opsnn_kt/sort_api.h (through kernel_operator.h). */
#ifndef OPSNN_ADV_API_SORT_SORT_H_
#define OPSNN_ADV_API_SORT_SORT_H_
#include "kernel_operator.h"
#endif  // OPSNN_ADV_API_SORT_SORT_H_
