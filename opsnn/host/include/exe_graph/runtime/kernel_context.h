/* opsnn host twin: gert::Chain (one value slot of a context) and gert::KernelContext (the slots
 * by index). Every context type -- tiling, infershape, ... -- is this object seen through a class
 * that only adds accessors, so one built context can be read as any of them. */
#ifndef OPSNN_HOST_EXE_GRAPH_RUNTIME_KERNEL_CONTEXT_H_
#define OPSNN_HOST_EXE_GRAPH_RUNTIME_KERNEL_CONTEXT_H_

#include <cstddef>
#include <type_traits>

#include "exe_graph/runtime/kernel_run_context.h"

namespace gert {
class Chain {
public:
    using Deleter = void (*)(void *);

    /* A T of up to pointer size lives in the slot itself; a larger one is pointed at. */
    template <typename T, typename std::enable_if<(sizeof(T) <= sizeof(void *)), int>::type = 0>
    const T *GetPointer() const { return reinterpret_cast<const T *>(value_.data.inplace); }
    template <typename T, typename std::enable_if<(sizeof(T) > sizeof(void *)), int>::type = 0>
    const T *GetPointer() const { return reinterpret_cast<const T *>(value_.data.pointer); }
    template <typename T, typename std::enable_if<(sizeof(T) <= sizeof(void *)), int>::type = 0>
    T *GetPointer() { return reinterpret_cast<T *>(value_.data.inplace); }
    template <typename T, typename std::enable_if<(sizeof(T) > sizeof(void *)), int>::type = 0>
    T *GetPointer() { return reinterpret_cast<T *>(value_.data.pointer); }
    template <typename T, typename std::enable_if<(sizeof(T) <= sizeof(void *)), int>::type = 0>
    const T &GetValue() const { return *reinterpret_cast<const T *>(value_.data.inplace); }
    template <typename T, typename std::enable_if<(sizeof(T) <= sizeof(void *)), int>::type = 0>
    T &GetValue() { return *reinterpret_cast<T *>(value_.data.inplace); }

    /* Frees what the slot owned, then holds `data` (owned when deleter is non-null). */
    void Set(void *const data, const Deleter deleter) {
        Release();
        value_.data.pointer = data;
        value_.deleter = deleter;
    }
    template <typename T, typename std::enable_if<(!std::is_array<T>::value), int>::type = 0>
    void SetWithDefaultDeleter(T *data) {
        Set(data, [](void *p) { delete static_cast<T *>(p); });
    }
    template <typename T, typename PureT = typename std::remove_extent<T>::type,
              typename std::enable_if<std::is_array<T>::value, int>::type = 0>
    void SetWithDefaultDeleter(PureT *data) {
        Set(data, [](void *p) { delete[] static_cast<PureT *>(p); });
    }
    bool HasDeleter() const { return value_.deleter != nullptr; }

private:
    void Release() {
        if (value_.deleter != nullptr) {
            value_.deleter(value_.data.pointer);
            value_.deleter = nullptr;
        }
    }
    AsyncAnyValue value_;
};
static_assert(std::is_standard_layout<Chain>::value, "a Chain is an AsyncAnyValue");
static_assert(sizeof(Chain) == sizeof(AsyncAnyValue), "a Chain is an AsyncAnyValue");

class KernelContext {
public:
    size_t GetInputNum() const { return context_.input_size; }
    size_t GetOutputNum() const { return context_.output_size; }
    const Chain *GetInput(const size_t i) const {
        return i < context_.input_size ? reinterpret_cast<const Chain *>(context_.values[i]) : nullptr;
    }
    Chain *MutableInput(const size_t i) const {
        return i < context_.input_size ? reinterpret_cast<Chain *>(context_.values[i]) : nullptr;
    }
    Chain *GetOutput(const size_t i) {
        return i < context_.output_size ? reinterpret_cast<Chain *>(context_.values[context_.input_size + i])
                                        : nullptr;
    }
    const Chain *GetOutput(const size_t i) const {
        return i < context_.output_size ? reinterpret_cast<const Chain *>(context_.values[context_.input_size + i])
                                        : nullptr;
    }
    Chain *GetOutput2(const size_t i) {
        return i < context_.output_size ? reinterpret_cast<Chain *>(context_.output_start[i]) : nullptr;
    }
    /* A default T where the slot is missing. */
    template <typename T>
    const T GetInputValue(size_t i) const {
        const Chain *slot = GetInput(i);
        return slot == nullptr ? T{} : slot->GetValue<T>();
    }
    template <typename T>
    const T *GetInputPointer(size_t i) const {
        const Chain *slot = GetInput(i);
        return slot == nullptr ? nullptr : slot->GetPointer<T>();
    }
    template <typename T>
    T *MutableInputPointer(size_t i) const {
        Chain *slot = MutableInput(i);
        return slot == nullptr ? nullptr : slot->GetPointer<T>();
    }
    const char *GetInputStrPointer(const size_t i) const {
        const Chain *slot = GetInput(i);
        return slot == nullptr ? nullptr : slot->GetValue<const char *>();
    }
    const void *GetComputeNodeExtend() const { return context_.compute_node_info; }
    const void *GetKernelExtend() const { return context_.kernel_extend_info; }
    template <typename T>
    T *GetOutputPointer(size_t i) {
        Chain *slot = GetOutput(i);
        return slot == nullptr ? nullptr : slot->GetPointer<T>();
    }
    template <typename T>
    const T *GetOutputPointer(size_t i) const {
        const Chain *slot = GetOutput(i);
        return slot == nullptr ? nullptr : slot->GetPointer<T>();
    }
    KernelRunContext *GetContext() { return &context_; }
    const KernelRunContext *GetContext() const { return &context_; }
    static bool IsInlineSize(const size_t size) { return size <= sizeof(void *); }

private:
    KernelRunContext context_;
};
static_assert(std::is_standard_layout<KernelContext>::value, "a KernelContext is a KernelRunContext");
}  // namespace gert

#endif  // OPSNN_HOST_EXE_GRAPH_RUNTIME_KERNEL_CONTEXT_H_
