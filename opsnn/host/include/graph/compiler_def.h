/* opsnn host twin: VAR_UNUSED, which registration macros put on their static objects. */
#ifndef OPSNN_HOST_GRAPH_COMPILER_DEF_H_
#define OPSNN_HOST_GRAPH_COMPILER_DEF_H_
#ifndef VAR_UNUSED
#define VAR_UNUSED __attribute__((unused))
#endif
#endif  // OPSNN_HOST_GRAPH_COMPILER_DEF_H_
