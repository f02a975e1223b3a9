/* opsnn host twin: gert::TensorData -- a tensor's address, its byte size, where it lives, and an
 * optional manager callback that resolves, shares and frees the address. Move-only: the manager
 * owns what it manages. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_

#include <cstddef>
#include <cstdint>

#include "graph/error_codes.h"

namespace gert {
using TensorAddress = void *;
using ConstTensorAddressPtr = const void *;

enum TensorPlacement : int32_t {
    kOnDeviceHbm,  // device memory
    kOnHost,       // host memory elsewhere
    kFollowing,    // host memory right after the Tensor object itself
    kOnDeviceP2p,
    kTensorPlacementEnd
};

class TensorPlacementUtils {
public:
    static bool IsOnDevice(TensorPlacement p) { return p == kOnDeviceHbm || p == kOnDeviceP2p; }
    static bool IsOnHost(TensorPlacement p) { return p == kOnHost || p == kFollowing; }
    static bool IsOnHostFollowing(TensorPlacement p) { return p == kFollowing; }
    static bool IsOnHostNotFollowing(TensorPlacement p) { return p == kOnHost; }
    static bool IsOnDeviceHbm(TensorPlacement p) { return p == kOnDeviceHbm; }
    static bool IsOnDeviceP2p(TensorPlacement p) { return p == kOnDeviceP2p; }
};

enum TensorOperateType : int32_t { kGetTensorAddress, kFreeTensor, kPlusShareCount, kTensorOperateType };
using TensorAddrManager = ge::graphStatus (*)(TensorAddress addr, TensorOperateType operate_type, void **out);

class TensorData {
public:
    explicit TensorData(TensorAddress addr = nullptr, const TensorAddrManager manager = nullptr)
        : TensorData(addr, manager, 0U, kTensorPlacementEnd) {}
    TensorData(TensorAddress addr, const TensorAddrManager manager, size_t size, TensorPlacement placement)
        : addr_(addr), manager_(manager), size_(size), placement_(placement) {}
    TensorData(const TensorData &) = delete;
    TensorData &operator=(const TensorData &) = delete;
    TensorData(TensorData &&other) noexcept { TakeFrom(other); }
    TensorData &operator=(TensorData &&other) noexcept {
        if (this != &other) {
            (void)Free();
            TakeFrom(other);
        }
        return *this;
    }
    ~TensorData() noexcept { (void)Free(); }

    /* The address; a managed one as its manager resolves it (nullptr where that fails). */
    TensorAddress GetAddr() const {
        if (manager_ == nullptr || addr_ == nullptr) {
            return addr_;
        }
        TensorAddress resolved = nullptr;
        return manager_(addr_, kGetTensorAddress, &resolved) == ge::GRAPH_SUCCESS ? resolved : nullptr;
    }
    size_t GetSize() const { return size_; }
    void SetSize(const size_t size) { size_ = size; }
    TensorPlacement GetPlacement() const { return placement_; }
    void SetPlacement(const TensorPlacement placement) { placement_ = placement; }
    ge::graphStatus Free() {
        if (manager_ == nullptr) {
            return ge::GRAPH_SUCCESS;
        }
        const ge::graphStatus ret = manager_(addr_, kFreeTensor, nullptr);
        if (ret == ge::GRAPH_SUCCESS) {
            addr_ = nullptr;
            manager_ = nullptr;
        }
        return ret;
    }
    ge::graphStatus SetAddr(const ConstTensorAddressPtr addr, TensorAddrManager manager) {
        const ge::graphStatus ret = Free();
        if (ret == ge::GRAPH_SUCCESS) {
            addr_ = const_cast<TensorAddress>(addr);
            manager_ = manager;
        }
        return ret;
    }
    bool IsSharedWith(const TensorData &other) const {
        return addr_ == other.addr_ && manager_ == other.manager_ && size_ == other.size_ &&
               placement_ == other.placement_;
    }
    ge::graphStatus ShareFrom(const TensorData &other) {
        if (IsSharedWith(other)) {
            return ge::GRAPH_SUCCESS;
        }
        const ge::graphStatus ret = Free();
        if (ret != ge::GRAPH_SUCCESS) {
            return ret;
        }
        addr_ = other.addr_;
        manager_ = other.manager_;
        size_ = other.size_;
        placement_ = other.placement_;
        return manager_ == nullptr ? ge::GRAPH_SUCCESS : manager_(addr_, kPlusShareCount, nullptr);
    }
    /* Gives up the address without freeing it. */
    TensorAddress Release(TensorAddrManager &manager) {
        TensorAddress addr = addr_;
        manager = manager_;
        addr_ = nullptr;
        manager_ = nullptr;
        size_ = 0U;
        placement_ = kTensorPlacementEnd;
        return addr;
    }

private:
    void TakeFrom(TensorData &other) {
        addr_ = other.addr_;
        manager_ = other.manager_;
        size_ = other.size_;
        placement_ = other.placement_;
        other.addr_ = nullptr;
        other.manager_ = nullptr;
        other.size_ = 0U;
        other.placement_ = kTensorPlacementEnd;
    }
    TensorAddress addr_ = nullptr;
    TensorAddrManager manager_ = nullptr;
    size_t size_ = 0U;
    TensorPlacement placement_ = kTensorPlacementEnd;
};
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_TENSOR_DATA_H_
