/* aclOpExecutor, UniqueExecutor, the phase entries (L2_DFX_PHASE_1/2, L0_DFX), kernel launches
 * (ADD_TO_LAUNCHER_LIST_AICORE / _AICPU) and phase 2 (CommonOpExecutorRun).
 *
 * The executor rules follow opsnn's Python aclnn layer (opsnn/aclnn/two_phase.py), restated here
 * because the C++ twin runs without Python; the statuses, in the order checked:
 *   161001  executor is nullptr
 *   161002  not an executor a phase 1 made (a pointer never handed out)
 *   561103  an executor that already ran (it runs once), or was planned before the runtime's last
 *           aclFinalize (it died with that runtime)
 *   361001  the runtime is not initialized; the executor was planned with no device set; the
 *           workspace is smaller than phase 1 asked or does not lie in one device allocation; a
 *           stream the runtime refuses
 *   561002 / 561003 / 561000  a failure phase 1 recorded: a tiling that failed (or none ran: the
 *           program has no op_host for the op type), an AI CPU launch (not modelled), a launch
 *           phase 1 refused
 * A refusal queues nothing and leaves the executor as it was (unlike Python's layer, which retires
 * the executor once its liveness checks pass: the brief for this twin asks for a refused run to
 * leave it usable). A queued run retires it: a handle that ran stays known as such (the last
 * 4096), so running it again is 561103, not a crash. */
#include <cinttypes>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>

#include "element_cast.h"
#include "executor_impl.h"
#include "opdev/aicpu/aicpu_task.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_executor.h"
#include "opdev/shape_utils.h"
#include "opdev/tensor_view_utils.h"
#include "opsnn_host/diag.h"
#include "soc.h"

namespace opsnn_host {
namespace {

/* ---- which executors exist ---- */

constexpr size_t kRetiredKept = 4096;

struct Registry {
    std::mutex lock;
    std::unordered_set<const aclOpExecutor *> live;
    std::unordered_set<const aclOpExecutor *> retired;
    std::deque<const aclOpExecutor *> retiredOrder;
};
Registry &Executors() {
    static Registry *r = new Registry();  // never destroyed: executors may outlive static destruction
    return *r;
}

void RegisterLive(const aclOpExecutor *e) {
    Registry &r = Executors();
    std::lock_guard<std::mutex> g(r.lock);
    r.live.insert(e);
    r.retired.erase(e);  // an address reused by a new executor is that executor's now
}

void Unregister(const aclOpExecutor *e) {
    Registry &r = Executors();
    std::lock_guard<std::mutex> g(r.lock);
    r.live.erase(e);
}

void Retire(const aclOpExecutor *e) {
    Registry &r = Executors();
    std::lock_guard<std::mutex> g(r.lock);
    r.live.erase(e);
    if (r.retired.insert(e).second) {
        r.retiredOrder.push_back(e);
        if (r.retiredOrder.size() > kRetiredKept) {
            r.retired.erase(r.retiredOrder.front());
            r.retiredOrder.pop_front();
        }
    }
}

enum class Known { kLive, kRetired, kUnknown };
Known Lookup(const aclOpExecutor *e) {
    Registry &r = Executors();
    std::lock_guard<std::mutex> g(r.lock);
    if (r.live.count(e) != 0) {
        return Known::kLive;
    }
    return r.retired.count(e) != 0 ? Known::kRetired : Known::kUnknown;
}

/* ---- where this thread is ---- */

struct PhaseState {
    std::string api;
    std::string file;
    int line = 0;
    std::string callFile;  // the last launch macro's site
    int callLine = 0;
};
thread_local PhaseState t_phase;

const char *BaseName(const std::string &file) {
    const size_t slash = file.rfind('/');
    return file.c_str() + (slash == std::string::npos ? 0 : slash + 1);
}

aclnnStatus Refuse(aclnnStatus status, const std::string &why) {
    diag::Emit(diag::kError, "op_api", t_phase.file.c_str(), t_phase.line, status, true,
               (t_phase.api.empty() ? std::string("CommonOpExecutorRun") : t_phase.api) + ": " + why);
    return status;
}

}  // namespace

bool IsLiveExecutor(const aclOpExecutor *executor) { return Lookup(executor) == Known::kLive; }

const std::string &CurrentApi() { return t_phase.api; }

std::string TakeCallSite() {
    if (t_phase.callFile.empty()) {
        return "";
    }
    std::string site = std::string(BaseName(t_phase.callFile)) + ":" + std::to_string(t_phase.callLine);
    t_phase.callFile.clear();
    return site;
}

void CallSite(std::string *file, int *line) {
    *file = t_phase.callFile;
    *line = t_phase.callLine;
}

void SetCallSite(const char *file, int line) {
    t_phase.callFile = file == nullptr ? "" : file;
    t_phase.callLine = line;
}

aclnnStatus BeginPhase1(const char *api, const char *file, int line, aclOpExecutor **executor,
                        uint64_t *workspaceSize) {
    t_phase.api = std::string("aclnn") + (api == nullptr ? "" : api) + "GetWorkspaceSize";
    if (api != nullptr && std::strncmp(api, "aclnn", 5) == 0) {
        t_phase.api = std::string(api) + "GetWorkspaceSize";
    }
    t_phase.file = file == nullptr ? "" : file;
    t_phase.line = line;
    diag::ClearRecentErrors();
    if (executor == nullptr || workspaceSize == nullptr) {
        diag::Emit(diag::kError, "op_api", file, line, ACLNN_ERR_PARAM_NULLPTR, true,
                   t_phase.api + ": workspaceSize and executor must not be nullptr");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    *executor = nullptr;
    *workspaceSize = 0;
    return ACLNN_SUCCESS;
}

void BeginPhase2(const char *api, const char *file, int line) {
    t_phase.api = api == nullptr ? "" : api;
    t_phase.file = file == nullptr ? "" : file;
    t_phase.line = line;
    diag::ClearRecentErrors();
}

void EnterL0(const char *name, const char *file, int line, aclOpExecutor *executor) {
    if (executor != nullptr) {
        executor->Impl().SetL0(name == nullptr ? "" : name,
                               std::string(BaseName(file == nullptr ? "" : file)) + ":" + std::to_string(line));
    }
}

/* ---- snapshots and element copies ---- */

int64_t TensorSnapshot::Numel() const {
    int64_t n = 1;
    for (int64_t d : shape) {
        n *= d;
    }
    return n;
}

uint64_t TensorSnapshot::SpanBytes() const {
    int64_t last = 0;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) {
            return 0;
        }
        last += (shape[i] - 1) * strides[i];
    }
    return static_cast<uint64_t>(last + 1) * op::TypeSize(dtype);
}

