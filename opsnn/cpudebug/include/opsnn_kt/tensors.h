/* opsnn CPU-debug runtime: AscendC's memory model on the host -- GlobalTensor (a typed GM
 * window), LocalTensor (a typed UB window), TPipe / TQue / TBuf (UB carved into buffers), events.
 * The objects are handles: the bytes, the buffer states and the sanitizer live in opsnn's Python
 * emulator (opsnn/ascendc), reached through opsnn_kt::Call. */
#ifndef OPSNN_KT_TENSORS_H_
#define OPSNN_KT_TENSORS_H_

#include <cstdint>
#include <type_traits>

#include "opsnn_kt/call.h"

enum event_t : int32_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {

enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM, TSCM, C2PIPE2GM, MAX };
using QuePosition = TPosition;

inline const char *EnumName(TPosition p) {
    switch (p) {
        case TPosition::GM: return "TPosition.GM";
        case TPosition::A1: return "TPosition.A1";
        case TPosition::A2: return "TPosition.A2";
        case TPosition::B1: return "TPosition.B1";
        case TPosition::B2: return "TPosition.B2";
        case TPosition::C1: return "TPosition.C1";
        case TPosition::C2: return "TPosition.C2";
        case TPosition::CO1: return "TPosition.CO1";
        case TPosition::CO2: return "TPosition.CO2";
        case TPosition::VECIN: return "TPosition.VECIN";
        case TPosition::VECOUT: return "TPosition.VECOUT";
        case TPosition::VECCALC: return "TPosition.VECCALC";
        case TPosition::SPM: return "TPosition.SPM";
        case TPosition::SHM: return "TPosition.SHM";
        case TPosition::TSCM: return "TPosition.TSCM";
        default: return "TPosition.other";
    }
}

template <typename T> class LocalTensor;
struct int4b_t;  // two to a byte (type_utils.h): an offset of n of them is n / 2 bytes

}  // namespace AscendC

namespace opsnn_kt {
/* the bytes n elements of T take (int4b_t: half a byte each; n must be even, as AscendC asserts) */
template <typename T> constexpr int64_t ElementBytes(uint64_t n) {
    if constexpr (std::is_same_v<T, AscendC::int4b_t>) return static_cast<int64_t>(n / 2);
    else return static_cast<int64_t>(n) * static_cast<int64_t>(sizeof(T));
}

/* tensor(i) of a LocalTensor or GlobalTensor: a proxy that reads the element on conversion and
 * writes it on assignment, through the tensor's GetValue / SetValue (device code gets a reference). */
template <typename Tensor, typename T, typename Index>
class ElementRef {
public:
    ElementRef(const Tensor &t, Index i) : t_(t), i_(i) {}
    /* reads like the element: as T, or converted on to any arithmetic type (half -> float) */
    template <typename U, typename = std::enable_if_t<std::is_same_v<U, T> || std::is_arithmetic_v<U>>>
    operator U() const { return static_cast<U>(t_.GetValue(i_)); }  // NOLINT
    ElementRef &operator=(const T &v) { t_.SetValue(i_, v); return *this; }
    ElementRef &operator=(const ElementRef &o) { t_.SetValue(i_, o.template operator T()); return *this; }
    T operator-() const { return -(this->template operator T()); }
    /* arithmetic and comparison as on the element's value (a conversion template alone leaves
     * `ref * 2.0f` ambiguous among the built-in operators) */
#define OPSNN_KT_ELEMENT_OP(op)                                                                                   \
    template <typename U, typename = std::enable_if_t<std::is_same_v<U, T> || std::is_arithmetic_v<U>>>           \
    friend auto operator op(const ElementRef &a, const U &b) { return a.template operator T() op b; }             \
    template <typename U, typename = std::enable_if_t<std::is_same_v<U, T> || std::is_arithmetic_v<U>>>           \
    friend auto operator op(const U &a, const ElementRef &b) { return a op b.template operator T(); }             \
    friend auto operator op(const ElementRef &a, const ElementRef &b) {                                           \
        return a.template operator T() op b.template operator T();                                                \
    }
    OPSNN_KT_ELEMENT_OP(+) OPSNN_KT_ELEMENT_OP(-) OPSNN_KT_ELEMENT_OP(*) OPSNN_KT_ELEMENT_OP(/)
    OPSNN_KT_ELEMENT_OP(<) OPSNN_KT_ELEMENT_OP(>) OPSNN_KT_ELEMENT_OP(<=) OPSNN_KT_ELEMENT_OP(>=)
    OPSNN_KT_ELEMENT_OP(==) OPSNN_KT_ELEMENT_OP(!=)
#undef OPSNN_KT_ELEMENT_OP
#define OPSNN_KT_ELEMENT_ASSIGN(op)                                                                               \
    template <typename U, typename = std::enable_if_t<std::is_same_v<U, T> || std::is_arithmetic_v<U>>>           \
    ElementRef &operator op##=(const U &v) {                                                                      \
        t_.SetValue(i_, static_cast<T>(this->template operator T() op v));                                        \
        return *this;                                                                                             \
    }                                                                                                             \
    template <typename U, typename = std::enable_if_t<std::is_same_v<U, T> || std::is_arithmetic_v<U>>>           \
    friend U &operator op##=(U &a, const ElementRef &b) { return a op##= b.template operator T(); }
    OPSNN_KT_ELEMENT_ASSIGN(+) OPSNN_KT_ELEMENT_ASSIGN(-) OPSNN_KT_ELEMENT_ASSIGN(*) OPSNN_KT_ELEMENT_ASSIGN(/)
#undef OPSNN_KT_ELEMENT_ASSIGN
private:
    Tensor t_;
    Index i_;
};
}  // namespace opsnn_kt

