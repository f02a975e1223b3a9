/* opsnn host twin: opdev/op_executor.h -- aclOpExecutor, the plan phase 1 records and phase 2 runs.
 *
 * Phase 1 (aclnnXxxGetWorkspaceSize) creates one through CREATE_EXECUTOR(), lets the l0 ops record
 * their work into it (data movement: Contiguous, ViewCopy, Cast, BroadcastTo, Reshape; kernel
 * launches: ADD_TO_LAUNCHER_LIST_AICORE, whose tiling runs here when the op type has one), reports
 * GetWorkspaceSize() and hands it to the caller with ReleaseTo. Phase 2 (CommonOpExecutorRun)
 * checks the workspace and queues the recorded steps, in order, on the stream; they run at the
 * stream's synchronisation. An executor runs once (a second run is 561103); a phase 2 refused
 * before anything was queued leaves it as it was.
 *
 * Workspace layout: each intermediate tensor (AllocTensor) in its own slot, 512-byte aligned and a
 * multiple of 512 bytes long, in order of allocation; then one region for the kernels' own
 * workspace (the tiling's workspace sizes, summed per launch), as large as the largest launch
 * needs, since launches run one after another. The same layout as opsnn's Python aclnn layer
 * (opsnn/aclnn/workspace.py), restated here because this executor runs without Python. */
#ifndef OPSNN_HOST_OPDEV_OP_EXECUTOR_H_
#define OPSNN_HOST_OPDEV_OP_EXECUTOR_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_base_rt.h"
#include "aclnn/acl_meta.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/fast_vector.h"
#include "opdev/object.h"
#include "opdev/op_arg_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_errno.h"
#include "opdev/op_log.h"

namespace opsnn_host {
class ExecutorImpl;  // src/opdev/executor_impl.h
}

struct aclOpExecutor : public op::Object {
    friend class UniqueExecutor;

protected:
    aclOpExecutor();

public:
    ~aclOpExecutor() override;
    aclOpExecutor(const aclOpExecutor &) = delete;
    aclOpExecutor &operator=(const aclOpExecutor &) = delete;

    /* A device tensor the executor owns, placed in the workspace at phase 2. */
    aclTensor *AllocTensor(const op::Shape &shape, op::DataType dataType, op::Format format = op::Format::FORMAT_ND);
    aclTensor *AllocTensor(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dataType,
                           op::Format storageFormat, op::Format originFormat);
    aclTensor *AllocTensor(op::DataType dataType, op::Format storageFormat, op::Format originFormat);

    /* A host tensor (its data in host memory the executor owns). */
    aclTensor *AllocHostTensor(const op::Shape &shape, op::DataType dataType, op::Format format = op::Format::FORMAT_ND);
    aclTensor *AllocHostTensor(const op::Shape &storageShape, const op::Shape &originShape, op::DataType dataType,
                               op::Format storageFormat, op::Format originFormat);
    aclTensor *AllocHostTensor(const int64_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const uint64_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const bool *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const char *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const int32_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const uint32_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const int16_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const uint16_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const int8_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const uint8_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const double *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const float *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const op::fp16_t *value, uint64_t size, op::DataType dataType);
    aclTensor *AllocHostTensor(const op::bfloat16 *value, uint64_t size, op::DataType dataType);

    /* A view of `tensor`'s storage: contiguous strides for `shape`, starting `offset` elements in. */
    aclTensor *CreateView(const aclTensor *tensor, const op::Shape &shape, int64_t offset);
    aclTensor *CreateView(const aclTensor *tensor, const op::Shape &oriShape, const op::Shape &storageShape,
                          const op::Strides &oriStride, int64_t offset);

