/* opsnn's atvoss: Elems, the type list a DAG names its outputs with (`Elems<OpCopyOut>`) and the
 * framework keeps its node lists in. Only what DAG code and opsnn's schedules use. */
#ifndef OPSNN_ATVOSS_UTIL_ELEMS_H_
#define OPSNN_ATVOSS_UTIL_ELEMS_H_

#include <cstddef>
#include <type_traits>

namespace Ops {
namespace Base {

namespace elems_detail {
template <int n, typename... Ts> struct Nth;
template <typename T, typename... Ts> struct Nth<0, T, Ts...> { using Type = T; };
template <int n, typename T, typename... Ts> struct Nth<n, T, Ts...> { using Type = typename Nth<n - 1, Ts...>::Type; };
}  // namespace elems_detail

template <typename... Ts>
struct Elems {
    using Type = Elems<Ts...>;
    constexpr static size_t Size = sizeof...(Ts);

    template <int pos>
    using At = typename elems_detail::Nth<pos, Ts...>::Type;

    template <typename... Us>
    using Append = Elems<Ts..., Us...>;

    template <template <class...> class T>
    using Export = T<Ts...>;

    /* whether T is in the list at or after `start` */
    template <typename T, int start = 0>
    constexpr static bool IsExist() {
        int i = 0;
        bool found = false;
        ((found = found || (i++ >= start && std::is_same_v<T, Ts>)), ...);
        return found;
    }

    /* T's first position, -1 when absent */
    template <typename T>
    constexpr static int GetIndex() {
        int i = 0, at = -1;
        ((at = (at < 0 && std::is_same_v<T, Ts>) ? i : at, ++i), ...);
        return at;
    }
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_UTIL_ELEMS_H_
