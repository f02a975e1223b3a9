// The C ABI's behaviour, one `key=value` line per fact; tests/capi/test_behaviour.py holds the
// expected values (the Python layer's codes). Written in upstream's style, as a user would.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_threshold_backward.h"

static void Put(const char *key, long long value) { printf("%s=%lld\n", key, value); }
static void PutS(const char *key, const char *value) { printf("%s=%s\n", key, value ? value : "(null)"); }

static aclTensor *Tensor(const std::vector<int64_t> &shape, aclDataType dt, void *dev,
                         const std::vector<int64_t> *strides = nullptr, int64_t offset = 0,
                         const std::vector<int64_t> *storage = nullptr) {
    const std::vector<int64_t> &st = storage ? *storage : shape;
    return aclCreateTensor(shape.data(), shape.size(), dt, strides ? strides->data() : nullptr, offset,
                           aclFormat::ACL_FORMAT_ND, st.data(), st.size(), dev);
}

// Phase 1 + workspace + phase 2 + sync of ThresholdBackward; the first non-zero status.
static int RunBackward(aclTensor *g, aclTensor *s, aclScalar *t, aclTensor *o, aclrtStream stream) {
    uint64_t ws = 0;
    aclOpExecutor *ex;
    int ret = aclnnThresholdBackwardGetWorkspaceSize(g, s, t, o, &ws, &ex);
    if (ret != 0) return ret;
    void *w = nullptr;
    if (ws > 0 && (ret = aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST)) != 0) return ret;
    ret = aclnnThresholdBackward(w, ws, ex, stream);
    if (ret == 0) ret = aclrtSynchronizeStream(stream);
    if (w) aclrtFree(w);
    return ret;
}

