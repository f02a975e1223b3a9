/* aclnnThresholdBackward's op_api unit test in C++, as upstream writes them: phase 1's status codes
 * for the checks op_api/aclnn_threshold_backward.cpp makes, in its order. Run it with
 *     opsnn ut opsnn/activation/threshold_grad_v2_d/tests/ut/op_api/test_aclnn_threshold_backward.cpp
 * Like upstream's op_api UTs it builds the op_api alone (no op_host, no kernel): launches are
 * recorded, not tiled. Tensors are made with aclCreateTensor on device memory from aclrtMalloc. */
#include <vector>

#include "gtest/gtest.h"

#include "../../../op_api/aclnn_threshold_backward.h"
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "opdev/platform.h"

namespace {

/* A tensor of `shape` and `dtype` over fresh device memory (contiguous unless strides given). */
aclTensor *Tensor(const std::vector<int64_t> &shape, aclDataType dtype, std::vector<int64_t> strides = {}) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (strides.empty()) {
        strides.assign(shape.size(), 1);
        for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
    }
    void *device = nullptr;
    EXPECT_EQ(aclrtMalloc(&device, (n > 0 ? n : 1) * 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                           shape.size(), device);
}

aclnnStatus Phase1(const aclTensor *grad, const aclTensor *self, float threshold, aclTensor *out,
                   uint64_t *workspace = nullptr) {
    aclScalar *t = aclCreateScalar(&threshold, ACL_FLOAT);
    uint64_t size = 0;
    aclOpExecutor *executor = nullptr;
    aclnnStatus status = aclnnThresholdBackwardGetWorkspaceSize(grad, self, t, out, &size, &executor);
    if (workspace != nullptr) *workspace = size;
    aclDestroyScalar(t);
    return status;
}

}  // namespace

class threshold_backward_op_api : public testing::Test {
protected:
    static void SetUpTestCase() {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // the SoC is the device's: opsnn ut's --soc (Ascend910B)
    }
};

TEST_F(threshold_backward_op_api, float_same_shape_succeeds) {
    EXPECT_EQ(Phase1(Tensor({2, 2}, ACL_FLOAT), Tensor({2, 2}, ACL_FLOAT), 1.0f, Tensor({2, 2}, ACL_FLOAT)),
              ACLNN_SUCCESS);
}

TEST_F(threshold_backward_op_api, the_relu_threshold_succeeds) {
    EXPECT_EQ(Phase1(Tensor({10}, ACL_INT32), Tensor({10}, ACL_INT32), 0.0f, Tensor({10}, ACL_INT32)), ACLNN_SUCCESS);
}

TEST_F(threshold_backward_op_api, null_inputs_are_161001) {
    EXPECT_EQ(Phase1(nullptr, Tensor({2}, ACL_FLOAT), 1.0f, Tensor({2}, ACL_FLOAT)), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(Phase1(Tensor({2}, ACL_FLOAT), nullptr, 1.0f, Tensor({2}, ACL_FLOAT)), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(Phase1(Tensor({2}, ACL_FLOAT), Tensor({2}, ACL_FLOAT), 1.0f, nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(threshold_backward_op_api, int64_is_not_an_atlas_a2_dtype) {
    EXPECT_EQ(Phase1(Tensor({2, 3}, ACL_INT64), Tensor({2, 3}, ACL_INT64), 0.0f, Tensor({2, 3}, ACL_INT64)),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(threshold_backward_op_api, mismatched_dtypes_are_161002) {
    EXPECT_EQ(Phase1(Tensor({2, 3}, ACL_FLOAT16), Tensor({2, 3}, ACL_FLOAT), 1.0f, Tensor({2, 3}, ACL_FLOAT)),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1(Tensor({2, 3}, ACL_FLOAT), Tensor({2, 3}, ACL_FLOAT), 1.0f, Tensor({2, 3}, ACL_FLOAT16)),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(threshold_backward_op_api, broadcast_shapes) {
    EXPECT_EQ(Phase1(Tensor({2, 1}, ACL_INT32), Tensor({2, 3}, ACL_INT32), 1.0f, Tensor({2, 3}, ACL_INT32)),
              ACLNN_SUCCESS);
    EXPECT_EQ(Phase1(Tensor({2, 1}, ACL_INT32), Tensor({2, 3}, ACL_INT32), 1.0f, Tensor({2, 4}, ACL_INT32)),
              ACLNN_ERR_PARAM_INVALID);  // out is not the broadcast shape
    EXPECT_EQ(Phase1(Tensor({2, 2}, ACL_INT32), Tensor({2, 3}, ACL_INT32), 1.0f, Tensor({2, 3}, ACL_INT32)),
              ACLNN_ERR_PARAM_INVALID);  // not broadcastable
}

TEST_F(threshold_backward_op_api, rank_nine_is_161002) {
    const std::vector<int64_t> shape(9, 2);
    EXPECT_EQ(Phase1(Tensor(shape, ACL_FLOAT), Tensor(shape, ACL_FLOAT), 1.0f, Tensor(shape, ACL_FLOAT)),
              ACLNN_ERR_PARAM_INVALID);
}

TEST_F(threshold_backward_op_api, empty_tensors_need_no_workspace) {
    uint64_t workspace = 1;
    EXPECT_EQ(Phase1(Tensor({2, 0}, ACL_INT32), Tensor({2, 0}, ACL_INT32), 1.0f, Tensor({2, 0}, ACL_INT32),
                     &workspace),
              ACLNN_SUCCESS);
    EXPECT_EQ(workspace, 0u);
}

TEST_F(threshold_backward_op_api, a_strided_view_is_accepted) {
    EXPECT_EQ(Phase1(Tensor({2, 2}, ACL_FLOAT, {1, 2}), Tensor({2, 2}, ACL_FLOAT), 2.0f, Tensor({2, 2}, ACL_FLOAT)),
              ACLNN_SUCCESS);
}
