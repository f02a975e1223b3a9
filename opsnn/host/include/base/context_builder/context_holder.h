/* opsnn host twin: gert::ContextHolder<T> -- owns a built context and everything it points at
 * (node description, attributes, the values the builder created); GetContext() is nullptr when the
 * build was refused (the builder printed why). Move-only. */
#ifndef OPSNN_HOST_BASE_CONTEXT_BUILDER_CONTEXT_HOLDER_H_
#define OPSNN_HOST_BASE_CONTEXT_BUILDER_CONTEXT_HOLDER_H_

#include <memory>
#include <utility>

namespace gert {
class ContextHolderImpl;

class ContextHolderVoid {
public:
    ContextHolderVoid();
    explicit ContextHolderVoid(std::unique_ptr<ContextHolderImpl> impl);
    ~ContextHolderVoid();
    ContextHolderVoid(ContextHolderVoid &&other) noexcept;
    ContextHolderVoid &operator=(ContextHolderVoid &&other) noexcept;
    void *GetContext() const;

private:
    std::unique_ptr<ContextHolderImpl> impl_;
};

template <typename ContextTypeT>
class ContextHolder {
public:
    ContextHolder() = default;
    explicit ContextHolder(ContextHolderVoid &&holder_void) : holder_void_(std::move(holder_void)) {}
    ContextTypeT *GetContext() { return static_cast<ContextTypeT *>(holder_void_.GetContext()); }

private:
    ContextHolderVoid holder_void_;
};
}  // namespace gert

#endif  // OPSNN_HOST_BASE_CONTEXT_BUILDER_CONTEXT_HOLDER_H_
