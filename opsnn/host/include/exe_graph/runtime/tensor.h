/* opsnn host twin: exe_graph/runtime/tensor.h, the name operator code includes gert::Tensor by. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_TENSOR_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_TENSOR_H_
#include "exe_graph/runtime/runtime_tensor.h"
#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_TENSOR_H_
