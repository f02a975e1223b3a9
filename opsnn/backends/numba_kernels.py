"""The fused select as numba loops: one pass, no temporaries, GIL released.

Imported lazily by fast.py (importing numba costs ~0.2-0.4 s). Two entry points per element width
(uint8/16/32/64 views): `run` on the calling thread and `run_parallel` on numba's worker threads;
which loop they run (plain select, ReluGrad, int32 through float32) is a field of the selection's
parameter array, so a width costs two compiled signatures, not eight. Compiled code is cached on
disk in a user-writable folder (see `CACHE_DIR`).

The kept set is two ranges of raw bits (Selection.raw_ranges), tested with compares only:
arithmetic on small integers is widened to 64 bits by numba and costs the uint8/16 loops half their
speed. Both operands are loaded unconditionally so the select is a vector blend: a load of g[i]
only where kept needs masked 8/16-bit loads, which AVX2 lacks (the loop then branches per element).
"""
from __future__ import annotations

import hashlib
import itertools
import os
import platform
import secrets
import threading

import numba
import numpy as np
from llvmlite import ir
from numba.core import bytecode, caching, cgutils, types
from numba.extending import intrinsic, overload

from opsnn.backends.keep_range import (
    EXPONENT,
    FILL,
    HI1,
    HI2,
    LO1,
    LO2,
    MODE,
    PLAIN,
    QUIET,
    RELU,
    SIGN,
    VIA_FLOAT32,
)

# x86 only: non-temporal (streaming) stores of whole vectors; elsewhere the plain loops run
STREAMING = platform.machine().lower() in ("x86_64", "amd64")
_VECTOR_BYTES = 64
_PART_ALIGN = 64  # elements: parallel parts start on cache-line multiples (no false sharing)


def _default_cache_dir() -> str:
    chosen = os.environ.get("OPSNN_CACHE_DIR")
    if chosen:
        return os.path.join(chosen, "numba")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "opsnn", "numba")


# Where compiled kernels are cached: $OPSNN_CACHE_DIR/numba, else ~/.cache/opsnn/numba (XDG), not
# beside the sources, so a read-only install (site-packages owned by root, a container image)
# caches too. If that folder is not writable either, numba's own locations are tried in turn.
CACHE_DIR = _default_cache_dir()


# The compiled loops also hold keep_range's parameter layout (MODE, LO1, ...) as constants: an
# entry is valid for the contents of both files (numba's own stamp covers this file only).
_STAMPED_SOURCES = (__file__, os.path.join(os.path.dirname(__file__), "keep_range.py"))


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(CACHE_DIR, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        digest = hashlib.sha256()
        for path in _STAMPED_SOURCES:
            with open(path, "rb") as source:
                digest.update(source.read())
        return digest.digest()


class _CacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = [_Locator, *caching.CompileResultCacheImpl._locator_classes]


class _Cache(caching.FunctionCache):
    _impl_class = _CacheImpl


# numba names a compiled function by its qualified name, its argument types and a number from a
# counter that every process starts at 1 (numba issue #10486). Two processes can thus give one
# symbol to two different functions (two closures of one name, two parfor kernels), and a process
# that loads both from the shared on-disk cache runs whichever body it linked first: silently
# wrong results. Starting the counter at a random 64-bit number, anew in each process and forked
# child, keeps every process's names its own. (The same function compiled twice under two names
# is merely two copies.)
def _process_unique_function_ids() -> None:
    if isinstance(getattr(bytecode.FunctionIdentity, "_unique_ids", None), itertools.count):
        bytecode.FunctionIdentity._unique_ids = itertools.count(secrets.randbits(64) + 1)


_process_unique_function_ids()
os.register_at_fork(after_in_child=_process_unique_function_ids)


def _cached(dispatcher):
    """Caching for this dispatcher only, at CACHE_DIR (numba's cache=True would write beside the source)."""
    dispatcher._cache = _Cache(dispatcher.py_func)
    return dispatcher


_OPTIONS = dict(nogil=True, boundscheck=False, error_model="numpy")
_inner = numba.njit(**_OPTIONS)  # the loops: compiled into (and cached with) the entry points that call them


@_inner
def _plain(g, f, out, p):
    lo1, hi1, lo2, hi2, fill = p[LO1], p[HI1], p[LO2], p[HI2], p[FILL]
    for i in range(f.shape[0]):
        u = f[i]
        gi = g[i]
        out[i] = gi if ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2)) else fill