namespace AscendC {

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    __aicore__ inline GlobalTensor() = default;
    __aicore__ inline void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize) {
        address_ = origin_ = buffer;
        size_ = bufferSize;
    }
    __aicore__ inline void SetGlobalBuffer(__gm__ T *buffer) { SetGlobalBuffer(buffer, 0); }
    __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor sub = *this;
        sub.address_ = GetPhyAddr(offset);
        sub.size_ = size_ > offset ? size_ - offset : 0;
        return sub;
    }
    __aicore__ inline __gm__ T *GetPhyAddr() const { return address_; }
    __aicore__ inline __gm__ T *GetPhyAddr(uint64_t offset) const {
        return reinterpret_cast<__gm__ T *>(reinterpret_cast<__gm__ uint8_t *>(address_) +
                                            opsnn_kt::ElementBytes<T>(offset));
    }
    __aicore__ inline uint64_t GetSize() const { return size_; }
    __aicore__ inline T GetValue(uint64_t offset, OPSNN_KT_WHERE) const {
        return opsnn_kt::FromBits<T>(opsnn_kt::Call("GlobalTensor.GetValue", OPSNN_KT_AT, *this, offset));
    }
    __aicore__ inline void SetValue(uint64_t offset, T value, OPSNN_KT_WHERE) const {
        opsnn_kt::Call("GlobalTensor.SetValue", OPSNN_KT_AT, *this, offset, value);
    }
    /* A cache hint on device; the emulator has no cache. */
    template <typename Mode> __aicore__ inline void SetL2CacheHint(Mode) {}
    /* tensor(i): the GM element as a scalar (a proxy, as LocalTensor's) */
    using ElementRef = opsnn_kt::ElementRef<GlobalTensor, T, uint64_t>;
    __aicore__ inline ElementRef operator()(uint64_t offset) const { return ElementRef(*this, offset); }

    __gm__ T *address_ = nullptr;  // where this window starts
    __gm__ T *origin_ = nullptr;   // what SetGlobalBuffer was given: names the kernel argument
    uint64_t size_ = 0;
};