TensorSnapshot Snapshot(const aclTensor *t) {
    TensorSnapshot s;
    if (t == nullptr) {
        s.present = false;
        return s;
    }
    s.base = static_cast<uint8_t *>(t->GetStorageAddr());
    s.dtype = t->GetDataType();
    s.format = t->GetStorageFormat();
    const op::Shape &shape = t->GetViewShape();
    for (size_t i = 0; i < shape.GetDimNum(); ++i) {
        s.shape.push_back(shape.GetDim(i));
    }
    const op::Strides &strides = t->GetViewStrides();
    s.strides.assign(strides.begin(), strides.end());
    s.strides.resize(s.shape.size(), 0);
    s.offset = t->GetViewOffset();
    return s;
}

void CopyElements(const TensorSnapshot &src, const std::vector<int64_t> &srcStrides, const TensorSnapshot &dst) {
    const int64_t count = dst.Numel();
    if (count <= 0) {
        return;
    }
    const size_t inSize = op::TypeSize(src.dtype);
    const size_t outSize = op::TypeSize(dst.dtype);
    const bool convert = src.dtype != dst.dtype;
    /* a source that overlaps the destination is read whole first */
    const uint8_t *in = src.Data();
    std::vector<uint8_t> staged;
    std::vector<int64_t> inStrides = srcStrides;
    const uintptr_t a0 = reinterpret_cast<uintptr_t>(src.Data()), b0 = reinterpret_cast<uintptr_t>(dst.Data());
    TensorSnapshot srcView = src;
    srcView.strides = srcStrides;
    srcView.shape = dst.shape;
    const uint64_t aSpan = srcView.SpanBytes(), bSpan = dst.SpanBytes();
    if (a0 < b0 + bSpan && b0 < a0 + aSpan) {
        staged.assign(in, in + aSpan);
        in = staged.data();
    }
    const size_t n = dst.shape.size();
    std::vector<int64_t> index(n, 0);
    int64_t inOff = 0, outOff = 0;
    uint8_t *out = dst.Data();
    for (int64_t k = 0; k < count; ++k) {
        const uint8_t *from = in + inOff * static_cast<int64_t>(inSize);
        uint8_t *to = out + outOff * static_cast<int64_t>(outSize);
        if (convert) {
            ConvertOne(from, src.dtype, to, dst.dtype);
        } else {
            std::memcpy(to, from, inSize);
        }
        for (size_t d = n; d-- > 0;) {  // the next index, last dim fastest
            if (++index[d] < dst.shape[d]) {
                inOff += inStrides[d];
                outOff += dst.strides[d];
                break;
            }
            inOff -= (dst.shape[d] - 1) * inStrides[d];
            outOff -= (dst.shape[d] - 1) * dst.strides[d];
            index[d] = 0;
        }
    }
}

/* ---- the plan ---- */

ExecutorImpl::ExecutorImpl(aclOpExecutor *owner)
    : owner_(owner), soc_(CurrentSoc().name), epoch_(acl::ThreadEpoch()), api_(CurrentApi()) {}

