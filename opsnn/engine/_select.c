/* The express lane's select in C: out = keep(feature) ? grad : masked, one pass over flat,
 * same-dtype, C-contiguous operands, on the calling thread or on a small pool of our own threads.
 *
 * Why C beside numba (measured on a 2-core EPYC VM, see docs/fast-path.md): a process that has
 * only this module loads it in about a millisecond, where numba needs ~0.2 s to import and
 * ~0.15 s to set up its compiler before even a cached kernel runs; a call's checks cost
 * nanoseconds here instead of a microsecond of Python; and our pool's spinning workers start a
 * part in well under a microsecond. Everything else (broadcasting, strides, mixed dtypes) stays
 * with numba and numpy.
 *
 * The kept set is two ranges of the feature's raw unsigned bits (see keep_range.py): compares
 * only, no float arithmetic on the feature. Both operands are loaded unconditionally, so the
 * compiler turns the select into vector blends.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define STREAMING 1
#define RELAX() _mm_pause()
#else
#define STREAMING 0
#define RELAX() ((void)0)
#endif

/* One build of every loop for AVX-512 (x86-64-v4), one for AVX2 and one for the baseline, picked at
 * load time (glibc ifunc). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#elif defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define CLONES __attribute__((target_clones("avx2", "default"))) /* x86-64-v4: GCC 11 and later */
#else
#define CLONES
#endif

#if defined(__clang__)
#define ASSUME_NO_OVERLAP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define ASSUME_NO_OVERLAP _Pragma("GCC ivdep")
#else
#define ASSUME_NO_OVERLAP
#endif

/* keep_range.Selection.params, in its order (the module exports these; a test compares them) */
enum { LO1, HI1, LO2, HI2, FILL, SIGN, EXPONENT, QUIET, MODE, NPARAMS };
enum { PLAIN, RELU, VIA_FLOAT32, ONE /* not a MODE of keep_range: PLAIN on a single operand */, LEAKY, LEAKY_BF16,
       PLAIN_KEYED, RELU_KEYED /* not MODEs either: PLAIN or RELU with the flag KEYED */ };
/* MODE's flag bits: CYCLIC, the two ranges are cyclic (lo > hi wraps around; none is empty);
 * HOST_NAN, LEAKY's product makes this CPU's default NaN for inf * 0 (x86: 0xFFC00000), not the
 * device's (exponent | quiet, the operands' sign product) */
#define MODE_MASK 0xffu
#define CYCLIC 0x100u
#define HOST_NAN 0x200u
/* KEYED (PLAIN, RELU): the ranges hold keys of the feature, not its bits: a float's bits made
 * monotone in its value (negatives reversed below the positives), so that an open interval with
 * the NaNs (HardtanhGrad's "min < x < max or x is NaN") is two cyclic ranges whatever the bounds */
#define KEYED 0x400u
#define KEY_OF(T, x) ((T)((x) ^ ((T)((T)0 - (T)((x) >> (8 * sizeof(T) - 1))) | (T)((T)1 << (8 * sizeof(T) - 1)))))
#define VKEY_OF(x) ((x) ^ ((0 - ((x) >> (8 * sizeof((x)[0]) - 1))) | ((__typeof__((x)[0]))1 << (8 * sizeof((x)[0]) - 1))))

typedef struct {
    uint64_t v[NPARAMS];
} Params;

/* ---------------------------------------------------------------- loops, one per width x mode */
/* out may be exactly grad or feature (same start): each element is read before it is written, so
 * the loops are safe to vectorise; any other overlap is declined before a loop runs. */

typedef void (*RangeFn)(const void *g, const void *f, void *o, size_t n, const Params *p);

/* u in [lo, lo + span] as one subtract and one unsigned compare (four compares cost the loop a
 * third of its speed where the data is in cache); Lane() rewrites an empty range as a copy of the
 * other, since a span of lo > hi would wrap around */
#define KEEP(T, u) (((T)((u) - lo1) <= span1) | ((T)((u) - lo2) <= span2))
#define BOUNDS(T) \
    const T lo1 = (T)p->v[LO1], span1 = (T)(p->v[HI1] - p->v[LO1]), lo2 = (T)p->v[LO2], \
            span2 = (T)(p->v[HI2] - p->v[LO2])
/* one range (the other a copy of it): the compiler folds the second test into the first. Integer
 * selections are mostly one range; callgrind, 8 K elements on the AVX2 build: 25 % fewer
 * instructions for int32 through float32, 31 % for uint8 (timings here are too noisy to show it) */
#define BOUNDS1(T) \
    const T lo1 = (T)p->v[LO1], span1 = (T)(p->v[HI1] - p->v[LO1]), lo2 = lo1, span2 = span1
#define RELU_MASKS(T) const T sign = (T)p->v[SIGN], e = (T)p->v[EXPONENT], q = (T)p->v[QUIET]

/* Per element, in scalars (the compiler vectorises these loops) ... */
#define PLAIN_ELEMENT(T) (KEEP(T, u) ? gi : fill)
/* ReluGrad: the masked value is grad * 0, a zero of grad's sign, or a quiet NaN for inf/NaN grads;
 * the kept one grad * 1, the grad itself but a signalling NaN quieted (functional_models.py) */
/* In masks (all ones where true): s an inf or NaN grad (|grad| >= the exponent mask), n a NaN one,
 * k kept. Kept: grad, quieted where n; masked: grad | q where s, else its sign. In one expression,
 *   (gi & (k | sign | s)) | (q & (n | (s & ~k)))
 * (the ?: chain it replaces compiled to twice the instructions: ReluGrad float32 at 64 K-1 M in
 * cache ran 1.6-1.9x the plain select's time) */
#define RELU_BITS(gi, k, s, n) (((gi) & ((k) | sign | (s))) | (q & ((n) | ((s) & ~(k)))))
#define RELU_ELEMENT_K(T, K) ({                                                    \
    const T a_ = gi & (T)~sign, k_ = (T)0 - (T)(K);                              \
    const T s_ = (T)0 - (T)(a_ >= e), n_ = (T)0 - (T)(a_ > e);                   \
    (T)RELU_BITS(gi, k_, s_, n_); })
#define RELU_ELEMENT(T) RELU_ELEMENT_K(T, KEEP(T, u))
/* RELU_KEYED (HardtanhGrad on the 910B): the second range keeps grad's own bits (a NaN feature),
 * the first keeps grad * 1 (a signalling NaN quieted), the rest is grad * 0 */
#define RELU_KEYED_ELEMENT(T) \
    (((T)(u - lo2) <= span2) ? gi : RELU_ELEMENT_K(T, ((T)(u - lo1) <= span1)))
/* int32 on the NPU: the grad goes through float32 (round to nearest even) and back, saturating */
#define VIA_FLOAT32_ELEMENT(T) \
    (KEEP(T, u) ? (T)((float)(int32_t)gi >= 2147483648.0f ? INT32_MAX : (int32_t)(float)(int32_t)gi) : fill)

#define PLAIN_SETUP(T, BND) BND(T); const T fill = (T)p->v[FILL]
/* ONE: the plain select of one operand against itself (the forward; grad is feature): loaded once
 * (measured: the forward 5-10 % faster at 1-16 M elements than loading each element twice). */
#define ONE_SETUP PLAIN_SETUP
#define ONE_ELEMENT PLAIN_ELEMENT
#define ONE_VECTOR PLAIN_VECTOR
#define ONE_LOAD(T, g, f, i) const T u = (f)[i], gi = u
#define ONE_VLOAD(V, VB, g, f, i) V u, gi; memcpy(&u, (f) + (i), VB); gi = u
#define TWO_LOAD(T, g, f, i) const T u = (f)[i], gi = (g)[i]
#define TWO_VLOAD(V, VB, g, f, i) V u, gi; memcpy(&u, (f) + (i), VB); memcpy(&gi, (g) + (i), VB)
#define PLAIN_LOAD TWO_LOAD
#define PLAIN_VLOAD TWO_VLOAD
#define RELU_LOAD TWO_LOAD
#define RELU_VLOAD TWO_VLOAD
#define VIA_FLOAT32_LOAD TWO_LOAD
#define VIA_FLOAT32_VLOAD TWO_VLOAD
#define RELU_SETUP(T, BND) BND(T); RELU_MASKS(T)
/* the KEYED kinds: their kind's rule on the feature's key */
#define KEYED_LOAD(T, g, f, i) const T u = KEY_OF(T, (f)[i]), gi = (g)[i]
#define KEYED_VLOAD(V, VB, g, f, i) V u, gi; memcpy(&u, (f) + (i), VB); memcpy(&gi, (g) + (i), VB); u = VKEY_OF(u)
#define KEYED_SLOAD(T, g, f) const T u = KEY_OF(T, *(const T *)(f)), gi = *(const T *)(g)
#define PLAIN_KEYED_SETUP PLAIN_SETUP
#define PLAIN_KEYED_ELEMENT PLAIN_ELEMENT
#define PLAIN_KEYED_VECTOR PLAIN_VECTOR
#define PLAIN_KEYED_LOAD KEYED_LOAD
#define PLAIN_KEYED_VLOAD KEYED_VLOAD
#define PLAIN_KEYED_SLOAD KEYED_SLOAD
#define RELU_KEYED_SETUP RELU_SETUP
#define RELU_KEYED_LOAD KEYED_LOAD
#define RELU_KEYED_VLOAD KEYED_VLOAD
#define RELU_KEYED_SLOAD KEYED_SLOAD
#define VIA_FLOAT32_SETUP(T, BND) BND(T); const T fill = (T)p->v[FILL] /* 0 backward; the forward's value */

/* ... and in GCC/clang vector extensions, for the streaming loops. A compare gives a lane mask of
 * all ones or zeros; a select is (a & m) | (b & ~m). */
#define VKEEP(V, u) ((V)((V)((u) - vlo1) <= vspan1) | (V)((V)((u) - vlo2) <= vspan2))
#define VBOUNDS(V) \
    const V vlo1 = (V){} + lo1, vspan1 = (V){} + span1, vlo2 = (V){} + lo2, vspan2 = (V){} + span2
#define PLAIN_VECTOR(V, VB, T) ({ V m = VKEEP(V, u); (gi & m) | (((V){} + fill) & ~m); })
#define RELU_VECTOR(V, VB, T) RELU_VECTOR_M(V, VKEEP(V, u))
#define RELU_KEYED_VECTOR(V, VB, T) ({                                            \
    V raw = (V)((V)(u - vlo2) <= vspan2);                                        \
    (gi & raw) | (RELU_VECTOR_M(V, (V)((V)(u - vlo1) <= vspan1)) & ~raw); })
#define RELU_VECTOR_M(V, M) ({                                                    \
    V m_ = (M), a_ = gi & (__typeof__(sign))~sign;                               \
    V s_ = (V)(a_ >= e), n_ = (V)(a_ > e);                                       \
    RELU_BITS(gi, m_, s_, n_); })
#define VIA_FLOAT32_VECTOR(V, VB, T) ({                                           \
    typedef float F32V __attribute__((vector_size(VB)));                        \
    typedef int32_t I32V __attribute__((vector_size(VB)));                      \
    F32V v = __builtin_convertvector((I32V)gi, F32V);                            \
    /* a lane that rounded up to 2^31 converts to 0x80000000; adding its all-ones mask (-1) \
     * saturates it to INT32_MAX in one operation */                            \
    V big = (V)(v >= 2147483648.0f);                                             \
    V r = (V)__builtin_convertvector(v, I32V) + big;                             \
    V keep = VKEEP(V, u);                                                        \
    (r & keep) | (((V){} + fill) & ~keep); })

/* LeakyReluGrad (modes LEAKY, LEAKY_BF16): keep ? grad : narrow(wide(grad) * slope), grad's own
 * bits where kept; the slope's bits in FILL (float32, or float64 for 8-byte items); the product's
 * NaN: a NaN operand quieted (the device: grad's first; the host: the slope's first), else
 * (inf * 0) the device's or the host's invalid NaN. float16 and bfloat16 compute in float32 (widening is exact), rounded once to
 * nearest even; a NaN product keeps its top payload bits (it is quiet already). */
#define F32_NAN(b) (((b) & 0x7fffffffu) > 0x7f800000u)
#define F64_NAN(b) (((b) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
static inline float f32_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t bits_of_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double f64_of(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static inline uint64_t bits_of_f64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }
/* straight-line mask arithmetic (m ? a : b written as a select of all-ones / zero masks), so the
 * compiler vectorises the loops (a ?: chain here left them scalar, 8x slower) */
