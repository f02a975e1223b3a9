/* opsnn's simt_api/math_functions.h: SIMT's names, all in opsnn_kt/simt.h (what is modelled, and how). */
#ifndef OPSNN_SIMT_API_MATH_FUNCTIONS_H_
#define OPSNN_SIMT_API_MATH_FUNCTIONS_H_
#include "opsnn_kt/simt.h"
#endif