ExecutorImpl::~ExecutorImpl() {
    for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) {
        delete *it;  // op::Object's destructor is virtual and public
    }
}

std::string ExecutorImpl::L0Site() const {
    std::string call = TakeCallSite();
    if (l0Name_.empty()) {
        return call.empty() ? std::string("(no L0_DFX)") : call;
    }
    return "l0 " + l0Name_ + " (" + (call.empty() ? l0Site_ : call) + ")";
}

aclTensor *ExecutorImpl::NewIntermediate(const op::Shape &storageShape, const op::Shape &originShape,
                                         op::DataType dtype, op::Format storageFormat, op::Format originFormat) {
    auto storage = std::make_shared<TensorStorage>();
    storage->fromWorkspace = true;
    aclTensor *t = Own(TensorStorage::NewTensor(storageShape, originShape, dtype, storageFormat, originFormat, storage));
    slots_.push_back({storage, t, 0});
    planned_ = false;
    return t;
}

aclTensor *ExecutorImpl::NewView(const aclTensor &base, const op::Shape &shape, const op::Strides &strides,
                                 int64_t offset) {
    return Own(TensorStorage::NewView(base, shape, strides, offset));
}

void ExecutorImpl::AddHostStep(const std::string &name, std::vector<const aclTensor *> operands,
                               std::function<std::string(const std::vector<TensorSnapshot> &)> run) {
    Step step;
    step.kind = Step::kHost;
    step.name = name;
    step.site = "step " + std::to_string(steps_.size() + 1);  // recorded by the L2 API or an l0 op
    step.operands = std::move(operands);
    step.host = std::move(run);
    steps_.push_back(std::move(step));
}

void ExecutorImpl::RecordFailure(aclnnStatus status, const std::string &message) {
    if (failure_ == ACLNN_SUCCESS) {
        failure_ = status;
        failureMessage_ = message;
    }
}

void ExecutorImpl::NeedKernelWorkspace(uint64_t bytes) {
    const uint64_t aligned = AlignWorkspace(bytes);
    if (aligned > kernelWorkspace_) {
        kernelWorkspace_ = aligned;
    }
}

uint64_t ExecutorImpl::Plan() {
    if (planned_) {
        return intermediateBytes_ + kernelWorkspace_;
    }
    unsigned __int128 offset = 0;
    for (Slot &slot : slots_) {
        const aclTensor *t = slot.tensor;
        int64_t elements = t->GetStorageShape().GetShapeSize();
        const int64_t extent = ViewExtent(t->GetViewShape(), t->GetViewStrides(), t->GetViewOffset());
        if (extent > elements) {
            elements = extent;
        }
        const int64_t bytes = ge::GetSizeInBytes(elements < 0 ? 0 : elements, t->GetDataType());
        if (elements < 0 || bytes < 0) {
            RecordFailure(ACLNN_ERR_INNER_TILING_ERROR,
                          "an intermediate tensor " + std::string(op::ToString(t->GetStorageShape()).GetString()) +
                              " has no byte size the workspace can state");
            continue;
        }
        slot.offset = static_cast<uint64_t>(offset);
        slot.storage->workspaceOffset = slot.offset;
        offset += AlignWorkspace(static_cast<uint64_t>(bytes == 0 ? 1 : bytes));
    }
    if (offset + kernelWorkspace_ > static_cast<unsigned __int128>(UINT64_MAX)) {
        RecordFailure(ACLNN_ERR_INNER_TILING_ERROR, "the workspace does not fit the uint64 workspaceSize");
        offset = 0;
    }
    intermediateBytes_ = static_cast<uint64_t>(offset);
    planned_ = true;
    return intermediateBytes_ + kernelWorkspace_;
}

aclnnStatus ExecutorImpl::PendingFailure(std::string *why) const {
    if (failure_ != ACLNN_SUCCESS) {
        *why = failureMessage_;
        return failure_;
    }
    for (const Step &step : steps_) {
        if (step.kind == Step::kKernel && !step.tiled) {
            *why = step.site + ": op type " + step.name +
                   " has no registered tiling in this program (its op_host sources are not built in), so its "
                   "kernel cannot be launched";
            return ACLNN_ERR_INNER_TILING_ERROR;
        }
        if (step.kind == Step::kAicpu) {
            *why = step.site + ": " + step.name +
                   " takes the AI CPU path (ADD_TO_LAUNCHER_LIST_AICPU); AI CPU kernels are not modelled by opsnn";
            return ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
        }
    }
    return ACLNN_SUCCESS;
}