template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    __aicore__ inline LocalTensor() = default;
    LocalTensor(int64_t buffer, int64_t offset) : buffer_(buffer), offset_(offset) {}
    /* AscendC's tensor over UB the kernel lays out itself: tileSize elements from byte address addr
     * (no TPipe placed them; the emulator gives the span a buffer of its own, pipe.local_tensor_at) */
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, OPSNN_KT_WHERE)
        : buffer_(opsnn_kt::Call("LocalTensor.At", OPSNN_KT_AT, pos, addr, opsnn_kt::ElementBytes<T>(tileSize))),
          offset_(0), size_(static_cast<int64_t>(tileSize)) {}
    __aicore__ inline LocalTensor operator[](uint32_t offset) const {
        return LocalTensor(buffer_, offset_ + opsnn_kt::ElementBytes<T>(offset));
    }
    template <typename U> __aicore__ inline LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(buffer_, offset_);
    }
    __aicore__ inline T GetValue(uint32_t index, OPSNN_KT_WHERE) const {
        return opsnn_kt::FromBits<T>(opsnn_kt::Call("LocalTensor.GetValue", OPSNN_KT_AT, *this, index));
    }
    template <typename U> __aicore__ inline void SetValue(uint32_t index, U value, OPSNN_KT_WHERE) const {
        opsnn_kt::Call("LocalTensor.SetValue", OPSNN_KT_AT, *this, index, static_cast<T>(value));
    }
    /* tensor(i): element i as a scalar, read and written through the emulator (device code gets
     * a UB reference; here a proxy that reads on conversion and writes on assignment). */
    using ElementRef = opsnn_kt::ElementRef<LocalTensor, T, uint32_t>;
    __aicore__ inline ElementRef operator()(uint32_t index) const { return ElementRef(*this, index); }
    /* Elements from here to the end of the buffer, or what SetSize set. */
    __aicore__ inline uint32_t GetSize(OPSNN_KT_WHERE) const {
        if (size_ >= 0) return static_cast<uint32_t>(size_);
        return static_cast<uint32_t>(opsnn_kt::Call("LocalTensor.GetSize", OPSNN_KT_AT, *this));
    }
    /* The tensor's length in elements as GetSize (and the high-level APIs without a count) see it;
     * it moves and checks nothing: accesses are judged against the buffer. */
    __aicore__ inline void SetSize(const uint32_t size) { size_ = static_cast<int64_t>(size); }
    __aicore__ inline uint32_t GetLength(OPSNN_KT_WHERE) const { return GetSize(OPSNN_KT_AT) * sizeof(T); }
    /* The UB address as a pointer-sized value: never null, it names the core, the buffer and the
     * offset (bridge.py), so a `__local_mem__ T*` made from it keeps its buffer through pointer
     * arithmetic. Never dereference it on the host. */
    __aicore__ inline uint64_t GetPhyAddr(OPSNN_KT_WHERE) const {
        return static_cast<uint64_t>(opsnn_kt::Call("LocalTensor.GetPhyAddr", OPSNN_KT_AT, *this));
    }
    /* any integer offset (a template, so `GetPhyAddr(0)` is not taken for the source-location form) */
    template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
    __aicore__ inline uint64_t GetPhyAddr(I offset, OPSNN_KT_WHERE) const {
        return GetPhyAddr(OPSNN_KT_AT) + static_cast<uint64_t>(opsnn_kt::ElementBytes<T>(offset));
    }

    int64_t buffer_ = -1;  // the emulator's handle of the UB buffer; -1: an empty tensor
    int64_t offset_ = 0;   // bytes from the buffer's start
    int64_t size_ = -1;    // SetSize's length in elements; -1: to the end of the buffer
};

/* Where a LocalMemAllocator places its tensors. Only UB is emulated. */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

/* Static-tensor programming's allocator: tensors one after another from UB 0 (no static arrays
 * are modelled, so the dynamic area starts there), unaligned, as AscendC places them; each is a
 * LocalTensor(pos, address, tileSize), judged by the sanitizer as any. */
template <Hardware hard = Hardware::UB> class LocalMemAllocator {
    static_assert(hard == Hardware::UB, "LocalMemAllocator: only UB is emulated (cube buffers are not)");

public:
    __aicore__ inline uint32_t GetCurAddr() const { return head_; }
    template <class DataType, uint32_t tileSize> __aicore__ inline LocalTensor<DataType> Alloc() {
        return Alloc<TPosition::VECCALC, DataType>(tileSize);
    }
    template <TPosition pos, class DataType, uint32_t tileSize> __aicore__ inline LocalTensor<DataType> Alloc() {
        return Alloc<pos, DataType>(tileSize);
    }
    template <class DataType> __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
        return Alloc<TPosition::VECCALC, DataType>(tileSize);
    }
    template <TPosition pos, class DataType> __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
        LocalTensor<DataType> made(pos, head_, tileSize);
        head_ += static_cast<uint32_t>(opsnn_kt::ElementBytes<DataType>(tileSize));
        return made;
    }

private:
    uint32_t head_ = 0;
};

}  // namespace AscendC

namespace opsnn_kt {

template <typename T> inline void Pack(Slot &s, const AscendC::LocalTensor<T> &t) {
    s.arg = {OPSNN_KT_LOCAL, DTypeOf<T>(), t.buffer_, t.offset_, nullptr};
}
template <typename T> inline void Pack(Slot &s, const AscendC::GlobalTensor<T> &t) {
    s.arg = {OPSNN_KT_GLOBAL, DTypeOf<T>(), reinterpret_cast<int64_t>(t.address_), reinterpret_cast<int64_t>(t.origin_),
             nullptr};
}

}  // namespace opsnn_kt

