/* opsnn's template_argument.h: the ASCENDC_TPL_* declarations of a kernel's tiling-key template
 * arguments, and GET_TPL_TILING_KEY, with CANN's encoding (its EncodeTilingKey, documented for
 * GET_TPL_TILING_KEY: "converts the template arguments into binary by their declared bit widths
 * and combines them in order"):
 *
 *   - the arguments are packed in ASCENDC_TPL_ARGS_DECL's order, the first in the lowest bits,
 *     each taking its declared width: DATATYPE / DTYPE / FORMAT 8 bits, BOOL 1 bit, UINT the
 *     width ASCENDC_TPL_UINT_DECL gives;
 *   - DATATYPE / DTYPE / FORMAT / BOOL arguments are packed by value (a C_DT_* code); a UINT
 *     argument by its index in the declaration's value list (ASCENDC_TPL_UI_LIST: the values as
 *     listed; ASCENDC_TPL_UI_RANGE: a count, then that many [first, last] pairs, expanded;
 *     ASCENDC_TPL_UI_MIX: the ranges, then listed values);
 *   - arguments that no ASCENDC_TPL_ARGS_SEL combination allows (or a UINT value the declaration
 *     lacks, or the wrong number of them) give CANN's invalid key, all 64 bits set.
 *
 * The declarations become tables in the translation unit that includes the tiling-key header, as
 * CANN's do; `opsnn ut` reads the same header to give a kernel template the extern "C" entry its
 * test declares (ut.py). The numeric values of the ASCENDC_TPL_UI_* mode flags and of
 * ASCENDC_TPL_INPUT are opsnn's (only these macros read them); C_DT_* are ge::DataType's codes. */
#ifndef OPSNN_TEMPLATE_ARGUMENT_H_
#define OPSNN_TEMPLATE_ARGUMENT_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "graph/types.h"
#include "opsnn_kt/types.h"

#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
/* bit widths a declaration names its width by */
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_3_BW 3
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_5_BW 5
#define ASCENDC_TPL_6_BW 6
#define ASCENDC_TPL_7_BW 7
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_16_BW 16
#define ASCENDC_TPL_32_BW 32
#define ASCENDC_TPL_64_BW 64
#define ASCENDC_TPL_INPUT_BIAS 0x10000u
#define ASCENDC_TPL_INPUT(n) (ASCENDC_TPL_INPUT_BIAS + (n))  // "the dtype of input n": no key value

#define C_DT_FLOAT ge::DT_FLOAT
#define C_DT_FLOAT16 ge::DT_FLOAT16
#define C_DT_INT8 ge::DT_INT8
#define C_DT_INT32 ge::DT_INT32
#define C_DT_UINT8 ge::DT_UINT8
#define C_DT_INT16 ge::DT_INT16
#define C_DT_UINT16 ge::DT_UINT16
#define C_DT_UINT32 ge::DT_UINT32
#define C_DT_INT64 ge::DT_INT64
#define C_DT_UINT64 ge::DT_UINT64
#define C_DT_DOUBLE ge::DT_DOUBLE
#define C_DT_BOOL ge::DT_BOOL
#define C_DT_BF16 ge::DT_BF16

