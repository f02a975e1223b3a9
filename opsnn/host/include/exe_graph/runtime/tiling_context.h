/* opsnn host twin: gert::TilingContext -- what an operator's tiling function reads (shapes,
 * tensors, compile info, platform info, attributes) and writes (tiling key, block dim, tiling
 * data, workspace sizes, ...).
 *
 * Its input slots: the input tensors, the output tensors, then compile info, platform info, a
 * framework slot, deterministic, deterministic level (the last five found after the node's
 * input + output count). Its output slots: TilingOutputIndex. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tiling_data.h"

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace gert {
struct Dim3 {
    uint32_t x, y, z;
    Dim3(const uint32_t dim_x, const uint32_t dim_y = 1, const uint32_t dim_z = 1) : x(dim_x), y(dim_y), z(dim_z) {}
};

class TilingContext : public ExtendedKernelContext {
public:
    enum TilingOutputIndex : uint32_t {
        kOutputTilingKey = 0,
        kOutputBlockDim = 1,
        kOutputSimdNumBlocks = 1,
        kOutputAtomicCleanFlag = 2,
        kOutputTilingData = 3,
        kOutputWorkspace = 4,
        kOutputTilingCond = 5,
        kOutputScheduleMode = 6,
        kOutputLocalMemorySize = 7,
        kOutputDynUBufSize = 7,
        kOutputAicpuBlockDim = 8,
        kOutputAicpuNumBlocks = 8,
        kOutputSimtBlockDim = 9,
        kOutputSimtGridDim = 10,
        kOutputNum
    };
    enum FallibleTilingOutputIndex : uint32_t { kTilingStatus = kOutputNum, kFallibleOutputNum };

    const void *GetCompileInfo() const {
        const Chain *slot = GetComputeNodeInfo() == nullptr ? nullptr : GetInput(ExtraSlot(kCompileInfoSlot));
        return slot == nullptr ? nullptr : slot->GetValue<void *>();
    }
    template <typename T>
    const T *GetCompileInfo() const { return reinterpret_cast<const T *>(GetCompileInfo()); }
    fe::PlatFormInfos *GetPlatformInfo() const {
        const Chain *slot = GetComputeNodeInfo() == nullptr ? nullptr : GetInput(ExtraSlot(kPlatformInfoSlot));
        return slot == nullptr ? nullptr : slot->GetValue<fe::PlatFormInfos *>();
    }
    int32_t GetDeterministic() const { return ExtraInt(kDeterministicSlot); }
    int32_t GetDeterministicLevel() const { return ExtraInt(kDeterministicLevelSlot); }

    const StorageShape *GetInputShape(const size_t index) const {
        return index < GetComputeNodeInputNum() ? GetInputPointer<StorageShape>(index) : nullptr;
    }
    const Tensor *GetInputTensor(const size_t index) const { return GetInputPointer<Tensor>(index); }
    const Tensor *GetOptionalInputTensor(const size_t ir_index) const { return GetDynamicInputPointer<Tensor>(ir_index, 0); }
    const Tensor *GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
        return GetDynamicInputPointer<Tensor>(ir_index, relative_index);
    }
    const Tensor *GetRequiredInputTensor(const size_t ir_index) const { return GetDynamicInputPointer<Tensor>(ir_index, 0); }
    const StorageShape *GetOptionalInputShape(const size_t ir_index) const {
        return GetDynamicInputPointer<StorageShape>(ir_index, 0);
    }
    const StorageShape *GetRequiredInputShape(const size_t ir_index) const {
        return GetDynamicInputPointer<StorageShape>(ir_index, 0);
    }
    const StorageShape *GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
        return GetDynamicInputPointer<StorageShape>(ir_index, relative_index);
    }
    const StorageShape *GetOutputShape(const size_t index) const {
        if (index >= GetComputeNodeOutputNum()) {
            return nullptr;
        }
        return GetInputPointer<StorageShape>(GetComputeNodeInputNum() + index);
    }

    ge::graphStatus SetTilingKey(const uint64_t tiling_key) { return Store(kOutputTilingKey, tiling_key); }
    uint64_t GetTilingKey() const { return Load<uint64_t>(kOutputTilingKey, std::numeric_limits<uint64_t>::max()); }
    ge::graphStatus SetScheduleMode(const uint32_t mode) { return Store(kOutputScheduleMode, mode); }
    uint32_t GetScheduleMode() const { return Load<uint32_t>(kOutputScheduleMode, 0U); }
    ge::graphStatus SetBlockDim(const uint32_t block_dim) { return SetSimdNumBlocks(block_dim); }
    ge::graphStatus SetSimdNumBlocks(const uint32_t num_blocks) { return Store(kOutputSimdNumBlocks, num_blocks); }
    uint32_t GetBlockDim() const { return GetSimdNumBlocks(); }
    uint32_t GetSimdNumBlocks() const {
        return Load<uint32_t>(kOutputSimdNumBlocks, std::numeric_limits<uint32_t>::max());
    }
    ge::graphStatus SetAicpuBlockDim(uint32_t block_dim) { return SetAicpuNumBlocks(block_dim); }
    ge::graphStatus SetAicpuNumBlocks(uint32_t num_blocks) { return Store(kOutputAicpuNumBlocks, num_blocks); }
    uint32_t GetAicpuBlockDim() const { return GetAicpuNumBlocks(); }
    uint32_t GetAicpuNumBlocks() const {
        return Load<uint32_t>(kOutputAicpuNumBlocks, std::numeric_limits<uint32_t>::max());
    }
    ge::graphStatus SetTilingCond(int32_t tiling_cond) { return Store(kOutputTilingCond, tiling_cond); }
    int32_t GetTilingCond() const { return Load<int32_t>(kOutputTilingCond, -1); }
    ge::graphStatus SetNeedAtomic(const bool atomic) { return Store(kOutputAtomicCleanFlag, atomic); }
    bool NeedAtomic() const { return Load<bool>(kOutputAtomicCleanFlag, false); }
    ge::graphStatus SetLocalMemorySize(const uint32_t size) { return SetDynUBufSize(size); }
    ge::graphStatus SetDynUBufSize(const uint32_t size) { return Store(kOutputDynUBufSize, size); }
    uint32_t GetLocalMemorySize() const { return GetDynUBufSize(); }
    uint32_t GetDynUBufSize() const {
        return Load<uint32_t>(kOutputDynUBufSize, std::numeric_limits<uint32_t>::max());
    }
    ge::graphStatus SetSimtGridDim(const Dim3 &grid_dim) { return Store(kOutputSimtGridDim, grid_dim); }
    const Dim3 *GetSimtGridDim() const { return GetOutputPointer<Dim3>(kOutputSimtGridDim); }
    ge::graphStatus SetSimtBlockDim(const Dim3 &block_dim) { return Store(kOutputSimtBlockDim, block_dim); }
    const Dim3 *GetSimtBlockDim() const { return GetOutputPointer<Dim3>(kOutputSimtBlockDim); }

    /* The tiling data as a T: its data size becomes sizeof(T); nullptr where the capacity is less. */
    template <typename T>
    T *GetTilingData() {
        TilingData *data = GetRawTilingData();
        if (data == nullptr || data->GetCapacity() < sizeof(T)) {
            return nullptr;
        }
        data->SetDataSize(sizeof(T));
        return static_cast<T *>(data->GetData());
    }
    TilingData *GetRawTilingData() {
        TilingData **slot = GetOutputPointer<TilingData *>(kOutputTilingData);
        return slot == nullptr ? nullptr : *slot;
    }
    /* The first workspace_count entries (the count becomes workspace_count); nullptr past capacity. */
    size_t *GetWorkspaceSizes(const size_t workspace_count) {
        auto *workspace = GetOutputPointer<TypedContinuousVector<size_t>>(kOutputWorkspace);
        if (workspace == nullptr || workspace->SetSize(workspace_count) != ge::GRAPH_SUCCESS) {
            return nullptr;
        }
        return workspace->MutableData();
    }
    size_t GetWorkspaceNum() const {
        const auto *workspace = GetOutputPointer<TypedContinuousVector<size_t>>(kOutputWorkspace);
        return workspace == nullptr ? 0U : workspace->GetSize();
    }

    /* Views: an input/output given as a TensorV2 carries strides and an offset. */
    bool InputIsView(const size_t index) const { return InputView(index) != nullptr; }
    const Stride *GetInputStride(const size_t index) const {
        const TensorV2 *t = InputView(index);
        return t == nullptr ? nullptr : &t->GetStride();
    }
    int64_t GetInputOffset(const size_t index) const {
        const TensorV2 *t = InputView(index);
        return t == nullptr ? -1 : t->GetOffset();
    }
    bool OutputIsView(const size_t index) const { return OutputView(index) != nullptr; }
    const Stride *GetOutputStride(const size_t index) const {
        const TensorV2 *t = OutputView(index);
        return t == nullptr ? nullptr : &t->GetStride();
    }
    int64_t GetOutputOffset(const size_t index) const {
        const TensorV2 *t = OutputView(index);
        return t == nullptr ? -1 : t->GetOffset();
    }
    bool OptionalInputIsView(const size_t ir_index) const { return IrInputView(ir_index, 0) != nullptr; }
    const Stride *GetOptionalInputStride(const size_t ir_index) const {
        const TensorV2 *t = IrInputView(ir_index, 0);
        return t == nullptr ? nullptr : &t->GetStride();
    }
    int64_t GetOptionalInputOffset(const size_t ir_index) const {
        const TensorV2 *t = IrInputView(ir_index, 0);
        return t == nullptr ? -1 : t->GetOffset();
    }
    bool DynamicInputIsView(const size_t ir_index, const size_t relative_index) const {
        return IrInputView(ir_index, relative_index) != nullptr;
    }
    const Stride *GetDynamicInputStride(const size_t ir_index, const size_t relative_index) const {
        const TensorV2 *t = IrInputView(ir_index, relative_index);
        return t == nullptr ? nullptr : &t->GetStride();
    }
    int64_t GetDynamicInputOffset(const size_t ir_index, const size_t relative_index) const {
        const TensorV2 *t = IrInputView(ir_index, relative_index);
        return t == nullptr ? -1 : t->GetOffset();
    }
    bool RequiredInputIsView(const size_t ir_index) const { return IrInputView(ir_index, 0) != nullptr; }
    const Stride *GetRequiredInputStride(const size_t ir_index) const { return GetOptionalInputStride(ir_index); }
    int64_t GetRequiredInputOffset(const size_t ir_index) const { return GetOptionalInputOffset(ir_index); }

    /* Where the five slots after the tensors sit: (node inputs + node outputs) + these. */
    static constexpr size_t kCompileInfoSlot = 0;
    static constexpr size_t kPlatformInfoSlot = 1;
    static constexpr size_t kFrameworkSlot = 2;
    static constexpr size_t kDeterministicSlot = 3;
    static constexpr size_t kDeterministicLevelSlot = 4;
    static constexpr size_t kExtraSlotNum = 5;

