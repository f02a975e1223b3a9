/* opsnn's simt_api/asc_bf16.h: SIMT's names, all in opsnn_kt/simt.h (what is modelled, and how). */
#ifndef OPSNN_SIMT_API_ASC_BF16_H_
#define OPSNN_SIMT_API_ASC_BF16_H_
#include "opsnn_kt/simt.h"
#endif