namespace AscendC {

enum class HardEvent : int32_t { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M,
                                 V_V, MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_M,
                                 M_MTE3, MTE2_MTE3, MTE3_MTE2, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX,
                                 FIX_MTE2, FIX_S, S_FIX, M_S, S_M, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX };

inline const char *EnumName(HardEvent e) {
    static const char *const names[] = {
        "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V",
        "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_M", "M_MTE3",
        "MTE2_MTE3", "MTE3_MTE2", "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2",
        "FIX_S", "S_FIX", "M_S", "S_M", "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX", "MAX"};
    static thread_local char text[32];
    int i = static_cast<int>(e);
    std::strcpy(text, "HardEvent.");
    std::strcat(text, (i >= 0 && i <= static_cast<int>(HardEvent::MAX)) ? names[i] : "MAX");
    return text;
}

using TEventID = int8_t;

template <TPosition pos, int32_t depth, auto mask = 0> class TQue;
template <TPosition pos> class TBuf;

/* A TQue's configuration (its third template argument may point at one): the emulator's queues
 * place and check buffers the same whatever it says. */
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

template <TPosition pos, uint32_t bufIDSize = 4> class TBufPool;
/* a queue buffer's handle, as the untyped DeQue returns it */
using TBufHandle = int64_t;

class TPipe {
public:
    __aicore__ inline TPipe();
    __aicore__ inline ~TPipe();
    template <TPosition pos, int32_t depth, auto mask>
    __aicore__ inline bool InitBuffer(TQue<pos, depth, mask> &que, uint8_t num, uint32_t len, OPSNN_KT_WHERE);
    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos> &buf, uint32_t len, OPSNN_KT_WHERE);
    template <HardEvent evt> __aicore__ inline TEventID FetchEventID(OPSNN_KT_WHERE) {
        return static_cast<TEventID>(opsnn_kt::Call("TPipe.FetchEventID", OPSNN_KT_AT, Handle(OPSNN_KT_AT), evt));
    }
    __aicore__ inline TEventID FetchEventID(HardEvent evt, OPSNN_KT_WHERE) {
        return static_cast<TEventID>(opsnn_kt::Call("TPipe.FetchEventID", OPSNN_KT_AT, Handle(OPSNN_KT_AT), evt));
    }
    template <HardEvent evt> __aicore__ inline TEventID AllocEventID(OPSNN_KT_WHERE) {
        return static_cast<TEventID>(opsnn_kt::Call("TPipe.AllocEventID", OPSNN_KT_AT, Handle(OPSNN_KT_AT), evt));
    }
    template <HardEvent evt> __aicore__ inline void ReleaseEventID(TEventID id, OPSNN_KT_WHERE) {
        opsnn_kt::Call("TPipe.ReleaseEventID", OPSNN_KT_AT, Handle(OPSNN_KT_AT), evt, id);
    }
    /* UB for a TBufPool, whose own InitBuffer places buffers inside it (pipe.TBufPool) */
    template <TPosition pos, uint32_t bufIDSize>
    __aicore__ inline bool InitBufPool(TBufPool<pos, bufIDSize> &pool, uint32_t len, OPSNN_KT_WHERE);
    /* Frees the pipe's buffers on device; here: the buffers stay until the core ends. */
    __aicore__ inline void Destroy() {}
    /* The next InitBuffer places from UB 0 again (the buffers placed so far are given up). */
    __aicore__ inline void Reset(OPSNN_KT_WHERE) { opsnn_kt::Call("TPipe.Reset", OPSNN_KT_AT, Handle(OPSNN_KT_AT)); }

    opsnn_kt::Handle Handle(const char *file, int line) {
        if (handle_ < 0) handle_ = opsnn_kt::Call("TPipe.new", file, line);
        return opsnn_kt::Handle{handle_};
    }
    int64_t handle_ = -1;
};

namespace detail {
inline TPipe *&CurrentPipe() {
    static thread_local TPipe *pipe = nullptr;
    return pipe;
}
}  // namespace detail

inline TPipe::TPipe() { detail::CurrentPipe() = this; }
inline TPipe::~TPipe() {
    if (detail::CurrentPipe() == this) detail::CurrentPipe() = nullptr;
}


