/* opsnn host twin: the status type kernel-style functions (infershape, tiling) return. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_BASE_TYPE_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_BASE_TYPE_H_
#ifdef __cplusplus
extern "C" {
#endif
typedef unsigned int UINT32;
typedef UINT32 KernelStatus;
#ifdef __cplusplus
}
#endif
#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_BASE_TYPE_H_
