/* The l0 data-movement ops op_api code calls around its kernels: Contiguous, ViewCopy, Cast,
 * BroadcastTo, Reshape. On the NPU they are kernels of their own (outside ops-nn); here each is a
 * host step phase 2 runs on the device (GM) memory in order with the kernel launches, so its
 * results are what the next kernel reads. Phase 1 checks and records; each returns nullptr (and
 * logs why) where the toolkit's would fail. */
#include <string>
#include <vector>

/* the declarations these define (a checkout's copies are the same functions) */
#include "../../include_fallback/aclnn_kernels/cast.h"
#include "../../include_fallback/aclnn_kernels/contiguous.h"
#include "../../include_fallback/aclnn_kernels/reshape.h"
#include "../../include_fallback/level0/broadcast_to.h"
#include "element_cast.h"
#include "executor_impl.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_executor.h"
#include "opdev/shape_utils.h"
#include "opdev/tensor_view_utils.h"

namespace opsnn_host {
namespace {

bool CheckArgs(const char *op, const aclTensor *x, aclOpExecutor *executor) {
    if (x == nullptr || executor == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "l0op::%s: %s is nullptr", op, x == nullptr ? "the tensor" : "executor");
        return false;
    }
    if (!HasByteSize(x->GetDataType())) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::%s: %s elements have no whole-byte size this twin can move", op,
                op::ToString(x->GetDataType()).GetString());
        return false;
    }
    return true;
}

/* Copies operand 0 (read through its own strides) into operand 1, converting the dtype if it differs. */
std::string CopyStep(const std::vector<TensorSnapshot> &t) {
    CopyElements(t[0], t[0].strides, t[1]);
    return "";
}

/* x's strides for reading it as `target` (right-aligned; a broadcast dim steps 0). */
std::vector<int64_t> BroadcastStrides(const TensorSnapshot &x, const std::vector<int64_t> &target) {
    std::vector<int64_t> strides(target.size(), 0);
    const size_t lead = target.size() - x.shape.size();
    for (size_t i = 0; i < x.shape.size(); ++i) {
        strides[lead + i] = x.shape[i] == 1 ? 0 : x.strides[i];
    }
    return strides;
}

bool Broadcastable(const op::Shape &from, const op::Shape &to) {
    if (from.GetDimNum() > to.GetDimNum()) {
        return false;
    }
    const size_t lead = to.GetDimNum() - from.GetDimNum();
    for (size_t i = 0; i < from.GetDimNum(); ++i) {
        if (from.GetDim(i) != 1 && from.GetDim(i) != to.GetDim(lead + i)) {
            return false;
        }
    }
    return true;
}

const aclTensor *RecordBroadcast(const aclTensor *x, const aclTensor *out, aclOpExecutor *executor) {
    executor->Impl().AddHostStep("BroadcastTo", {x, out}, [](const std::vector<TensorSnapshot> &t) {
        CopyElements(t[0], BroadcastStrides(t[0], t[1].shape), t[1]);
        return std::string();
    });
    return out;
}

}  // namespace
}  // namespace opsnn_host

using opsnn_host::CheckArgs;

namespace l0op {

const aclTensor *Contiguous(const aclTensor *x, aclOpExecutor *executor) {
    if (!CheckArgs("Contiguous", x, executor)) {
        return nullptr;
    }
    if (op::IsContiguous(x)) {
        return x;
    }
    aclTensor *out = executor->AllocTensor(x->GetViewShape(), x->GetDataType(), x->GetStorageFormat());
    executor->Impl().AddHostStep("Contiguous", {x, out}, opsnn_host::CopyStep);
    return out;
}

const aclTensor *ViewCopy(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor) {
    if (!CheckArgs("ViewCopy", x, executor) || !CheckArgs("ViewCopy", y, executor)) {
        return nullptr;
    }
    if (x->GetDataType() != y->GetDataType()) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::ViewCopy: x is %s but y is %s (ViewCopy copies; l0op::Cast converts)",
                op::ToString(x->GetDataType()).GetString(), op::ToString(y->GetDataType()).GetString());
        return nullptr;
    }
    if (x->Numel() != y->Numel()) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::ViewCopy: x %s and y %s hold different element counts",
                op::ToString(x->GetViewShape()).GetString(), op::ToString(y->GetViewShape()).GetString());
        return nullptr;
    }
    if (x->GetViewShape() != y->GetViewShape() && !op::IsContiguous(x)) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::ViewCopy: x %s is not contiguous and has another shape than y %s",
                op::ToString(x->GetViewShape()).GetString(), op::ToString(y->GetViewShape()).GetString());
        return nullptr;
    }
    /* the same memory: one storage, or two user tensors over one device address */
    const bool sameMemory = x->Storage() == y->Storage() ||
                            (x->GetStorageAddr() != nullptr && x->GetStorageAddr() == y->GetStorageAddr());
    const bool sameLayout = sameMemory && x->GetViewOffset() == y->GetViewOffset() &&
                            x->GetViewShape() == y->GetViewShape() && x->GetViewStrides() == y->GetViewStrides();
    if (x == y || sameLayout) {
        return y;
    }
    executor->Impl().AddHostStep("ViewCopy", {x, y}, [](const std::vector<opsnn_host::TensorSnapshot> &t) {
        /* x is read in its own row-major order: its shape may differ from y's (same count) */
        opsnn_host::TensorSnapshot src = t[0];
        if (src.shape != t[1].shape) {
            std::vector<int64_t> dense(t[1].shape.size(), 0);
            int64_t step = 1;
            for (size_t i = t[1].shape.size(); i-- > 0;) {
                dense[i] = step;
                step *= t[1].shape[i] > 0 ? t[1].shape[i] : 1;
            }
            src.shape = t[1].shape;
            src.strides = dense;  // a reshaped read: phase 1 made sure x is dense
        }
        opsnn_host::CopyElements(src, src.strides, t[1]);
        return std::string();
    });
    return y;
}

