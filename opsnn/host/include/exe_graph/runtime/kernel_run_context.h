/* opsnn host twin: the C layout every runtime context shares -- counts, the compute node's
 * description, then one value slot per input followed by one per output. A slot holds a value of
 * up to pointer size in place, or points at a larger one, and may own it (deleter). */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_KERNEL_RUN_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_KERNEL_RUN_CONTEXT_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
typedef void (*FreeCallback)(void *);

typedef struct {
    union {
        void *pointer;
        unsigned char inplace[sizeof(void *)];
    } data;
    FreeCallback deleter;
} AsyncAnyValue;

typedef struct {
    size_t input_size;
    size_t output_size;
    const void *compute_node_info;
    const void *kernel_extend_info;
    AsyncAnyValue **output_start;  /* &values[input_size] */
    AsyncAnyValue *values[1];      /* input_size + output_size slots in the allocation */
} KernelRunContext;
#ifdef __cplusplus
}
#endif

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_KERNEL_RUN_CONTEXT_H_
