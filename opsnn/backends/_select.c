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
enum { PLAIN, RELU, VIA_FLOAT32, ONE /* not a MODE of keep_range: PLAIN on a single operand */ };

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
#define RELU_ELEMENT(T) \
    ((gi & e) == e ? (KEEP(T, u) && (gi | sign) == (e | sign) ? gi : (gi | q)) : (KEEP(T, u) ? gi : (gi & sign)))
/* int32 on the NPU: the grad goes through float32 (round to nearest even) and back, saturating */
#define VIA_FLOAT32_ELEMENT(T) \
    (KEEP(T, u) ? (T)((float)(int32_t)gi >= 2147483648.0f ? INT32_MAX : (int32_t)(float)(int32_t)gi) : (T)0)

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
#define VIA_FLOAT32_SETUP(T, BND) BND(T)

/* ... and in GCC/clang vector extensions, for the streaming loops. A compare gives a lane mask of
 * all ones or zeros; a select is (a & m) | (b & ~m). */
#define VKEEP(V, u) ((V)((V)((u) - vlo1) <= vspan1) | (V)((V)((u) - vlo2) <= vspan2))
#define VBOUNDS(V) \
    const V vlo1 = (V){} + lo1, vspan1 = (V){} + span1, vlo2 = (V){} + lo2, vspan2 = (V){} + span2
#define PLAIN_VECTOR(V, VB, T) ({ V m = VKEEP(V, u); (gi & m) | (((V){} + fill) & ~m); })
#define RELU_VECTOR(V, VB, T) ({                                                  \
    V m = VKEEP(V, u), inf = (V)((gi & e) == e);                                 \
    V nan = inf & (V)((gi | sign) != (e | sign));                                \
    V masked = ((gi | q) & inf) | (gi & sign & ~inf);                            \
    ((gi | (q & nan)) & m) | (masked & ~m); })
#define VIA_FLOAT32_VECTOR(V, VB, T) ({                                           \
    typedef float F32V __attribute__((vector_size(VB)));                        \
    typedef int32_t I32V __attribute__((vector_size(VB)));                      \
    F32V v = __builtin_convertvector((I32V)gi, F32V);                            \
    /* a lane that rounded up to 2^31 converts to 0x80000000; adding its all-ones mask (-1) \
     * saturates it to INT32_MAX in one operation */                            \
    V big = (V)(v >= 2147483648.0f);                                             \
    V r = (V)__builtin_convertvector(v, I32V) + big;                             \
    r & VKEEP(V, u); })

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