BoundWork ExecutorImpl::Bind(void *workspace, uint64_t workspaceSize) {
    Plan();
    workspaceAddr_ = workspace;
    auto *ws = static_cast<uint8_t *>(workspace);
    for (Slot &slot : slots_) {
        slot.storage->addr = ws == nullptr ? nullptr : ws + slot.offset;
    }
    BoundWork work;
    work.api = api_;
    if (ws != nullptr && workspaceSize > 0) {
        work.deviceRanges.emplace_back(reinterpret_cast<uintptr_t>(ws), workspaceSize);
    }
    void *kernelWs = kernelWorkspace_ == 0 ? nullptr : ws + intermediateBytes_;
    const uint64_t kernelWsSize = kernelWorkspace_;
    for (const Step &step : steps_) {
        std::vector<TensorSnapshot> snaps;
        for (const aclTensor *t : step.operands) {
            snaps.push_back(Snapshot(t));
            const TensorSnapshot &s = snaps.back();
            if (s.present && t->Storage()->hostData == nullptr && s.Data() != nullptr && s.SpanBytes() > 0) {
                work.deviceRanges.emplace_back(reinterpret_cast<uintptr_t>(s.Data()), s.SpanBytes());
            }
        }
        const std::string where = api_ + ": " + step.site + ": " + step.name;
        if (step.kind == Step::kHost) {
            auto run = step.host;
            work.steps.push_back([run, snaps, where]() {
                const std::string error = run(snaps);
                return error.empty() ? error : where + ": " + error;
            });
            continue;
        }
        LaunchRequest request = step.request;
        for (size_t i = 0; i < snaps.size(); ++i) {
            TensorArg &arg = i < step.inputCount ? request.inputs[i] : request.outputs[i - step.inputCount];
            arg.present = snaps[i].present;
            arg.addr = snaps[i].Data();
            arg.dtype = snaps[i].dtype;
            arg.format = snaps[i].format;
            arg.shape = snaps[i].shape;
        }
        const TilingResult tiling = step.tiling;
        work.steps.push_back([request, tiling, kernelWs, kernelWsSize, where]() {
            const std::string error = LaunchKernel(request, tiling, kernelWs, kernelWsSize);
            return error.empty() ? error : where + ": " + error;
        });
    }
    return work;
}

}  // namespace opsnn_host

using opsnn_host::ExecutorImpl;
using opsnn_host::TensorStorage;

/* ---- aclOpExecutor ---- */

aclOpExecutor::aclOpExecutor() : impl_(new ExecutorImpl(this)) { opsnn_host::RegisterLive(this); }

aclOpExecutor::~aclOpExecutor() { opsnn_host::Unregister(this); }

aclTensor *aclOpExecutor::AllocTensor(const op::Shape &shape, op::DataType dataType, op::Format format) {
    return impl_->NewIntermediate(shape, shape, dataType, format, format);
}

aclTensor *aclOpExecutor::AllocTensor(const op::Shape &storageShape, const op::Shape &originShape,
                                      op::DataType dataType, op::Format storageFormat, op::Format originFormat) {
    return impl_->NewIntermediate(storageShape, originShape, dataType, storageFormat, originFormat);
}

aclTensor *aclOpExecutor::AllocTensor(op::DataType dataType, op::Format storageFormat, op::Format originFormat) {
    return impl_->NewIntermediate(op::Shape(), op::Shape(), dataType, storageFormat, originFormat);
}

aclTensor *aclOpExecutor::AllocHostTensor(const op::Shape &shape, op::DataType dataType, op::Format format) {
    return impl_->Own(TensorStorage::NewHostTensor(shape, dataType, format));
}

aclTensor *aclOpExecutor::AllocHostTensor(const op::Shape &storageShape, const op::Shape &originShape,
                                          op::DataType dataType, op::Format storageFormat, op::Format originFormat) {
    aclTensor *t = impl_->Own(TensorStorage::NewHostTensor(storageShape, dataType, storageFormat));
    t->SetOriginalShape(originShape);
    t->SetOriginalFormat(originFormat);
    return t;
}

namespace {
aclTensor *HostTensorOf(ExecutorImpl &impl, const void *values, op::DataType from, uint64_t size, op::DataType to) {
    op::Shape shape;
    shape.AppendDim(static_cast<int64_t>(size));
    std::string why;
    if (!opsnn_host::HasByteSize(to) || !opsnn_host::CastSupported(from, to, &why)) {
        OP_LOGE(ACLNN_ERR_INNER, "a host tensor of %s cannot hold %s values%s%s", op::ToString(to).GetString(),
                op::ToString(from).GetString(), why.empty() ? "" : ": ", why.c_str());
        return nullptr;
    }
    aclTensor *t = impl.Own(TensorStorage::NewHostTensor(shape, to, op::Format::FORMAT_ND));
    if (values != nullptr && size > 0) {
        opsnn_host::ConvertElements(values, from, t->Storage()->hostData.get(), to, static_cast<int64_t>(size));
    }
    return t;
}
}  // namespace