@_inner
def _relu_float(g, f, out, p):
    lo1, hi1, lo2, hi2 = p[LO1], p[HI1], p[LO2], p[HI2]
    sign, exponent, quiet = p[SIGN], p[EXPONENT], p[QUIET]
    for i in range(f.shape[0]):
        u = f[i]
        gi = g[i]
        # grad * 0: a zero with the grad's sign, or NaN for an inf/NaN grad; grad * 1: the grad,
        # a signalling NaN quieted (the reference's rule, relu_grad/functional_models.py)
        non_finite = (gi & exponent) == exponent
        masked = (gi | quiet) if non_finite else (gi & sign)
        kept = (gi | quiet) if non_finite & ((gi | sign) != (exponent | sign)) else gi
        out[i] = kept if ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2)) else masked


@_inner
def _int32_via_float32(g, f, out, p):
    lo1, hi1, lo2, hi2 = p[LO1], p[HI1], p[LO2], p[HI2]
    gs, outs = g.view(np.int32), out.view(np.int32)
    for i in range(f.shape[0]):
        u = f[i]
        v = np.float32(gs[i])  # the kernel's int32 -> float32 cast (RNE) ...
        r = np.int32(2147483647) if v >= np.float32(2147483648.0) else np.int32(v)  # ... and back, saturating
        outs[i] = r if ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2)) else np.int32(0)


# Streaming stores. A plain store first reads the output's cache line from memory ("read for
# ownership"), so a big select moves 4 bytes per 3 it needs; a non-temporal store writes the line
# without reading it. LLVM's loop vectorizer will not emit them, so one 64-byte block is written
# out as explicit vector IR. They only pay for outputs well beyond the last-level cache (see
# fast.STREAM_MIN): a result that fits is better left in cache for whoever reads it next.
def _streaming_block(kind: str):
    """An intrinsic block(g, f, out, i, lo1, hi1, lo2, hi2, x1, x2, x3): out[i : i + 64 bytes] =
    the `kind` loop's result (see _plain, _relu_float, _int32_via_float32) as one vector compute
    and a non-temporal store; out + i must be 64-byte aligned. x1: fill (plain); sign, exponent,
    quiet (relu); unused (int32 via float32)."""

    @intrinsic
    def block(typingctx, g, f, out, i, lo1, hi1, lo2, hi2, x1, x2, x3):
        sig = numba.types.void(g, f, out, i, lo1, hi1, lo2, hi2, x1, x2, x3)

        def codegen(context, builder, signature, args):
            element = context.get_value_type(signature.args[0].dtype)
            lanes = _VECTOR_BYTES // (element.width // 8)
            vector = ir.VectorType(element, lanes)

            def block_pointer(k):
                ary = context.make_array(signature.args[k])(context, builder, args[k])
                p = cgutils.get_item_pointer(context, builder, signature.args[k], ary, [args[3]], wraparound=False)
                return builder.bitcast(p, vector.as_pointer())

            def splat(x):  # the scalars are the selection's parameters: g's unsigned type already
                one = builder.insert_element(ir.Constant(vector, None), x, ir.Constant(ir.IntType(32), 0))
                zeros = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)
                return builder.shuffle_vector(one, ir.Constant(vector, None), zeros)

            gv, fv = builder.load(block_pointer(0), align=1), builder.load(block_pointer(1), align=1)
            lo1v, hi1v, lo2v, hi2v, x1v, x2v, x3v = (splat(a) for a in args[4:])
            in1 = builder.and_(builder.icmp_unsigned(">=", fv, lo1v), builder.icmp_unsigned("<=", fv, hi1v))
            in2 = builder.and_(builder.icmp_unsigned(">=", fv, lo2v), builder.icmp_unsigned("<=", fv, hi2v))
            keep = builder.or_(in1, in2)
            if kind == "plain":
                result = builder.select(keep, gv, x1v)
            elif kind == "relu":  # as _relu_float: x1 sign, x2 exponent, x3 quiet
                non_finite = builder.icmp_unsigned("==", builder.and_(gv, x2v), x2v)
                quieted = builder.or_(gv, x3v)
                masked = builder.select(non_finite, quieted, builder.and_(gv, x1v))
                nan = builder.and_(non_finite, builder.icmp_unsigned("!=", builder.or_(gv, x1v), builder.or_(x2v, x1v)))
                result = builder.select(keep, builder.select(nan, quieted, gv), masked)
            else:  # int32 through float32 (RNE) and back, saturating at 2**31
                fvec = ir.VectorType(ir.FloatType(), lanes)
                wide = builder.sitofp(gv, fvec)
                big = builder.fcmp_ordered(">=", wide, ir.Constant(fvec, [2.0 ** 31] * lanes))
                # fptosi of 2**31 is poison: convert a clamped value, then pick INT32_MAX
                clamped = builder.select(big, ir.Constant(fvec, [0.0] * lanes), wide)
                back = builder.select(big, ir.Constant(vector, [2**31 - 1] * lanes), builder.fptosi(clamped, vector))
                result = builder.select(keep, back, ir.Constant(vector, [0] * lanes))
            store = builder.store(result, block_pointer(2), align=_VECTOR_BYTES)
            store.set_metadata("nontemporal", builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)]))
            return context.get_dummy_value()

        return sig, codegen

    return block


