/* op_api UT of opsnn's test operator (../../../op_api), in upstream's op_api UT style (gtest, phase
 * 1 statuses), plus what upstream's UTs cannot check without a device: phase 2 on the emulated
 * device (the acl runtime, libopsnn_kt's GM), the executor's rules, the data-movement l0 ops on
 * strided and offset views, and the Cast's bits. Built and run by `opsnn ut` (its op_api layer). */
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

#include "acl/acl.h"
#include "../../../op_api/aclnn_demo.h"
#include "opdev/op_errno.h"
#include "opdev/platform.h"

namespace {

aclTensor *Desc(const std::vector<int64_t> &view, aclDataType dtype, const std::vector<int64_t> &strides = {},
                int64_t offset = 0, const std::vector<int64_t> &storage = {}, void *data = nullptr) {
    const auto &st = storage.empty() ? view : storage;
    return aclCreateTensor(view.data(), view.size(), dtype, strides.empty() ? nullptr : strides.data(), offset,
                           ACL_FORMAT_ND, st.data(), st.size(), data);
}

std::string RecentErrors() {
    const char *m = aclGetRecentErrMsg();
    return m == nullptr ? "" : m;
}

struct Phase1 {
    uint64_t workspace = 12345;
    aclOpExecutor *executor = reinterpret_cast<aclOpExecutor *>(0x1);
};

}  // namespace

/* ---------------- phase 1, as upstream's op_api UTs check it ---------------- */

TEST(demo_phase1, null_tensor_is_161001_and_clears_the_outputs) {
    aclTensor *out = Desc({2, 3}, ACL_FLOAT);
    Phase1 p;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(nullptr, out, &p.workspace, &p.executor), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(p.executor, nullptr);
    EXPECT_EQ(p.workspace, 0u);
    const std::string why = RecentErrors();
    EXPECT_NE(why.find("op_api aclnn_demo.cpp:"), std::string::npos) << why;  // layer, file and line
    EXPECT_NE(why.find("self"), std::string::npos) << why;
    EXPECT_NE(why.find("(status 161001)"), std::string::npos) << why;
    aclDestroyTensor(out);
}