#define OPSNN_HOST_TENSOR_OF(T, DT)                                                                    \
    aclTensor *aclOpExecutor::AllocHostTensor(const T *value, uint64_t size, op::DataType dataType) { \
        return HostTensorOf(*impl_, value, op::DataType::DT, size, dataType);                          \
    }
OPSNN_HOST_TENSOR_OF(int64_t, DT_INT64)
OPSNN_HOST_TENSOR_OF(uint64_t, DT_UINT64)
OPSNN_HOST_TENSOR_OF(bool, DT_BOOL)
OPSNN_HOST_TENSOR_OF(char, DT_INT8)
OPSNN_HOST_TENSOR_OF(int32_t, DT_INT32)
OPSNN_HOST_TENSOR_OF(uint32_t, DT_UINT32)
OPSNN_HOST_TENSOR_OF(int16_t, DT_INT16)
OPSNN_HOST_TENSOR_OF(uint16_t, DT_UINT16)
OPSNN_HOST_TENSOR_OF(int8_t, DT_INT8)
OPSNN_HOST_TENSOR_OF(uint8_t, DT_UINT8)
OPSNN_HOST_TENSOR_OF(double, DT_DOUBLE)
OPSNN_HOST_TENSOR_OF(float, DT_FLOAT)
OPSNN_HOST_TENSOR_OF(op::fp16_t, DT_FLOAT16)
OPSNN_HOST_TENSOR_OF(op::bfloat16, DT_BF16)
#undef OPSNN_HOST_TENSOR_OF

aclTensor *aclOpExecutor::CreateView(const aclTensor *tensor, const op::Shape &shape, int64_t offset) {
    if (tensor == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "CreateView of a null tensor");
        return nullptr;
    }
    op::Strides strides;
    op::ToContiguousStrides(shape, strides);
    return impl_->NewView(*tensor, shape, strides, offset);
}

aclTensor *aclOpExecutor::CreateView(const aclTensor *tensor, const op::Shape &oriShape, const op::Shape &storageShape,
                                     const op::Strides &oriStride, int64_t offset) {
    if (tensor == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "CreateView of a null tensor");
        return nullptr;
    }
    aclTensor *view = impl_->NewView(*tensor, oriShape, oriStride, offset);
    view->SetStorageShape(storageShape);
    return view;
}

aclIntArray *aclOpExecutor::AllocIntArray(const int64_t *value, uint64_t size) {
    return impl_->Own(new aclIntArray(value, size));
}
aclFloatArray *aclOpExecutor::AllocFloatArray(const float *value, uint64_t size) {
    return impl_->Own(new aclFloatArray(value, size));
}
aclBoolArray *aclOpExecutor::AllocBoolArray(const bool *value, uint64_t size) {
    return impl_->Own(new aclBoolArray(value, size));
}
aclTensorList *aclOpExecutor::AllocTensorList(const aclTensor *const *tensors, uint64_t size) {
    return impl_->Own(new aclTensorList(tensors, size, false));
}
aclScalarList *aclOpExecutor::AllocScalarList(const aclScalar *const *scalars, uint64_t size) {
    return impl_->Own(new aclScalarList(scalars, size, false));
}
aclScalar *aclOpExecutor::AllocScalar(const void *data, op::DataType dataType) {
    return impl_->Own(new aclScalar(data, dataType));
}

#define OPSNN_ALLOC_SCALAR(T) \
    aclScalar *aclOpExecutor::AllocScalar(T value) { return impl_->Own(new aclScalar(value)); }
OPSNN_ALLOC_SCALAR(float)
OPSNN_ALLOC_SCALAR(double)
OPSNN_ALLOC_SCALAR(op::fp16_t)
OPSNN_ALLOC_SCALAR(op::bfloat16)
OPSNN_ALLOC_SCALAR(int32_t)
OPSNN_ALLOC_SCALAR(int64_t)
OPSNN_ALLOC_SCALAR(int16_t)
OPSNN_ALLOC_SCALAR(int8_t)
OPSNN_ALLOC_SCALAR(uint32_t)
OPSNN_ALLOC_SCALAR(uint64_t)
OPSNN_ALLOC_SCALAR(uint16_t)
OPSNN_ALLOC_SCALAR(uint8_t)
OPSNN_ALLOC_SCALAR(bool)
#undef OPSNN_ALLOC_SCALAR

