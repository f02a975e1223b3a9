/* opsnn's graph/c_types.h: what host code of a UT takes from it here -- the ge::DataType codes. */
#ifndef OPSNN_GRAPH_C_TYPES_H_
#define OPSNN_GRAPH_C_TYPES_H_
#include "graph/types.h"
#endif  // OPSNN_GRAPH_C_TYPES_H_
