/* opsnn host twin: ge::AddOverflow / ge::MulOverflow, the checked arithmetic the runtime types
 * size their buffers with (true: the result did not fit `ret`). */
#ifndef OPSNN_HOST_UTILS_EXTERN_MATH_UTIL_H_
#define OPSNN_HOST_UTILS_EXTERN_MATH_UTIL_H_

namespace ge {
template <typename TLhs, typename TRhs, typename TRet>
bool MulOverflow(TLhs lhs, TRhs rhs, TRet &ret) {
    return __builtin_mul_overflow(lhs, rhs, &ret);
}
template <typename TLhs, typename TRhs, typename TRet>
bool AddOverflow(TLhs lhs, TRhs rhs, TRet &ret) {
    return __builtin_add_overflow(lhs, rhs, &ret);
}
}  // namespace ge

#endif  // OPSNN_HOST_UTILS_EXTERN_MATH_UTIL_H_