const aclTensor *aclOpExecutor::ConvertToTensor(const aclIntArray *value, op::DataType dataType) {
    return value == nullptr ? nullptr : HostTensorOf(*impl_, value->GetData(), op::DataType::DT_INT64, value->Size(), dataType);
}
const aclTensor *aclOpExecutor::ConvertToTensor(const aclBoolArray *value, op::DataType dataType) {
    return value == nullptr ? nullptr : HostTensorOf(*impl_, value->GetData(), op::DataType::DT_BOOL, value->Size(), dataType);
}
const aclTensor *aclOpExecutor::ConvertToTensor(const aclFloatArray *value, op::DataType dataType) {
    return value == nullptr ? nullptr : HostTensorOf(*impl_, value->GetData(), op::DataType::DT_FLOAT, value->Size(), dataType);
}
const aclTensor *aclOpExecutor::ConvertToTensor(const aclFp16Array *value, op::DataType dataType) {
    return value == nullptr ? nullptr : HostTensorOf(*impl_, value->GetData(), op::DataType::DT_FLOAT16, value->Size(), dataType);
}
const aclTensor *aclOpExecutor::ConvertToTensor(const aclBf16Array *value, op::DataType dataType) {
    return value == nullptr ? nullptr : HostTensorOf(*impl_, value->GetData(), op::DataType::DT_BF16, value->Size(), dataType);
}
const aclTensor *aclOpExecutor::ConvertToTensor(const aclScalar *value, op::DataType dataType) {
    if (value == nullptr) {
        return nullptr;
    }
    aclTensor *t = HostTensorOf(*impl_, value->GetData(), value->GetDataType(), 1, dataType);
    if (t != nullptr) {
        t->SetViewShape(op::Shape());  // a 0-d tensor of the scalar
        t->SetStorageShape(op::Shape());
        t->SetOriginalShape(op::Shape());
        op::Strides none;
        t->SetViewStrides(none);
    }
    return t;
}

uint64_t aclOpExecutor::GetWorkspaceSize() const { return impl_->WorkspaceSize(); }

void *aclOpExecutor::GetWorkspaceAddr() const { return impl_->WorkspaceAddr(); }

aclrtStream aclOpExecutor::GetStream() const { return nullptr; }

aclnnStatus aclOpExecutor::SetRepeatable() {
    OP_LOGE(ACLNN_ERR_INNER, "repeatable executors (aclSetAclOpExecutorRepeatable) are not modelled by opsnn");
    return ACLNN_ERR_INNER;
}

/* ---- UniqueExecutor ---- */

namespace {
thread_local uint64_t t_reportedAtCreate = 0;
}

UniqueExecutor::UniqueExecutor(const char *funcName) : funcName_(funcName), executor_(new aclOpExecutor()) {
    t_reportedAtCreate = opsnn_host::diag::ReportedCount();
}

UniqueExecutor::~UniqueExecutor() {
    if (executor_ != nullptr && opsnn_host::diag::ReportedCount() == t_reportedAtCreate) {
        /* no error was reported, yet the executor was never handed over: a success path that
         * forgot ReleaseTo (the caller's *executor stays nullptr) */
        OP_LOGW("%s returned without ReleaseTo(executor): the executor is freed and the caller gets none",
                funcName_ == nullptr ? "phase 1" : funcName_);
    }
}

void UniqueExecutor::ReleaseTo(aclOpExecutor **executor) {
    if (executor == nullptr) {
        OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "%s: ReleaseTo(nullptr)", funcName_ == nullptr ? "phase 1" : funcName_);
        return;
    }
    executor_->Impl().Plan();
    *executor = executor_.release();
}

/* ---- launches ---- */

namespace {
using opsnn_host::LaunchRequest;
using opsnn_host::TensorArg;

/* Adds a group's tensors (lists expanded) to `args` and to the step's operands. */
bool CollectTensors(const op::OpArgList *list, std::vector<TensorArg> &args, std::vector<const aclTensor *> &operands,
                    const char *group, std::string *why) {
    if (list == nullptr) {
        return true;
    }
    auto add = [&](const aclTensor *t) -> bool {
        if (t != nullptr && !op::IsContiguous(t)) {
            *why = std::string(group) + " " + std::to_string(args.size()) + " " + t->ToString().GetString() +
                   " is not contiguous; a kernel reads its operands as dense blocks (l0op::Contiguous first)";
            return false;
        }
        TensorArg arg;
        arg.present = t != nullptr;
        if (t != nullptr) {
            arg.dtype = t->GetDataType();
            arg.format = t->GetStorageFormat();
            const op::Shape &shape = t->GetViewShape();
            for (size_t i = 0; i < shape.GetDimNum(); ++i) {
                arg.shape.push_back(shape.GetDim(i));
            }
        }
        args.push_back(arg);
        operands.push_back(t);
        return true;
    };
    for (const op::OpArg &a : *list) {
        if (a.kind == op::OpArg::kTensorList) {
            for (uint64_t i = 0; a.tensorList != nullptr && i < a.tensorList->Size(); ++i) {
                if (!add((*a.tensorList)[i])) {
                    return false;
                }
            }
        } else if (a.kind == op::OpArg::kTensor) {
            if (!add(a.tensor)) {
                return false;
            }
        }
    }
    return true;
}
}  // namespace