namespace opsnn_kt {
enum TplKind : int { TPL_DTYPE = 0, TPL_FORMAT, TPL_UINT, TPL_BOOL, TPL_OTHER };
constexpr uint64_t TPL_INVALID_KEY = ~0ull;

struct TplParam {
    const char *name;
    int kind;
    unsigned width;
    std::vector<uint64_t> raw;  // as written: a UINT's mode flag first
};

/* A UINT declaration's values, expanded (CANN's rule for RANGE and MIX). */
inline std::vector<uint64_t> TplUintValues(const std::vector<uint64_t> &raw) {
    if (raw.empty()) return {};
    uint64_t mode = raw[0];
    std::vector<uint64_t> out;
    if (mode == ASCENDC_TPL_UI_LIST) return std::vector<uint64_t>(raw.begin() + 1, raw.end());
    if (raw.size() < 2) return out;
    size_t ranges = raw[1], i = 2;
    for (size_t r = 0; r < ranges && i + 1 < raw.size(); ++r, i += 2)
        for (uint64_t v = raw[i]; v <= raw[i + 1]; ++v) out.push_back(v);
    if (mode == ASCENDC_TPL_UI_MIX) out.insert(out.end(), raw.begin() + static_cast<long>(i), raw.end());
    return out;
}

inline std::vector<uint64_t> TplValues(const TplParam &p) {
    if (p.kind == TPL_UINT) return TplUintValues(p.raw);
    std::vector<uint64_t> out;
    for (uint64_t v : p.raw)
        if (v < ASCENDC_TPL_INPUT_BIAS) out.push_back(v);
    return out;
}

inline bool TplHas(const std::vector<uint64_t> &values, uint64_t v) {
    for (uint64_t x : values)
        if (x == v) return true;
    return false;
}

inline uint64_t TplTilingKey(const std::vector<TplParam> &decl, const std::vector<std::vector<TplParam>> &sel,
                             std::initializer_list<uint64_t> args) {
    if (args.size() != decl.size()) return TPL_INVALID_KEY;
    std::vector<uint64_t> a(args);
    bool allowed = sel.empty();
    for (const auto &combination : sel) {
        bool ok = true;
        for (const auto &s : combination) {
            if (s.kind == TPL_OTHER) continue;  // the kernel type: not an argument
            for (size_t i = 0; i < decl.size(); ++i) {
                if (std::string_view(decl[i].name) == s.name && !TplHas(TplValues(s), a[i])) ok = false;
            }
        }
        if (ok) allowed = true;
    }
    if (!allowed) return TPL_INVALID_KEY;
    uint64_t key = 0;
    unsigned shift = 0;
    for (size_t i = 0; i < decl.size(); ++i) {
        uint64_t bits = a[i];
        if (decl[i].kind == TPL_UINT) {
            std::vector<uint64_t> values = TplUintValues(decl[i].raw);
            size_t k = 0;
            while (k < values.size() && values[k] != a[i]) ++k;
            if (k == values.size()) return TPL_INVALID_KEY;
            bits = k;
        }
        if (shift >= 64) return TPL_INVALID_KEY;
        key |= bits << shift;
        shift += decl[i].width;
    }
    return key;
}

/* The index a UINT value packs as, from the declaration's tokens (mode flag first): what the
 * extern "C" entry `opsnn ut` generates computes its keys with. */
constexpr uint64_t TplTilingIndex(std::initializer_list<uint64_t> raw, uint64_t v) {
    const uint64_t *p = raw.begin();
    size_t n = raw.size();
    if (n < 2) return TPL_INVALID_KEY;
    if (p[0] == ASCENDC_TPL_UI_LIST) {
        for (size_t i = 1; i < n; ++i)
            if (p[i] == v) return i - 1;
        return TPL_INVALID_KEY;
    }
    uint64_t index = 0;
    size_t i = 2;
    for (uint64_t r = 0; r < p[1] && i + 1 < n; ++r, i += 2)
        for (uint64_t x = p[i]; x <= p[i + 1]; ++x, ++index)
            if (x == v) return index;
    if (p[0] == ASCENDC_TPL_UI_MIX)
        for (; i < n; ++i, ++index)
            if (p[i] == v) return index;
    return TPL_INVALID_KEY;
}

/* the element type a DATATYPE argument names, for a kernel template's typename parameter */
template <uint64_t code> struct TplDType;
template <> struct TplDType<ge::DT_FLOAT> { using type = float; };
template <> struct TplDType<ge::DT_FLOAT16> { using type = half; };
template <> struct TplDType<ge::DT_BF16> { using type = bfloat16_t; };
template <> struct TplDType<ge::DT_INT8> { using type = int8_t; };
template <> struct TplDType<ge::DT_UINT8> { using type = uint8_t; };
template <> struct TplDType<ge::DT_INT16> { using type = int16_t; };
template <> struct TplDType<ge::DT_UINT16> { using type = uint16_t; };
template <> struct TplDType<ge::DT_INT32> { using type = int32_t; };
template <> struct TplDType<ge::DT_UINT32> { using type = uint32_t; };
template <> struct TplDType<ge::DT_INT64> { using type = int64_t; };
template <> struct TplDType<ge::DT_UINT64> { using type = uint64_t; };
template <> struct TplDType<ge::DT_BOOL> { using type = bool; };
}  // namespace opsnn_kt

#define OPSNN_TPL_PARAM(x, kind, width, ...) ::opsnn_kt::TplParam{#x, kind, width, {__VA_ARGS__}}
#define ASCENDC_TPL_DTYPE_DECL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_DTYPE, 8, __VA_ARGS__)
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_DTYPE, 8, __VA_ARGS__)
#define ASCENDC_TPL_FORMAT_DECL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_FORMAT, 8, __VA_ARGS__)
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_UINT, bw, __VA_ARGS__)
#define ASCENDC_TPL_BOOL_DECL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_BOOL, 1, __VA_ARGS__)
#define ASCENDC_TPL_DTYPE_SEL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_DTYPE, 8, __VA_ARGS__)
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_DTYPE, 8, __VA_ARGS__)
#define ASCENDC_TPL_FORMAT_SEL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_FORMAT, 8, __VA_ARGS__)
#define ASCENDC_TPL_UINT_SEL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_UINT, 0, __VA_ARGS__)
#define ASCENDC_TPL_BOOL_SEL(x, ...) OPSNN_TPL_PARAM(x, ::opsnn_kt::TPL_BOOL, 1, __VA_ARGS__)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) ::opsnn_kt::TplParam{"kernel_type", ::opsnn_kt::TPL_OTHER, 8, {}}
/* the tiling struct a combination's kernel reads (CANN's ASCENDC_TPL_TILING_STRUCT_SEL): no key bits */
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...) ::opsnn_kt::TplParam{"tiling_struct", ::opsnn_kt::TPL_OTHER, 0, {}}
#define ASCENDC_TPL_ARGS_DECL(op, ...) static const std::vector<::opsnn_kt::TplParam> opsnn_kt_tpl_decl_{__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) std::vector<::opsnn_kt::TplParam>{__VA_ARGS__}
#define ASCENDC_TPL_SEL(...) static const std::vector<std::vector<::opsnn_kt::TplParam>> opsnn_kt_tpl_sel_{__VA_ARGS__}
#define GET_TPL_TILING_KEY(...) ::opsnn_kt::TplTilingKey(opsnn_kt_tpl_decl_, opsnn_kt_tpl_sel_, {__VA_ARGS__})
/* A tiling function's shorthand: the key of these template-argument values set on its context. */
#define ASCENDC_TPL_SEL_PARAM(context, ...)                        \
    do {                                                           \
        (context)->SetTilingKey(GET_TPL_TILING_KEY(__VA_ARGS__));  \
    } while (0)
#endif