    aclIntArray *AllocIntArray(const int64_t *value, uint64_t size);
    aclFloatArray *AllocFloatArray(const float *value, uint64_t size);
    aclBoolArray *AllocBoolArray(const bool *value, uint64_t size);
    /* A list over the given tensors (not owned by the list: they stay the caller's or the executor's). */
    aclTensorList *AllocTensorList(const aclTensor *const *tensors, uint64_t size);
    aclScalarList *AllocScalarList(const aclScalar *const *scalars, uint64_t size);
    aclScalar *AllocScalar(const void *data, op::DataType dataType);
    aclScalar *AllocScalar(float value);
    aclScalar *AllocScalar(double value);
    aclScalar *AllocScalar(op::fp16_t value);
    aclScalar *AllocScalar(op::bfloat16 value);
    aclScalar *AllocScalar(int32_t value);
    aclScalar *AllocScalar(int64_t value);
    aclScalar *AllocScalar(int16_t value);
    aclScalar *AllocScalar(int8_t value);
    aclScalar *AllocScalar(uint32_t value);
    aclScalar *AllocScalar(uint64_t value);
    aclScalar *AllocScalar(uint16_t value);
    aclScalar *AllocScalar(uint8_t value);
    aclScalar *AllocScalar(bool value);

    /* Host tensors holding the values converted to dataType (the shape: [size], or [] for a scalar). */
    const aclTensor *ConvertToTensor(const aclIntArray *value, op::DataType dataType);
    const aclTensor *ConvertToTensor(const aclBoolArray *value, op::DataType dataType);
    const aclTensor *ConvertToTensor(const aclFloatArray *value, op::DataType dataType);
    const aclTensor *ConvertToTensor(const aclFp16Array *value, op::DataType dataType);
    const aclTensor *ConvertToTensor(const aclBf16Array *value, op::DataType dataType);
    const aclTensor *ConvertToTensor(const aclScalar *value, op::DataType dataType);
    template <typename T>
    const aclTensor *ConvertToTensor(const T *value, uint64_t size, op::DataType dataType) {
        return AllocHostTensor(value, size, dataType);
    }

    /* The bytes phase 2 needs (the layout above); freezes the intermediates' places. */
    uint64_t GetWorkspaceSize() const;
    uint64_t GetLinearWorkspaceSize() const { return GetWorkspaceSize(); }
    void *GetWorkspaceAddr() const;
    aclrtStream GetStream() const;
    /* CANN: make an executor runnable more than once. Not modelled: 561000, logged. */
    aclnnStatus SetRepeatable();
    bool IsRepeatable() const { return false; }
    void AbandonCache(bool disableRepeat = false) { (void)disableRepeat; }

    /* opsnn: the plan behind the interface. */
    opsnn_host::ExecutorImpl &Impl() const { return *impl_; }

private:
    std::unique_ptr<opsnn_host::ExecutorImpl> impl_;
};

class UniqueExecutor : public op::Object {
public:
    explicit UniqueExecutor(const char *funcName);
    /* Frees an executor that was never handed over (a failed phase 1). */
    ~UniqueExecutor() override;
    UniqueExecutor(const UniqueExecutor &) = delete;
    UniqueExecutor &operator=(const UniqueExecutor &) = delete;

    aclOpExecutor *get() const { return executor_.get(); }
    aclOpExecutor *operator->() { return executor_.get(); }
    /* Hands the executor to the caller of phase 1 (*executor); the workspace is planned now. */
    void ReleaseTo(aclOpExecutor **executor);

private:
    const char *funcName_;
    std::unique_ptr<aclOpExecutor> executor_;
};

/* Phase 2: check the workspace and the executor, queue its steps on `stream`. */
aclnnStatus CommonOpExecutorRun(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* Called through ADD_TO_LAUNCHER_LIST_AICORE (make_op_executor.h); takes over `args`. */
aclnnStatus CreatAiCoreKernelLauncher(const char *l0Name, uint32_t opType, aclOpExecutor *executor,
                                      op::OpArgContext *args);
/* INFER_SHAPE: the op type's registered infershape (the program's op_host) on the arguments; sets the
 * outputs' shapes. 561001 (logged, naming op_host's error) when it fails or none is registered. */
aclnnStatus InferShape(uint32_t optype, op::OpArgList &inputs, op::OpArgList &outputs, op::OpArgList &attrs);

namespace opsnn_host {
/* Where the next launch macro was written (the macros set it; errors name it). */
void SetCallSite(const char *file, int line);
}  // namespace opsnn_host

#endif  // OPSNN_HOST_OPDEV_OP_EXECUTOR_H_