aclnnStatus CreatAiCoreKernelLauncher(const char *l0Name, uint32_t opType, aclOpExecutor *executor,
                                      op::OpArgContext *args) {
    std::unique_ptr<op::OpArgContext> owned(args);
    const std::string opName = op::OpTypeDict::ToString(opType).GetString();
    if (executor == nullptr || args == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "ADD_TO_LAUNCHER_LIST_AICORE(%s) with a null %s", opName.c_str(),
                executor == nullptr ? "executor" : "argument context");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    ExecutorImpl &impl = executor->Impl();
    opsnn_host::Step step;
    step.kind = opsnn_host::Step::kKernel;
    step.name = opName.empty() ? (l0Name == nullptr ? "" : l0Name) : opName;
    LaunchRequest &request = step.request;
    opsnn_host::CallSite(&request.file, &request.line);  // before L0Site takes it
    step.site = impl.L0Site();
    request.op_type = step.name;
    request.soc = impl.Soc();
    std::string why;
    if (!CollectTensors(args->GetOpArg(op::OP_INPUT_ARG), request.inputs, step.operands, "input", &why) ||
        !CollectTensors(args->GetOpArg(op::OP_OUTPUT_ARG), request.outputs, step.operands, "output", &why)) {
        const std::string message = impl.Api() + ": " + step.site + ": " + step.name + ": " + why;
        opsnn_host::diag::Emit(opsnn_host::diag::kError, "op_api", request.file.c_str(), request.line, ACLNN_ERR_INNER,
                               true, message);
        impl.RecordFailure(ACLNN_ERR_INNER, message);
        return ACLNN_ERR_INNER;
    }
    step.inputCount = request.inputs.size();
    for (const op::OpArg &a : *args->GetOpArg(op::OP_ATTR_ARG)) {
        if (a.kind == op::OpArg::kAttr) {
            request.attrs.push_back(a.attr);
        }
    }
    if (opsnn_host::HasTiling(step.name)) {
        step.tiling = opsnn_host::RunTiling(request);
        step.tiled = true;
        if (!step.tiling.ok) {
            const std::string message = impl.Api() + ": " + step.site + ": " + step.tiling.error;
            /* at the op_api's launch line; op_host's text names its own layer */
            opsnn_host::diag::Emit(opsnn_host::diag::kError, "op_api", request.file.c_str(), request.line,
                                   ACLNN_ERR_INNER_TILING_ERROR, true, message);
            impl.RecordFailure(ACLNN_ERR_INNER_TILING_ERROR, message);
            impl.AddStep(std::move(step));
            return ACLNN_ERR_INNER_TILING_ERROR;
        }
        uint64_t need = 0;
        for (size_t bytes : step.tiling.workspace_sizes) {
            need += bytes;
        }
        impl.NeedKernelWorkspace(need);
    }
    impl.AddStep(std::move(step));
    return ACLNN_SUCCESS;
}

namespace op {
namespace internal {
aclnnStatus CreatAicpuKernelLauncher(uint32_t opType, AicpuTaskSpace &space, aclOpExecutor *executor,
                                     const FVector<std::string> &attrNames, OpArgContext *args) {
    std::unique_ptr<OpArgContext> owned(args);
    (void)attrNames;
    if (executor == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "ADD_TO_LAUNCHER_LIST_AICPU(%s) with a null executor", space.OpType().c_str());
        return ACLNN_ERR_INNER_NULLPTR;
    }
    ExecutorImpl &impl = executor->Impl();
    opsnn_host::Step step;
    step.kind = opsnn_host::Step::kAicpu;
    const std::string name = OpTypeDict::ToString(opType).GetString();
    step.name = name.empty() ? space.OpType() : name;
    step.site = impl.L0Site();
    impl.AddStep(std::move(step));
    return ACLNN_SUCCESS;
}
}  // namespace internal
}  // namespace op

/* INFER_SHAPE: the op type's registered infershape (op_host's, through the seam) on the
 * arguments' shapes and attributes; the outputs' shapes are set from it. */