TEST(demo_phase1, null_workspace_size_or_executor_is_161001) {
    aclTensor *t = Desc({2}, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *e = nullptr;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(t, t, nullptr, &e), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(t, t, &ws, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyTensor(t);
}

TEST(demo_phase1, unsupported_dtype_is_161002_naming_the_tensor_and_dtype) {
    aclTensor *self = Desc({2, 3}, ACL_COMPLEX64);
    aclTensor *out = Desc({2, 3}, ACL_FLOAT);
    Phase1 p;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(self, out, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(p.executor, nullptr);
    const std::string why = RecentErrors();
    EXPECT_NE(why.find("DT_COMPLEX64"), std::string::npos) << why;
    EXPECT_NE(why.find("self"), std::string::npos) << why;
    aclDestroyTensor(self);
    aclDestroyTensor(out);
}

TEST(demo_phase1, a_tensor_of_an_unsupported_dtype_is_made_and_refused_by_the_op) {
    /* aclCreateTensor records any declared aclDataType, as CANN's does (upstream's UTs build such
     * tensors to see the operator refuse them); a view past its storage is refused there */
    aclTensor *undefined = Desc({2}, ACL_DT_UNDEFINED);
    aclTensor *string = Desc({2}, ACL_STRING);
    ASSERT_NE(undefined, nullptr);
    ASSERT_NE(string, nullptr);
    Phase1 p;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(undefined, string, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Desc({3}, ACL_FLOAT, {2}, 0, {4}), nullptr);  // reaches element 4 of 4
    EXPECT_NE(RecentErrors().find("past the storage"), std::string::npos);
    EXPECT_EQ(Desc({3}, static_cast<aclDataType>(5), {}, 0, {}), nullptr);  // no aclDataType 5
    aclDestroyTensor(undefined);
    aclDestroyTensor(string);
}

TEST(demo_phase1, more_than_eight_dims_is_161002) {
    aclTensor *t = Desc({1, 1, 1, 1, 1, 1, 1, 1, 2}, ACL_FLOAT);
    Phase1 p;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(t, t, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(t);
}

TEST(demo_phase1, shapes_that_do_not_broadcast_are_161002_and_ones_that_do_pass) {
    aclTensor *self = Desc({2, 3}, ACL_FLOAT);
    aclTensor *bad = Desc({2, 4}, ACL_FLOAT);
    aclTensor *wide = Desc({4, 2, 3}, ACL_FLOAT);
    aclTensor *col = Desc({2, 1}, ACL_FLOAT);
    Phase1 p;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(self, bad, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(self, wide, &p.workspace, &p.executor), ACLNN_SUCCESS);
    EXPECT_NE(p.executor, nullptr);
    aclDestroyAclOpExecutor(p.executor);
    /* broadcastable, but out is not the broadcast shape */
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(self, col, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    for (aclTensor *t : {self, bad, wide, col}) {
        aclDestroyTensor(t);
    }
}

TEST(demo_phase1, empty_tensor_needs_no_workspace) {
    aclTensor *self = Desc({2, 0}, ACL_FLOAT);
    aclTensor *out = Desc({2, 0}, ACL_FLOAT16);
    Phase1 p;
    EXPECT_EQ(aclnnDemoCopyGetWorkspaceSize(self, out, &p.workspace, &p.executor), ACLNN_SUCCESS);
    EXPECT_EQ(p.workspace, 0u);
    EXPECT_NE(p.executor, nullptr);
    aclDestroyAclOpExecutor(p.executor);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
}

TEST(demo_phase1, workspace_is_one_512_byte_slot_per_intermediate) {
    /* a transposed (non-contiguous) self: Contiguous copies it (24 bytes -> one 512 slot);
     * float -> float16 adds a Cast's slot; float -> float adds none */
    aclTensor *self = Desc({2, 3}, ACL_FLOAT, {1, 2}, 0, {3, 2});
    aclTensor *same = Desc({2, 3}, ACL_FLOAT);
    aclTensor *half = Desc({2, 3}, ACL_FLOAT16);
    aclTensor *big = Desc({2, 3, 100}, ACL_FLOAT16);
    aclTensor *dense = Desc({3, 100}, ACL_FLOAT);
    Phase1 p;
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(self, same, &p.workspace, &p.executor), ACLNN_SUCCESS);
    EXPECT_EQ(p.workspace, 512u);
    aclDestroyAclOpExecutor(p.executor);
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(self, half, &p.workspace, &p.executor), ACLNN_SUCCESS);
    EXPECT_EQ(p.workspace, 1024u);
    aclDestroyAclOpExecutor(p.executor);
    /* contiguous self: no copy; broadcast to [2,3,100] float (2400 bytes -> 2560), cast to half (1200 -> 1536) */
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(dense, big, &p.workspace, &p.executor), ACLNN_SUCCESS);
    EXPECT_EQ(p.workspace, 2560u + 1536u);
    aclDestroyAclOpExecutor(p.executor);
    for (aclTensor *t : {self, same, half, big, dense}) {
        aclDestroyTensor(t);
    }
}

TEST(demo_phase1, the_current_soc_gates_dtypes_and_a_ut_may_set_it_for_a_scope) {
    aclTensor *self = Desc({4}, ACL_BF16);
    aclTensor *out = Desc({4}, ACL_BF16);
    float two = 2.0f;
    aclScalar *alpha = aclCreateScalar(&two, ACL_FLOAT);
    Phase1 p;
    EXPECT_EQ(op::GetCurrentPlatformInfo().GetSocVersion(), op::SocVersion::ASCEND910B);
    EXPECT_EQ(aclnnDemoScaleGetWorkspaceSize(self, alpha, out, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    {
        op::SocVersionManager ascend950(op::SocVersion::ASCEND950);
        EXPECT_EQ(op::GetCurrentPlatformInfo().GetCurNpuArch(), NpuArch::DAV_3510);
        EXPECT_EQ(op::GetCurrentPlatformInfo().GetSocLongVersion(), "Ascend950");
        EXPECT_EQ(aclnnDemoScaleGetWorkspaceSize(self, alpha, out, &p.workspace, &p.executor), ACLNN_SUCCESS);
        aclDestroyAclOpExecutor(p.executor);
    }
    EXPECT_EQ(op::GetCurrentPlatformInfo().GetCurNpuArch(), NpuArch::DAV_2201);
    EXPECT_EQ(aclnnDemoScaleGetWorkspaceSize(self, alpha, out, &p.workspace, &p.executor), ACLNN_ERR_PARAM_INVALID);
    {
        op::NpuArchManager a5(NpuArch::DAV_3510);
        EXPECT_EQ(op::GetCurrentPlatformInfo().GetSocVersion(), op::SocVersion::ASCEND950);
    }
    aclDestroyScalar(alpha);
    aclDestroyTensor(self);
    aclDestroyTensor(out);
}

TEST(demo_phase1, infer_shape_without_a_registered_infershape_is_561001_naming_op_host) {
    aclTensor *self = Desc({2, 3}, ACL_FLOAT);
    Phase1 p;
    EXPECT_EQ(aclnnDemoInferGetWorkspaceSize(self, &p.workspace, &p.executor), ACLNN_ERR_INNER_INFERSHAPE_ERROR);
    const std::string why = RecentErrors();
    EXPECT_NE(why.find("op_api demo_scale.cpp:"), std::string::npos) << why;  // INFER_SHAPE's line
    EXPECT_NE(why.find("op_host infershape: DemoScale: no InferShape is registered"), std::string::npos) << why;
    aclDestroyTensor(self);
}

/* ---------------- phase 2 and the executor, on the emulated device ---------------- */

class DemoDevice : public testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    }
    void TearDown() override {
        for (void *p : buffers_) {
            EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
        }
        for (aclTensor *t : tensors_) {
            aclDestroyTensor(t);
        }
        EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
        EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
    template <typename T>
    void *Upload(const std::vector<T> &host) {
        void *dev = nullptr;
        const size_t bytes = host.size() * sizeof(T);
        EXPECT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        buffers_.push_back(dev);
        return dev;
    }
    template <typename T>
    std::vector<T> Download(void *dev, size_t n) {
        std::vector<T> host(n);
        EXPECT_EQ(aclrtMemcpy(host.data(), n * sizeof(T), dev, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return host;
    }
    aclTensor *Tensor(const std::vector<int64_t> &view, aclDataType dtype, void *data,
                      const std::vector<int64_t> &strides = {}, int64_t offset = 0,
                      const std::vector<int64_t> &storage = {}) {
        aclTensor *t = Desc(view, dtype, strides, offset, storage, data);
        tensors_.push_back(t);
        return t;
    }
    void *Workspace(uint64_t bytes) {
        if (bytes == 0) {
            return nullptr;
        }
        void *ws = nullptr;
        EXPECT_EQ(aclrtMalloc(&ws, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        buffers_.push_back(ws);
        return ws;
    }
    /* Both phases of DemoCopy and a synchronisation; the first failing status. */
    aclnnStatus Copy(aclTensor *self, aclTensor *out) {
        uint64_t size = 0;
        aclOpExecutor *e = nullptr;
        aclnnStatus ret = aclnnDemoCopyGetWorkspaceSize(self, out, &size, &e);
        if (ret != ACLNN_SUCCESS) {
            return ret;
        }
        ret = aclnnDemoCopy(Workspace(size), size, e, stream_);
        if (ret != ACLNN_SUCCESS) {
            return ret;
        }
        return aclrtSynchronizeStream(stream_);
    }
    aclrtStream stream_ = nullptr;
    std::vector<void *> buffers_;
    std::vector<aclTensor *> tensors_;
};

TEST_F(DemoDevice, contiguous_of_a_transposed_offset_view) {
    /* storage 0..11 as [3,4]; self = its [1:, 1:3] transposed: view [2,2] strides [1,4] offset 5 */
    std::vector<float> storage(12);
    for (int i = 0; i < 12; ++i) {
        storage[i] = static_cast<float>(i);
    }
    void *src = Upload(storage);
    void *dst = Upload(std::vector<float>(4, -1.0f));
    aclTensor *self = Tensor({2, 2}, ACL_FLOAT, src, {1, 4}, 5, {12});
    aclTensor *out = Tensor({2, 2}, ACL_FLOAT, dst);
    ASSERT_EQ(Copy(self, out), ACL_SUCCESS);
    EXPECT_EQ(Download<float>(dst, 4), (std::vector<float>{5, 9, 6, 10}));
}

TEST_F(DemoDevice, view_copy_into_a_strided_offset_out_leaves_the_rest_of_its_storage) {
    void *src = Upload(std::vector<int32_t>{1, 2, 3, 4, 5, 6});
    void *dst = Upload(std::vector<int32_t>(16, -7));
    aclTensor *self = Tensor({2, 3}, ACL_INT32, src);
    /* out: [2,3] with strides [1,2] (column-major) starting at element 3 of a 16-element storage */
    aclTensor *out = Tensor({2, 3}, ACL_INT32, dst, {1, 2}, 3, {16});
    ASSERT_EQ(Copy(self, out), ACL_SUCCESS);
    EXPECT_EQ(Download<int32_t>(dst, 16),
              (std::vector<int32_t>{-7, -7, -7, 1, 4, 2, 5, 3, 6, -7, -7, -7, -7, -7, -7, -7}));
}

TEST_F(DemoDevice, broadcast_then_cast) {
    void *src = Upload(std::vector<float>{1.5f, -2.5f, 3.0f});
    void *dst = Upload(std::vector<int16_t>(12, 99));
    aclTensor *self = Tensor({3, 1}, ACL_FLOAT, src);
    aclTensor *out = Tensor({2, 3, 2}, ACL_INT16, dst);
    ASSERT_EQ(Copy(self, out), ACL_SUCCESS);
    /* float -> int16 truncates toward zero */
    EXPECT_EQ(Download<int16_t>(dst, 12), (std::vector<int16_t>{1, 1, -2, -2, 3, 3, 1, 1, -2, -2, 3, 3}));
}

TEST_F(DemoDevice, reshape_reads_a_non_contiguous_self_in_row_major_order) {
    void *src = Upload(std::vector<float>{0, 1, 2, 3, 4, 5});
    void *dst = Upload(std::vector<float>(6, -1));
    aclTensor *self = Tensor({3, 2}, ACL_FLOAT, src, {1, 3}, 0, {6});  // the transpose of [[0,1,2],[3,4,5]]
    aclTensor *out = Tensor({2, 3}, ACL_FLOAT, dst);
    uint64_t size = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnDemoReshapeGetWorkspaceSize(self, out, &size, &e), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnDemoReshape(Workspace(size), size, e, stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<float>(dst, 6), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

namespace {
uint32_t F32Bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float F32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
}  // namespace

TEST_F(DemoDevice, cast_float_to_half_rounds_to_nearest_even_overflows_to_inf_and_keeps_nan_payloads) {
    const std::vector<float> in = {
        1.0f, 65504.0f, 65519.0f, 65520.0f,       // the largest half; below and at the overflow boundary
        1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f,      // ties: to even (down, up)
        0x1p-24f, 0x1p-25f, 3 * 0x1p-26f, -0.0f,  // the smallest subnormal; a tie to zero; 0.75 of it
        F32(0x7FC00000), F32(0x7F800001), F32(0xFF802000), -INFINITY};
    void *src = Upload(in);
    void *dst = Upload(std::vector<uint16_t>(in.size(), 0xAAAA));
    ASSERT_EQ(Copy(Tensor({14}, ACL_FLOAT, src), Tensor({14}, ACL_FLOAT16, dst)), ACL_SUCCESS);
    EXPECT_EQ(Download<uint16_t>(dst, in.size()),
              (std::vector<uint16_t>{0x3C00, 0x7BFF, 0x7BFF, 0x7C00, 0x3C00, 0x3C02, 0x0001, 0x0000, 0x0001, 0x8000,
                                     0x7E00, 0x7C01, 0xFC01, 0xFC00}));
}

TEST_F(DemoDevice, cast_float_to_bfloat16_and_back) {
    const std::vector<float> in = {1.0f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, F32(0x7F7FFFFF), F32(0x7FC00000),
                                   F32(0x7F800001)};
    void *src = Upload(in);
    void *mid = Upload(std::vector<uint16_t>(in.size(), 0));
    void *back = Upload(std::vector<uint32_t>(in.size(), 0));
    aclTensor *bf = Tensor({6}, ACL_BF16, mid);
    ASSERT_EQ(Copy(Tensor({6}, ACL_FLOAT, src), bf), ACL_SUCCESS);
    EXPECT_EQ(Download<uint16_t>(mid, 6), (std::vector<uint16_t>{0x3F80, 0x3F80, 0x3F82, 0x7F80, 0x7FC0, 0x7F81}));
    ASSERT_EQ(Copy(bf, Tensor({6}, ACL_FLOAT, back)), ACL_SUCCESS);  // widening is exact, NaN bits shifted
    EXPECT_EQ(Download<uint32_t>(back, 6),
              (std::vector<uint32_t>{0x3F800000, 0x3F800000, 0x3F820000, 0x7F800000, 0x7FC00000, 0x7F810000}));
}

TEST_F(DemoDevice, cast_to_integers_truncates_and_saturates_nan_is_zero) {
    const std::vector<float> in = {127.9f, 300.0f, -300.0f, -1.9f, NAN, INFINITY, -INFINITY, -0.5f};
    void *src = Upload(in);
    void *i8 = Upload(std::vector<int8_t>(8, 55));
    void *u8 = Upload(std::vector<uint8_t>(8, 55));
    aclTensor *self = Tensor({8}, ACL_FLOAT, src);
    ASSERT_EQ(Copy(self, Tensor({8}, ACL_INT8, i8)), ACL_SUCCESS);
    EXPECT_EQ(Download<int8_t>(i8, 8), (std::vector<int8_t>{127, 127, -128, -1, 0, 127, -128, 0}));
    ASSERT_EQ(Copy(self, Tensor({8}, ACL_UINT8, u8)), ACL_SUCCESS);
    EXPECT_EQ(Download<uint8_t>(u8, 8), (std::vector<uint8_t>{127, 255, 0, 0, 0, 255, 0, 0}));
    /* integer narrowing saturates (the vector unit's default, not two's-complement wrapping) */
    void *wide = Upload(std::vector<int32_t>{200, -200, 127, -129});
    void *narrow = Upload(std::vector<int8_t>(4, 0));
    ASSERT_EQ(Copy(Tensor({4}, ACL_INT32, wide), Tensor({4}, ACL_INT8, narrow)), ACL_SUCCESS);
    EXPECT_EQ(Download<int8_t>(narrow, 4), (std::vector<int8_t>{127, -128, 127, -128}));
}

TEST_F(DemoDevice, cast_from_wide_integers_rounds_once_and_to_bool_tests_nonzero) {
    void *i64 = Upload(std::vector<int64_t>{16777217, 16777219, -16777217, INT64_MIN});
    void *f32 = Upload(std::vector<uint32_t>(4, 0));
    ASSERT_EQ(Copy(Tensor({4}, ACL_INT64, i64), Tensor({4}, ACL_FLOAT, f32)), ACL_SUCCESS);
    EXPECT_EQ(Download<uint32_t>(f32, 4), (std::vector<uint32_t>{F32Bits(16777216.0f), F32Bits(16777220.0f),
                                                                 F32Bits(-16777216.0f), F32Bits(-0x1p63f)}));
    void *u64 = Upload(std::vector<uint64_t>{UINT64_MAX});
    void *one = Upload(std::vector<uint32_t>(1, 0));
    ASSERT_EQ(Copy(Tensor({1}, ACL_UINT64, u64), Tensor({1}, ACL_FLOAT, one)), ACL_SUCCESS);
    EXPECT_EQ(Download<uint32_t>(one, 1)[0], 0x5F800000u);  // 2^64
    void *fl = Upload(std::vector<float>{NAN, -0.0f, 0.25f, 0.0f});
    void *b = Upload(std::vector<uint8_t>(4, 7));
    ASSERT_EQ(Copy(Tensor({4}, ACL_FLOAT, fl), Tensor({4}, ACL_BOOL, b)), ACL_SUCCESS);
    EXPECT_EQ(Download<uint8_t>(b, 4), (std::vector<uint8_t>{1, 0, 1, 0}));
}

TEST_F(DemoDevice, an_executor_runs_once) {
    void *src = Upload(std::vector<float>{1, 2});
    void *dst = Upload(std::vector<float>{0, 0});
    uint64_t size = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(Tensor({2}, ACL_FLOAT, src, {1}, 0, {2}), Tensor({2}, ACL_FLOAT16, dst),
                                            &size, &e),
              ACLNN_SUCCESS);
    void *ws = Workspace(size);
    EXPECT_EQ(aclnnDemoCopy(ws, size, e, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnDemoCopy(ws, size, e, stream_), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_NE(RecentErrors().find("already been run"), std::string::npos);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);  // freed by its run: nothing to free, no crash
}

TEST_F(DemoDevice, a_refused_run_leaves_the_executor_usable) {
    void *src = Upload(std::vector<float>{1, 2, 3, 4});
    void *dst = Upload(std::vector<uint16_t>(4, 0));
    uint64_t size = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(Tensor({2, 2}, ACL_FLOAT, src, {1, 2}), Tensor({2, 2}, ACL_FLOAT16, dst),
                                            &size, &e),
              ACLNN_SUCCESS);
    ASSERT_EQ(size, 1024u);
    void *ws = Workspace(size);
    EXPECT_EQ(aclnnDemoCopy(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclnnDemoCopy(ws, size - 1, e, stream_), ACLNN_ERR_RUNTIME_ERROR);  // smaller than asked
    EXPECT_NE(RecentErrors().find("smaller than the 1024 bytes"), std::string::npos);
    std::vector<uint8_t> host(size);
    EXPECT_EQ(aclnnDemoCopy(host.data(), size, e, stream_), ACLNN_ERR_RUNTIME_ERROR);  // not device memory
    EXPECT_EQ(aclnnDemoCopy(ws, size, e, stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Download<uint16_t>(dst, 4), (std::vector<uint16_t>{0x3C00, 0x4200, 0x4000, 0x4400}));  // 1 3 2 4
}

TEST_F(DemoDevice, a_pointer_no_phase_1_made_is_161002) {
    int not_an_executor = 0;
    EXPECT_EQ(aclnnDemoCopy(nullptr, 0, reinterpret_cast<aclOpExecutor *>(&not_an_executor), stream_),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(DemoDevice, an_executor_dies_with_its_runtime) {
    void *src = Upload(std::vector<float>{1});
    uint64_t size = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(Tensor({1}, ACL_FLOAT, src), Tensor({1}, ACL_FLOAT, src), &size, &e),
              ACLNN_SUCCESS);
    for (void *p : buffers_) {
        aclrtFree(p);
    }
    buffers_.clear();
    ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(aclnnDemoCopy(nullptr, 0, e, nullptr), ACLNN_ERR_RUNTIME_ERROR);  // not initialized
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    EXPECT_EQ(aclnnDemoCopy(nullptr, 0, e, stream_), ACLNN_ERR_INNER_NULLPTR);  // planned before the finalize
    EXPECT_NE(RecentErrors().find("aclFinalize"), std::string::npos);
    aclDestroyAclOpExecutor(e);
}

TEST_F(DemoDevice, a_launch_without_op_host_is_recorded_and_refused_at_phase_2) {
    void *src = Upload(std::vector<float>{1, 2});
    float two = 2.0f;
    aclScalar *alpha = aclCreateScalar(&two, ACL_FLOAT);
    uint64_t size = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnDemoScaleGetWorkspaceSize(Tensor({2}, ACL_FLOAT, src), alpha, Tensor({2}, ACL_FLOAT, src), &size, &e),
              ACLNN_SUCCESS);
    EXPECT_EQ(size, 512u);  // DemoScale's output; no tiling ran, so no kernel workspace
    EXPECT_EQ(aclnnDemoScale(Workspace(size), size, e, stream_), ACLNN_ERR_INNER_TILING_ERROR);
    const std::string why = RecentErrors();
    EXPECT_NE(why.find("DemoScale"), std::string::npos) << why;
    EXPECT_NE(why.find("demo_scale.cpp:"), std::string::npos) << why;  // the launch's site
    EXPECT_NE(why.find("no registered tiling"), std::string::npos) << why;
    aclDestroyAclOpExecutor(e);
    aclDestroyScalar(alpha);
}

TEST_F(DemoDevice, a_copy_racing_queued_work_runs_the_work_first) {
    void *src = Upload(std::vector<float>{1, 2, 3});
    void *dst = Upload(std::vector<float>(3, 0));
    uint64_t size = 0;
    aclOpExecutor *e = nullptr;
    ASSERT_EQ(aclnnDemoCopyGetWorkspaceSize(Tensor({3}, ACL_FLOAT, src), Tensor({3}, ACL_FLOAT, dst), &size, &e),
              ACLNN_SUCCESS);
    ASSERT_EQ(aclnnDemoCopy(Workspace(size), size, e, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(Download<float>(dst, 3), (std::vector<float>{1, 2, 3}));  // no synchronize: warned, not stale
    EXPECT_NE(RecentErrors().find("races work still queued"), std::string::npos);
}

TEST_F(DemoDevice, memcpy_checks_dest_max_and_device_ranges) {
    void *dev = Upload(std::vector<float>(4, 0));
    std::vector<float> host(8, 1);
    EXPECT_EQ(aclrtMemcpy(dev, 8, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpy(dev, 32, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtMemcpy(static_cast<char *>(dev) + 4, 16, host.data(), 12, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(host.data(), 32, dev, 16, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);  // device side by address
    EXPECT_EQ(host[0], 0.0f);
    EXPECT_EQ(host[1], 1.0f);
    EXPECT_EQ(aclrtMemcpy(host.data(), 32, dev, 16, static_cast<aclrtMemcpyKind>(9)), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemset(dev, 16, 0x1FF, 20), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemset(dev, 16, 0x1FF, 16), ACL_SUCCESS);  // the low byte
    EXPECT_EQ(Download<uint32_t>(dev, 4), (std::vector<uint32_t>(4, 0xFFFFFFFFu)));
    EXPECT_EQ(aclrtFree(static_cast<char *>(dev) + 4), ACL_ERROR_RT_PARAM_INVALID);
}
