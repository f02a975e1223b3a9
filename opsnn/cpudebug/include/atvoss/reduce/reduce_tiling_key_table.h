/* opsnn's atvoss reduce framework: the template-argument selections of the reduce kernels, one row
 * per pattern and kind (a core-local "normal" reduce or a cross-core "group" one), shared by the
 * three declaration headers (plain, batch-invariant, non-contiguous), which differ only in the
 * IsContiguous / BatchInvariant values a row allows.
 *
 * LoopARCount codes: 10 * (A loop axes) + (R loop axes); a "group" row splits R over cores. */
#ifndef OPSNN_ATVOSS_REDUCE_REDUCE_TILING_KEY_TABLE_H_
#define OPSNN_ATVOSS_REDUCE_REDUCE_TILING_KEY_TABLE_H_

#include "ascendc/host_api/tiling/template_argument.h"

#define A1R0 10
#define A2R0 20
#define A3R0 30
#define A4R0 40
#define A5R0 50
#define A1R2 12
#define A1R3 13
#define A1R4 14
#define A1R5 15
#define A2R3 23
#define A2R4 24
#define A2R5 25
#define A2R6 26
#define A3R4 34
#define A3R5 35
#define A3R6 36
#define A3R7 37
#define A4R5 45
#define A4R6 46
#define A4R7 47
#define A4R8 48
#define A5R6 56
#define A5R7 57
#define A5R8 58
#define A5R9 59
#define AR_PATTERN 11
#define ARA_PATTERN 20
#define ARAR_PATTERN 31
#define ARARA_PATTERN 40
#define ARARAR_PATTERN 51
#define ARARARA_PATTERN 60
#define ARARARAR_PATTERN 71
#define ARARARARA_PATTERN 80

#define BIT_WIDTH 8
#define C0 0
#define C1 1
#define C2 2
#define C3 3
#define C4 4
#define C100 100

/* a kernel's reduce template parameters, and the same as arguments */
#define REDUCE_TPL_PARAM \
    bool IsContiguous, bool BatchInvariant, uint32_t PatternID, uint32_t LoopARCount, uint32_t LoopInnerARCount
#define REDUCE_TPL_VALUE IsContiguous, BatchInvariant, PatternID, LoopARCount, LoopInnerARCount

#define OPSNN_REDUCE_LIST(...) __VA_ARGS__

/* the declaration: contig / batch are the allowed values, parenthesised */
#define OPSNN_REDUCE_DECL(contig, batch)                                                                      \
    ASCENDC_TPL_BOOL_DECL(IsContiguous, OPSNN_REDUCE_LIST contig),                                             \
        ASCENDC_TPL_BOOL_DECL(BatchInvariant, OPSNN_REDUCE_LIST batch),                                        \
        ASCENDC_TPL_UINT_DECL(PatternID, BIT_WIDTH, ASCENDC_TPL_UI_RANGE, 1, C0, C100),                        \
        ASCENDC_TPL_UINT_DECL(LoopARCount, BIT_WIDTH, ASCENDC_TPL_UI_RANGE, 1, C0, C100),                      \
        ASCENDC_TPL_UINT_DECL(LoopInnerARCount, BIT_WIDTH, ASCENDC_TPL_UI_RANGE, 1, C0, C100)

/* one selection row: kernel type, IsContiguous and BatchInvariant values, the pattern id, the
 * LoopARCount values, the LoopInnerARCount selection (a UI_LIST or UI_RANGE spec) */
#define OPSNN_REDUCE_SEL(kernel, contig, batch, pattern, loops, inner)                                        \
    ASCENDC_TPL_KERNEL_TYPE_SEL(kernel), ASCENDC_TPL_BOOL_SEL(IsContiguous, OPSNN_REDUCE_LIST contig),         \
        ASCENDC_TPL_BOOL_SEL(BatchInvariant, OPSNN_REDUCE_LIST batch),                                         \
        ASCENDC_TPL_UINT_SEL(PatternID, ASCENDC_TPL_UI_LIST, pattern),                                         \
        ASCENDC_TPL_UINT_SEL(LoopARCount, ASCENDC_TPL_UI_LIST, OPSNN_REDUCE_LIST loops),                       \
        ASCENDC_TPL_UINT_SEL(LoopInnerARCount, OPSNN_REDUCE_LIST inner)