template <TPosition pos, int32_t depth, auto mask>
class TQue {
public:
    __aicore__ inline TQue() = default;
    template <typename T> __aicore__ inline LocalTensor<T> AllocTensor(OPSNN_KT_WHERE) {
        return Tensor<T>(opsnn_kt::Call("TQue.AllocTensor", OPSNN_KT_AT, Self()));
    }
    template <typename T> __aicore__ inline bool EnQue(const LocalTensor<T> &t, OPSNN_KT_WHERE) {
        opsnn_kt::Call("TQue.EnQue", OPSNN_KT_AT, Self(), t);
        return true;
    }
    template <typename T> __aicore__ inline LocalTensor<T> DeQue(OPSNN_KT_WHERE) {
        return Tensor<T>(opsnn_kt::Call("TQue.DeQue", OPSNN_KT_AT, Self()));
    }
    /* the untyped DeQue: the buffer's handle (kernels call it for the queue's state change alone) */
    __aicore__ inline TBufHandle DeQue(OPSNN_KT_WHERE) {
        return static_cast<TBufHandle>(opsnn_kt::Call("TQue.DeQue", OPSNN_KT_AT, Self()));
    }
    /* TQueBind's forms naming the user positions a tensor moves between: the same queue here. */
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T> &t, OPSNN_KT_WHERE) {
        opsnn_kt::Call("TQue.EnQue", OPSNN_KT_AT, Self(), t);
        return true;
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ inline LocalTensor<T> DeQue(OPSNN_KT_WHERE) {
        return Tensor<T>(opsnn_kt::Call("TQue.DeQue", OPSNN_KT_AT, Self()));
    }
    template <typename T> __aicore__ inline void FreeTensor(const LocalTensor<T> &t, OPSNN_KT_WHERE) {
        opsnn_kt::Call("TQue.FreeTensor", OPSNN_KT_AT, Self(), t);
    }
    __aicore__ inline bool VacantInQue(OPSNN_KT_WHERE) {
        return opsnn_kt::Call("TQue.VacantInQue", OPSNN_KT_AT, Self()) != 0;
    }
    __aicore__ inline bool HasTensorInQue(OPSNN_KT_WHERE) {
        return opsnn_kt::Call("TQue.HasTensorInQue", OPSNN_KT_AT, Self()) != 0;
    }
    __aicore__ inline int32_t GetTensorCountInQue(OPSNN_KT_WHERE) {
        return static_cast<int32_t>(opsnn_kt::Call("TQue.GetTensorCountInQue", OPSNN_KT_AT, Self()));
    }
    /* Waits for the queue's outstanding events on device; the emulator runs stages in order. */
    __aicore__ inline void FreeAllEvent() {}

    opsnn_kt::Handle Self() const { return opsnn_kt::Handle{handle_}; }
    template <typename T> static LocalTensor<T> Tensor(int64_t packed) {
        return LocalTensor<T>(packed, 0);  // the bridge's handle names the buffer; offset 0
    }
    int64_t handle_ = -1;
    int32_t bindDst_ = -1;  // TQueBind's dst position; -1: a plain TQue
};

/* TQueBind<src, dst, depth>: a queue whose tensors move from src to dst (VECIN -> VECOUT: a buffer
 * read in and written out in place). TQue<pos, depth> is its src == dst case; here it is that
 * queue, its buffers placed as src's. */
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public TQue<src, depth, mask> {
public:
    __aicore__ inline TQueBind() { this->bindDst_ = static_cast<int32_t>(dst); }
};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    __aicore__ inline TBuf() = default;
    template <typename T> __aicore__ inline LocalTensor<T> Get(OPSNN_KT_WHERE) {
        return LocalTensor<T>(opsnn_kt::Call("TBuf.Get", OPSNN_KT_AT, opsnn_kt::Handle{handle_}), 0);
    }
    template <typename T> __aicore__ inline LocalTensor<T> Get(uint32_t len, OPSNN_KT_WHERE) {
        return LocalTensor<T>(opsnn_kt::Call("TBuf.Get", OPSNN_KT_AT, opsnn_kt::Handle{handle_}, len), 0);
    }
    template <typename T> __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset,
                                                                         OPSNN_KT_WHERE) {
        LocalTensor<uint8_t> whole =
            LocalTensor<uint8_t>(opsnn_kt::Call("TBuf.Get", OPSNN_KT_AT, opsnn_kt::Handle{handle_}), 0);
        LocalTensor<T> part = whole[bufOffset].template ReinterpretCast<T>();
        part.SetSize(size);  // `size` elements at the offset: what a count-less API then covers
        return part;
    }
    template <typename T> __aicore__ inline LocalTensor<T> AllocTensor(OPSNN_KT_WHERE) {
        return Get<T>(OPSNN_KT_AT);
    }
    template <typename T> __aicore__ inline void FreeTensor(const LocalTensor<T> &) {}
    int64_t handle_ = -1;
};

