/* The plan inside an aclOpExecutor: what phase 1 recorded, and how phase 2 binds it to addresses. */
#ifndef OPSNN_HOST_SRC_OPDEV_EXECUTOR_IMPL_H_
#define OPSNN_HOST_SRC_OPDEV_EXECUTOR_IMPL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "opdev/common_types.h"
#include "opdev/op_executor.h"
#include "opsnn_host/launch.h"
#include "tensor_storage.h"

namespace opsnn_host {

constexpr uint64_t kWorkspaceAlign = 512;
inline uint64_t AlignWorkspace(uint64_t n) { return (n + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign; }

/* A tensor as a step reads or writes it at phase 2: its own copy of the description and the
 * address, so the step does not need the aclTensor (the program may destroy it after phase 2). */
struct TensorSnapshot {
    uint8_t *base = nullptr;  // storage address
    op::DataType dtype = op::DataType::DT_FLOAT;
    op::Format format = op::Format::FORMAT_ND;
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    int64_t offset = 0;  // elements
    bool present = true;  // false: an optional operand left out

    uint8_t *Data() const { return base == nullptr ? nullptr : base + offset * static_cast<int64_t>(op::TypeSize(dtype)); }
    int64_t Numel() const;
    /* Bytes from Data() to one past the last element the view reads (0 when empty). */
    uint64_t SpanBytes() const;
};
TensorSnapshot Snapshot(const aclTensor *t);

/* One recorded step. Host steps (data movement) are a function of their operands' snapshots;
 * kernel steps carry the launch request and the tiling phase 1 made. */
struct Step {
    enum Kind { kHost, kKernel, kAicpu };
    Kind kind = kHost;
    std::string name;  // "Contiguous", "Cast", "ThresholdGradV2D", ...
    std::string site;  // where the op_api recorded it: "l0 ReluGrad (relu_grad.cpp:33)"
    std::vector<const aclTensor *> operands;
    std::function<std::string(const std::vector<TensorSnapshot> &)> host;  // "" or the failure
    LaunchRequest request;  // kernel: inputs then outputs are the operands
    size_t inputCount = 0;
    bool tiled = false;
    TilingResult tiling;
};

/* What phase 2 queues: the steps bound to addresses, runnable without the executor. */
struct BoundWork {
    std::string api;
    std::vector<std::function<std::string()>> steps;
    std::vector<std::pair<uintptr_t, uint64_t>> deviceRanges;  // what the work reads and writes
};

class ExecutorImpl {
public:
    explicit ExecutorImpl(aclOpExecutor *owner);
    ~ExecutorImpl();

    /* Objects the executor frees with itself. */
    template <typename T>
    T *Own(T *object) {
        if (object != nullptr) {
            owned_.push_back(object);
        }
        return object;
    }
    aclTensor *NewIntermediate(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dtype,
                               op::Format storageFormat, op::Format originFormat);
    aclTensor *NewView(const aclTensor &base, const op::Shape &shape, const op::Strides &strides, int64_t offset);

    void AddHostStep(const std::string &name, std::vector<const aclTensor *> operands,
                     std::function<std::string(const std::vector<TensorSnapshot> &)> run);
    void AddStep(Step step) { steps_.push_back(std::move(step)); }
    /* A failure phase 1 met that phase 2 must report (the op_api may ignore the launch's status). */
    void RecordFailure(aclnnStatus status, const std::string &message);
    void NeedKernelWorkspace(uint64_t bytes);

    /* Freezes the intermediates' slots; the workspace size. */
    uint64_t Plan();
    uint64_t WorkspaceSize() { return Plan(); }

    /* Phase 2: the first failure recorded at phase 1 (status 0 when none) and why. */
    aclnnStatus PendingFailure(std::string *why) const;
    /* Phase 2: binds every step to `workspace` (which holds WorkspaceSize() bytes). */
    BoundWork Bind(void *workspace, uint64_t workspaceSize);

    bool Empty() const { return steps_.empty(); }
    const std::string &Soc() const { return soc_; }
    uint64_t Epoch() const { return epoch_; }
    const std::string &Api() const { return api_; }
    void SetL0(const std::string &name, const std::string &site) {
        l0Name_ = name;
        l0Site_ = site;
    }
    std::string L0Site() const;
    void *WorkspaceAddr() const { return workspaceAddr_; }

private:
    struct Slot {
        std::shared_ptr<TensorStorage> storage;
        const aclTensor *tensor;
        uint64_t offset = 0;
    };
    aclOpExecutor *owner_;
    std::vector<op::Object *> owned_;
    std::vector<Slot> slots_;
    std::vector<Step> steps_;
    bool planned_ = false;
    uint64_t intermediateBytes_ = 0;
    uint64_t kernelWorkspace_ = 0;
    aclnnStatus failure_ = ACLNN_SUCCESS;
    std::string failureMessage_;
    std::string soc_;
    uint64_t epoch_ = 0;
    std::string api_;
    std::string l0Name_;
    std::string l0Site_;
    void *workspaceAddr_ = nullptr;
};

/* The executor's plan (aclOpExecutor::Impl, for code that holds a pointer that may be null). */
inline ExecutorImpl *ImplOf(aclOpExecutor *executor) { return executor == nullptr ? nullptr : &executor->Impl(); }

/* Copy `src` (read through `srcStrides`, which may hold 0 for broadcast dims) into `dst`, element
 * by element over dst's shape; converting when the dtypes differ (element_cast.h). */
void CopyElements(const TensorSnapshot &src, const std::vector<int64_t> &srcStrides, const TensorSnapshot &dst);

/* The phase-1 call site the launch macros set, and the API phase 1 / phase 2 is in. */
std::string TakeCallSite();
void CallSite(std::string *file, int *line);  // the launch macro's, without consuming it
/* Whether `executor` is one a phase 1 made and no run or delete has retired. */
bool IsLiveExecutor(const aclOpExecutor *executor);
const std::string &CurrentApi();

/* src/acl/runtime.cpp: the acl runtime as the executor sees it. */
namespace acl {
/* The init generation of this thread's current device (0: no device set). */
uint64_t ThreadEpoch();
bool Initialized();
uint64_t Epoch();
bool DeviceRange(const void *ptr, uint64_t bytes);
/* Queue `work` on `stream` (nullptr: this thread's default stream); 0, or an acl status with why. */
int Enqueue(void *stream, BoundWork work, std::string *why);
}  // namespace acl

}  // namespace opsnn_host

#endif  // OPSNN_HOST_SRC_OPDEV_EXECUTOR_IMPL_H_