/* every loop twice: two ranges (NAME) and one (NAME_r1) */
#define LOOPS_WITH(PLAIN_STORES, NAME, KIND, T) \
    LOOP_SET(PLAIN_STORES, NAME, KIND, T, BOUNDS) LOOP_SET(PLAIN_STORES, NAME##_r1, KIND, T, BOUNDS1)
#define LOOPS(NAME, KIND, T) LOOPS_WITH(PLAIN_LOOP, NAME, KIND, T)

LOOPS(plain8, PLAIN, uint8_t)
LOOPS(plain16, PLAIN, uint16_t)
LOOPS(plain32, PLAIN, uint32_t)
LOOPS(plain64, PLAIN, uint64_t)
LOOPS(relu16, RELU, uint16_t)
LOOPS(relu32, RELU, uint32_t)
LOOPS(relu64, RELU, uint64_t)
LOOPS_WITH(VECTOR_LOOP, via_float32, VIA_FLOAT32, uint32_t)
LOOPS(one8, ONE, uint8_t)
LOOPS(one16, ONE, uint16_t)
LOOPS(one32, ONE, uint32_t)
LOOPS(one64, ONE, uint64_t)

/* for each width x mode, two ranges and one: (plain stores, streaming on the baseline, on AVX2) */
#define ENTRY(W, MODE, NAME) {W, MODE, {{NAME, STREAM_FNS(NAME)}, {NAME##_r1, STREAM_FNS(NAME##_r1)}}}
static const struct {
    int width, mode;
    RangeFn fns[2][3];
} LOOP_TABLE[] = {
    ENTRY(1, PLAIN, plain8), ENTRY(2, PLAIN, plain16), ENTRY(4, PLAIN, plain32), ENTRY(8, PLAIN, plain64),
    ENTRY(2, RELU, relu16), ENTRY(4, RELU, relu32), ENTRY(8, RELU, relu64),
    ENTRY(4, VIA_FLOAT32, via_float32),
    ENTRY(1, ONE, one8), ENTRY(2, ONE, one16), ENTRY(4, ONE, one32), ENTRY(8, ONE, one64),
};

static int has_avx2(void) {
#if STREAMING && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* the (plain, streaming) loops of a width and mode, for one range or two; 0 if there are none */
static int find_loops(int width, int mode, int one_range, RangeFn *plain, RangeFn *streaming) {
    for (size_t k = 0; k < sizeof LOOP_TABLE / sizeof LOOP_TABLE[0]; k++)
        if (LOOP_TABLE[k].width == width && LOOP_TABLE[k].mode == mode) {
            *plain = LOOP_TABLE[k].fns[one_range][0];
            *streaming = LOOP_TABLE[k].fns[one_range][has_avx2() ? 2 : 1];
            return 1;
        }
    return 0;
}

/* ---------------------------------------------------------------- the pool */
/* A job is cut into `parts` contiguous parts. Whoever is free claims the next one (the caller
 * first), so a worker the OS has not woken yet costs a part's time, not a wait for it. Idle
 * workers spin for SPIN_NS after their last part (a loop of calls keeps them hot), then sleep on a
 * condition variable. One caller at a time uses the pool; a second runs its call on its own thread. */

#define SPIN_NS 200000L
#define PART_ALIGN 64 /* elements: parts start on cache-line multiples (no false sharing) */

typedef struct {
    RangeFn fn;
    const char *g, *f;
    char *o;
    size_t n, width;
    const Params *p;
    int stream;
    size_t period;        /* 0: flat; else g or f holds only `period` elements, repeated over o */
    int g_periodic;       /* which one (the other holds all n) */
} Job;

static struct {
    pthread_mutex_t use; /* held by the caller whose job is running */
    pthread_mutex_t m;   /* with cv: sleeping workers */
    pthread_cond_t cv;
    int sleepers, started;
    Job job;
    unsigned gen;
    _Atomic uint64_t ticket; /* gen << 32 | parts << 16 | next part to claim */
    _Atomic unsigned done;   /* parts finished */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

static inline unsigned ticket_parts(uint64_t t) { return (unsigned)(t >> 16) & 0xffffu; }
static inline unsigned ticket_next(uint64_t t) { return (unsigned)t & 0xffffu; }

static void run_part(const Job *job, unsigned k, unsigned parts) {
    if (job->period) { /* a broadcast row: parts of whole rows, each row one flat loop */
        const size_t rows = job->n / job->period, row_bytes = job->period * job->width;
        for (size_t r = rows * k / parts; r < rows * (k + 1) / parts; r++) {
            const size_t off = r * row_bytes;
            job->fn(job->g_periodic ? job->g : job->g + off, job->g_periodic ? job->f + off : job->f,
                    job->o + off, job->period, job->p);
        }
    } else {
        size_t lo = (job->n * k / parts) / PART_ALIGN * PART_ALIGN;
        size_t hi = k == parts - 1 ? job->n : (job->n * (k + 1) / parts) / PART_ALIGN * PART_ALIGN;
        size_t off = lo * job->width;
        job->fn(job->g + off, job->f + off, job->o + off, hi - lo, job->p);
    }
#if STREAMING
    if (job->stream) _mm_sfence(); /* streaming stores are weakly ordered: drain before telling */
#endif
}

/* Claim and run parts of the job `t` was read from until none is left; false if none was claimed. */
static int claim_parts(uint64_t t) {
    int ran = 0;
    while (ticket_next(t) < ticket_parts(t)) {
        if (atomic_compare_exchange_weak_explicit(&pool.ticket, &t, t + 1, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            run_part(&pool.job, ticket_next(t), ticket_parts(t));
            atomic_fetch_add_explicit(&pool.done, 1, memory_order_release);
            ran = 1;
            t = t + 1;
        }
    }
    return ran;
}

static long elapsed_ns(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        uint64_t t = atomic_load_explicit(&pool.ticket, memory_order_acquire);
        if (claim_parts(t)) continue;
        t = atomic_load_explicit(&pool.ticket, memory_order_acquire);
        if (ticket_next(t) < ticket_parts(t)) continue;
        struct timespec since;
        clock_gettime(CLOCK_MONOTONIC, &since);
        for (unsigned i = 1;; i++) {
            if (atomic_load_explicit(&pool.ticket, memory_order_acquire) != t) break;
            RELAX();
            if ((i & 1023) == 0 && elapsed_ns(&since) > SPIN_NS) {
                pthread_mutex_lock(&pool.m);
                pool.sleepers++;
                while (atomic_load_explicit(&pool.ticket, memory_order_acquire) == t)
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
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int failed = pthread_create(&id, &attr, worker, NULL);
        pthread_attr_destroy(&attr);
        if (failed) break;
        pool.started++;
    }
    return pool.started;
}

static void run_job(const Job *job, int parts) {
    if (parts > 1 && pthread_mutex_trylock(&pool.use) == 0) {
        int workers = ensure_workers(parts);
        if (parts > workers + 1) parts = workers + 1;
        if (parts > 1) {
            pool.job = *job;
            atomic_store_explicit(&pool.done, 0, memory_order_relaxed);
            pool.gen++;
            uint64_t t = (uint64_t)pool.gen << 32 | (uint64_t)parts << 16;
            atomic_store_explicit(&pool.ticket, t, memory_order_release);
            pthread_mutex_lock(&pool.m);
            if (pool.sleepers) pthread_cond_broadcast(&pool.cv);
            pthread_mutex_unlock(&pool.m);
            claim_parts(t);
            /* the parts others claimed are running: wait for them (they finish soon) */
            for (unsigned i = 1; atomic_load_explicit(&pool.done, memory_order_acquire) < (unsigned)parts; i++) {
                RELAX();
                if ((i & 4095) == 0) sched_yield();
            }
            pthread_mutex_unlock(&pool.use);
            return;
        }
        pthread_mutex_unlock(&pool.use);
    }
    run_part(job, 0, 1);
}

/* fork(): the child has no workers; it starts its own at its first parallel call */
static void before_fork(void) { pthread_mutex_lock(&pool.use); }
static void after_fork_parent(void) { pthread_mutex_unlock(&pool.use); }
static void after_fork_child(void) {
    pthread_mutex_init(&pool.m, NULL);
    pthread_cond_init(&pool.cv, NULL);
    pool.sleepers = pool.started = 0;
    atomic_store(&pool.ticket, (uint64_t)pool.gen << 32);
    pthread_mutex_init(&pool.use, NULL);
}

/* ---------------------------------------------------------------- the Lane type */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyArray_Descr *dtype;
    RangeFn plain, streaming, one_plain, one_streaming; /* one_*: a == b, PLAIN mode only (else NULL) */
    Params p;
    int width, max_rank, arrays, threads;
    Py_ssize_t parallel_min, stream_min;
} Lane;

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

/* lane(a, b, out): out = select(a, b) (allocated if out is None), or None where the call is not
 * for the lane (the general way answers it, and raises every error). Never raises for an input. */
static PyObject *lane_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Lane *lane = (Lane *)self;
    if (PyVectorcall_NARGS(nargsf) != 3 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "a lane takes exactly (a, b, out)");
        return NULL;
    }
    PyObject *a_obj = args[0], *b_obj = args[1], *out_obj = args[2];
    if (!usable_input(a_obj, lane) || !usable_input(b_obj, lane)) Py_RETURN_NONE;
    PyArrayObject *a = (PyArrayObject *)a_obj, *b = (PyArrayObject *)b_obj, *out;
    PyArrayObject *whole = a; /* the operand of the result's shape */
    size_t period = 0;
    if (b != a && !same_shape(a, b)) {
        if ((period = row_period(b, a)) == 0 && (period = row_period(a, b)) != 0) whole = b;
        if (period == 0) Py_RETURN_NONE;
    }
    const size_t n = (size_t)PyArray_SIZE(whole), nbytes = n * (size_t)lane->width;
    if (out_obj == Py_None) {
        Py_INCREF(lane->dtype);
        out = (PyArrayObject *)PyArray_Empty(PyArray_NDIM(whole), PyArray_DIMS(whole), lane->dtype, 0);
        if (out == NULL) return NULL;
    } else {
        if (!usable_input(out_obj, lane)) Py_RETURN_NONE;
        out = (PyArrayObject *)out_obj;
        if (!PyArray_ISWRITEABLE(out) || !same_shape(whole, out) || clobbers(a, out, nbytes) ||
            clobbers(b, out, nbytes))
            Py_RETURN_NONE;
        Py_INCREF(out);
    }
    if (n == 0) return (PyObject *)out;
    const int stream = (Py_ssize_t)nbytes * lane->arrays >= lane->stream_min;
    const int one = PyArray_BYTES(a) == PyArray_BYTES(b) && period == 0 && lane->one_plain != NULL;
    Job job = {one ? (stream ? lane->one_streaming : lane->one_plain) : stream ? lane->streaming : lane->plain,
               PyArray_BYTES(a), PyArray_BYTES(b), PyArray_BYTES(out), n, (size_t)lane->width, &lane->p, stream,
               period, whole == b};
    int parts = 1;
    if ((Py_ssize_t)nbytes >= 2 * lane->parallel_min) {
        size_t most = nbytes / (size_t)lane->parallel_min;
        parts = most < (size_t)lane->threads ? (int)most : lane->threads;
    }
    if (nbytes < (1u << 14)) { /* a few microseconds at most: not worth handing the GIL over */
        run_job(&job, 1);
    } else {
        Py_BEGIN_ALLOW_THREADS
        run_job(&job, parts);
        Py_END_ALLOW_THREADS
    }
    return (PyObject *)out;
}

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
    /* an empty range (lo > hi, keep_range's "matches nothing") becomes a copy of the other: the
     * loops test a range as (u - lo) <= hi - lo, which an empty one would turn into "everything" */
    if (p.v[LO2] > p.v[HI2]) p.v[LO2] = p.v[LO1], p.v[HI2] = p.v[HI1];
    if (p.v[LO1] > p.v[HI1]) p.v[LO1] = p.v[LO2], p.v[HI1] = p.v[HI2];
    if (p.v[LO1] > p.v[HI1]) {
        PyErr_SetString(PyExc_ValueError, "params: both ranges are empty (nothing kept is not for a lane)");
        goto fail;
    }
    int width = (int)PyDataType_ELSIZE(dtype);
    const int one_range = p.v[LO1] == p.v[LO2] && p.v[HI1] == p.v[HI2];
    RangeFn plain, streaming;
    if (p.v[MODE] > VIA_FLOAT32 || !find_loops(width, (int)p.v[MODE], one_range, &plain, &streaming)) {
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
    lane->plain = plain;
    lane->streaming = streaming;
    lane->one_plain = lane->one_streaming = NULL;
    if (p.v[MODE] == PLAIN) find_loops(width, ONE, one_range, &lane->one_plain, &lane->one_streaming);
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
    .tp_name = "opsnn.backends._select.Lane",
    .tp_doc = PyDoc_STR("Lane(dtype, params, max_rank, arrays, parallel_min, stream_min, threads): "
                        "lane(a, b, out) -> out = select(a, b), or None where the call is not for the lane"),
    .tp_basicsize = sizeof(Lane),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = lane_new,
    .tp_dealloc = (destructor)lane_dealloc,
    .tp_repr = (reprfunc)lane_repr,
    .tp_vectorcall_offset = offsetof(Lane, vectorcall),
    .tp_call = PyVectorcall_Call,
};

static PyObject *workers_started(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyLong_FromLong(pool.started);
}

static PyMethodDef methods[] = {
    {"workers_started", workers_started, METH_NOARGS, "worker threads this process has started"},
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
    static int forks_handled = 0;
    if (!forks_handled && pthread_atfork(before_fork, after_fork_parent, after_fork_child) == 0) forks_handled = 1;
    static const struct { const char *name; int value; } constants[] = {
        {"LO1", LO1}, {"HI1", HI1}, {"LO2", LO2}, {"HI2", HI2}, {"FILL", FILL}, {"SIGN", SIGN},
        {"EXPONENT", EXPONENT}, {"QUIET", QUIET}, {"MODE", MODE}, {"PLAIN", PLAIN}, {"RELU", RELU},
        {"VIA_FLOAT32", VIA_FLOAT32}, {"STREAMING", STREAMING},
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
