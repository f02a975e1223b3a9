/* opsnn host twin: the older name of graph/error_codes.h, which operator code still includes. */
#ifndef OPSNN_HOST_GRAPH_GE_ERROR_CODES_H_
#define OPSNN_HOST_GRAPH_GE_ERROR_CODES_H_
#include "graph/error_codes.h"
#endif  // OPSNN_HOST_GRAPH_GE_ERROR_CODES_H_