namespace detail {
/* InitBuffer on `owner`, a TPipe or a TBufPool: the emulator places the buffers (pipe.py) */
template <TPosition pos, int32_t depth, auto mask>
inline void InitQue(opsnn_kt::Handle owner, TQue<pos, depth, mask> &que, uint8_t num, uint32_t len,
                    const char *kt_file_, int kt_line_) {
    if (que.bindDst_ < 0) {
        que.handle_ = opsnn_kt::Call("TPipe.InitBuffer", OPSNN_KT_AT, owner, pos, static_cast<int32_t>(depth),
                                     static_cast<int32_t>(num), len);
    } else {
        que.handle_ = opsnn_kt::Call("TPipe.InitBuffer", OPSNN_KT_AT, owner, pos, static_cast<int32_t>(depth),
                                     static_cast<int32_t>(num), len, static_cast<TPosition>(que.bindDst_));
    }
}
template <TPosition pos>
inline void InitBuf(opsnn_kt::Handle owner, TBuf<pos> &buf, uint32_t len, const char *kt_file_, int kt_line_) {
    buf.handle_ = opsnn_kt::Call("TPipe.InitBuffer", OPSNN_KT_AT, owner, pos, static_cast<int32_t>(0),
                                 static_cast<int32_t>(1), len);
}
}  // namespace detail

template <TPosition pos, int32_t depth, auto mask>
__aicore__ inline bool TPipe::InitBuffer(TQue<pos, depth, mask> &que, uint8_t num, uint32_t len, const char *kt_file_,
                                         int kt_line_) {
    detail::InitQue(Handle(OPSNN_KT_AT), que, num, len, OPSNN_KT_AT);
    return true;
}

template <TPosition pos>
__aicore__ inline bool TPipe::InitBuffer(TBuf<pos> &buf, uint32_t len, const char *kt_file_, int kt_line_) {
    detail::InitBuf(Handle(OPSNN_KT_AT), buf, len, OPSNN_KT_AT);
    return true;
}

template <TPosition pos, uint32_t bufIDSize> class TBufPool {
public:
    __aicore__ inline TBufPool() = default;
    template <TPosition qpos, int32_t depth, auto mask>
    __aicore__ inline bool InitBuffer(TQue<qpos, depth, mask> &que, uint8_t num, uint32_t len, OPSNN_KT_WHERE) {
        detail::InitQue(Handle(OPSNN_KT_AT), que, num, len, OPSNN_KT_AT);
        return true;
    }
    template <TPosition bpos> __aicore__ inline bool InitBuffer(TBuf<bpos> &buf, uint32_t len, OPSNN_KT_WHERE) {
        detail::InitBuf(Handle(OPSNN_KT_AT), buf, len, OPSNN_KT_AT);
        return true;
    }
    /* the next InitBuffer places its buffers from the pool's start again */
    __aicore__ inline void Reset(OPSNN_KT_WHERE) { opsnn_kt::Call("TBufPool.Reset", OPSNN_KT_AT, Handle(OPSNN_KT_AT)); }
    opsnn_kt::Handle Handle(const char *file, int line) const {
        if (handle_ < 0) opsnn_kt_fail("a TBufPool used before TPipe::InitBufPool", file, line);
        return opsnn_kt::Handle{handle_};
    }
    int64_t handle_ = -1;
};

template <TPosition pos, uint32_t bufIDSize>
__aicore__ inline bool TPipe::InitBufPool(TBufPool<pos, bufIDSize> &pool, uint32_t len, const char *kt_file_,
                                          int kt_line_) {
    pool.handle_ = opsnn_kt::Call("TPipe.InitBufPool", OPSNN_KT_AT, Handle(OPSNN_KT_AT), pos, len);
    return true;
}

}  // namespace AscendC

/* The TPipe the kernel constructed last (AscendC keeps one per core). A global function, as in
 * CANN (kernels call it with and without `using namespace AscendC`). */
__aicore__ inline AscendC::TPipe *GetTPipePtr() { return AscendC::detail::CurrentPipe(); }

#endif  // OPSNN_KT_TENSORS_H_
