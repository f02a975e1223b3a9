/* opsnn's atvoss: the framework's debug logging. On device RUN_LOG prints where a debug build
 * asks it to; opsnn's schedules log nothing, the emulator's report says what ran. */
#ifndef OPSNN_ATVOSS_UTIL_DFX_H_
#define OPSNN_ATVOSS_UTIL_DFX_H_

#ifndef RUN_LOG
#define RUN_LOG(...) ((void)0)
#endif
#ifndef RUN_LOG_BASE
#define RUN_LOG_BASE(...) ((void)0)
#endif

#endif  // OPSNN_ATVOSS_UTIL_DFX_H_
