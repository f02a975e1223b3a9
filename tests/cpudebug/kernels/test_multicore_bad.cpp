// The broken twins of test_multicore.cpp: each launch has one defect, which must be named (core,
// instruction, source line), and the other cores must still run.
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t CORES = 4;
constexpr int32_t SLOT = 8;

// partial_sums without its SyncAll: core 0 reads the slots the others write in the same phase.
extern "C" __global__ __aicore__ void unsynced_sums(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, CORES * SLOT * sizeof(float));
    GlobalTensor<float> ws;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(workspace), CORES * SLOT);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx() + 1), SLOT);
    DataCopy(ws[GetBlockIdx() * SLOT], t, SLOT);
    if (GetBlockIdx() == 0) {
        DataCopy(t, ws, CORES * SLOT);  // RACE_LINE
    }
}

// Core 2 returns before the barrier the others wait at: a hang on the device.
extern "C" __global__ __aicore__ void early_return(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    if (GetBlockIdx() == 2) return;
    SyncAll();  // BARRIER_LINE
}

// Core 1 returns before it sets the flag the others wait on: a hang on the device.
extern "C" __global__ __aicore__ void flag_never_set(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    if (GetBlockIdx() == 1) return;
    CrossCoreSetFlag<0x0, PIPE_MTE3>(5);
    CrossCoreWaitFlag(5);  // FLAG_LINE
}

// flag_sums with core 0 reading before its wait: the slots of the others are not ordered yet.
extern "C" __global__ __aicore__ void read_before_wait(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, CORES * SLOT * sizeof(float));
    GlobalTensor<float> ws;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(workspace), CORES * SLOT);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx() + 1), SLOT);
    DataCopy(ws[GetBlockIdx() * SLOT], t, SLOT);
    CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
    if (GetBlockIdx() == 0) {
        DataCopy(t, ws, CORES * SLOT);  // FLAG_RACE_LINE
    }
    CrossCoreWaitFlag(2);
}

// atomic_sum without SetAtomicAdd: every core overwrites the same bytes.
extern "C" __global__ __aicore__ void plain_sum(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, SLOT * sizeof(float));
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), SLOT);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, SLOT);
    DataCopy(yg, t, SLOT);  // OVERLAP_LINE
}

// Core 1 asks for a Cast Atlas A2 does not have; the others write their slot of y.
extern "C" __global__ __aicore__ void refused_on_one_core(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, out;
    pipe.InitBuffer(buf, SLOT * sizeof(float));
    pipe.InitBuffer(out, SLOT * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx() + 1), SLOT);
    if (GetBlockIdx() == 1) {
        Cast(out.Get<uint8_t>(), t, RoundMode::CAST_ODD, SLOT);  // REFUSED_LINE
    }
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + GetBlockIdx() * SLOT, SLOT);
    DataCopy(yg, t, SLOT);
}

// Core 3's ASSERT fails, core 0 traps; cores 1 and 2 write their slot of y.
extern "C" __global__ __aicore__ void assert_on_one_core(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    ASSERT(GetBlockIdx() != 3);  // ASSERT_LINE
    if (GetBlockIdx() == 0) Trap();  // TRAP_LINE
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + GetBlockIdx() * SLOT, SLOT);
    yg.SetValue(0, static_cast<float>(GetBlockIdx() + 1));
}

struct Gm {
    uint8_t *y, *workspace, *tiling;
    Gm() {
        y = static_cast<uint8_t *>(GmAlloc(CORES * SLOT * sizeof(float)));
        workspace = static_cast<uint8_t *>(GmAlloc(CORES * SLOT * sizeof(float)));
        tiling = static_cast<uint8_t *>(GmAlloc(32));
        std::memset(y, 0, CORES * SLOT * sizeof(float));
    }
    ~Gm() {
        GmFree(y);
        GmFree(workspace);
        GmFree(tiling);
    }
    float at(int32_t core) const { return reinterpret_cast<const float *>(y)[core * SLOT]; }
};

TEST(multicore_bad, read_without_sync_all_races) {
    Gm gm;
    ICPU_RUN_KF(unsynced_sums, CORES, gm.y, gm.workspace, gm.tiling);
}
TEST(multicore_bad, a_core_missing_the_barrier) {
    Gm gm;
    ICPU_RUN_KF(early_return, CORES, gm.y, gm.workspace, gm.tiling);
}
TEST(multicore_bad, a_core_never_setting_the_flag) {
    Gm gm;
    ICPU_RUN_KF(flag_never_set, CORES, gm.y, gm.workspace, gm.tiling);
}
TEST(multicore_bad, read_before_the_flag_wait_races) {
    Gm gm;
    ICPU_RUN_KF(read_before_wait, CORES, gm.y, gm.workspace, gm.tiling);
}
TEST(multicore_bad, plain_writes_overlap) {
    Gm gm;
    ICPU_RUN_KF(plain_sum, 2, gm.y, gm.workspace, gm.tiling);
}
TEST(multicore_bad, a_refused_instruction_stops_only_its_core) {
    Gm gm;
    ICPU_RUN_KF(refused_on_one_core, 3, gm.y, gm.workspace, gm.tiling);
    EXPECT_EQ(gm.at(0), 1.0f);
    EXPECT_EQ(gm.at(2), 3.0f);  // core 2 ran after core 1 stopped
}
TEST(multicore_bad, a_failed_assert_stops_only_its_core) {
    Gm gm;
    ICPU_RUN_KF(assert_on_one_core, CORES, gm.y, gm.workspace, gm.tiling);
    EXPECT_EQ(gm.at(1), 2.0f);
    EXPECT_EQ(gm.at(2), 3.0f);
}