private:
    size_t ExtraSlot(size_t which) const { return GetComputeNodeInputNum() + GetComputeNodeOutputNum() + which; }
    int32_t ExtraInt(size_t which) const {
        if (GetComputeNodeInfo() == nullptr) {
            return std::numeric_limits<int32_t>::max();
        }
        const Chain *slot = GetInput(ExtraSlot(which));
        return slot == nullptr ? std::numeric_limits<int32_t>::max() : slot->GetValue<int32_t>();
    }
    /* A value up to slot size is stored in the slot; a larger one where the slot points. */
    template <typename T>
    ge::graphStatus Store(size_t output, const T &value) {
        T *p = GetOutputPointer<T>(output);
        if (p == nullptr) {
            return ge::GRAPH_FAILED;
        }
        *p = value;
        return ge::GRAPH_SUCCESS;
    }
    template <typename T>
    T Load(size_t output, T fallback) const {
        const T *p = GetOutputPointer<T>(output);
        return p == nullptr ? fallback : *p;
    }
    static const TensorV2 *AsView(const TensorV2 *t) {
        return (t == nullptr || t->GetVersion() == kTensorV1) ? nullptr : t;
    }
    const TensorV2 *InputView(const size_t index) const {
        return index < GetComputeNodeInputNum() ? AsView(GetInputPointer<TensorV2>(index)) : nullptr;
    }
    const TensorV2 *OutputView(const size_t index) const {
        if (index >= GetComputeNodeOutputNum()) {
            return nullptr;
        }
        return AsView(GetInputPointer<TensorV2>(GetComputeNodeInputNum() + index));
    }
    const TensorV2 *IrInputView(const size_t ir_index, const size_t relative_index) const {
        return AsView(GetDynamicInputPointer<TensorV2>(ir_index, relative_index));
    }
};
static_assert(std::is_standard_layout<TilingContext>::value, "contexts are views of one KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