_plain_block, _relu_block, _via_float32_block = (_streaming_block(k) for k in ("plain", "relu", "via_float32"))


@intrinsic
def _store_fence(typingctx):
    """sfence: streaming stores are weakly ordered; make them visible before returning."""
    def codegen(context, builder, signature, args):
        fence = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), []),
                                               "llvm.x86.sse.sfence")
        builder.call(fence, [])
        return context.get_dummy_value()

    return numba.types.void(), codegen


def _streaming_loop(serial_loop, block, name: str):
    """The loop `serial_loop` with non-temporal stores: its own loop for the unaligned head and
    the tail, `block` for every whole aligned 64 bytes in between.

    `name` becomes the loop's qualified name, which must be its own: numba names a compiled
    function by its qualified name plus a counter that each process starts afresh, so three
    closures sharing one name could be cached by two processes under the same symbol with
    different bodies, and a process loading both entries would run whichever it linked first."""

    def loop(g, f, out, p):
        size = out.itemsize
        address = out.ctypes.data
        if address % size:  # a misaligned element array never reaches a 64-byte boundary: plain stores
            serial_loop(g, f, out, p)
            return
        n, lanes = f.shape[0], _VECTOR_BYTES // size
        head = min(n, ((_VECTOR_BYTES - address % _VECTOR_BYTES) % _VECTOR_BYTES) // size)
        body_end = head + (n - head) // lanes * lanes
        serial_loop(g[:head], f[:head], out[:head], p)
        lo1, hi1, lo2, hi2 = p[LO1], p[HI1], p[LO2], p[HI2]
        x1, x2, x3 = (p[SIGN], p[EXPONENT], p[QUIET]) if p[MODE] == RELU else (p[FILL], p[FILL], p[FILL])
        for i in range(head, body_end, lanes):
            block(g, f, out, i, lo1, hi1, lo2, hi2, x1, x2, x3)
        _store_fence()
        serial_loop(g[body_end:], f[body_end:], out[body_end:], p)

    loop.__name__ = loop.__qualname__ = name
    return _inner(loop)


_plain_streaming = _streaming_loop(_plain, _plain_block, "_plain_streaming")
_relu_streaming = _streaming_loop(_relu_float, _relu_block, "_relu_streaming")
_int32_via_float32_streaming = _streaming_loop(_int32_via_float32, _via_float32_block, "_int32_via_float32_streaming")


@_inner
def _range(g, f, out, p, streaming):
    # Every loop runs from 0 over its own slice: with a variable start numba cannot drop its
    # negative-index wrap-around and LLVM does not vectorise (measured 10x slower).
    mode = p[MODE]
    stream = streaming and STREAMING
    if mode == PLAIN:
        if stream:
            _plain_streaming(g, f, out, p)
        else:
            _plain(g, f, out, p)
    elif mode == RELU:
        if stream:
            _relu_streaming(g, f, out, p)
        else:
            _relu_float(g, f, out, p)
    elif stream:
        _int32_via_float32_streaming(g, f, out, p)
    else:
        _int32_via_float32(g, f, out, p)


def _as_bits(a):
    """a viewed as the unsigned integers of its width (in compiled code only)."""
    raise NotImplementedError


@overload(_as_bits)
def _as_bits_overload(a):
    unsigned = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[a.dtype.bitwidth]
    if isinstance(a.dtype, types.Integer) and not a.dtype.signed:
        return lambda a: a
    return lambda a: a.view(unsigned)


@_inner
def _clobbers(x, out):
    """True if out overlaps x other than as the very same elements (same start, same item size):
    a shifted alias, or one of another width, would read what it just wrote."""
    a, b = x.ctypes.data, out.ctypes.data
    same = a == b and x.itemsize == out.itemsize
    return not same and a < b + out.nbytes and b < a + x.nbytes


@_cached
@numba.njit(**_OPTIONS)
def run(g, f, out, p, streaming):
    """out = select(g, f) on the calling thread; 1 (nothing written) if out is a shifted alias of g or f.

    g, f, out: 1-D C-contiguous, one dtype: numpy builtin numbers as they are (viewed as bits here,
    which saves the caller three Python-level views per call), others already as unsigned views."""
    if _clobbers(g, out) or _clobbers(f, out):
        return 1
    _range(_as_bits(g), _as_bits(f), _as_bits(out), p, streaming)
    return 0


# numba's own worker threads (OpenMP where available) each run the loop on one contiguous part.
# Measured against a Python thread pool on a 2-core VM: waking pool threads and handing the GIL
# around costs 50-250 us per call, numba's workers ~2-5 us.
@_cached
@numba.njit(parallel=True, **_OPTIONS)
def run_parallel(g, f, out, p, parts, streaming):
    """run() split into `parts` contiguous parts on numba's threads."""
    if _clobbers(g, out) or _clobbers(f, out):
        return 1
    g, f, out = _as_bits(g), _as_bits(f), _as_bits(out)
    n = f.shape[0]
    for k in numba.prange(parts):
        lo = (n * k // parts) // _PART_ALIGN * _PART_ALIGN
        hi = n if k == parts - 1 else (n * (k + 1) // parts) // _PART_ALIGN * _PART_ALIGN
        _range(g[lo:hi], f[lo:hi], out[lo:hi], p, streaming)
    return 0


# numba's "workqueue" threading layer (used where no OpenMP/TBB is found) aborts on concurrent
# parallel launches; one launch at a time is also all the cores there are. Reentrant: a finalizer
# that the collector runs on this thread before the launch starts may launch first (it cannot run
# inside a launch: compiled code allocates no Python object).
launch_lock = threading.RLock()


# A broadcast along leading axes: out (n elements) = select(g, f) where the operand flagged as
# periodic holds only `row` elements, repeated over out (row divides n; the other operand holds
# all n). ReluGrad's and the int32 loop take rows as slices of the flat loops; the plain select
# (the common case) indexes them directly, one loop per periodic operand (each must vectorise
# on its own: a select between the two inside one loop would not).
@_inner
def _rows_plain(g, f, out, p, f_period, r0, r1):
    """_rows for the plain select, indexed without slices: a slice per row costs a reference
    count round trip, and unsigned indices let LLVM drop the negative-index wrap-around and
    vectorise (1024 rows of 256: 3x the sliced rows)."""
    lo1, hi1, lo2, hi2, fill = p[LO1], p[HI1], p[LO2], p[HI2], p[FILL]
    if f_period:
        row = f.shape[0]
        for r in range(r0, r1):
            base = np.uint64(r * row)
            for j in range(row):
                k = base + np.uint64(j)
                u = f[j]
                gi = g[k]
                out[k] = gi if ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2)) else fill
    else:
        row = g.shape[0]
        for r in range(r0, r1):
            base = np.uint64(r * row)
            for j in range(row):
                k = base + np.uint64(j)
                u = f[k]
                gi = g[j]
                out[k] = gi if ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2)) else fill


