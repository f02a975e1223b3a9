/* opsnn host twin: opdev/small_vector.h -- op::internal::SmallVector<T, N>.
 *
 * CANN's keeps its first N elements inline; opsnn's is a std::vector with the same element
 * interface (push_back, emplace_back, data, size, operator[], iteration, brace initialisation).
 * N is accepted and ignored: host code only uses the interface, and a plain vector keeps the
 * element storage out of this header. */
#ifndef OPSNN_HOST_OPDEV_SMALL_VECTOR_H_
#define OPSNN_HOST_OPDEV_SMALL_VECTOR_H_

#include <cstddef>
#include <initializer_list>
#include <vector>

namespace op {
namespace internal {
template <typename T, size_t N = 8>
class SmallVector : public std::vector<T> {
public:
    using std::vector<T>::vector;
    SmallVector() = default;
    SmallVector(const std::vector<T> &other) : std::vector<T>(other) {}  // NOLINT: implicit, as CANN's
    SmallVector(std::vector<T> &&other) : std::vector<T>(static_cast<std::vector<T> &&>(other)) {}  // NOLINT
};
}  // namespace internal
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_SMALL_VECTOR_H_
