/* ThresholdGradV2D's op_kernel unit test, written for CANN's CPU-debug library as upstream's are
 * (tikicpulib.h, GmAlloc, ICPU_RUN_KF, gtest); run it with
 *     opsnn ut opsnn/activation/threshold_grad_v2_d/tests/ut/op_kernel/test_threshold_grad_v2_d.cpp
 * (-DDTYPE_INPUT_GRADIENT=half for another dtype). The built-in cases check every element against
 * the rule; DISABLED_from_files is the harness opsnn's own tests drive (tests/ut/op_kernel/
 * test_kernel_cpp.py): inputs and tiling from files, the output to a file, compared there with the
 * Python kernel bit for bit. */
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

#ifdef __CCE_KT_TEST__
#include "data_utils.h"
#include "tikicpulib.h"
#endif
#include "../../../op_kernel/threshold_grad_v2_d.cpp"

using Elem = DTYPE_INPUT_GRADIENT;

namespace {

/* The value the kernel compares: the element as float, through half for the 8-bit integers
 * (exact either way), in half for half itself. */
bool Passes(Elem feature, float threshold) {
    if constexpr (std::is_same_v<Elem, half>) return float(feature) > float(half(threshold));
    else return static_cast<float>(feature) > threshold;
}

template <typename T> uint64_t Bits(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

struct Case {
    uint64_t n;
    uint32_t blockDim;
    ThresholdGradV2DTilingData tiling;
};

/* One launch: n elements, the given tiling; returns the output. */
std::vector<Elem> RunKernel(const Case &c, const std::vector<Elem> &grad, const std::vector<Elem> &feature) {
    const size_t bytes = c.n * sizeof(Elem);
    auto *g = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    auto *f = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    auto *out = static_cast<uint8_t *>(AscendC::GmAlloc(bytes));
    auto *workspace = static_cast<uint8_t *>(AscendC::GmAlloc(16 * 1024 * 1024));
    auto *tiling = static_cast<uint8_t *>(AscendC::GmAlloc(sizeof(ThresholdGradV2DTilingData)));
    std::memcpy(g, grad.data(), bytes);
    std::memcpy(f, feature.data(), bytes);
    std::memcpy(tiling, &c.tiling, sizeof(c.tiling));
    ICPU_SET_TILING_KEY(0);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(threshold_grad_v2_d<0>, c.blockDim, g, f, out, workspace, tiling);
    std::vector<Elem> result(c.n);
    std::memcpy(result.data(), out, bytes);
    for (uint8_t *p : {g, f, out, workspace, tiling}) AscendC::GmFree(p);
    return result;
}

/* A tiling as opsnn's host tiling makes it for n elements of 256-byte blocks over `cores`. */
Case Split(uint64_t n, uint32_t cores, uint64_t tileDataNum, float threshold) {
    const uint64_t perBlock = 256 / sizeof(Elem);
    const uint64_t blocks = (n + perBlock - 1) / perBlock;
    if (blocks < cores) cores = static_cast<uint32_t>(blocks);
    Case c{n, cores, {}};
    auto &t = c.tiling;
    t.smallCoreDataNum = blocks / cores * perBlock;
    t.bigCoreDataNum = t.smallCoreDataNum + perBlock;
    t.tailBlockNum = blocks % cores;
    t.tileDataNum = tileDataNum;
    auto tiles = [&](uint64_t elems, uint64_t *tileNum, uint64_t *tail) {
        *tileNum = (elems + tileDataNum - 1) / tileDataNum;
        *tail = elems - (*tileNum - 1) * tileDataNum;
    };
    tiles(t.smallCoreDataNum, &t.finalSmallTileNum, &t.smallTailDataNum);
    tiles(t.bigCoreDataNum, &t.finalBigTileNum, &t.bigTailDataNum);
    t.threshold = threshold;
    return c;
}

void Check(const Case &c) {
    std::vector<Elem> grad(c.n), feature(c.n);
    for (uint64_t i = 0; i < c.n; ++i) {
        grad[i] = static_cast<Elem>(static_cast<int>(i % 97) - 40);
        feature[i] = static_cast<Elem>(static_cast<int>((i * 7) % 23) - 11);
    }
    std::vector<Elem> out = RunKernel(c, grad, feature);
    for (uint64_t i = 0; i < c.n; ++i) {
        const Elem want = Passes(feature[i], c.tiling.threshold) ? grad[i] : static_cast<Elem>(0);
        ASSERT_EQ(Bits(out[i]), Bits(want)) << "element " << i;
    }
}

}  // namespace

class threshold_grad_v2_d_test : public testing::Test {};

TEST_F(threshold_grad_v2_d_test, one_core_one_tile) { Check(Split(2048, 1, 4032, 1.0f)); }

TEST_F(threshold_grad_v2_d_test, eight_cores_with_big_ones_and_tails) {
    Check(Split(8 * 1024 + 3 * (256 / sizeof(Elem)), 8, 512, -2.5f));
}

TEST_F(threshold_grad_v2_d_test, many_tiles_per_core) { Check(Split(40960, 4, 1024, 0.0f)); }

/* The harness: $OPSNN_CASE_DIR holds grad.bin, feature.bin, tiling.bin (72 bytes) and case.txt
 * ("<elements> <blockDim>"); the output goes to out.bin there. */
TEST_F(threshold_grad_v2_d_test, DISABLED_from_files) {
    const char *dir = std::getenv("OPSNN_CASE_DIR");
    ASSERT_NE(dir, nullptr) << "set OPSNN_CASE_DIR";
    const std::string d(dir);
    Case c{};
    FILE *meta = std::fopen((d + "/case.txt").c_str(), "r");
    ASSERT_NE(meta, nullptr);
    unsigned long long n = 0;
    ASSERT_EQ(std::fscanf(meta, "%llu %u", &n, &c.blockDim), 2);
    std::fclose(meta);
    c.n = n;
    std::vector<Elem> grad(c.n), feature(c.n);
    size_t got = 0;
    ASSERT_TRUE(ReadFile(d + "/grad.bin", got, grad.data(), c.n * sizeof(Elem)));
    ASSERT_TRUE(ReadFile(d + "/feature.bin", got, feature.data(), c.n * sizeof(Elem)));
    ASSERT_TRUE(ReadFile(d + "/tiling.bin", got, &c.tiling, sizeof(c.tiling)));
    std::vector<Elem> out = RunKernel(c, grad, feature);
    ASSERT_TRUE(WriteFile(d + "/out.bin", out.data(), out.size() * sizeof(Elem)));
}
