/* opsnn's kernel_type.h: the data type and format codes as CANN's kernel headers define them for a
 * host (CPU-debug) build -- preprocessor macros, so `#if ORIG_DTYPE_X == DT_FLOAT` selects code.
 * The values are ge::DataType's and ge::Format's. A translation unit that includes this and then
 * names ge::DT_FLOAT (graph/types.h) fails as it does with the toolkit: the macro replaces the name.
 * kernel_operator.h does not include it; kernels that want the macros include it by name. */
#ifndef OPSNN_KERNEL_TYPE_H_
#define OPSNN_KERNEL_TYPE_H_
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_STRING 13
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_BF16 27
#define DT_UNDEFINED 28
#define DT_INT4 29
#define DT_HIFLOAT8 34
#define DT_FLOAT8_E5M2 35
#define DT_FLOAT8_E4M3FN 36
#define DT_FLOAT8_E8M0 37
#define FORMAT_NCHW 0
#define FORMAT_NHWC 1
#define FORMAT_ND 2
#define FORMAT_NC1HWC0 3
#define FORMAT_FRACTAL_Z 4
#define FORMAT_NDHWC 27
#define FORMAT_FRACTAL_NZ 29
#define FORMAT_NCDHW 30
#define FORMAT_NDC1HWC0 32
#define FORMAT_NCL 47
#endif  // OPSNN_KERNEL_TYPE_H_