#define OPSNN_REDUCE_NORMAL(c, b, pattern, loops, innerMax) \
    OPSNN_REDUCE_SEL(ASCENDC_TPL_AIV_ONLY, c, b, pattern, loops, (ASCENDC_TPL_UI_RANGE, 1, C0, innerMax))
#define OPSNN_REDUCE_GROUP(c, b, pattern, loops) \
    OPSNN_REDUCE_SEL(ASCENDC_TPL_MIX_AIV_1_0, c, b, pattern, loops, (ASCENDC_TPL_UI_LIST, C0))

#define OPSNN_REDUCE_ROW_EMPTY(c, b) OPSNN_REDUCE_SEL(ASCENDC_TPL_AIV_ONLY, c, b, 0, (0), (ASCENDC_TPL_UI_LIST, 0))
#define OPSNN_REDUCE_ROW_A(c, b) OPSNN_REDUCE_SEL(ASCENDC_TPL_AIV_ONLY, c, b, C100, (A1R0), (ASCENDC_TPL_UI_LIST, C0))
#define OPSNN_REDUCE_ROW_AR_NORMAL(c, b) OPSNN_REDUCE_NORMAL(c, b, AR_PATTERN, (A1R0), C1)
#define OPSNN_REDUCE_ROW_AR_GROUP(c, b) OPSNN_REDUCE_GROUP(c, b, AR_PATTERN, (A1R2))
#define OPSNN_REDUCE_ROW_ARA_NORMAL(c, b) OPSNN_REDUCE_NORMAL(c, b, ARA_PATTERN, (A1R0, A2R0), C1)
#define OPSNN_REDUCE_ROW_ARA_GROUP(c, b) OPSNN_REDUCE_GROUP(c, b, ARA_PATTERN, (A1R2, A2R3))
#define OPSNN_REDUCE_ROW_ARAR_NORMAL(c, b) OPSNN_REDUCE_NORMAL(c, b, ARAR_PATTERN, (A1R0, A2R0), C2)
#define OPSNN_REDUCE_ROW_ARAR_GROUP(c, b) OPSNN_REDUCE_GROUP(c, b, ARAR_PATTERN, (A1R2, A1R3, A2R3, A2R4))
#define OPSNN_REDUCE_ROW_ARARARAR_NORMAL(c, b) \
    OPSNN_REDUCE_NORMAL(c, b, ARARARAR_PATTERN, (A1R0, A2R0, A3R0, A4R0), C4)
#define OPSNN_REDUCE_ROW_ARARARAR_GROUP(c, b)                                                                 \
    OPSNN_REDUCE_GROUP(c, b, ARARARAR_PATTERN, (A1R2, A1R3, A1R4, A1R5, A2R3, A2R4, A2R5, A2R6, A3R4, A3R5, \
                                                A3R6, A3R7, A4R5, A4R6, A4R7, A4R8))
#define OPSNN_REDUCE_ROW_ARARARARA_NORMAL(c, b) \
    OPSNN_REDUCE_NORMAL(c, b, ARARARARA_PATTERN, (A1R0, A2R0, A3R0, A4R0, A5R0), C4)
#define OPSNN_REDUCE_ROW_ARARARARA_GROUP(c, b)                                                                \
    OPSNN_REDUCE_GROUP(c, b, ARARARARA_PATTERN, (A1R2, A1R3, A1R4, A1R5, A2R3, A2R4, A2R5, A2R6, A3R4, A3R5, \
                                                 A3R6, A3R7, A4R5, A4R6, A4R7, A4R8, A5R6, A5R7, A5R8, A5R9))

/* every row, for the SEL headers (rowsEmptyA: the values of the Empty and A rows) */
#define OPSNN_REDUCE_ALL_ROWS(emptyC, emptyB, c, b)                                                           \
    ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_EMPTY(emptyC, emptyB)),                                              \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_A(emptyC, emptyB)),                                              \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_AR_NORMAL(c, b)), ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_AR_GROUP(c, b)), \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARA_NORMAL(c, b)),                                               \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARA_GROUP(c, b)),                                                \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARAR_NORMAL(c, b)),                                              \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARAR_GROUP(c, b)),                                               \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARARARAR_NORMAL(c, b)),                                          \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARARARAR_GROUP(c, b)),                                           \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARARARARA_NORMAL(c, b)),                                         \
        ASCENDC_TPL_ARGS_SEL(OPSNN_REDUCE_ROW_ARARARARA_GROUP(c, b))

#endif  // OPSNN_ATVOSS_REDUCE_REDUCE_TILING_KEY_TABLE_H_
