/* opsnn CPU-debug runtime: what a kernel does across cores and with GM as a whole -- SyncAll,
 * atomic writes, the workspace, InitGlobalMemory, the data cache -- and the core-level intrinsics
 * kernels call (pipe_barrier, Trap, likely/unlikely, the core type of a mixed kernel).
 *
 * SyncAll waits for real: the launch runs each core until it ends or reaches the barrier, and a
 * core resumes once every core has arrived (opsnn/ascendc/cores.py). A core that can never arrive
 * is a finding (sync_all_missing_core), not a hang. Only vector (AIV) cores are emulated: a kernel
 * typed KERNEL_TYPE_MIX_* or run in KernelMode::MIX_MODE runs its vector cores (GetTaskRation()
 * per block, GetBlockIdx() = block * ration + sub-block, as CANN's CPU debug numbers them); its
 * cube side (Mmad, lib/matmul_intf.h) fails to compile by name. */
#ifndef OPSNN_KT_MULTICORE_H_
#define OPSNN_KT_MULTICORE_H_

#include <cstdint>

#include "opsnn_kt/instructions.h"

/* branch hints as the device compiler spells them */
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* `if ASCEND_IS_AIV { ... }`: every emulated core is a vector core */
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (true)
#define ASCEND_IS_AIC (false)
#define ASCEND_IS_NOT_AIV (false)
#define ASCEND_IS_NOT_AIC (true)
#endif

/* The device's synchronisation intrinsics: instructions run one after another on the emulator, so
 * every pipe is drained at each instruction already and every flag is set before it is waited on. */
__aicore__ inline void pipe_barrier(pipe_t) {}
template <typename E> __aicore__ inline void set_flag(pipe_t, pipe_t, E) {}
template <typename E> __aicore__ inline void wait_flag(pipe_t, pipe_t, E) {}
/* the intrinsics GetBlockIdx/GetBlockNum read (a vector core's block index and the launch's blocks) */
__aicore__ inline int64_t get_block_idx() { return opsnn_kt_block_idx() / opsnn_kt_task_ration(); }
__aicore__ inline int64_t get_block_num() { return opsnn_kt_block_num(); }

namespace opsnn_kt {
/* CANN's CPU-debug globals block_idx / block_num, which kernels read directly: the running core's
 * block (in a mixed launch an AIV core's block, GetBlockIdx() / GetTaskRation()) and the blocks. */
struct BlockIdxVariable {
    operator int64_t() const { return opsnn_kt_block_idx() / opsnn_kt_task_ration(); }  // NOLINT
};
struct BlockNumVariable {
    operator int64_t() const { return opsnn_kt_block_num(); }  // NOLINT
};
}  // namespace opsnn_kt
inline constexpr opsnn_kt::BlockIdxVariable block_idx{};
inline constexpr opsnn_kt::BlockNumVariable block_num{};

namespace opsnn_kt {
/* Per-core state a kernel sets and reads back without the emulator: reset as each core starts
 * (a thread may run several cores one after another). */
inline GM_ADDR &SysWorkspace() {
    static thread_local GM_ADDR workspace = nullptr;
    return workspace;
}
inline void ResetCoreState() {
    SysWorkspace() = nullptr;
    AscendC::detail::CurrentPipe() = nullptr;
}
}  // namespace opsnn_kt

namespace AscendC {

/* ---- cores ---- */
/* Wait until every core of the launch has arrived (isAIVOnly: the emulated cores are all AIV). */
template <bool isAIVOnly = true> __aicore__ inline void SyncAll(OPSNN_KT_WHERE) {
    opsnn_kt::Call("SyncAll", OPSNN_KT_AT);
}
/* The soft form: the device counts arrivals in gmWorkspace (ubWorkspace stages them); here the
 * barrier is the same, for usedCores cores (0: all of them), and neither workspace is touched. */
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t> &gmWorkspace, const LocalTensor<int32_t> &ubWorkspace,
                               const int32_t usedCores = 0, OPSNN_KT_WHERE) {
    (void)gmWorkspace;
    (void)ubWorkspace;
    if (usedCores == 0) {
        opsnn_kt::Call("SyncAll", OPSNN_KT_AT);
    } else {
        opsnn_kt::Call("SyncAll", OPSNN_KT_AT, usedCores);
    }
}

