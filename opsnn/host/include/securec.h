/* opsnn host twin: the bounded C string/memory functions (Huawei's securec) operator code calls:
 * memset_s, memcpy_s, memmove_s, strcpy_s, strncpy_s, strcat_s, sprintf_s, snprintf_s. Each
 * returns EOK, or an error code without writing past destMax (a too-small destination is cleared
 * where the call had one, as securec does). Header-only: kernel code includes it too. */
#ifndef OPSNN_HOST_SECUREC_H_
#define OPSNN_HOST_SECUREC_H_

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (ERANGE | 0x80)
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (EINVAL | 0x80)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 0x80)
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif

typedef int errno_t;

inline errno_t memset_s(void *dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}

inline errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dest);
    if (count > 0 && ((d <= s && s < d + count) || (s <= d && d < s + count))) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

inline errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    std::memmove(dest, src, count);
    return EOK;
}

inline errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count) {
    if (strDest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    if (strSrc == nullptr) {
        strDest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    size_t n = 0;
    while (n < count && strSrc[n] != '\0') {
        ++n;
    }
    if (n >= destMax) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    std::memmove(strDest, strSrc, n);
    strDest[n] = '\0';
    return EOK;
}

inline errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc) {
    return strncpy_s(strDest, destMax, strSrc, strSrc == nullptr ? 0 : std::strlen(strSrc));
}

inline errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc) {
    if (strDest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
        return ERANGE;
    }
    const size_t used = strnlen(strDest, destMax);
    if (used == destMax) {
        strDest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    const errno_t ret = strcpy_s(strDest + used, destMax - used, strSrc);
    if (ret != EOK) {
        strDest[0] = '\0';
    }
    return ret;
}

/* -1 where the text does not fit (the destination then holds ""). */
inline int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list args) {
    if (strDest == nullptr || destMax == 0 || format == nullptr) {
        return -1;
    }
    const size_t limit = count < destMax - 1 ? count + 1 : destMax;
    const int n = std::vsnprintf(strDest, limit, format, args);
    if (n < 0 || static_cast<size_t>(n) >= limit) {
        if (count >= destMax - 1) {
            strDest[0] = '\0';
        }
        return -1;
    }
    return n;
}
inline int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
inline int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...) {
    va_list args;
    va_start(args, format);
    const int n = vsnprintf_s(strDest, destMax, count, format, args);
    va_end(args);
    return n;
}
inline int sprintf_s(char *strDest, size_t destMax, const char *format, ...) __attribute__((format(printf, 3, 4)));
inline int sprintf_s(char *strDest, size_t destMax, const char *format, ...) {
    va_list args;
    va_start(args, format);
    const int n = vsnprintf_s(strDest, destMax, destMax == 0 ? 0 : destMax - 1, format, args);
    va_end(args);
    return n;
}

#endif  // OPSNN_HOST_SECUREC_H_