@_inner
def _rows(g, f, out, p, g_period, f_period, r0, r1):
    if p[MODE] == PLAIN:
        _rows_plain(g, f, out, p, f_period, r0, r1)
        return
    row = g.shape[0] if g_period else f.shape[0]
    for r in range(r0, r1):
        lo, hi = r * row, (r + 1) * row
        _range(g if g_period else g[lo:hi], f if f_period else f[lo:hi], out[lo:hi], p, False)


@_cached
@numba.njit(**_OPTIONS)
def run_periodic(g, f, out, p, g_period, f_period):
    g, f, out = _as_bits(g), _as_bits(f), _as_bits(out)
    row = g.shape[0] if g_period else f.shape[0]
    _rows(g, f, out, p, g_period, f_period, 0, out.shape[0] // row)
    return 0


@_cached
@numba.njit(parallel=True, **_OPTIONS)
def run_periodic_parallel(g, f, out, p, g_period, f_period, parts):
    g, f, out = _as_bits(g), _as_bits(f), _as_bits(out)
    rows = out.shape[0] // (g.shape[0] if g_period else f.shape[0])
    for k in numba.prange(parts):
        _rows(g, f, out, p, g_period, f_period, rows * k // parts, rows * (k + 1) // parts)
    return 0


_ENTRIES: dict = {}  # dtype -> run()'s compiled entry point for its arrays; filled once per dtype


def serial_entry(dtype: np.dtype):
    """run(), compiled for 1-D C-contiguous aligned arrays of `dtype` (and our read-only parameter
    array), as the bare compiled entry point: calling it skips the dispatcher's per-call typing of
    five arguments (~0.2 us of a 0.5 us call). Only for arrays of exactly that type; unlike the
    dispatcher the entry point does not check layout or alignment, so the caller must."""
    entry = _ENTRIES.get(dtype)
    if entry is None:
        array = types.Array(numba.from_dtype(dtype), 1, "C")
        params = types.Array(numba.from_dtype(np.dtype(f"u{dtype.itemsize}")), 1, "C", readonly=True)
        entry = _ENTRIES[dtype] = run.compile((array, array, array, params, types.boolean))  # numba's lock
    return entry


_PARALLEL_ENTRIES: dict = {}  # dtype -> run_parallel()'s compiled entry point, as _ENTRIES


def parallel_entry(dtype: np.dtype):
    """run_parallel(), compiled for the same arrays as serial_entry() (the caller checks them)."""
    entry = _PARALLEL_ENTRIES.get(dtype)
    if entry is None:
        array = types.Array(numba.from_dtype(dtype), 1, "C")
        params = types.Array(numba.from_dtype(np.dtype(f"u{dtype.itemsize}")), 1, "C", readonly=True)
        entry = _PARALLEL_ENTRIES[dtype] = run_parallel.compile((array, array, array, params, types.intp,
                                                                 types.boolean))
    return entry


def max_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


# Mixed dtypes under torch's promotion (say float16 grad with float32 feature): both operands are
# cast to the result type on the fly, element by element, instead of being staged into
# buffers by numpy casts. float16 and bfloat16 arrive as their uint16 bits, with a kind:
HALF_BITS, BFLOAT_BITS = 1, 2  # (0: a numba-native dtype, read as it is)


@intrinsic
def _half_to_float(typingctx, h):
    """float16 bits -> float32, exactly as numpy converts: a NaN keeps its payload and stays
    signalling (the CPU's vcvtph2ps would quiet it). Straight-line 32-bit IR (selects, one exact
    float subtraction for subnormals) so that the loop vectorises; numba's own integer arithmetic
    would widen to 64 bits."""
    if not (isinstance(h, types.Integer) and h.bitwidth == 16):
        return None

    def codegen(context, builder, signature, args):
        i32, f32 = ir.IntType(32), ir.FloatType()

        def c(v):
            return ir.Constant(i32, v)

        x = builder.zext(args[0], i32)
        u = builder.shl(builder.and_(x, c(0x7FFF)), c(13))     # exponent and mantissa, float32-aligned
        exponent = builder.and_(u, c(0x7C00 << 13))
        normal = builder.add(u, c((127 - 15) << 23))           # rebias
        special = builder.add(normal, c((128 - 16) << 23))     # inf/NaN: all-ones exponent, payload kept
        # zero/subnormal: as a float32 with exponent 113 its value is 2**-14 too much, exactly
        sub_value = builder.fsub(builder.bitcast(builder.add(normal, c(1 << 23)), f32), ir.Constant(f32, 2.0 ** -14))
        subnormal = builder.bitcast(sub_value, i32)
        magnitude = builder.select(builder.icmp_unsigned("==", exponent, c(0x7C00 << 13)), special,
                                   builder.select(builder.icmp_unsigned("==", exponent, c(0)), subnormal, normal))
        sign = builder.shl(builder.and_(x, c(0x8000)), c(16))
        return builder.bitcast(builder.or_(magnitude, sign), f32)

    return types.float32(h), codegen


@intrinsic
def _bfloat_to_float(typingctx, u):
    """bfloat16 bits -> float32: the bits are float32's upper half."""
    if not (isinstance(u, types.Integer) and u.bitwidth == 16):
        return None

    def codegen(context, builder, signature, args):
        wide = builder.shl(builder.zext(args[0], ir.IntType(32)), ir.Constant(ir.IntType(32), 16))
        return builder.bitcast(wide, ir.FloatType())

    return types.float32(u), codegen


def _read(a, i, kind):
    """a[i] as a number (in compiled code only)."""
    raise NotImplementedError


@overload(_read)
def _read_overload(a, i, kind):
    if isinstance(a.dtype, types.Integer) and a.dtype.bitwidth == 16 and not a.dtype.signed:
        def read_16(a, i, kind):
            u = a[i]
            if kind == HALF_BITS:
                return _half_to_float(u)
            if kind == BFLOAT_BITS:
                return _bfloat_to_float(u)
            return np.float32(u)  # a real uint16 (exact in float32)
        return read_16
    return lambda a, i, kind: a[i]


@_inner
def _mixed_range(g, f, out, threshold, g_kind, f_kind):
    zero = out.dtype.type(0)
    for i in range(out.shape[0]):
        fc = out.dtype.type(_read(f, i, f_kind))
        gc = out.dtype.type(_read(g, i, g_kind))
        out[i] = zero if fc <= threshold else gc


@_cached
@numba.njit(parallel=True, **_OPTIONS)
def run_mixed(g, f, out, threshold, g_kind, f_kind, parts):
    """torch's rule over operands of other dtypes than out's, cast to it on the fly (threshold in
    out's type); `parts` contiguous parts on numba's threads (1: the calling thread only).
    1 (nothing written) if out overlaps an input unsafely."""
    if _clobbers(g, out) or _clobbers(f, out):
        return 1
    n = out.shape[0]
    if parts <= 1:
        _mixed_range(g, f, out, threshold, g_kind, f_kind)
        return 0
    for k in numba.prange(parts):
        lo = (n * k // parts) // _PART_ALIGN * _PART_ALIGN
        hi = n if k == parts - 1 else (n * (k + 1) // parts) // _PART_ALIGN * _PART_ALIGN
        _mixed_range(g[lo:hi], f[lo:hi], out[lo:hi], threshold, g_kind, f_kind)
    return 0


# Two-dimensional operands of any strides (transposed views, strided slices, stride-0 broadcasts)
# and any out: walked in square blocks so that row-major and column-major sides both stay in
# cache, one element at a time (strided loads do not vectorise anyway).
_BLOCK_2D = 64


@_inner
def _one(out, i, j, u, gi, mode, lo1, hi1, lo2, hi2, fill, sign, exponent, quiet):
    """out[i, j] = one element of the `mode` loop (_plain, _relu_float, _int32_via_float32) on raw
    bits. Each branch stores its own value: numba would unify their types (uint32 with int32 to
    int64, with uint64 to float64) and lose bits."""
    keep = ((u >= lo1) & (u <= hi1)) | ((u >= lo2) & (u <= hi2))
    if keep and mode == RELU and (gi & exponent) == exponent and (gi | sign) != (exponent | sign):
        out[i, j] = gi | quiet  # a signalling NaN grad times 1 comes out quiet
    elif keep and mode != VIA_FLOAT32:
        out[i, j] = gi
    elif not keep and mode != RELU:
        out[i, j] = fill  # the plain fill, or int32's 0
    elif mode == RELU:
        out[i, j] = (gi | quiet) if (gi & exponent) == exponent else (gi & sign)
    else:
        v = np.float32(np.int32(gi))  # the int32 -> float32 cast (RNE) and back, saturating
        out[i, j] = np.int32(2147483647) if v >= np.float32(2147483648.0) else np.int32(v)


@_inner
def _blocks_2d(g, f, out, p, b0, b1):
    rows, cols = out.shape
    mode, lo1, hi1, lo2, hi2, fill = p[MODE], p[LO1], p[HI1], p[LO2], p[HI2], p[FILL]
    sign, exponent, quiet = p[SIGN], p[EXPONENT], p[QUIET]
    for b in range(b0, b1):
        i0 = b * _BLOCK_2D
        i1 = min(i0 + _BLOCK_2D, rows)
        for j0 in range(0, cols, _BLOCK_2D):
            j1 = min(j0 + _BLOCK_2D, cols)
            for i in range(i0, i1):
                for j in range(j0, j1):
                    _one(out, i, j, f[i, j], g[i, j], mode, lo1, hi1, lo2, hi2, fill, sign, exponent, quiet)


@_cached
@numba.njit(parallel=True, **_OPTIONS)
def run_2d(g, f, out, p, parts):
    """select(g, f) into out, all (rows, cols) of the same unsigned width and any strides; row blocks
    over `parts` of numba's threads (1: the calling thread). The caller rules out overlaps."""
    blocks = (out.shape[0] + _BLOCK_2D - 1) // _BLOCK_2D
    if parts <= 1:
        _blocks_2d(g, f, out, p, 0, blocks)
        return 0
    for k in numba.prange(parts):
        _blocks_2d(g, f, out, p, blocks * k // parts, blocks * (k + 1) // parts)
    return 0