const aclTensor *PickViewAsContiguous(const aclTensor *x, aclOpExecutor *executor) {
    if (!CheckArgs("PickViewAsContiguous", x, executor)) {
        return nullptr;
    }
    return op::IsContiguous(x) ? x : nullptr;
}

const aclTensor *ReViewToOut(const aclTensor *x, const aclTensor *y, aclOpExecutor *executor) {
    return ViewCopy(x, y, executor);
}

const aclTensor *Cast(const aclTensor *self, op::DataType dstDtype, aclOpExecutor *executor) {
    if (!CheckArgs("Cast", self, executor)) {
        return nullptr;
    }
    if (self->GetDataType() == dstDtype) {
        return self;
    }
    std::string why;
    if (!opsnn_host::HasByteSize(dstDtype) || !opsnn_host::CastSupported(self->GetDataType(), dstDtype, &why)) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::Cast %s -> %s is not supported%s%s",
                op::ToString(self->GetDataType()).GetString(), op::ToString(dstDtype).GetString(),
                why.empty() ? "" : ": ", why.c_str());
        return nullptr;
    }
    aclTensor *out = executor->AllocTensor(self->GetViewShape(), dstDtype, self->GetStorageFormat());
    executor->Impl().AddHostStep("Cast", {self, out}, opsnn_host::CopyStep);
    return out;
}

const aclTensor *BroadcastTo(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor) {
    if (!CheckArgs("BroadcastTo", x, executor)) {
        return nullptr;
    }
    if (shape == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "l0op::BroadcastTo: shape is nullptr");
        return nullptr;
    }
    op::Shape target;
    op::ToShape(shape->GetData(), shape->Size(), target);
    if (!opsnn_host::Broadcastable(x->GetViewShape(), target)) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::BroadcastTo: %s does not broadcast to %s",
                op::ToString(x->GetViewShape()).GetString(), op::ToString(target).GetString());
        return nullptr;
    }
    if (x->GetViewShape() == target) {
        return x;
    }
    aclTensor *out = executor->AllocTensor(target, x->GetDataType(), x->GetStorageFormat());
    return opsnn_host::RecordBroadcast(x, out, executor);
}

const aclTensor *BroadcastTo(const aclTensor *x, const aclTensor *y, const aclTensor *shape, aclOpExecutor *executor) {
    if (!CheckArgs("BroadcastTo", x, executor) || !CheckArgs("BroadcastTo", y, executor)) {
        return nullptr;
    }
    if (x->GetDataType() != y->GetDataType()) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::BroadcastTo: x is %s but y is %s", op::ToString(x->GetDataType()).GetString(),
                op::ToString(y->GetDataType()).GetString());
        return nullptr;
    }
    const op::Shape &target = y->GetViewShape();
    if (shape != nullptr && shape->Storage()->hostData != nullptr) {  // the shape tensor must say the same
        op::Shape said;
        std::vector<int64_t> dims(static_cast<size_t>(shape->Numel() < 0 ? 0 : shape->Numel()));
        opsnn_host::ConvertElements(shape->GetData(), shape->GetDataType(), dims.data(), op::DataType::DT_INT64,
                                    static_cast<int64_t>(dims.size()));
        op::ToShape(dims.data(), dims.size(), said);
        if (said != target) {
            OP_LOGE(ACLNN_ERR_INNER, "l0op::BroadcastTo: the shape tensor says %s but y is %s",
                    op::ToString(said).GetString(), op::ToString(target).GetString());
            return nullptr;
        }
    }
    if (!opsnn_host::Broadcastable(x->GetViewShape(), target)) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::BroadcastTo: %s does not broadcast to %s",
                op::ToString(x->GetViewShape()).GetString(), op::ToString(target).GetString());
        return nullptr;
    }
    return opsnn_host::RecordBroadcast(x, y, executor);
}

const aclTensor *Reshape(const aclTensor *x, const op::Shape &shape, aclOpExecutor *executor) {
    if (!CheckArgs("Reshape", x, executor)) {
        return nullptr;
    }
    if (shape.GetShapeSize() != x->GetViewShape().GetShapeSize()) {
        OP_LOGE(ACLNN_ERR_INNER, "l0op::Reshape: %s cannot be viewed as %s (different element counts)",
                op::ToString(x->GetViewShape()).GetString(), op::ToString(shape).GetString());
        return nullptr;
    }
    const aclTensor *dense = Contiguous(x, executor);
    if (dense == nullptr) {
        return nullptr;
    }
    op::Strides strides;
    op::ToContiguousStrides(shape, strides);
    return executor->Impl().NewView(*dense, shape, strides, dense->GetViewOffset());
}

const aclTensor *Reshape(const aclTensor *x, const aclIntArray *shape, aclOpExecutor *executor) {
    if (!CheckArgs("Reshape", x, executor)) {
        return nullptr;
    }
    if (shape == nullptr) {
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "l0op::Reshape: shape is nullptr");
        return nullptr;
    }
    /* one -1 takes what the others leave */
    std::vector<int64_t> dims(shape->GetData(), shape->GetData() + shape->Size());
    int64_t known = 1;
    size_t inferred = dims.size();
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == -1 && inferred == dims.size()) {
            inferred = i;
        } else {
            known *= dims[i];
        }
    }
    if (inferred < dims.size() && known > 0) {
        dims[inferred] = x->GetViewShape().GetShapeSize() / known;
    }
    op::Shape target;
    op::ToShape(dims.data(), dims.size(), target);
    return Reshape(x, target, executor);
}

}  // namespace l0op
