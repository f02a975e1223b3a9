/* opsnn's simt_api/device_atomic_functions.h: SIMT's names, all in opsnn_kt/simt.h (what is modelled, and how). */
#ifndef OPSNN_SIMT_API_DEVICE_ATOMIC_FUNCTIONS_H_
#define OPSNN_SIMT_API_DEVICE_ATOMIC_FUNCTIONS_H_
#include "opsnn_kt/simt.h"
#endif