aclnnStatus InferShape(uint32_t optype, op::OpArgList &inputs, op::OpArgList &outputs, op::OpArgList &attrs) {
    opsnn_host::LaunchRequest request;
    request.op_type = op::OpTypeDict::ToString(optype).GetString();
    request.soc = opsnn_host::CurrentSoc().name;
    opsnn_host::CallSite(&request.file, &request.line);
    const std::string site = request.file.empty() ? std::string("INFER_SHAPE")
                                                  : opsnn_host::TakeCallSite();
    std::vector<const aclTensor *> operands;
    std::string why;
    if (!CollectTensors(&inputs, request.inputs, operands, "input", &why) ||
        !CollectTensors(&outputs, request.outputs, operands, "output", &why)) {
        OP_LOGE(ACLNN_ERR_INNER_INFERSHAPE_ERROR, "INFER_SHAPE(%s) at %s: %s", request.op_type.c_str(), site.c_str(),
                why.c_str());
        return ACLNN_ERR_INNER_INFERSHAPE_ERROR;
    }
    for (size_t i = 0; i < request.inputs.size(); ++i) {  // a value-dependent input is read at its data
        const aclTensor *t = operands[i];
        request.inputs[i].addr = t == nullptr ? nullptr : t->GetData();
    }
    for (const op::OpArg &a : attrs) {
        if (a.kind == op::OpArg::kAttr) {
            request.attrs.push_back(a.attr);
        }
    }
    const opsnn_host::InferShapeResult result = opsnn_host::RunInferShape(request);
    if (!result.ok) {
        /* at the op_api's INFER_SHAPE line; op_host's text names its own layer */
        opsnn_host::diag::Emit(opsnn_host::diag::kError, "op_api", request.file.c_str(), request.line,
                               ACLNN_ERR_INNER_INFERSHAPE_ERROR, true, result.error);
        return ACLNN_ERR_INNER_INFERSHAPE_ERROR;
    }
    for (size_t k = 0; k < result.output_shapes.size() && request.inputs.size() + k < operands.size(); ++k) {
        auto *out = const_cast<aclTensor *>(operands[request.inputs.size() + k]);
        if (out == nullptr) {
            continue;
        }
        op::Shape shape;
        op::ToShape(result.output_shapes[k].data(), result.output_shapes[k].size(), shape);
        out->SetViewShape(shape);
        out->SetStorageShape(shape);
        out->SetOriginalShape(shape);
        op::Strides strides;
        op::ToContiguousStrides(shape, strides);
        out->SetViewStrides(std::move(strides));
    }
    return ACLNN_SUCCESS;
}

/* ---- phase 2 ---- */

aclnnStatus CommonOpExecutorRun(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    using opsnn_host::Refuse;
    namespace acl = opsnn_host::acl;
    if (executor == nullptr) {
        return Refuse(ACLNN_ERR_PARAM_NULLPTR, "executor is nullptr");
    }
    switch (opsnn_host::Lookup(executor)) {
        case opsnn_host::Known::kRetired:
            return Refuse(ACLNN_ERR_INNER_NULLPTR,
                          "the executor has already been run; an executor runs once (call phase 1 again)");
        case opsnn_host::Known::kUnknown:
            return Refuse(ACLNN_ERR_PARAM_INVALID, "not an executor a phase-1 call made (or one already freed)");
        default:
            break;
    }
    ExecutorImpl &impl = executor->Impl();
    if (!acl::Initialized()) {
        return Refuse(ACLNN_ERR_RUNTIME_ERROR,
                      "the acl runtime is not initialized (aclInit was not called, or aclFinalize was; acl status "
                      "100000 ACL_ERROR_UNINITIALIZE)");
    }
    if (impl.Epoch() == 0) {
        return Refuse(ACLNN_ERR_RUNTIME_ERROR,
                      "the executor was planned on a thread with no device set (aclrtSetDevice before phase 1)");
    }
    if (impl.Epoch() != acl::Epoch()) {
        return Refuse(ACLNN_ERR_INNER_NULLPTR,
                      "the executor was planned before the runtime's last aclFinalize and died with it (call phase 1 "
                      "again)");
    }
    const uint64_t needed = impl.WorkspaceSize();
    if (workspaceSize < needed) {
        return Refuse(ACLNN_ERR_RUNTIME_ERROR, "workspaceSize " + std::to_string(workspaceSize) +
                                                   " is smaller than the " + std::to_string(needed) +
                                                   " bytes phase 1 asked for");
    }
    if (needed > 0 && !acl::DeviceRange(workspace, workspaceSize)) {
        char text[64];
        std::snprintf(text, sizeof(text), "%p", workspace);
        return Refuse(ACLNN_ERR_RUNTIME_ERROR, std::string("workspace ") + (workspace == nullptr ? "nullptr" : text) +
                                                   " does not hold " + std::to_string(workspaceSize) +
                                                   " bytes of device memory of this runtime");
    }
    std::string why;
    const aclnnStatus pending = impl.PendingFailure(&why);
    if (pending != ACLNN_SUCCESS) {
        return Refuse(pending, why);
    }
    if (impl.Empty()) {  // empty tensors: nothing to launch
        opsnn_host::Retire(executor);
        delete executor;
        return ACLNN_SUCCESS;
    }
    opsnn_host::BoundWork work = impl.Bind(workspace, workspaceSize);
    const int status = acl::Enqueue(stream, std::move(work), &why);
    if (status != 0) {
        return Refuse(ACLNN_ERR_RUNTIME_ERROR, "cannot queue on the stream: " + why + " (acl status " +
                                                   std::to_string(status) + ")");
    }
    opsnn_host::Retire(executor);
    delete executor;
    return ACLNN_SUCCESS;
}
