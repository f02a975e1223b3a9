// ListTensorDesc / TensorDesc (opsnn_kt/list_tensor.h) on a tensor list built here the way a
// framework passes one: two float tensors of shapes [2, 4] and [1, 8]. The kernel writes into y:
// the count, each tensor's dim, index and shape, then both tensors' data through GetDataObj and
// GetDataPtr. A block whose count disagrees with its layout stops the core at the decoder's ASSERT.
#include <cstring>

#include "gtest/gtest.h"
#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void list_tensor(GM_ADDR list, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * sizeof(float));
    GlobalTensor<float> yg;
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 32);
    ListTensorDesc l(reinterpret_cast<__gm__ void *>(list));  // DECODE_LINE
    yg.SetValue(0, static_cast<float>(l.GetSize()));
    uint64_t shape[2];
    TensorDesc<float> desc;
    desc.SetShapeAddr(shape);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t i = 0; i < l.GetSize(); ++i) {
        l.GetDesc(desc, i);
        yg.SetValue(1 + 4 * i, static_cast<float>(desc.GetDim()));
        yg.SetValue(2 + 4 * i, static_cast<float>(desc.GetIndex()));
        yg.SetValue(3 + 4 * i, static_cast<float>(desc.GetShape(0)));
        yg.SetValue(4 + 4 * i, static_cast<float>(desc.GetShape(1)));
        GlobalTensor<float> data = desc.GetDataObj();
        DataCopy(t[8 * i], data, 8);
    }
    GlobalTensor<float> second;
    second.SetGlobalBuffer(l.GetDataPtr<float>(1), 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg[16], t, 16);
    PipeBarrier<PIPE_ALL>();
    yg.SetValue(9, second.GetValue(7));
}

static uint64_t *Block(float *a, float *b, uint64_t statedCount) {
    auto *w = reinterpret_cast<uint64_t *>(GmAlloc(9 * sizeof(uint64_t)));
    w[0] = 7 * sizeof(uint64_t);                       // the pointers follow two 3-word records
    w[1] = 2 | (statedCount << 32); w[2] = 2; w[3] = 4;  // record 0: dim 2, shape [2, 4]
    w[4] = 2 | (1ull << 32); w[5] = 1; w[6] = 8;         // record 1: index 1, shape [1, 8]
    w[7] = reinterpret_cast<uint64_t>(a);
    w[8] = reinterpret_cast<uint64_t>(b);
    return w;
}

static void RunList(uint64_t statedCount, const char *out) {
    auto *a = reinterpret_cast<float *>(GmAlloc(8 * sizeof(float)));
    auto *b = reinterpret_cast<float *>(GmAlloc(8 * sizeof(float)));
    for (int i = 0; i < 8; ++i) { a[i] = 1.5f + i; b[i] = -0.25f * i; }
    uint64_t *w = Block(a, b, statedCount);
    auto *y = reinterpret_cast<float *>(GmAlloc(32 * sizeof(float)));
    std::memset(y, 0, 32 * sizeof(float));
    ICPU_RUN_KF(list_tensor, 1, reinterpret_cast<uint8_t *>(w), reinterpret_cast<uint8_t *>(y));
    FILE *f = std::fopen(out, "wb");
    std::fwrite(y, sizeof(float), 32, f);
    std::fclose(f);
}

TEST(list_tensor, count_from_the_last_record) { RunList(0, "list.counted.bin"); }
TEST(list_tensor, count_stated) { RunList(2, "list.stated.bin"); }
TEST(list_tensor_bad, count_disagrees) { RunList(3, "list.bad.bin"); }