/* Cross-core flags: a core's k-th CrossCoreWaitFlag(flagId) returns once every core of the launch
 * has made its k-th CrossCoreSetFlag(flagId) (modeId 0: all vector cores). Modes 1, 2 and 4 pair
 * vector cores of one AI Core, or a vector core with the cube core: refused by name. `pipe` orders
 * nothing here (every instruction is complete when the next one starts). */
template <uint8_t modeId, pipe_t pipe> __aicore__ inline void CrossCoreSetFlag(uint16_t flagId, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CrossCoreSetFlag", OPSNN_KT_AT, static_cast<int32_t>(flagId), static_cast<int32_t>(modeId));
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, OPSNN_KT_WHERE) {
    opsnn_kt::Call("CrossCoreWaitFlag", OPSNN_KT_AT, static_cast<int32_t>(flagId), static_cast<int32_t>(modeId));
}

/* Stops the core: the launch reports assert_failed at this line, the other cores run on. */
__aicore__ inline void Trap(OPSNN_KT_WHERE) { opsnn_kt_fail("Trap()", OPSNN_KT_AT); }

/* ---- atomic writes to GM: every DMA write UB -> GM combines with GM's value in T ---- */
template <typename T> __aicore__ inline void SetAtomicAdd(OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetAtomicAdd", OPSNN_KT_AT, opsnn_kt::TypeTag<T>{});
}
template <typename T> __aicore__ inline void SetAtomicMax(OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetAtomicMax", OPSNN_KT_AT, opsnn_kt::TypeTag<T>{});
}
template <typename T> __aicore__ inline void SetAtomicMin(OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetAtomicMin", OPSNN_KT_AT, opsnn_kt::TypeTag<T>{});
}
template <typename T> __aicore__ inline void SetAtomicType(OPSNN_KT_WHERE) {
    opsnn_kt::Call("SetAtomicType", OPSNN_KT_AT, opsnn_kt::TypeTag<T>{});
}
__aicore__ inline void SetAtomicNone(OPSNN_KT_WHERE) { opsnn_kt::Call("SetAtomicNone", OPSNN_KT_AT); }

/* ---- workspace ---- */
/* CANN's CPU-debug library returns the workspace itself (a device build: past the system part). */
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) { opsnn_kt::SysWorkspace() = workspace; }
/* What SetSysWorkspace gave this core, or nullptr (the toolkit's own reserved area is not modelled). */
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return opsnn_kt::SysWorkspace(); }

/* size elements of GM set to value (a DMA write: checked, and atomic under SetAtomicAdd) */
template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T> &gmWorkspaceAddr, const uint64_t size, const T value,
                                        OPSNN_KT_WHERE) {
    opsnn_kt::Call("InitGlobalMemory", OPSNN_KT_AT, gmWorkspaceAddr, size, value);
}

/* InitOutput: the name InitGlobalMemory had before (CANN keeps it, deprecated); value defaults to 0 */
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0, OPSNN_KT_WHERE) {
    opsnn_kt::Call("InitGlobalMemory", OPSNN_KT_AT, gmWorkspaceAddr, static_cast<uint64_t>(size), value);
}

/* ---- the data cache: the emulator has none (counted, nothing to flush) ---- */
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCacheCleanAndInvalid", OPSNN_KT_AT, dst);
}
template <typename T, CacheLine entireType>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &dst, OPSNN_KT_WHERE) {
    opsnn_kt::Call("DataCacheCleanAndInvalid", OPSNN_KT_AT, dst);
}

/* ---- cube work: refused at compile time, by name ---- */
template <typename... A> struct CubeNotModelled : std::false_type {};
template <typename... A> __aicore__ inline void Mmad(const A &...) {
    static_assert(CubeNotModelled<A...>::value,
                  "opsnn: Mmad is cube (AIC) work, which the CPU-debug runtime does not model: it emulates vector "
                  "cores only");
}

}  // namespace AscendC

#endif  // OPSNN_KT_MULTICORE_H_