int main() {
    // typed function pointers, as upstream programs store them
    std::unique_ptr<void, aclError (*)(void *)> no_memory(nullptr, aclrtFree);
    std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor *)> no_tensor(nullptr, aclDestroyTensor);
    static_assert(std::is_pointer<aclrtStream>::value, "aclrtStream is a pointer type");

    PutS("soc_before_init", aclrtGetSocName());
    Put("set_device_before_init", aclrtSetDevice(0));
    PutS("msg_before_init_nonnull", aclGetRecentErrMsg() ? "yes" : "no");
    Put("init", aclInit(nullptr));
    Put("init_again", aclInit(nullptr));
    PutS("soc", aclrtGetSocName());
    Put("set_device", aclrtSetDevice(0));
    Put("set_device_bad", aclrtSetDevice(7));
    aclrtStream stream;
    Put("create_stream", aclrtCreateStream(&stream));
    Put("create_stream_null", aclrtCreateStream(nullptr));
    uint32_t count = 0;
    Put("device_count_status", aclrtGetDeviceCount(&count));
    Put("device_count", count);

    // recent error: set by a failure, read once (then NULL)
    aclGetRecentErrMsg();
    void *p = nullptr;
    Put("malloc_zero", aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
    const char *msg = aclGetRecentErrMsg();
    Put("malloc_zero_msg_has_size", msg != nullptr && strstr(msg, "size") != nullptr);
    PutS("msg_after_read", aclGetRecentErrMsg());

    // memory and copies
    float host[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {0}, other[8] = {0};
    void *dev = nullptr, *dev2 = nullptr;
    Put("malloc", aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    Put("malloc2", aclrtMalloc(&dev2, sizeof host, ACL_MEM_MALLOC_NORMAL_ONLY));
    Put("malloc_bad_policy", aclrtMalloc(&p, 64, static_cast<aclrtMemMallocPolicy>(99)));
    Put("h2d", aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
    Put("d2d", aclrtMemcpy(dev2, sizeof host, dev, sizeof host, ACL_MEMCPY_DEVICE_TO_DEVICE));
    Put("d2h", aclrtMemcpy(back, sizeof back, dev2, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    Put("d2h_same", memcmp(back, host, sizeof host) == 0);
    Put("count_over_destmax", aclrtMemcpy(back, 8, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    Put("h2d_past_allocation", aclrtMemcpy(dev, 4096, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    Put("h2h", aclrtMemcpy(other, sizeof other, host, sizeof host, ACL_MEMCPY_HOST_TO_HOST));
    Put("h2h_same", memcmp(other, host, sizeof host) == 0);
    std::memset(back, 0, sizeof back);
    Put("default_d2h", aclrtMemcpy(back, sizeof back, dev, sizeof back, ACL_MEMCPY_DEFAULT));
    Put("default_d2h_same", memcmp(back, host, sizeof host) == 0);
    Put("bad_kind", aclrtMemcpy(back, sizeof back, dev, sizeof back, static_cast<aclrtMemcpyKind>(42)));
    Put("d2h_null_dst", aclrtMemcpy(nullptr, 32, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST));
    Put("memset", aclrtMemset(dev2, sizeof host, 0x3f, 4));
    unsigned char bytes[8] = {0};
    aclrtMemcpy(bytes, sizeof bytes, dev2, sizeof bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    Put("memset_bytes", bytes[0] == 0x3f && bytes[3] == 0x3f && bytes[4] == 0);  // host[1] = 2.0f starts 0x00
    Put("memset_over_max", aclrtMemset(dev2, 2, 0, 4));
    void *pinned = nullptr;
    Put("malloc_host", aclrtMallocHost(&pinned, 64));
    Put("h2d_from_malloc_host", (std::memcpy(pinned, host, sizeof host),
                                 aclrtMemcpy(dev2, sizeof host, pinned, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE)));
    Put("free_host", aclrtFreeHost(pinned));
    Put("free_twice", (aclrtFree(dev2), aclrtFree(dev2)));

    // fp16
    Put("f16_one", aclFloatToFloat16(1.0f));
    Put("f16_round_even", aclFloatToFloat16(1.0f + 1.0f / 2048));  // a tie: stays 0x3c00
    Put("f16_nan", aclFloatToFloat16(NAN));
    Put("f16_inf", aclFloatToFloat16(INFINITY));
    Put("f16_minus_inf", aclFloatToFloat16(-INFINITY));
    Put("f16_big", aclFloatToFloat16(1e6f));
    Put("f16_subnormal", aclFloatToFloat16(std::ldexp(3.0f, -24)));
    Put("f16_to_f_inf", static_cast<long long>(aclFloat16ToFloat(0x7c00)));
    Put("f16_to_f_nan", static_cast<long long>(aclFloat16ToFloat(0x7e00)));
    Put("f16_to_f_half", static_cast<long long>(aclFloat16ToFloat(0x3800) * 1000));

    // tensors and their getters
    std::vector<int64_t> shape = {2, 3}, strides = {1, 2}, storage = {12};
    aclTensor *t = Tensor(shape, ACL_FLOAT, dev, &strides, 1, &storage);
    // (dev holds only 8 floats but the view's storage says 12: the runtime checks it at the run)
    int64_t *dims = nullptr;
    uint64_t ndims = 0;
    Put("get_view_shape", aclGetViewShape(t, &dims, &ndims));
    Put("view_shape", ndims == 2 ? dims[0] * 10 + dims[1] : -1);
    delete[] dims;
    Put("get_view_strides", aclGetViewStrides(t, &dims, &ndims));
    Put("view_strides", ndims == 2 ? dims[0] * 10 + dims[1] : -1);
    delete[] dims;
    Put("get_storage_shape", aclGetStorageShape(t, &dims, &ndims));
    Put("storage_shape", ndims == 1 ? dims[0] : -1);
    delete[] dims;
    int64_t offset = -1;
    aclFormat format = ACL_FORMAT_UNDEFINED;
    aclDataType dtype = ACL_DT_UNDEFINED;
    Put("get_offset", aclGetViewOffset(t, &offset));
    Put("offset", offset);
    Put("get_format", aclGetFormat(t, &format));
    Put("format", format);
    Put("get_dtype", aclGetDataType(t, &dtype));
    Put("dtype", dtype);
    Put("get_view_shape_null_out", aclGetViewShape(t, nullptr, &ndims));
    Put("get_view_shape_null_tensor", aclGetViewShape(nullptr, &dims, &ndims));
    std::vector<int64_t> flat = {4};
    Put("init_tensor", aclInitTensor(t, flat.data(), 1, ACL_INT32, nullptr, 0, ACL_FORMAT_ND, flat.data(), 1, dev));
    aclGetDataType(t, &dtype);
    Put("dtype_after_init", dtype);
    Put("destroy_tensor", aclDestroyTensor(t));
    Put("destroy_tensor_twice", aclDestroyTensor(t));
    Put("destroy_null", aclDestroyTensor(nullptr) + aclDestroyScalar(nullptr) + aclDestroyIntArray(nullptr) +
                            aclDestroyTensorList(nullptr) + aclDestroyAclOpExecutor(nullptr));
    Put("create_tensor_null_dims", aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0,
                                                   dev) == nullptr);
    aclTensor *zero_d = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, dev);
    Put("create_tensor_0d", zero_d != nullptr);
    aclDestroyTensor(zero_d);
    Put("create_scalar_null", aclCreateScalar(nullptr, ACL_FLOAT) == nullptr);

    // arrays and lists
    int64_t ints[3] = {1, 2, 3};
    float floats[2] = {0.5f, 1.5f};
    bool flags[2] = {true, false};
    aclIntArray *ia = aclCreateIntArray(ints, 3);
    aclFloatArray *fa = aclCreateFloatArray(floats, 2);
    aclBoolArray *ba = aclCreateBoolArray(flags, 2);
    Put("arrays", ia != nullptr && fa != nullptr && ba != nullptr);
    Put("int_array_null", aclCreateIntArray(nullptr, 3) == nullptr);
    Put("destroy_arrays", aclDestroyIntArray(ia) + aclDestroyFloatArray(fa) + aclDestroyBoolArray(ba));

    // ThresholdBackward: the reference data; scalar read at creation
    float feature[4] = {0.2f, 1.2f, 2.2f, 3.2f}, grad[4] = {4.5f, 4.4f, 4.3f, 4.2f}, out[4] = {9, 9, 9, 9};
    void *df = nullptr, *dg = nullptr, *dout = nullptr;
    aclrtMalloc(&df, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dg, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dout, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(df, 16, feature, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dg, 16, grad, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    std::vector<int64_t> s22 = {2, 2};
    aclTensor *self = Tensor(s22, ACL_FLOAT, df), *g = Tensor(s22, ACL_FLOAT, dg), *o = Tensor(s22, ACL_FLOAT, dout);
    aclScalar *threshold;
    {
        double dying = 1.0;  // read now: changing it afterwards must not matter
        threshold = aclCreateScalar(&dying, ACL_DOUBLE);
        dying = 100.0;
    }
    Put("backward", RunBackward(g, self, threshold, o, stream));
    aclrtMemcpy(out, 16, dout, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    Put("backward_out_x10", static_cast<long long>(std::lround(out[0] * 10)) * 1000000 +
                                std::lround(out[1] * 10) * 10000 + std::lround(out[2] * 10) * 100 +
                                std::lround(out[3] * 10));

    // null pointers: 161001
    uint64_t ws = 0;
    aclOpExecutor *ex;
    Put("null_self", aclnnThresholdBackwardGetWorkspaceSize(g, nullptr, threshold, o, &ws, &ex));
    Put("null_executor_set_to_null", ex == nullptr);
    Put("null_threshold", aclnnThresholdBackwardGetWorkspaceSize(g, self, nullptr, o, &ws, &ex));
    Put("null_workspace_size_out", aclnnThresholdBackwardGetWorkspaceSize(g, self, threshold, o, nullptr, &ex));
    Put("null_executor_out", aclnnThresholdBackwardGetWorkspaceSize(g, self, threshold, o, &ws, nullptr));
    Put("null_phase2_executor", aclnnThresholdBackward(nullptr, 0, nullptr, stream));
    Put("null_threshold_value", aclnnThresholdGetWorkspaceSize(self, threshold, nullptr, o, &ws, &ex));
    Put("null_inplace_self", aclnnInplaceThresholdGetWorkspaceSize(nullptr, threshold, threshold, &ws, &ex));
    msg = aclGetRecentErrMsg();
    Put("null_msg_says_nullptr", msg != nullptr && strstr(msg, "nullptr") != nullptr);

    // unsupported dtype / rank > 8: 161002
    aclTensor *d64 = Tensor(s22, ACL_DOUBLE, df);
    Put("double_self", aclnnThresholdBackwardGetWorkspaceSize(d64, d64, threshold, d64, &ws, &ex));
    std::vector<int64_t> rank9(9, 1);
    aclTensor *r9 = Tensor(rank9, ACL_FLOAT, df);
    Put("rank9", aclnnThresholdBackwardGetWorkspaceSize(r9, r9, threshold, r9, &ws, &ex));
    Put("rank9_threshold", aclnnThresholdGetWorkspaceSize(r9, threshold, threshold, r9, &ws, &ex));
    std::vector<int64_t> s3 = {3};
    aclTensor *bad_shape = Tensor(s3, ACL_FLOAT, df);
    Put("not_broadcastable", aclnnThresholdBackwardGetWorkspaceSize(bad_shape, self, threshold, o, &ws, &ex));
    Put("destroyed_tensor", (aclDestroyTensor(bad_shape),
                             aclnnThresholdBackwardGetWorkspaceSize(bad_shape, self, threshold, o, &ws, &ex)));

    // an executor runs once; a second run is the Python layer's status
    Put("phase1", aclnnThresholdBackwardGetWorkspaceSize(g, self, threshold, o, &ws, &ex));
    void *w = nullptr;
    if (ws > 0) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    Put("run_once", aclnnThresholdBackward(w, ws, ex, stream));
    Put("run_twice", aclnnThresholdBackward(w, ws, ex, stream));
    Put("sync", aclrtSynchronizeStream(stream));
    Put("phase1_small_workspace", aclnnThresholdBackwardGetWorkspaceSize(g, self, threshold, o, &ws, &ex));
    Put("run_small_workspace", aclnnThresholdBackward(w, ws > 0 ? ws - 1 : 0, ex, stream));
    Put("phase1_destroyed", aclnnThresholdBackwardGetWorkspaceSize(g, self, threshold, o, &ws, &ex));
    Put("destroy_executor", aclDestroyAclOpExecutor(ex));
    if (w) aclrtFree(w);

    // strided views with element offsets: self is a (2, 2) view, strides (1, 2), offset 1, of 5
    // stored elements {a, b, c, d, e}: self = [[b, d], [c, e]]
    float stored[5] = {-9.0f, 0.5f, 2.0f, 3.0f, 0.1f};
    void *dstore = nullptr;
    aclrtMalloc(&dstore, sizeof stored, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dstore, sizeof stored, stored, sizeof stored, ACL_MEMCPY_HOST_TO_DEVICE);
    std::vector<int64_t> st = {1, 2}, five = {5};
    aclTensor *view = Tensor(s22, ACL_FLOAT, dstore, &st, 1, &five);
    // out as a transposed view too: out[i][j] lands at i + 2 j
    std::vector<int64_t> ost = {1, 2};
    float minus[4] = {-1, -1, -1, -1};
    aclrtMemcpy(dout, 16, minus, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *oview = Tensor(s22, ACL_FLOAT, dout, &ost);
    Put("strided", RunBackward(g, view, threshold, oview, stream));
    aclrtMemcpy(out, 16, dout, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    // grad = [[4.5, 4.4], [4.3, 4.2]], self = [[0.5, 3.0], [2.0, 0.1]], t = 1
    // result = [[0, 4.4], [4.3, 0]], stored transposed: {0, 4.3, 4.4, 0}
    Put("strided_out_x10", static_cast<long long>(std::lround(out[0] * 10)) * 1000000 +
                               std::lround(out[1] * 10) * 10000 + std::lround(out[2] * 10) * 100 +
                               std::lround(out[3] * 10));

    // the default stream (nullptr)
    Put("default_stream", RunBackward(g, self, threshold, o, nullptr));

    // release
    Put("destroy_stream", aclrtDestroyStream(stream));
    Put("destroy_stream_twice", aclrtDestroyStream(stream));
    for (aclTensor *x : {self, g, o, d64, r9, view, oview}) aclDestroyTensor(x);
    aclDestroyScalar(threshold);
    for (void *x : {dev, df, dg, dout, dstore}) aclrtFree(x);
    Put("reset_device", aclrtResetDevice(0));
    Put("finalize", aclFinalize());
    Put("finalize_twice", aclFinalize());
    return 0;
}
