/* opsnn host twin: opdev/object.h -- op::Object, the common base of everything an aclOpExecutor
 * allocates and frees (tensors, scalars, arrays). CANN's pools these allocations; opsnn's uses the
 * ordinary heap: the base only gives every such object a virtual destructor, so the executor can
 * free what it owns through one pointer type. */
#ifndef OPSNN_HOST_OPDEV_OBJECT_H_
#define OPSNN_HOST_OPDEV_OBJECT_H_

#include <cstddef>
#include <new>

namespace op {
class Object {
public:
    Object() = default;
    virtual ~Object() = default;
};
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_OBJECT_H_