#define MASK32(c) ((uint32_t)0 - (uint32_t)(c))
#define MASK64(c) ((uint64_t)0 - (uint64_t)(c))
#define PICK(m, a, b) (((a) & (m)) | ((b) & ~(m)))
/* A finite or infinite slope (the usual case): a NaN product is grad's NaN quieted, else inf * 0,
 * the invalid NaN: inv_base with the operands' sign product where inv_xor keeps it (the device)
 * or this CPU's default NaN (inv_xor 0). A NaN slope: every product is NaN, grad's quieted first
 * on the device, the slope's on the host (as numpy's loops and torch's vectorised one order it). */
#define LEAKY_FNS(W, U, F, NAN, QUIET)                                                \
    static inline U leaky##W(U g, F sf, U sb, U inv_base, U inv_xor) {                \
        const U pb = bits_of_f##W(f##W##_of(g) * sf);                                 \
        const U nan = PICK(MASK##W(NAN(g)), g | QUIET, inv_base | ((g ^ sb) & inv_xor)); \
        return PICK(MASK##W(NAN(pb)), nan, pb);                                      \
    }                                                                                \
    static inline U leaky##W##_nan_slope(U g, U sq, U host_mask) {                   \
        return PICK(MASK##W(NAN(g)) & ~host_mask, g | QUIET, sq);                    \
    }
LEAKY_FNS(32, uint32_t, float, F32_NAN, 0x00400000u)
LEAKY_FNS(64, uint64_t, double, F64_NAN, 0x0008000000000000ull)
/* float16 <-> float32 in integer and float32 operations the compiler vectorises (GCC 12 leaves
 * _Float16 conversions scalar). Widening is exact: subnormals through an exact int -> float and a
 * power-of-two scale (no float32 subnormal is involved, whatever the FPU's denormal flags), NaN
 * payloads kept. Narrowing rounds to nearest even: normals on the bits, subnormals by adding 0.5
 * (whose float32 ulp is float16's smallest subnormal, so the FPU rounds the sum for us), beyond
 * 65520 to inf, a NaN keeping its top payload bits. */
static inline uint32_t wide_f16(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, em = h & 0x7fffu;
    const uint32_t normal = (em << 13) + ((uint32_t)(127 - 15) << 23);
    const uint32_t sub = bits_of_f32((float)(int32_t)em * 0x1p-24f);
    const uint32_t special = (em << 13) | 0x7f800000u;
    return sign | PICK(MASK32(em >= 0x7c00u), special, PICK(MASK32(em < 0x400u), sub, normal));
}
static inline uint16_t narrow_f16(uint32_t b) {
    const uint32_t sign = (b >> 16) & 0x8000u, a = b & 0x7fffffffu;
    const uint32_t normal = (a - ((uint32_t)(127 - 15) << 23) + 0xfffu + ((a >> 13) & 1u)) >> 13;
    const uint32_t sub = bits_of_f32(f32_of(a) + 0.5f) - 0x3f000000u;
    const uint32_t big = PICK(MASK32(a > 0x7f800000u), 0x7c00u | ((a >> 13) & 0x3ffu), 0x7c00u);
    return (uint16_t)(sign | PICK(MASK32(a >= 0x477ff000u), big, PICK(MASK32(a < 0x38800000u), sub, normal)));
}
static inline uint16_t narrow_bf16(uint32_t b) {
    return (uint16_t)(PICK(MASK32(F32_NAN(b)), b, b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
/* per call: the slope as float and bits, its NaN rule's constants (see leaky32) */
#define LEAKY_SETUP(T, BND) BND(T);                                                   \
    const uint64_t sb = p->v[FILL], host = (p->v[MODE] & HOST_NAN) != 0;              \
    const int wide8 = sizeof(T) == 8;                                                 \
    const uint64_t q = wide8 ? 0x0008000000000000ull : 0x00400000u;                   \
    const int slope_nan = wide8 ? F64_NAN(sb) : F32_NAN((uint32_t)sb);                \
    /* a finite, nonzero slope: a product is NaN only for a NaN grad, and the multiply itself  \
     * then gives the rule's answer (the NaN operand quieted): no NaN logic at all */         \
    const int slope_plain = wide8 ? ((sb & 0x7fffffffffffffffull) - 1 < 0x7ff0000000000000ull - 1) \
                                  : (((uint32_t)sb & 0x7fffffffu) - 1 < 0x7f800000u - 1);    \
    const uint64_t sq = sb | q, host_mask = MASK64(host);                             \
    const uint64_t inv_base = wide8 ? (host ? 0xfff8000000000000ull : 0x7ff8000000000000ull) \
                                    : (host ? 0xffc00000u : 0x7fc00000u);             \
    const uint64_t inv_xor = host ? 0 : wide8 ? 0x8000000000000000ull : 0x80000000u;  \
    const float sf32 = f32_of((uint32_t)sb);                                          \
    const double sf64 = f64_of(sb);                                                   \
    (void)sf32, (void)sf64
#define LEAKY_PRODUCT_4(gi) leaky32(gi, sf32, (uint32_t)sb, (uint32_t)inv_base, (uint32_t)inv_xor)
#define LEAKY_NAN_4(gi) leaky32_nan_slope(gi, (uint32_t)sq, (uint32_t)host_mask)
#define LEAKY_PRODUCT_8(gi) leaky64(gi, sf64, sb, inv_base, inv_xor)
#define LEAKY_NAN_8(gi) leaky64_nan_slope(gi, sq, host_mask)
#define LEAKY_PRODUCT_2(gi) narrow_f16(LEAKY_PRODUCT_4(wide_f16(gi)))
#define LEAKY_NAN_2(gi) narrow_f16(LEAKY_NAN_4(wide_f16(gi)))
#define LEAKY_PRODUCT_B(gi) narrow_bf16(LEAKY_PRODUCT_4((uint32_t)(gi) << 16))
#define LEAKY_NAN_B(gi) narrow_bf16(LEAKY_NAN_4((uint32_t)(gi) << 16))
#define LEAKY_PLAIN_4(gi) bits_of_f32(f32_of(gi) * sf32)
#define LEAKY_PLAIN_8(gi) bits_of_f64(f64_of(gi) * sf64)
#define LEAKY_PLAIN_2(gi) narrow_f16(LEAKY_PLAIN_4(wide_f16(gi)))
#define LEAKY_PLAIN_B(gi) narrow_bf16(LEAKY_PLAIN_4((uint32_t)(gi) << 16))
#define LEAKY_MASK(T, c) ((T)0 - (T)(c))
#define LEAKY_ELEMENT(T, PRODUCT) PICK(LEAKY_MASK(T, KEEP(T, u)), gi, (T)PRODUCT(gi))

/* (the index is named apart from every caller's: g, f, o and n may be expressions of theirs) */
#define SCALAR_LOOP(KIND, T, g, f, o, n)                                          \
    ASSUME_NO_OVERLAP                                                            \
    for (size_t scalar_i = 0; scalar_i < (n); scalar_i++) {                      \
        KIND##_LOAD(T, g, f, scalar_i);                                          \
        (o)[scalar_i] = KIND##_ELEMENT(T);                                       \
    }

#define PLAIN_LOOP(NAME, KIND, T, BND)                                               \
    CLONES static void NAME(const void *g_, const void *f_, void *o_, size_t n, const Params *p) { \
        const T *g = g_, *f = f_;                                                \
        (void)g; /* the ONE loops read f only */                                 \
        T *o = o_;                                                               \
        KIND##_SETUP(T, BND);                                                    \
        SCALAR_LOOP(KIND, T, g, f, o, n)                                         \
    }

/* The int32-through-float32 loop with plain stores, on the vector body: written as scalars, the
 * compiler leaves the conversions unvectorised (25x slower than the plain select at 1 M). */
#define VECTOR_LOOP(NAME, KIND, T, BND)                                           \
    CLONES static void NAME(const void *g_, const void *f_, void *o_, size_t n, const Params *p) { \
        typedef T V __attribute__((vector_size(32)));                            \
        const T *g = g_, *f = f_;                                                \
        T *o = o_;                                                               \
        KIND##_SETUP(T, BND);                                                    \
        VBOUNDS(V);                                                              \
        size_t i;                                                                \
        for (i = 0; i + 32 / sizeof(T) <= n; i += 32 / sizeof(T)) {              \
            KIND##_VLOAD(V, 32, g, f, i);                                        \
            V r = KIND##_VECTOR(V, 32, T);                                       \
            memcpy(o + i, &r, 32);                                               \
        }                                                                        \
        SCALAR_LOOP(KIND, T, g + i, f + i, o + i, n - i)                         \
    }

/* Non-temporal stores: a plain store first reads the output's cache line ("read for ownership"),
 * so a large select moves 4 bytes for every 3 it needs; a streaming store writes whole lines
 * without reading them. Only for outputs far beyond the last-level cache (the caller decides):
 * a result that fits is better left in cache. Measured alternatives: computing into an L1 buffer
 * and streaming that out cost float32 at 4 M elements 30 % more than these direct vector stores,
 * and a 64-byte buffer let the compiler turn the loop into scalar branches (8x slower). */
#if STREAMING
#include <immintrin.h>
#define STREAM_LOOP(NAME, KIND, T, VB, ATTR, STORE, BND)                               \
    ATTR static void NAME(const void *g_, const void *f_, void *o_, size_t n, const Params *p) { \
        typedef T V __attribute__((vector_size(VB)));                            \
        const T *g = g_, *f = f_;                                                \
        (void)g; /* the ONE loops read f only */                                 \
        T *o = o_;                                                               \
        KIND##_SETUP(T, BND);                                                    \
        VBOUNDS(V);                                                              \
        size_t head = ((64 - ((uintptr_t)o & 63)) & 63) / sizeof(T), i;          \
        if (head > n) head = n;                                                  \
        SCALAR_LOOP(KIND, T, g, f, o, head)                                      \
        for (i = head; i + VB / sizeof(T) <= n; i += VB / sizeof(T)) {           \
            KIND##_VLOAD(V, VB, g, f, i);                                        \
            V r = KIND##_VECTOR(V, VB, T);                                       \
            STORE;                                                               \
        }                                                                        \
        SCALAR_LOOP(KIND, T, g + i, f + i, o + i, n - i)                         \
    }
#define STORE16 _mm_stream_si128((__m128i *)(o + i), (__m128i)r)
#define STORE32 _mm256_stream_si256((__m256i *)(o + i), (__m256i)r)
#define LOOP_SET(PLAIN_STORES, NAME, KIND, T, BND)                                \
    PLAIN_STORES(NAME, KIND, T, BND)                                             \
    STREAM_LOOP(NAME##_stream16, KIND, T, 16, , STORE16, BND)                    \
    STREAM_LOOP(NAME##_stream32, KIND, T, 32, __attribute__((target("avx2"))), STORE32, BND)
#define STREAM_FNS(NAME) NAME##_stream16, NAME##_stream32
#else
#define LOOP_SET(PLAIN_STORES, NAME, KIND, T, BND) PLAIN_STORES(NAME, KIND, T, BND)
#define STREAM_FNS(NAME) NAME, NAME
#endif

/* Any layout (the general way, below): one element at a time through byte strides, the same
 * per-element rule as the loops above. Operands are aligned and in native byte order (the
 * iterator buffers those that are not). */
typedef void (*StridedFn)(char *const *data, const npy_intp *strides, npy_intp n, const Params *p);
#define ONE_SLOAD(T, g, f) const T u = *(const T *)(f), gi = u
#define TWO_SLOAD(T, g, f) const T u = *(const T *)(f), gi = *(const T *)(g)
#define PLAIN_SLOAD TWO_SLOAD
#define RELU_SLOAD TWO_SLOAD
#define VIA_FLOAT32_SLOAD TWO_SLOAD
#define STRIDED_LOOP(NAME, KIND, T)                                               \
    static void NAME(char *const *data, const npy_intp *strides, npy_intp n, const Params *p) { \
        const char *g = data[0], *f = data[1];                                   \
        char *o = data[2];                                                       \
        (void)g;                                                                 \
        KIND##_SETUP(T, BOUNDS);                                                 \
        for (npy_intp i = 0; i < n; i++, g += strides[0], f += strides[1], o += strides[2]) { \
            KIND##_SLOAD(T, g, f);                                               \
            *(T *)o = KIND##_ELEMENT(T);                                         \
        }                                                                        \
    }

/* LEAKY's loops, one per width (scalar code the compiler vectorises; no streaming variant: its
 * product, not the memory, bounds it); a NaN slope has its own loop, off the usual one's path */
/* A feature broadcast along the run (a (N, 1) feature against (N, C) grads): its one value read
 * (and keyed) once, the kind's rule over the grads; the compiler hoists the keep test out of the
 * loop, leaving a copy or a fill (measured slower: spreading the value over a buffer first). */
#define FB_LOOP(NAME, KIND, T)                                                        \
    CLONES static void NAME(const void *g_, const void *f_, void *o_, size_t n, const Params *p) { \
        const T *g = g_;                                                         \
        T *o = o_;                                                               \
        if (n == 0) return;                                                      \
        KIND##_SETUP(T, BOUNDS);                                                 \
        T key_;                                                                  \
        {                                                                        \
            KIND##_SLOAD(T, (const char *)g_, (const char *)f_);                 \
            key_ = u;                                                            \
            (void)gi;                                                            \
        }                                                                        \
        ASSUME_NO_OVERLAP                                                        \
        for (size_t i = 0; i < n; i++) {                                         \
            const T u = key_, gi = g[i];                                         \
            o[i] = KIND##_ELEMENT(T);                                            \
        }                                                                        \
    }
#define LEAKY_FB(NAME, T, W)                                                          \
    CLONES static void NAME##_fb(const void *g_, const void *f_, void *o_, size_t n, const Params *p) { \
        const T *g = g_;                                                         \
        T *o = o_;                                                               \
        if (n == 0) return;                                                      \
        LEAKY_SETUP(T, BOUNDS);                                                  \
        const T key_ = *(const T *)f_;                                           \
        if (slope_plain) {                                                       \
            ASSUME_NO_OVERLAP                                                    \
            for (size_t i = 0; i < n; i++) { const T u = key_, gi = g[i]; o[i] = LEAKY_ELEMENT(T, LEAKY_PLAIN_##W); } \
        } else if (slope_nan) {                                                  \
            ASSUME_NO_OVERLAP                                                    \
            for (size_t i = 0; i < n; i++) { const T u = key_, gi = g[i]; o[i] = LEAKY_ELEMENT(T, LEAKY_NAN_##W); } \
        } else {                                                                 \
            ASSUME_NO_OVERLAP                                                    \
            for (size_t i = 0; i < n; i++) { const T u = key_, gi = g[i]; o[i] = LEAKY_ELEMENT(T, LEAKY_PRODUCT_##W); } \
        }                                                                        \
    }

#define LEAKY_LOOP(T, PRODUCT)                                                        \
    ASSUME_NO_OVERLAP                                                                \
    for (size_t i = 0; i < n; i++) {                                                 \
        const T u = f[i], gi = g[i];                                                 \
        o[i] = LEAKY_ELEMENT(T, PRODUCT);                                            \
    }
#define LEAKY_SET(NAME, T, W) LEAKY_SET_B(NAME, T, W, BOUNDS) LEAKY_SET_B(NAME##_r1, T, W, BOUNDS1) \
    LEAKY_STRIDED(NAME, T, W) LEAKY_FB(NAME, T, W)
#define LEAKY_SET_B(NAME, T, W, BND)                                                  \
    CLONES static void NAME(const void *g_, const void *f_, void *o_, size_t n, const Params *p) { \
        const T *g = g_, *f = f_;                                                \
        T *o = o_;                                                               \
        LEAKY_SETUP(T, BND);                                                     \
        if (slope_plain) {                                                       \
            LEAKY_LOOP(T, LEAKY_PLAIN_##W)                                       \
        } else if (slope_nan) {                                                  \
            LEAKY_LOOP(T, LEAKY_NAN_##W)                                         \
        } else {                                                                 \
            LEAKY_LOOP(T, LEAKY_PRODUCT_##W)                                     \
        }                                                                        \
    }
#define LEAKY_STRIDED(NAME, T, W)                                                     \
    static void NAME##_strided(char *const *data, const npy_intp *strides, npy_intp n, const Params *p) { \
        const char *g = data[0], *f = data[1];                                   \
        char *o = data[2];                                                       \
        LEAKY_SETUP(T, BOUNDS);                                                  \
        (void)slope_plain;                                                       \
        for (npy_intp i = 0; i < n; i++, g += strides[0], f += strides[1], o += strides[2]) { \
            const T u = *(const T *)f, gi = *(const T *)g;                       \
            *(T *)o = slope_nan ? LEAKY_ELEMENT(T, LEAKY_NAN_##W) : LEAKY_ELEMENT(T, LEAKY_PRODUCT_##W); \
        }                                                                        \
    }
LEAKY_SET(leaky32_loop, uint32_t, 4)
LEAKY_SET(leaky64_loop, uint64_t, 8)
LEAKY_SET(leaky16_loop, uint16_t, 2)
LEAKY_SET(leaky_bf16_loop, uint16_t, B)

/* float16 with a finite nonzero slope on x86's own conversions (F16C): exact widening, the
 * product's one rounding to nearest even, a NaN grad quieted with its payload: the rule's bits, at
 * about 4x the portable loop's speed (1 M elements, one thread: 741 us portable). Used where the
 * CPU has AVX2 and F16C, and for one keep range (x > 0 is one); anything else goes to the
 * portable loop. */
#if STREAMING && defined(__GNUC__)
#define HAVE_F16C_LOOP 1
__attribute__((target("avx2,f16c"))) static void leaky16_f16c(const void *g_, const void *f_, void *o_, size_t n,
                                                                const Params *p) {
    const uint16_t *g = g_, *f = f_;
    uint16_t *o = o_;
    const uint32_t sb = (uint32_t)p->v[FILL];
    size_t i = 0;
    if ((sb & 0x7fffffffu) - 1 < 0x7f800000u - 1) { /* finite, nonzero */
        const __m256 s = _mm256_set1_ps(f32_of(sb));
        const __m128i lo = _mm_set1_epi16((short)p->v[LO1]), span = _mm_set1_epi16((short)(p->v[HI1] - p->v[LO1]));
        for (; i + 8 <= n; i += 8) {
            const __m128i gh = _mm_loadu_si128((const __m128i *)(g + i)), fh = _mm_loadu_si128((const __m128i *)(f + i));
            const __m128i product = _mm256_cvtps_ph(_mm256_mul_ps(_mm256_cvtph_ps(gh), s), _MM_FROUND_TO_NEAREST_INT);
            const __m128i d = _mm_sub_epi16(fh, lo);
            const __m128i keep = _mm_cmpeq_epi16(_mm_max_epu16(d, span), span); /* (u - lo) <= span, unsigned */
            _mm_storeu_si128((__m128i *)(o + i), _mm_blendv_epi8(product, gh, keep));
        }
    }
    leaky16_loop_r1(g + i, f + i, o + i, n - i, p);
}

/* float16 bits -> float32 bits on F16C, for the engine's own widening (converting_run): exact,
 * but the instruction quiets a signalling NaN; its quiet bit is cleared again, so the bits are
 * numpy's cast's (wide_f16's), about 3x faster (a float16 grad against a float32 feature, 1 M
 * elements: the widening took twice the select's time) */
__attribute__((target("avx2,f16c"))) static void widen_f16_f16c(const uint16_t *h, uint32_t *out, npy_intp n) {
    const __m128i magnitude = _mm_set1_epi16(0x7fff), inf = _mm_set1_epi16(0x7c00), quiet16 = _mm_set1_epi16(0x0200);
    const __m256i quiet32 = _mm256_set1_epi32(0x00400000);
    npy_intp k = 0;
    for (; k + 8 <= n; k += 8) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(h + k));
        const __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(x, magnitude), inf); /* |x| above inf: a NaN */
        const __m128i signalling = _mm_andnot_si128(_mm_cmpeq_epi16(_mm_and_si128(x, quiet16), quiet16), nan);
        const __m256i bits = _mm256_castps_si256(_mm256_cvtph_ps(x));
        const __m256i fix = _mm256_and_si256(_mm256_cvtepi16_epi32(signalling), quiet32);
        _mm256_storeu_si256((__m256i *)(out + k), _mm256_andnot_si256(fix, bits));
    }
    for (; k < n; k++) out[k] = wide_f16(h[k]);
}
#else
#define HAVE_F16C_LOOP 0
#endif
static int f16c_widening; /* set at import where the CPU has AVX2 and F16C (both F16C loops) */

/* every loop twice: two ranges (NAME) and one (NAME_r1) */
#define LOOPS_WITH(PLAIN_STORES, NAME, KIND, T) \
    LOOP_SET(PLAIN_STORES, NAME, KIND, T, BOUNDS) LOOP_SET(PLAIN_STORES, NAME##_r1, KIND, T, BOUNDS1)
#define LOOPS(NAME, KIND, T) \
    LOOPS_WITH(PLAIN_LOOP, NAME, KIND, T) STRIDED_LOOP(NAME##_strided, KIND, T) FB_LOOP(NAME##_fb, KIND, T)

LOOPS(plain8, PLAIN, uint8_t)
LOOPS(plain16, PLAIN, uint16_t)
LOOPS(plain32, PLAIN, uint32_t)
LOOPS(plain64, PLAIN, uint64_t)
LOOPS(relu16, RELU, uint16_t)
LOOPS(relu32, RELU, uint32_t)
LOOPS(relu64, RELU, uint64_t)
LOOPS_WITH(VECTOR_LOOP, via_float32, VIA_FLOAT32, uint32_t) STRIDED_LOOP(via_float32_strided, VIA_FLOAT32, uint32_t)
FB_LOOP(via_float32_fb, VIA_FLOAT32, uint32_t)
LOOPS(one8, ONE, uint8_t)
LOOPS(one16, ONE, uint16_t)
LOOPS(one32, ONE, uint32_t)
LOOPS(one64, ONE, uint64_t)
LOOPS(plain16_keyed, PLAIN_KEYED, uint16_t)
LOOPS(plain32_keyed, PLAIN_KEYED, uint32_t)
LOOPS(plain64_keyed, PLAIN_KEYED, uint64_t)
LOOPS(relu16_keyed, RELU_KEYED, uint16_t)
LOOPS(relu32_keyed, RELU_KEYED, uint32_t)
LOOPS(relu64_keyed, RELU_KEYED, uint64_t)

/* for each width x mode, two ranges and one: (plain stores, streaming on the baseline, on AVX2) */
#define ENTRY(W, MODE, NAME) \
    {W, MODE, {{NAME, STREAM_FNS(NAME)}, {NAME##_r1, STREAM_FNS(NAME##_r1)}}, NAME##_strided, NAME##_fb}
typedef struct {
    int width, mode;
    RangeFn fns[2][3];
    StridedFn strided;
    RangeFn fb; /* the feature one value broadcast along the run (FB_LOOP) */
} LoopEntry;
static const LoopEntry LOOP_TABLE[] = {
    ENTRY(1, PLAIN, plain8), ENTRY(2, PLAIN, plain16), ENTRY(4, PLAIN, plain32), ENTRY(8, PLAIN, plain64),
    ENTRY(2, RELU, relu16), ENTRY(4, RELU, relu32), ENTRY(8, RELU, relu64),
    ENTRY(4, VIA_FLOAT32, via_float32),
    ENTRY(1, ONE, one8), ENTRY(2, ONE, one16), ENTRY(4, ONE, one32), ENTRY(8, ONE, one64),
    ENTRY(2, PLAIN_KEYED, plain16_keyed), ENTRY(4, PLAIN_KEYED, plain32_keyed), ENTRY(8, PLAIN_KEYED, plain64_keyed),
    ENTRY(2, RELU_KEYED, relu16_keyed), ENTRY(4, RELU_KEYED, relu32_keyed), ENTRY(8, RELU_KEYED, relu64_keyed),
#define LEAKY_ENTRY(W, MODE, NAME) \
    {W, MODE, {{NAME, NAME, NAME}, {NAME##_r1, NAME##_r1, NAME##_r1}}, NAME##_strided, NAME##_fb}
    LEAKY_ENTRY(4, LEAKY, leaky32_loop), LEAKY_ENTRY(8, LEAKY, leaky64_loop),
    LEAKY_ENTRY(2, LEAKY, leaky16_loop),
    LEAKY_ENTRY(2, LEAKY_BF16, leaky_bf16_loop),
};

static int has_avx2(void) {
#if STREAMING && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* the loops of a width and mode; NULL if there are none */
static const LoopEntry *find_loops(int width, int mode) {
    for (size_t k = 0; k < sizeof LOOP_TABLE / sizeof LOOP_TABLE[0]; k++)
        if (LOOP_TABLE[k].width == width && LOOP_TABLE[k].mode == mode) return &LOOP_TABLE[k];
    return NULL;
}

/* ---------------------------------------------------------------- the pool */
/* A job is cut into `parts` contiguous parts. Whoever is free claims the next one (the caller
 * first), so a worker the OS has not woken yet costs a part's time, not a wait for it. The caller
 * claims from the front, the workers from the back: call after call each core gets about the same
 * parts, whose data its own L2 still holds (claimed from one end, the parts fell to the cores by
 * the race of the moment: int8 at 1 M elements, 1.5 MiB per core on a 2-core Xeon with 2 MiB of L2
 * each, ran at L3 speed, 2-4x torch's time, whose halves are fixed). Idle
 * workers spin for SPIN_NS after their last part (a loop of calls keeps them hot), then sleep on a
 * condition variable. One caller at a time uses the pool; a second runs its call on its own thread. */

/* 5 us: a loop of calls (a microsecond or two of Python between them) still finds the workers
 * awake, while a worker left behind by the last call gives its core back to the process's other
 * pools at once. Spinning is a choice between neighbours, measured with torch's OpenMP pool in
 * the same process (its idle workers spin too, and never yield):
 * - 200 us, then 30 us: an MLP step under npu_semantics at 2 threads 1.15-1.17x plain torch (our
 *   spinning worker held the core torch's next op wanted);
 * - 30 us offering the core every ~3 us (sched_yield): the step 1.00-1.05x, but our worker, once it
 *   had yielded to torch's spinning thread, did not get its core back: 1 M-element calls right
 *   after torch's ran on one thread (148 us against 85);
 * - 5 us, then sleep: the step 1.10-1.11x, calls after torch's 79-83 us, a loop of 16 K-1 M calls
 *   as with 30 us. (The elapsed time is read every 64 pauses: at ~25 ns a pause, every 1024 made
 *   any spin below ~25 us a 25 us one.) */
#define SPIN_NS 5000L
/* Workers that all sleep are woken only for jobs from WAKE_MIN bytes of output, or for a call that
 * follows the last one within SPIN_NS (a loop of calls, which then keeps them awake): a wake-up
 * is a system call and, in a VM, an interrupt to a halted virtual CPU (a call of 64 K float32
 * elements every 16-40 us, as under npu_semantics, took 40 us waking its worker each time, 18 us
 * alone); a smaller, isolated job runs on the caller while they sleep */
#define WAKE_MIN (1u << 20)
#define PART_ALIGN 64 /* elements: parts start on cache-line multiples (no false sharing) */

/* One thread's numpy iterator over its range of a general job (see general() below). */
typedef struct {
    NpyIter *it;
    NpyIter_IterNextFunc *next;
    char **data;
    npy_intp *strides, *size;
} Walker;

enum { WIDEN_F16 = 1, WIDEN_BF16, WIDEN_I8, WIDEN_U8, WIDEN_I16, WIDEN_U16 };

typedef struct {
    RangeFn fn;
    const char *g, *f;
    char *o;
    size_t n, width;
    const Params *p;
    int stream;
    size_t period;        /* 0: flat; else g or f holds only `period` elements, repeated over o */
    int g_periodic;       /* which one (the other holds all n) */
    struct Grid *grid;    /* a general job on our own N-d walk (below) */
    Walker *walkers;      /* a general job on numpy's iterator: walker k iterates part k */
    StridedFn strided;
    RangeFn fb;           /* general jobs: a feature broadcast along the run */
    _Atomic int *failed;  /* a walker whose iterator could not be reset says so here */
    int conv[2];          /* general jobs: input q widened into a float32 lane (WIDEN_*), or 0 */
    _Atomic int *nan_found; /* flat jobs: set where a part's output holds a NaN (lane.nan_checked) */
    uint64_t nan_exponent;  /* the output dtype's exponent mask, for nan_found */
} Job;

/* Workers are kept off the caller's CPU (Linux): a sleeping worker, woken, is placed by the kernel
 * on its previous CPU or the waker's, and once it had run on the caller's it stayed there: woken
 * for each call it preempted the caller and ran every part alone, or waited behind it (a 2-vCPU
 * Xeon whose other vCPU ran other processes: int8 at 1 M, 8 of 8 parts on the worker or 0 of 8 in
 * most calls, the caller's nonvoluntary switches one a call; medians 80-90 us against torch's 26-35,
 * whose OpenMP worker spins for milliseconds and so keeps its own CPU). Kept off it, the worker
 * shares the other CPU with whatever runs there, as torch's does. Only while there are fewer
 * workers than usable CPUs; an affinity call only when the caller's CPU changes. */
#if defined(__linux__) && defined(CPU_SET)
#define STEERING 1
#define MAX_WORKERS 1024
#else
#define STEERING 0
#endif

static struct {
    pthread_mutex_t use; /* held by the caller whose job is running */
    pthread_mutex_t m;   /* with cv: sleeping workers */
    pthread_cond_t cv;
    _Atomic int sleepers; /* workers asleep on cv (changed under m) */
    int started;
    struct timespec last_end; /* when the last parallel-worthy job ended (under use) */
    Job job;
    unsigned gen;
    _Atomic uint64_t ticket; /* gen << 32 | end << 16 | next: parts [next, end) are unclaimed */
    _Atomic unsigned parts;  /* the job's parts (set before the ticket is published) */
    _Atomic unsigned done;   /* parts finished */
    _Atomic int seats;       /* workers that may still join the job */
    _Atomic int joined;      /* workers that joined it (threads_joined(): the seats hold) */
#if STEERING
    pthread_t ids[MAX_WORKERS]; /* the workers started (under use) */
    int steered_from;           /* the caller's CPU the workers were last kept off; -1: none (under use) */
    int base_read;              /* base holds the CPUs the first worker was started with (under use) */
    cpu_set_t base;             /* what workers inherit from the thread that starts them */
#endif
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

static inline unsigned ticket_parts(uint64_t t) { return (unsigned)(t >> 16) & 0xffffu; }
static inline unsigned ticket_next(uint64_t t) { return (unsigned)t & 0xffffu; }

static void walk(const Job *job, unsigned k, unsigned parts);
static void grid_part(const Job *job, unsigned k, unsigned parts);

/* any NaN among n float items of `itemsize` bytes: (bits without the sign) above the exponent
 * mask, one vectorised OR-reduction (numpy needs temporaries for it on the 16-bit types) */
#define ANY_ABOVE(T)                                                                  \
    {                                                                                \
        const T *x = (const T *)data, e = (T)exponent, m = (T)~((T)1 << (8 * sizeof(T) - 1)); \
        T any = 0;                                                                   \
        for (size_t i = 0; i < n; i++) any |= (T)((x[i] & m) > e);                   \
        found = any != 0;                                                            \
    }
CLONES static int any_above(const void *data, size_t n, size_t itemsize, uint64_t exponent) {
    int found = 0;
    switch (itemsize) {
    case 2: ANY_ABOVE(uint16_t) break;
    case 4: ANY_ABOVE(uint32_t) break;
    default: ANY_ABOVE(uint64_t)
    }
    return found;
}

/* lane.nan_checked: a part's output, just written and still in its thread's cache, checked by
 * that thread (checked by the caller afterwards, the whole output crossing between the cores'
 * caches, it cost a 64 K bfloat16 call as much again as the select) */
static void note_nan(const Job *job, const char *o, size_t n) {
    if (!atomic_load_explicit(job->nan_found, memory_order_relaxed) && any_above(o, n, job->width, job->nan_exponent))
        atomic_store_explicit(job->nan_found, 1, memory_order_relaxed);
}

static void run_part(const Job *job, unsigned k, unsigned parts) {
    if (job->grid) {
        grid_part(job, k, parts);
    } else if (job->walkers) {
        walk(job, k, parts);
    } else if (job->period) { /* a broadcast row: parts of whole rows, each row one flat loop */
        const size_t rows = job->n / job->period, row_bytes = job->period * job->width;
        const size_t first = rows * k / parts, last = rows * (k + 1) / parts;
        for (size_t r = first; r < last; r++) {
            const size_t off = r * row_bytes;
            job->fn(job->g_periodic ? job->g : job->g + off, job->g_periodic ? job->f + off : job->f,
                    job->o + off, job->period, job->p);
        }
        if (job->nan_found) note_nan(job, job->o + first * row_bytes, (last - first) * job->period);
    } else {
        size_t lo = (job->n * k / parts) / PART_ALIGN * PART_ALIGN;
        size_t hi = k == parts - 1 ? job->n : (job->n * (k + 1) / parts) / PART_ALIGN * PART_ALIGN;
        size_t off = lo * job->width;
        job->fn(job->g + off, job->f + off, job->o + off, hi - lo, job->p);
        if (job->nan_found) note_nan(job, job->o + off, hi - lo);
    }
#if STREAMING
    if (job->stream) _mm_sfence(); /* streaming stores are weakly ordered: drain before telling */
#endif
}

static inline unsigned ticket_gen(uint64_t t) { return (unsigned)(t >> 32); }

/* Claim and run parts of the job `t` was read from until none is left (a failed claim that finds
 * the next job's ticket stops: its seat was for this job); from the front (the caller) or from the
 * back (the workers). */
static void claim_parts(uint64_t t, int from_back) {
    const unsigned gen = ticket_gen(t);
    const uint64_t step = from_back ? (uint64_t)1 << 16 : 1;
    while (ticket_gen(t) == gen && ticket_next(t) < ticket_parts(t)) {
        const uint64_t claimed = from_back ? t - step : t + step;
        if (atomic_compare_exchange_weak_explicit(&pool.ticket, &t, claimed, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            /* a claim of this job succeeded: the job, and pool.parts, are still this job's */
            run_part(&pool.job, from_back ? ticket_parts(t) - 1 : ticket_next(t),
                     atomic_load_explicit(&pool.parts, memory_order_relaxed));
            atomic_fetch_add_explicit(&pool.done, 1, memory_order_release);
            t = claimed;
        }
    }
}

static long elapsed_ns(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

/* A worker joins each job once, where a seat is left (a job runs on at most its threads, however
 * many workers a wider lane started), then waits for the next job. */
static void *worker(void *unused) {
    (void)unused;
    unsigned seen = ticket_gen(atomic_load_explicit(&pool.ticket, memory_order_acquire)) - 1;
    for (;;) {
        uint64_t t = atomic_load_explicit(&pool.ticket, memory_order_acquire);
        if (ticket_gen(t) != seen) {
            seen = ticket_gen(t);
            if (ticket_next(t) < ticket_parts(t) && atomic_fetch_sub_explicit(&pool.seats, 1, memory_order_relaxed) > 0) {
                atomic_fetch_add_explicit(&pool.joined, 1, memory_order_relaxed);
                claim_parts(t, 1);
            }
            continue;
        }
        /* SPIN_NS from the end of the job, not from this worker's last part: while the caller
         * still runs its own parts (a worker that finished first, or found every part claimed) the
         * clock restarts. Counted from the worker's last part, a 1 M int8 call (parts of ~10 us)
         * left the worker asleep by the next call of a loop: every call paid a wake-up (on a busy
         * 2-vCPU VM the worker then came too late for any part: one thread, L3 speed) */
        struct timespec since;
        clock_gettime(CLOCK_MONOTONIC, &since);
        for (unsigned i = 1;; i++) {
            if (ticket_gen(atomic_load_explicit(&pool.ticket, memory_order_acquire)) != seen) break;
            RELAX();
            if ((i & 63) != 0) continue;
            if (atomic_load_explicit(&pool.done, memory_order_acquire) <
                atomic_load_explicit(&pool.parts, memory_order_relaxed)) {
                clock_gettime(CLOCK_MONOTONIC, &since);
            } else if (elapsed_ns(&since) > SPIN_NS) {
                pthread_mutex_lock(&pool.m);
                pool.sleepers++;
                while (ticket_gen(atomic_load_explicit(&pool.ticket, memory_order_acquire)) == seen)
                    pthread_cond_wait(&pool.cv, &pool.m);
                pool.sleepers--;
                pthread_mutex_unlock(&pool.m);
                break;
            }
        }
    }
    return NULL;
}

/* Start workers up to `threads` - 1 (the caller is the other one); how many run. Holds pool.use. */
static int ensure_workers(int threads) {
    while (pool.started < threads - 1) {
        pthread_t id;
        pthread_attr_t attr;
#if STEERING
        if (!pool.base_read) pool.base_read = sched_getaffinity(0, sizeof pool.base, &pool.base) == 0 ? 1 : -1;
#endif
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int failed = pthread_create(&id, &attr, worker, NULL);
        pthread_attr_destroy(&attr);
        if (failed) break;
#if STEERING
        if (pool.started < MAX_WORKERS) pool.ids[pool.started] = id;
        pool.steered_from = -1; /* decide again for every worker at the next job */
#endif
        pool.started++;
    }
    return pool.started;
}

/* Keep the workers off the CPU the caller runs on now (see STEERING), or give them back every CPU
 * they started with where that is not possible. Holds pool.use. */
#define NONE_KEPT_OFF (-2)
static void steer_workers(void) {
#if STEERING
    if (pool.base_read != 1 || pool.started > MAX_WORKERS) return;
    const int cpu = sched_getcpu();
    if (cpu < 0 || cpu == pool.steered_from) return;
    cpu_set_t set = pool.base;
    /* as many workers as CPUs (or more), or a caller on a CPU the workers may not use: none kept off */
    const int keep_off = CPU_ISSET(cpu, &set) && CPU_COUNT(&set) > pool.started;
    if (!keep_off && pool.steered_from == NONE_KEPT_OFF) return;
    if (keep_off) CPU_CLR(cpu, &set);
    for (int k = 0; k < pool.started; k++) pthread_setaffinity_np(pool.ids[k], sizeof set, &set);
    pool.steered_from = keep_off ? cpu : NONE_KEPT_OFF;
#endif
}

/* Run a job cut into `parts` on up to `threads` threads (the caller and threads - 1 workers). */
static void run_job(const Job *job, int parts, int threads) {
    if (parts > 1 && threads > 1 && pthread_mutex_trylock(&pool.use) == 0) {
        /* a worker awake, a job worth a wake-up, or a loop of calls (this one within SPIN_NS of the
         * last one's end: the wake-up now keeps the workers awake for the next ones) */
        const int use = ensure_workers(threads) > 0 &&
                        (atomic_load_explicit(&pool.sleepers, memory_order_relaxed) < pool.started ||
                         job->n * job->width >= WAKE_MIN || elapsed_ns(&pool.last_end) < SPIN_NS);
        if (use) {
            steer_workers();
            pool.job = *job;
            atomic_store_explicit(&pool.done, 0, memory_order_relaxed);
            atomic_store_explicit(&pool.seats, threads - 1, memory_order_relaxed);
            atomic_store_explicit(&pool.joined, 0, memory_order_relaxed);
            pool.gen++;
            atomic_store_explicit(&pool.parts, (unsigned)parts, memory_order_relaxed);
            uint64_t t = (uint64_t)pool.gen << 32 | (uint64_t)parts << 16;
            atomic_store_explicit(&pool.ticket, t, memory_order_release);
            pthread_mutex_lock(&pool.m);
            if (pool.sleepers) pthread_cond_broadcast(&pool.cv);
            pthread_mutex_unlock(&pool.m);
            claim_parts(t, 0);
            /* the parts others claimed are running: wait for them (they finish soon) */
            for (unsigned i = 1; atomic_load_explicit(&pool.done, memory_order_acquire) < (unsigned)parts; i++) {
                RELAX();
                if ((i & 4095) == 0) sched_yield();
            }
        } else {
            run_part(job, 0, 1);
        }
        clock_gettime(CLOCK_MONOTONIC, &pool.last_end);
        pthread_mutex_unlock(&pool.use);
        return;
    }
    run_part(job, 0, 1);
}

/* fork(): the child has no workers; it starts its own at its first parallel call */
static void before_fork(void) { pthread_mutex_lock(&pool.use); }
static void after_fork_parent(void) { pthread_mutex_unlock(&pool.use); }
static void after_fork_child(void) {
    pthread_mutex_init(&pool.m, NULL);
    pthread_cond_init(&pool.cv, NULL);
    atomic_store(&pool.sleepers, 0);
    pool.started = 0;
#if STEERING
    pool.steered_from = -1;
    pool.base_read = 0;
#endif
    atomic_store(&pool.ticket, (uint64_t)pool.gen << 32);
    pthread_mutex_init(&pool.use, NULL);
}

/* ---------------------------------------------------------------- the general way */
/* Every other layout (broadcasting of any kind, strides, negative strides, 0-d operands, operands
 * of other dtypes cast on the way, unaligned or byte-swapped ones, out overlapping an input) goes
 * through numpy's own iterator: it coalesces dimensions, orders them for memory, buffers and casts
 * where it must (numpy's casts, the ones np.copyto uses) and copies an overlapping out. Each
 * thread walks its own copy of the iterator over a range of the iteration space (as numexpr
 * does). An inner run whose operands are contiguous, or broadcast along it, runs the contiguous
 * loops above (vectorised); anything else the strided loop: the per-element rule is the same. */

#define CHUNK_BYTES 1024 /* a broadcast operand is spread over a buffer of this size for the loops (4 KiB: a
                          * (1024, 1) feature against (1024, 1024) grads took 140 us on 2 threads, 1 KiB: 89 us) */

static void spread(char *buf, const char *value, size_t width, size_t count) {
    switch (width) {
    case 1: memset(buf, *value, count); break;
    case 2: { uint16_t v; memcpy(&v, value, 2); for (size_t i = 0; i < count; i++) ((uint16_t *)buf)[i] = v; } break;
    case 4: { uint32_t v; memcpy(&v, value, 4); for (size_t i = 0; i < count; i++) ((uint32_t *)buf)[i] = v; } break;
    default: { uint64_t v; memcpy(&v, value, 8); for (size_t i = 0; i < count; i++) ((uint64_t *)buf)[i] = v; }
    }
}

/* Inputs of a half type into a float32 lane (torch's promotion of float16 / bfloat16 with
 * float32): widened on the way, exactly (NaN payloads kept, as numpy's casts keep them), a chunk
 * at a time into L1 buffers the vector loops read; numpy's own half casts are scalar (1 M float16
 * to float32: 1.8 ms on this VM, ten times the whole select). */
#define CONV_CHUNK 256
/* integers widen by C's conversion, exact for these (numpy's cast gives the same floats) */
#define WIDEN_INT(T) for (npy_intp k = 0; k < len; k++) in[q][k] = bits_of_f32((float)*(const T *)(base + k * s[q]))
CLONES static void converting_run(const Job *job, char *const *d, const npy_intp *s, npy_intp n) {
    _Alignas(64) uint32_t in[2][CONV_CHUNK], res[CONV_CHUNK];
    for (npy_intp i = 0; i < n; i += CONV_CHUNK) {
        const npy_intp len = n - i < CONV_CHUNK ? n - i : CONV_CHUNK;
        const void *src[2];
        for (int q = 0; q < 2; q++) {
            const char *base = d[q] + i * s[q];
            if (job->conv[q] == WIDEN_F16 && s[q] == 2) { /* contiguous: the compiler vectorises this one */
                const uint16_t *h = (const uint16_t *)base;
#if HAVE_F16C_LOOP
                if (f16c_widening) {
                    widen_f16_f16c(h, in[q], len);
                    src[q] = in[q];
                    continue;
                }
#endif
                for (npy_intp k = 0; k < len; k++) in[q][k] = wide_f16(h[k]);
            } else if (job->conv[q] == WIDEN_F16) {
                for (npy_intp k = 0; k < len; k++) in[q][k] = wide_f16(*(const uint16_t *)(base + k * s[q]));
            } else if (job->conv[q] == WIDEN_BF16) {
                for (npy_intp k = 0; k < len; k++) in[q][k] = (uint32_t)*(const uint16_t *)(base + k * s[q]) << 16;
            } else if (job->conv[q] == WIDEN_I8) {
                WIDEN_INT(int8_t);
            } else if (job->conv[q] == WIDEN_U8) {
                WIDEN_INT(uint8_t);
            } else if (job->conv[q] == WIDEN_I16) {
                WIDEN_INT(int16_t);
            } else if (job->conv[q] == WIDEN_U16) {
                WIDEN_INT(uint16_t);
            } else if (s[q] == 4) {
                src[q] = base;
                continue;
            } else {
                for (npy_intp k = 0; k < len; k++) in[q][k] = *(const uint32_t *)(base + k * s[q]);
            }
            src[q] = in[q];
        }
        if (s[2] == 4) {
            job->fn(src[0], src[1], d[2] + i * 4, (size_t)len, job->p);
        } else {
            job->fn(src[0], src[1], res, (size_t)len, job->p);
            for (npy_intp k = 0; k < len; k++) *(uint32_t *)(d[2] + (i + k) * s[2]) = res[k];
        }
    }
}

static void inner_run(const Job *job, char *const *d, const npy_intp *s, npy_intp n) {
    const npy_intp w = (npy_intp)job->width;
    if (job->conv[0] | job->conv[1]) {
        converting_run(job, d, s, n);
        return;
    }
    if (s[2] != w || (s[0] != w && s[0] != 0) || (s[1] != w && s[1] != 0)) {
        job->strided(d, s, n, job->p);
        return;
    }
    if (s[0] == w && s[1] == w) {
        job->fn(d[0], d[1], d[2], (size_t)n, job->p);
        return;
    }
    if (s[1] == 0 && s[0] == w) {
        job->fb(d[0], d[1], d[2], (size_t)n, job->p);
        return;
    }
    /* a broadcast input (stride 0): spread its value over a small buffer, run the loops by chunks */
    _Alignas(64) char bufs[2][CHUNK_BYTES];
    const npy_intp chunk = CHUNK_BYTES / w, first = n < chunk ? n : chunk;
    for (int k = 0; k < 2; k++)
        if (s[k] == 0) spread(bufs[k], d[k], (size_t)w, (size_t)first);
    for (npy_intp i = 0; i < n; i += chunk) {
        const npy_intp len = n - i < chunk ? n - i : chunk;
        job->fn(s[0] ? d[0] + i * w : bufs[0], s[1] ? d[1] + i * w : bufs[1], d[2] + i * w, (size_t)len, job->p);
    }
}

static void walk(const Job *job, unsigned k, unsigned parts) {
    Walker *wk = &job->walkers[k];
    const npy_intp total = NpyIter_GetIterSize(job->walkers[0].it);
    const npy_intp lo = total * (npy_intp)k / (npy_intp)parts, hi = total * (npy_intp)(k + 1) / (npy_intp)parts;
    if (lo >= hi) return;
    char *message = NULL; /* non-NULL: the reset sets no Python error (no GIL here) */
    if (NpyIter_ResetToIterIndexRange(wk->it, lo, hi, &message) != NPY_SUCCEED) {
        atomic_store(job->failed, 1);
        return;
    }
    do {
        inner_run(job, wk->data, wk->strides, *wk->size);
    } while (wk->next(wk->it));
}

/* Our own N-d walk, for operands of the lane's dtype, aligned, in native byte order, and an out
 * that overlaps neither (else numpy's iterator, below). numpy's iterator would do the same walk,
 * but its buffered mode (the one that can be split over threads) copies a broadcast operand into
 * a buffer (measured: a (2048, 1) feature against (2048, 2048) grads, float32, one thread:
 * 1.80 ms through it, 0.9 ms here), and it does not tile a transposed operand. Axes are ordered
 * by out's strides (innermost last), size-1 axes dropped, neighbours coalesced; a part is a range
 * of the flattened index space walked row by row. Where an input runs across the inner axis
 * (a transposed view: more than a cache line between neighbours), rows are walked in tiles of a
 * cache line's worth of rows, so each line read serves every row of the tile. */
typedef struct Grid {
    int nd, tile_rows, across[2]; /* across[q]: input q is read through tiles (transposed) */
    npy_intp shape[NPY_MAXDIMS];
    npy_intp strides[3][NPY_MAXDIMS];
    char *base[3];
    npy_intp rows; /* product of every axis but the innermost */
} Grid;

/* A tile: TILE_ROW_BYTES of a transposed input's column (16 lines of one page: its page walk,
 * costly in a VM, serves them all) by TILE_COLS columns; 64 KiB whatever the width */
#define TILE_ROW_BYTES 1024
#define TILE_COLS 64
#define TILE_BYTES (TILE_ROW_BYTES * TILE_COLS)

/* rows x cols elements at src (row step rs, column step cs) into dst, row-major, TILE_COLS a row,
 * by blocks of a cache line's elements square: the inner loop runs down a column (along the
 * source's contiguous axis), and a block's source and destination lines all stay in L1. (Measured,
 * float32 2048 x 2048 transposed: 7.6 ms against 15 ms reading each column down all the tile's
 * rows, and 15 ms for a first version that filled the tile column by column.) */
#define GATHER(T)                                                                        \
    for (npy_intp rb = 0; rb < rows; rb += 64 / (npy_intp)sizeof(T))                    \
        for (npy_intp cb = 0; cb < cols; cb += 64 / (npy_intp)sizeof(T)) {              \
            const npy_intp re = rb + 64 / (npy_intp)sizeof(T) < rows ? rb + 64 / (npy_intp)sizeof(T) : rows; \
            const npy_intp ce = cb + 64 / (npy_intp)sizeof(T) < cols ? cb + 64 / (npy_intp)sizeof(T) : cols; \
            for (npy_intp c = cb; c < ce; c++) {                                         \
                const char *col = src + c * cs;                                          \
                for (npy_intp r = rb; r < re; r++) ((T *)dst)[r * TILE_COLS + c] = *(const T *)(col + r * rs); \
            }                                                                            \
        }
static void gather(char *dst, const char *src, npy_intp rs, npy_intp cs, npy_intp rows, npy_intp cols, npy_intp w) {
    switch (w) {
    case 1: GATHER(uint8_t) break;
    case 2: GATHER(uint16_t) break;
    case 4: GATHER(uint32_t) break;
    default: GATHER(uint64_t)
    }
}

static void grid_part(const Job *job, unsigned k, unsigned parts) {
    const Grid *gr = job->grid;
    const int nd = gr->nd, last = nd - 1;
    const npy_intp inner = gr->shape[last];
    const npy_intp is[3] = {gr->strides[0][last], gr->strides[1][last], gr->strides[2][last]};
    if (gr->tile_rows > 1) { /* nd == 2: parts are ranges of row tiles */
        const npy_intp tiles = (gr->rows + gr->tile_rows - 1) / gr->tile_rows;
        const npy_intp t0 = tiles * (npy_intp)k / (npy_intp)parts, t1 = tiles * (npy_intp)(k + 1) / (npy_intp)parts;
        const npy_intp w = (npy_intp)job->width;
        _Alignas(64) char tile[2][TILE_BYTES]; /* 128 KiB of stack: our workers and Python's threads have MiBs */
        for (npy_intp t = t0; t < t1; t++) {
            const npy_intp r0 = t * gr->tile_rows;
            const npy_intp nr = r0 + gr->tile_rows < gr->rows ? gr->tile_rows : gr->rows - r0;
            for (npy_intp c0 = 0; c0 < inner; c0 += TILE_COLS) {
                const npy_intp len = inner - c0 < TILE_COLS ? inner - c0 : TILE_COLS;
                for (int q = 0; q < 2; q++) /* a transposed input: read down its columns, a line each */
                    if (gr->across[q])
                        gather(tile[q], gr->base[q] + r0 * gr->strides[q][0] + c0 * is[q], gr->strides[q][0], is[q],
                               nr, len, w);
                for (npy_intp r = 0; r < nr; r++) {
                    char *d[3];
                    npy_intp ds[3];
                    for (int q = 0; q < 3; q++) {
                        const int buffered = q < 2 && gr->across[q];
                        d[q] = buffered ? tile[q] + r * TILE_COLS * w
                                        : gr->base[q] + (r0 + r) * gr->strides[q][0] + c0 * is[q];
                        ds[q] = buffered ? w : is[q];
                    }
                    inner_run(job, d, ds, len);
                }
            }
        }
        return;
    }
    const npy_intp total = gr->rows * inner;
    npy_intp lo = total * (npy_intp)k / (npy_intp)parts;
    const npy_intp hi = total * (npy_intp)(k + 1) / (npy_intp)parts;
    if (lo >= hi) return;
    npy_intp idx[NPY_MAXDIMS], row = lo / inner, col = lo % inner;
    char *ptr[3] = {gr->base[0], gr->base[1], gr->base[2]};
    for (int ax = last - 1; ax >= 0; ax--) {
        idx[ax] = row % gr->shape[ax];
        row /= gr->shape[ax];
        for (int q = 0; q < 3; q++) ptr[q] += idx[ax] * gr->strides[q][ax];
    }
    while (lo < hi) {
        const npy_intp len = inner - col < hi - lo ? inner - col : hi - lo;
        char *d[3] = {ptr[0] + col * is[0], ptr[1] + col * is[1], ptr[2] + col * is[2]};
        inner_run(job, d, is, len);
        lo += len;
        col = 0;
        for (int ax = last - 1; ax >= 0; ax--) {
            for (int q = 0; q < 3; q++) ptr[q] += gr->strides[q][ax];
            if (++idx[ax] < gr->shape[ax]) break;
            for (int q = 0; q < 3; q++) ptr[q] -= gr->shape[ax] * gr->strides[q][ax];
            idx[ax] = 0;
        }
    }
}

/* The bytes an array's elements span: [*lo, *hi). */
static void extent(const char *base, int nd, const npy_intp *shape, const npy_intp *strides, npy_intp width,
                   const char **lo, const char **hi) {
    *lo = *hi = base;
    for (int i = 0; i < nd; i++) {
        const npy_intp span = (shape[i] - 1) * strides[i];
        if (span < 0) *lo += span; else *hi += span;
    }
    *hi += width;
}

/* ops (a, b, out) on the broadcast shape: fills gr; 0 where out overlaps an input other than as
 * exactly the same elements (numpy's iterator then copies out first) */
static int make_grid(Grid *gr, PyArrayObject *const ops[3], int nd, const npy_intp *shape, npy_intp width,
                     const int *conv) {
    npy_intp st[3][NPY_MAXDIMS];
    for (int q = 0; q < 3; q++) {
        const int nq = PyArray_NDIM(ops[q]);
        for (int i = 0; i < nd; i++) {
            const int j = i - (nd - nq);
            st[q][i] = j < 0 || PyArray_DIM(ops[q], j) == 1 ? 0 : PyArray_STRIDE(ops[q], j);
        }
        gr->base[q] = PyArray_BYTES(ops[q]);
    }
    const char *olo, *ohi;
    extent(gr->base[2], nd, shape, st[2], width, &olo, &ohi);
    for (int q = 0; q < 2; q++) {
        const char *lo, *hi;
        extent(gr->base[q], nd, shape, st[q], width, &lo, &hi);
        if (lo < ohi && olo < hi &&
            (gr->base[q] != gr->base[2] || memcmp(st[q], st[2], nd * sizeof(npy_intp)) != 0))
            return 0;
    }
    /* axes of size > 1, ordered by out's stride, largest first (a stable insertion sort) */
    int order[NPY_MAXDIMS], n = 0;
    for (int i = 0; i < nd; i++) {
        if (shape[i] == 1) continue;
        int j = n++;
        while (j > 0 && labs(st[2][order[j - 1]]) < labs(st[2][i])) order[j] = order[j - 1], j--;
        order[j] = i;
    }
    gr->nd = 0;
    for (int m = 0; m < n; m++) {
        const int i = order[m], prev = gr->nd - 1;
        /* coalesce with the previous (outer) axis where every operand steps through both as one */
        if (prev >= 0 && gr->strides[0][prev] == st[0][i] * shape[i] && gr->strides[1][prev] == st[1][i] * shape[i] &&
            gr->strides[2][prev] == st[2][i] * shape[i]) {
            gr->shape[prev] *= shape[i];
            for (int q = 0; q < 3; q++) gr->strides[q][prev] = st[q][i];
            continue;
        }
        gr->shape[gr->nd] = shape[i];
        for (int q = 0; q < 3; q++) gr->strides[q][gr->nd] = st[q][i];
        gr->nd++;
    }
    if (gr->nd == 0) { /* a single element */
        gr->nd = 1;
        gr->shape[0] = 1;
        for (int q = 0; q < 3; q++) gr->strides[q][0] = 0;
    }
    gr->rows = 1;
    for (int i = 0; i < gr->nd - 1; i++) gr->rows *= gr->shape[i];
    gr->tile_rows = 1;
    for (int q = 0; q < 2; q++) {
        gr->across[q] = !conv[0] && !conv[1] && gr->nd == 2 && gr->strides[2][1] == width && labs(gr->strides[q][1]) > 64 &&
                        labs(gr->strides[q][0]) < labs(gr->strides[q][1]);
        if (gr->across[q]) gr->tile_rows = (int)(TILE_ROW_BYTES / width);
    }
    return 1;
}

/* The result's shape (operands broadcast together); 0 where they do not broadcast. */
static int broadcast_shape(PyArrayObject *a, PyArrayObject *b, int *nd, npy_intp *shape) {
    const int na = PyArray_NDIM(a), nb = PyArray_NDIM(b), n = na > nb ? na : nb;
    for (int i = 0; i < n; i++) {
        const npy_intp da = i < n - na ? 1 : PyArray_DIM(a, i - (n - na));
        const npy_intp db = i < n - nb ? 1 : PyArray_DIM(b, i - (n - nb));
        if (da != db && da != 1 && db != 1) return 0;
        shape[i] = da == 1 ? db : da;
    }
    *nd = n;
    return 1;
}

typedef struct Lane Lane;
static PyObject *general(Lane *lane, PyArrayObject *a, PyArrayObject *b, PyObject *out_obj, int cast);

/* ---------------------------------------------------------------- the Lane type */

struct Lane {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyArray_Descr *dtype;
    RangeFn plain, streaming, one_plain, one_streaming; /* one_*: a == b, PLAIN mode only (else NULL) */
    StridedFn strided;
    RangeFn fb;
    Params p;
    int width, max_rank, arrays, threads;
    Py_ssize_t parallel_min, stream_min;
};

static int usable_input(PyObject *a, const Lane *lane) {
    if (!PyArray_CheckExact(a)) return 0;
    PyArrayObject *x = (PyArrayObject *)a;
    if (PyArray_DESCR(x) != lane->dtype && !PyArray_EquivTypes(PyArray_DESCR(x), lane->dtype)) return 0;
    return PyArray_NDIM(x) <= lane->max_rank && PyArray_ISCARRAY_RO(x);
}

static int same_shape(PyArrayObject *a, PyArrayObject *b) {
    return PyArray_NDIM(a) == PyArray_NDIM(b) &&
           memcmp(PyArray_DIMS(a), PyArray_DIMS(b), PyArray_NDIM(a) * sizeof(npy_intp)) == 0;
}

/* out overlaps x other than as the very same elements: a shifted alias would read what it wrote
 * (a repeated row is read again after out's first row is written: any overlap clobbers it) */
static int clobbers(PyArrayObject *x, PyArrayObject *out, size_t out_bytes) {
    const char *a = PyArray_BYTES(x), *b = PyArray_BYTES(out);
    const size_t x_bytes = (size_t)PyArray_NBYTES(x);
    return (a != b || x_bytes != out_bytes) && a < b + out_bytes && b < a + x_bytes;
}

#define GIL_MIN (1u << 14) /* bytes of output below which a call keeps the GIL (a few us at most) */
#define MIN_PERIOD 256 /* elements: shorter rows go the general way (a loop call per row would dominate) */

/* The number of elements of `small` repeated over `big` where small broadcasts against big as a
 * row (its shape, leading ones aside, is big's trailing shape), else 0. */
static size_t row_period(PyArrayObject *small, PyArrayObject *big) {
    int ns = PyArray_NDIM(small), nb = PyArray_NDIM(big);
    const npy_intp *ds = PyArray_DIMS(small), *db = PyArray_DIMS(big);
    if (ns > nb) return 0; /* the result would have small's rank: big's shape is not the result's */
    while (ns > 0 && ds[0] == 1) ds++, ns--;
    if (ns == 0) return 0;
    if (memcmp(ds, db + (nb - ns), ns * sizeof(npy_intp)) != 0) return 0;
    size_t period = (size_t)PyArray_SIZE(small);
    return period >= MIN_PERIOD && period < (size_t)PyArray_SIZE(big) ? period : 0;
}

/* How many threads a job of nbytes of output runs on: one per parallel_min bytes, at most the lane's. */
static int job_threads(const Lane *lane, size_t nbytes) {
    if ((Py_ssize_t)nbytes < 2 * lane->parallel_min) return 1;
    const size_t most = nbytes / (size_t)lane->parallel_min;
    return most < (size_t)lane->threads ? (int)most : lane->threads;
}

/* How many parts a job is cut into: one per thread, and SPLIT per thread from SPLIT_MIN bytes of
 * output. Whoever is free claims the next part, so a thread that shares its core with another
 * process's or pool's thread (torch's OpenMP workers spin for a while after each op) holds up the
 * call by one small part, not by half of it: with two halves, a worker at half speed makes a call
 * as slow as on one thread. Below SPLIT_MIN (data within a core's L2) each thread keeps its same
 * half call after call. */
#define SPLIT 4
#define SPLIT_MIN (1u << 20)
static int job_parts(int threads, size_t nbytes) {
    return threads > 1 && nbytes >= SPLIT_MIN ? threads * SPLIT : threads;
}

/* Run a job: small ones (a few microseconds at most) or ones that need Python keep the GIL and
 * the calling thread; the rest release it and use the pool. A job of walkers has one per part. */
static void run_job_released(const Job *job, int parts, int threads, size_t nbytes, int needs_api) {
    if (needs_api || nbytes < GIL_MIN) {
        run_job(job, 1, 1);
    } else {
        Py_BEGIN_ALLOW_THREADS
        run_job(job, parts, threads);
        Py_END_ALLOW_THREADS
    }
}

/* The job of a flat call on n elements (`period` > 0: the `g_periodic` operand holds only that many,
 * repeated over the output): the loop streams its output from stream_min bytes moved, and one
 * operand standing for both, where a is b, takes the lane's single-input loop. */
static Job flat_job(const Lane *lane, const char *a, const char *b, char *out, size_t n, size_t period,
                    int g_periodic, _Atomic int *nan_found, uint64_t nan_exponent) {
    const size_t nbytes = n * (size_t)lane->width;
    const int stream = (Py_ssize_t)nbytes * lane->arrays >= lane->stream_min;
    const int one = a == b && period == 0 && lane->one_plain != NULL;
    const Job job = {one ? (stream ? lane->one_streaming : lane->one_plain) : stream ? lane->streaming : lane->plain,
                     a, b, out, n, (size_t)lane->width, &lane->p, stream, period, g_periodic, NULL, NULL, NULL,
                     NULL, NULL, {0, 0}, nan_found, nan_exponent};
    return job;
}

/* lane(a, b, out): out = select(a, b) (allocated if out is None), or None where the call is not
 * for the lane (the general way answers it, and raises every error). Never raises for an input. */
static PyObject *lane_select(Lane *lane, PyObject *a_obj, PyObject *b_obj, PyObject *out_obj, _Atomic int *nan_found,
                             uint64_t nan_exponent) {
    if (!PyArray_CheckExact(a_obj) || !PyArray_CheckExact(b_obj)) Py_RETURN_NONE;
    PyArrayObject *a = (PyArrayObject *)a_obj, *b = (PyArrayObject *)b_obj, *out;
    if (!usable_input(a_obj, lane) || !usable_input(b_obj, lane)) return general(lane, a, b, out_obj, 0);
    PyArrayObject *whole = a; /* the operand of the result's shape */
    size_t period = 0;
    if (b != a && !same_shape(a, b)) {
        if ((period = row_period(b, a)) == 0 && (period = row_period(a, b)) != 0) whole = b;
        if (period == 0) return general(lane, a, b, out_obj, 0);
    }
    const size_t n = (size_t)PyArray_SIZE(whole), nbytes = n * (size_t)lane->width;
    if (out_obj == Py_None) {
        Py_INCREF(lane->dtype);
        out = (PyArrayObject *)PyArray_Empty(PyArray_NDIM(whole), PyArray_DIMS(whole), lane->dtype, 0);
        if (out == NULL) return NULL;
    } else {
        if (!usable_input(out_obj, lane)) return general(lane, a, b, out_obj, 0);
        out = (PyArrayObject *)out_obj;
        if (!PyArray_ISWRITEABLE(out) || !same_shape(whole, out)) Py_RETURN_NONE;
        if (clobbers(a, out, nbytes) || clobbers(b, out, nbytes)) return general(lane, a, b, out_obj, 0);
        Py_INCREF(out);
    }
    if (nan_found) atomic_store(nan_found, 0); /* a flat job: its parts check their outputs */
    if (n == 0) return (PyObject *)out;
    const Job job = flat_job(lane, PyArray_BYTES(a), PyArray_BYTES(b), PyArray_BYTES(out), n, period, whole == b,
                             nan_found, nan_exponent);
    const int threads = job_threads(lane, nbytes);
    run_job_released(&job, job_parts(threads, nbytes), threads, nbytes, 0);
    return (PyObject *)out;
}

/* Whether lane(a, b, out) takes the flat path for these arrays: three C-contiguous arrays of the
 * lane's dtype and one shape, out writable and not a shifted alias of a or b, n > 0. Such a call
 * is then exactly flat_run(lane, a, b, out, n) on their data: what the C ABI's remembered
 * launches replay without Python (opsnn/capi). */
static int flat_call(Lane *lane, PyObject *a_obj, PyObject *b_obj, PyObject *out_obj) {
    if (!usable_input(a_obj, lane) || !usable_input(b_obj, lane) || !usable_input(out_obj, lane)) return 0;
    PyArrayObject *a = (PyArrayObject *)a_obj, *b = (PyArrayObject *)b_obj, *out = (PyArrayObject *)out_obj;
    const size_t nbytes = (size_t)PyArray_SIZE(a) * (size_t)lane->width;
    return PyArray_SIZE(a) > 0 && same_shape(a, b) && same_shape(a, out) && PyArray_ISWRITEABLE(out) &&
           !clobbers(a, out, nbytes) && !clobbers(b, out, nbytes);
}

static PyObject *lane_flat(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "lane.flat takes exactly (a, b, out)");
        return NULL;
    }
    return PyBool_FromLong(flat_call((Lane *)self, args[0], args[1], args[2]));
}

/* lane(a, b, out) on n elements where lane.flat(a, b, out) said so, given their data; called
 * without the GIL (it touches no Python object but the lane's own fields, fixed at creation). */
static void flat_run(PyObject *lane_obj, const void *a, const void *b, void *out, size_t n) {
    const Lane *lane = (const Lane *)lane_obj;
    const Job job = flat_job(lane, (const char *)a, (const char *)b, (char *)out, n, 0, 0, NULL, 0);
    const size_t nbytes = n * (size_t)lane->width;
    const int threads = job_threads(lane, nbytes);
    run_job(&job, job_parts(threads, nbytes), threads);
}

static PyObject *lane_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    if (PyVectorcall_NARGS(nargsf) != 3 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "a lane takes exactly (a, b, out)");
        return NULL;
    }
    return lane_select((Lane *)self, args[0], args[1], args[2], NULL, 0);
}

/* lane.nan_checked(a, b, out, exponent_mask) -> (out, whether out holds a NaN), or None as the
 * lane's call; the flag is None where the job was not flat (the general way): not checked */
static PyObject *lane_nan_checked(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "lane.nan_checked takes exactly (a, b, out, exponent_mask)");
        return NULL;
    }
    Lane *lane = (Lane *)self;
    if (lane->width != 2 && lane->width != 4 && lane->width != 8) {
        PyErr_SetString(PyExc_ValueError, "nan_checked: a lane of 2-, 4- or 8-byte items (floats)");
        return NULL;
    }
    const uint64_t exponent = PyLong_AsUnsignedLongLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    _Atomic int found = -1; /* a flat job sets it to 0 first, then 1 where a part finds a NaN */
    PyObject *out = lane_select(lane, args[0], args[1], args[2], &found, exponent);
    if (out == NULL || out == Py_None) return out;
    PyObject *flag = found < 0 ? Py_None : found ? Py_True : Py_False;
    return Py_BuildValue("(NO)", out, flag);
}

/* The conversions the engine does itself (converting_run) for an operand of descr d going into a
 * float32 lane (native byte order), all exact: WIDEN_F16, WIDEN_BF16, WIDEN_I8 ... ; else 0 */
static int widening_into(PyArray_Descr *d, const Lane *lane) {
    if (lane->dtype->type_num != NPY_FLOAT || !PyArray_ISNBO(d->byteorder)) return 0;
    switch (d->type_num) {
    case NPY_HALF: return WIDEN_F16;
    case NPY_BYTE: return WIDEN_I8;
    case NPY_UBYTE: return WIDEN_U8;
    case NPY_SHORT: return WIDEN_I16;
    case NPY_USHORT: return WIDEN_U16;
    default: return PyDataType_ELSIZE(d) == 2 && strcmp(d->typeobj->tp_name, "bfloat16") == 0 ? WIDEN_BF16 : 0;
    }
}

/* The general way (see above): out = select(a, b) for any layout, a and b cast to the lane's
 * dtype where `cast` (numpy's unsafe casting, as np.copyto), else of its dtype. None where the
 * call is not for it (shapes that do not broadcast, a rank above the lane's, an out of another
 * shape or dtype, an operand numpy cannot iterate as asked): the caller's general way answers. */
static PyObject *general(Lane *lane, PyArrayObject *a, PyArrayObject *b, PyObject *out_obj, int cast) {
    if (!cast && (!PyArray_EquivTypes(PyArray_DESCR(a), lane->dtype) ||
                  !PyArray_EquivTypes(PyArray_DESCR(b), lane->dtype)))
        Py_RETURN_NONE;
    if (PyArray_NDIM(a) > lane->max_rank || PyArray_NDIM(b) > lane->max_rank) Py_RETURN_NONE;
    int nd;
    npy_intp shape[NPY_MAXDIMS];
    if (!broadcast_shape(a, b, &nd, shape)) Py_RETURN_NONE;
    PyArrayObject *out;
    if (out_obj == Py_None) {
        Py_INCREF(lane->dtype);
        /* C order, always (numpy's ufuncs would follow the operands' layout: callers view
         * results as their unsigned bits, which needs a contiguous last axis) */
        out = (PyArrayObject *)PyArray_Empty(nd, shape, lane->dtype, 0);
        if (out == NULL) return NULL;
    } else {
        if (!PyArray_CheckExact(out_obj)) Py_RETURN_NONE;
        out = (PyArrayObject *)out_obj;
        if (!PyArray_ISWRITEABLE(out) || !PyArray_EquivTypes(PyArray_DESCR(out), lane->dtype) ||
            PyArray_NDIM(out) != nd || memcmp(PyArray_DIMS(out), shape, nd * sizeof(npy_intp)) != 0)
            Py_RETURN_NONE;
        Py_INCREF(out);
    }
    const npy_intp n = PyArray_SIZE(out);
    if (n == 0) return (PyObject *)out;
    PyArrayObject *ops[3] = {a, b, out};
    const size_t nbytes = (size_t)n * (size_t)lane->width;
    const int stream = (Py_ssize_t)nbytes * lane->arrays >= lane->stream_min;
    int threads = job_threads(lane, nbytes);
    Grid grid;
    const int conv[2] = {cast ? widening_into(PyArray_DESCR(a), lane) : 0, cast ? widening_into(PyArray_DESCR(b), lane) : 0};
    if ((conv[0] || PyArray_EquivTypes(PyArray_DESCR(a), lane->dtype)) &&
        (conv[1] || PyArray_EquivTypes(PyArray_DESCR(b), lane->dtype)) &&
        PyArray_ISALIGNED(a) && PyArray_ISALIGNED(b) && PyArray_ISALIGNED(out) &&
        make_grid(&grid, ops, nd, shape, lane->width, conv)) {
        Job job = {stream ? lane->streaming : lane->plain, NULL, NULL, NULL, (size_t)n, (size_t)lane->width,
                   &lane->p, stream, 0, 0, &grid, NULL, lane->strided, lane->fb, NULL, {conv[0], conv[1]}};
        run_job_released(&job, job_parts(threads, nbytes), threads, nbytes, 0);
        return (PyObject *)out;
    }
    npy_uint32 op_flags[3] = {NPY_ITER_READONLY | NPY_ITER_NBO | NPY_ITER_ALIGNED,
                              NPY_ITER_READONLY | NPY_ITER_NBO | NPY_ITER_ALIGNED,
                              NPY_ITER_WRITEONLY | NPY_ITER_NBO | NPY_ITER_ALIGNED | NPY_ITER_NO_BROADCAST};
    PyArray_Descr *dtypes[3] = {lane->dtype, lane->dtype, lane->dtype};
    const npy_uint32 flags = NPY_ITER_EXTERNAL_LOOP | NPY_ITER_BUFFERED | NPY_ITER_GROWINNER | NPY_ITER_RANGED |
                             NPY_ITER_DELAY_BUFALLOC | NPY_ITER_COPY_IF_OVERLAP | NPY_ITER_ZEROSIZE_OK;
    NpyIter *it = NpyIter_MultiNew(3, ops, flags, NPY_KEEPORDER, cast ? NPY_UNSAFE_CASTING : NPY_EQUIV_CASTING,
                                   op_flags, dtypes);
    if (it == NULL) {
        PyErr_Clear();
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    const int needs_api = NpyIter_IterationNeedsAPI(it);
    if (needs_api) threads = 1;
    const int parts = threads; /* one iterator copy per part: no finer parts (each copy costs) */
    Walker walkers_[8], *walkers = parts <= 8 ? walkers_ : PyMem_Malloc(parts * sizeof(Walker));
    int made = 0, ok = walkers != NULL;
    for (; ok && made < parts; made++) {
        NpyIter *copy = made == 0 ? it : NpyIter_Copy(it);
        if (copy == NULL || (walkers[made].next = NpyIter_GetIterNext(copy, NULL)) == NULL) {
            if (copy != NULL && copy != it) NpyIter_Deallocate(copy);
            ok = 0;
            break;
        }
        walkers[made].it = copy;
        walkers[made].data = NpyIter_GetDataPtrArray(copy);
        walkers[made].strides = NpyIter_GetInnerStrideArray(copy);
        walkers[made].size = NpyIter_GetInnerLoopSizePtr(copy);
    }
    _Atomic int failed = 0;
    if (ok) {
        Job job = {stream ? lane->streaming : lane->plain, NULL, NULL, NULL, (size_t)n, (size_t)lane->width,
                   &lane->p, stream, 0, 0, NULL, walkers, lane->strided, lane->fb, &failed};
        run_job_released(&job, parts, threads, nbytes, needs_api);
    }
    /* the copies first: the first iterator's deallocation writes a copied out back into out */
    for (int k = made - 1; k >= 1; k--) NpyIter_Deallocate(walkers[k].it);
    if (made == 0 || walkers == NULL) NpyIter_Deallocate(it);
    else NpyIter_Deallocate(walkers[0].it);
    if (walkers != walkers_) PyMem_Free(walkers);
    if (!ok || failed) {
        Py_DECREF(out);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "opsnn C lane: numpy's iterator could not be set up or reset");
        return NULL;
    }
    return (PyObject *)out;
}

/* lane.cast(a, b, out): the general way with a and b cast to the lane's dtype (torch's promotion
 * already decided it); out is None or an array of the result's shape and the lane's dtype. */
static PyObject *lane_cast(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "lane.cast takes exactly (a, b, out)");
        return NULL;
    }
    if (!PyArray_CheckExact(args[0]) || !PyArray_CheckExact(args[1])) Py_RETURN_NONE;
    return general((Lane *)self, (PyArrayObject *)args[0], (PyArrayObject *)args[1], args[2], 1);
}

static PyMethodDef lane_methods[] = {
    {"cast", (PyCFunction)(void (*)(void))lane_cast, METH_FASTCALL,
     "cast(a, b, out) -> out = select(a, b), a and b cast to the lane's dtype; None where not for the lane"},
    {"flat", (PyCFunction)(void (*)(void))lane_flat, METH_FASTCALL,
     "flat(a, b, out) -> whether lane(a, b, out) runs flat (then _flat_run replays it on their data)"},
    {"nan_checked", (PyCFunction)(void (*)(void))lane_nan_checked, METH_FASTCALL,
     "nan_checked(a, b, out, exponent_mask) -> (out, whether out holds a NaN: None where not checked), or None "
     "as the lane's call"},
    {NULL, NULL, 0, NULL},
};

static PyObject *lane_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"dtype", "params", "max_rank", "arrays", "parallel_min", "stream_min", "threads", NULL};
    PyObject *dtype_obj, *params;
    int max_rank, arrays, threads;
    Py_ssize_t parallel_min, stream_min;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOiinni", names, &dtype_obj, &params, &max_rank, &arrays,
                                     &parallel_min, &stream_min, &threads))
        return NULL;
    PyArray_Descr *dtype = NULL;
    if (!PyArray_DescrConverter(dtype_obj, &dtype)) return NULL;
    PyObject *seq = PySequence_Fast(params, "params: a sequence of integers");
    if (seq == NULL) goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != NPARAMS) {
        PyErr_Format(PyExc_ValueError, "params: %d integers, got %zd", NPARAMS, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        goto fail;
    }
    Params p;
    for (int i = 0; i < NPARAMS; i++) {
        p.v[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            goto fail;
        }
    }
    Py_DECREF(seq);
    uint64_t mode = p.v[MODE] & MODE_MASK;
    const uint64_t flags = p.v[MODE] & ~(uint64_t)MODE_MASK;
    if (mode == ONE || mode > LEAKY_BF16) mode = ONE; /* internal kinds, not modes: refused below */
    else if (flags & KEYED && (mode == PLAIN || mode == RELU)) mode = mode == PLAIN ? PLAIN_KEYED : RELU_KEYED;
    else if (flags & KEYED) mode = ONE;
    if (flags & ~(uint64_t)(CYCLIC | HOST_NAN | KEYED)) {
        PyErr_Format(PyExc_ValueError, "params: unknown mode flags %#llx", (unsigned long long)flags);
        goto fail;
    }
    /* an empty range (lo > hi, keep_range's "matches nothing") becomes a copy of the other: the
     * loops test a range as (u - lo) <= hi - lo, which an empty one would turn into "everything"
     * (cyclic ranges are never empty: lo > hi wraps around) */
    if (!(flags & CYCLIC)) {
        if (p.v[LO2] > p.v[HI2]) p.v[LO2] = p.v[LO1], p.v[HI2] = p.v[HI1];
        if (p.v[LO1] > p.v[HI1]) p.v[LO1] = p.v[LO2], p.v[HI1] = p.v[HI2];
        if (p.v[LO1] > p.v[HI1]) {
            PyErr_SetString(PyExc_ValueError, "params: both ranges are empty (nothing kept is not for a lane)");
            goto fail;
        }
    }
    int width = (int)PyDataType_ELSIZE(dtype);
    const int one_range = p.v[LO1] == p.v[LO2] && p.v[HI1] == p.v[HI2];
    const LoopEntry *loops = NULL;
    if (mode == ONE || mode > RELU_KEYED || (flags & HOST_NAN && !(mode == LEAKY || mode == LEAKY_BF16)) ||
        (loops = find_loops(width, (int)mode)) == NULL) {
        PyErr_Format(PyExc_ValueError, "no loop for mode %llu on %d-byte items", (unsigned long long)p.v[MODE], width);
        goto fail;
    }
    if (max_rank < 0 || arrays < 1 || parallel_min < 1 || stream_min < 0 || threads < 1 || threads > 1024) {
        PyErr_SetString(PyExc_ValueError, "max_rank, arrays, parallel_min, stream_min or threads out of range");
        goto fail;
    }
    Lane *lane = (Lane *)type->tp_alloc(type, 0);
    if (lane == NULL) goto fail;
    lane->vectorcall = lane_call;
    lane->dtype = dtype;
    const int stream_kind = has_avx2() ? 2 : 1;
    lane->plain = loops->fns[one_range][0];
    lane->streaming = loops->fns[one_range][stream_kind];
    lane->strided = loops->strided;
    lane->fb = loops->fb;
#if HAVE_F16C_LOOP
    if (mode == LEAKY && width == 2 && one_range && f16c_widening)
        lane->plain = lane->streaming = leaky16_f16c;
#endif
    lane->one_plain = lane->one_streaming = NULL;
    const LoopEntry *one = mode == PLAIN ? find_loops(width, ONE) : NULL;
    if (one != NULL) lane->one_plain = one->fns[one_range][0], lane->one_streaming = one->fns[one_range][stream_kind];
    lane->p = p;
    lane->width = width;
    lane->max_rank = max_rank;
    lane->arrays = arrays;
    lane->threads = threads;
    lane->parallel_min = parallel_min;
    lane->stream_min = stream_min;
    return (PyObject *)lane;
fail:
    Py_XDECREF(dtype);
    return NULL;
}

static void lane_dealloc(Lane *lane) {
    Py_XDECREF(lane->dtype);
    Py_TYPE(lane)->tp_free((PyObject *)lane);
}

static PyObject *lane_repr(Lane *lane) {
    return PyUnicode_FromFormat("<opsnn C lane: %d-byte items, mode %d, up to %d threads>", lane->width,
                                (int)lane->p.v[MODE], lane->threads);
}

static PyTypeObject LaneType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "opsnn.engine._select.Lane",
    .tp_doc = PyDoc_STR("Lane(dtype, params, max_rank, arrays, parallel_min, stream_min, threads): "
                        "lane(a, b, out) -> out = select(a, b), or None where the call is not for the lane"),
    .tp_basicsize = sizeof(Lane),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = lane_new,
    .tp_dealloc = (destructor)lane_dealloc,
    .tp_repr = (reprfunc)lane_repr,
    .tp_methods = lane_methods,
    .tp_vectorcall_offset = offsetof(Lane, vectorcall),
    .tp_call = PyVectorcall_Call,
};

static PyObject *threads_joined(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyLong_FromLong(1 + atomic_load(&pool.joined));
}

static PyObject *workers_started(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyLong_FromLong(pool.started);
}

static PyObject *any_nan(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || !PyArray_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "any_nan(array, exponent_mask)");
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)args[0];
    const uint64_t exponent = PyLong_AsUnsignedLongLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    const int size = (int)PyArray_ITEMSIZE(a);
    if (!PyArray_ISCARRAY_RO(a) || (size != 2 && size != 4 && size != 8)) {
        PyErr_SetString(PyExc_ValueError, "any_nan: a C-contiguous, aligned array of 2-, 4- or 8-byte items");
        return NULL;
    }
    const npy_intp n = PyArray_SIZE(a);
    int found;
    Py_BEGIN_ALLOW_THREADS
    found = any_above(PyArray_DATA(a), (size_t)n, (size_t)size, exponent);
    Py_END_ALLOW_THREADS
    return PyBool_FromLong(found);
}

static PyMethodDef methods[] = {
    {"workers_started", workers_started, METH_NOARGS, "worker threads this process has started"},
    {"threads_joined", threads_joined, METH_NOARGS,
     "threads that ran the last job on the pool, the caller included (a job runs on at most its lane's threads)"},
    {"any_nan", (PyCFunction)(void (*)(void))any_nan, METH_FASTCALL,
     "any_nan(a, exponent_mask) -> whether a float array (C-contiguous) holds a NaN"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_select", "The express lane's select in C.", -1, methods};

PyMODINIT_FUNC PyInit__select(void) {
    import_array();
    if (PyType_Ready(&LaneType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&LaneType);
    if (PyModule_AddObject(m, "Lane", (PyObject *)&LaneType) < 0) {
        Py_DECREF(&LaneType);
        Py_DECREF(m);
        return NULL;
    }
    /* flat_run for C callers: void (*)(PyObject *lane, const void *a, const void *b, void *out, size_t n) */
    PyObject *capsule = PyCapsule_New((void *)flat_run, "opsnn.engine._select._flat_run", NULL);
    if (capsule == NULL || PyModule_AddObject(m, "_flat_run", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(m);
        return NULL;
    }
#if HAVE_F16C_LOOP
    f16c_widening = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
#endif
    static int forks_handled = 0;
    if (!forks_handled && pthread_atfork(before_fork, after_fork_parent, after_fork_child) == 0) forks_handled = 1;
    static const struct { const char *name; int value; } constants[] = {
        {"LO1", LO1}, {"HI1", HI1}, {"LO2", LO2}, {"HI2", HI2}, {"FILL", FILL}, {"SIGN", SIGN},
        {"EXPONENT", EXPONENT}, {"QUIET", QUIET}, {"MODE", MODE}, {"PLAIN", PLAIN}, {"RELU", RELU},
        {"VIA_FLOAT32", VIA_FLOAT32}, {"STREAMING", STREAMING}, {"LEAKY", LEAKY}, {"LEAKY_BF16", LEAKY_BF16},
        {"CYCLIC", CYCLIC}, {"HOST_NAN", HOST_NAN}, {"KEYED", KEYED},
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
