/* opsnn's atvoss: what every schedule does with a DAG on one core -- its GM arguments, its UB
 * tiles, its scalars -- and one tile's run of the FunList. The schedules (elewise/, broadcast/)
 * differ only in how they split the elements over cores and tiles and in how a broadcast input
 * comes in; that is theirs, the rest is here.
 *
 * UB: one TBuf per buffer of the DAG's plan (DAGSch::BufferSlots), each `tile elements *
 * MaxDtypeBytes` bytes (rounded up to whole 256-byte registers, InitBuffers): the same UB as one
 * TBuf of BufferNum slots, with every tile judged by the sanitizer against its own slot (an op
 * writing past its tile is local_tensor_overflow, not a silent write into its neighbour).
 *
 * A node's operands, in its Bind's order: a tensor node's tile (ping or pong), a scalar op's
 * value, a Var's value, an input placeholder's element 0 read from GM, a constant -- each as the
 * op's declared input type (FunInArgType). The op runs as `Op(dst, operands..., count)`. */
#ifndef OPSNN_ATVOSS_UTIL_DAG_RUNNER_H_
#define OPSNN_ATVOSS_UTIL_DAG_RUNNER_H_

#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "atvoss/util/dag.h"

namespace Ops {
namespace Base {
namespace opsnn_detail {

template <class T>
constexpr int64_t ElemBytesNum(int64_t elems) {  // bytes of `elems` elements (uint1_t: 8 per byte)
    if constexpr (std::is_same_v<T, uint1_t>) {
        return elems / 8;
    } else {
        return elems * static_cast<int64_t>(sizeof(T));
    }
}

template <class Dag>
class DagRunner {
public:
    using FunList = typename Dag::FunList;
    constexpr static int kNodes = static_cast<int>(FunList::Size);
    constexpr static int kInputs = static_cast<int>(Dag::InputSize);
    constexpr static int kOutputs = static_cast<int>(Dag::OutputSize);
    constexpr static int kBuffers = static_cast<int>(Dag::BufferNum);

    /* the kernel's GM_ADDRs: inputs by Pos, then outputs by Pos (upstream's Init order) */
    template <class... Args>
    __aicore__ inline void SetArgs(Args... args) {
        static_assert(sizeof...(Args) == kInputs + kOutputs,
                      "opsnn atvoss: Init takes one GM_ADDR per DAG input and output, inputs first");
        GM_ADDR all[] = {reinterpret_cast<GM_ADDR>(args)...};
        for (int k = 0; k < kInputs; ++k) inGm_[k] = all[k];
        for (int k = 0; k < kOutputs; ++k) outGm_[k] = all[kInputs + k];
    }

    /* where this core's elements start in every tensor input and output (scalar inputs: 0) */
    __aicore__ inline void SetBlockStart(int64_t elems) { blockStart_ = elems; }
    /* inputs (bit = Pos) read as one element and duplicated over the tile (one-dim broadcast) */
    __aicore__ inline void SetBroadcastInputs(int64_t mask) { brcMask_ = mask; }
    __aicore__ inline void SetDuplicateBroadcast(bool on) { dupBrc_ = on; }

    /* Each slot rounded up to whole vector registers: a register loop over a tile loads whole
     * registers, and on device a load past a slot's end reads the next slot of the schedule's one
     * buffer (its extra lanes masked off): legal, so no finding. A host tiling's slots are whole
     * registers already (ubFormer is aligned to 256 bytes of the narrowest type); a UT's hand-made
     * tile may not be. */
    __aicore__ inline void InitBuffers(TPipe *pipe, int64_t tileElems, bool brcCaches = false) {
        constexpr int64_t reg = 256;  // VECTOR_REG_WIDTH
        const uint32_t slot = static_cast<uint32_t>((tileElems * Dag::MaxDtypeBytes + reg - 1) / reg * reg);
        buffers_ = brcCaches ? Dag::BufferSlots.used + static_cast<int>(Dag::CopyBrcSize) : kBuffers;
        for (int k = 0; k < buffers_; ++k) {
            pipe->InitBuffer(bufs_[k], slot);
            tiles_[k] = bufs_[k].template Get<uint8_t>();
        }
    }

    /* The multi-dimension broadcast schedules' tile: the CopyInBrc inputs are gathered by NDDMA
     * with their strides (0 on a broadcast axis), or (ubBroadcast) their un-broadcast block copied
     * into a cache buffer and broadcast in UB. dims: the tile's shape (rank axes); per input Pos,
     * where its block starts and its strides over the tile's axes. */
    struct NdTile {
        bool on = false;
        bool ubBroadcast = false;
        int rank = 0;
        int64_t dims[8] = {};
        int64_t start[16] = {};
        int64_t strides[16][8] = {};
    };
    __aicore__ inline NdTile &Nd() { return nd_; }

    template <class U, int index>
    __aicore__ inline void SetVar(U value) {
        vars_.template Set<index>(value);
    }
    /* the Vars from a tiling's scalarData, packed in Var order */
    __aicore__ inline void SetVarsFrom(const char *scalarData) { SetVarsFromImpl<0>(scalarData, 0); }

    /* every FunList node over the `count` elements starting `offset` elements into this core's
     * block, in the tile of this parity */
    __aicore__ inline void RunTile(int64_t offset, int64_t count, int parity) { RunFrom<0>(offset, count, parity); }

private:
    template <int idx>
    __aicore__ inline void SetVarsFromImpl(const char *data, int at) {
        if constexpr (idx < static_cast<int>(Dag::VarSize)) {
            using V = typename Dag::Vars::template At<idx>;
            typename V::DType value;
            std::memcpy(&value, data + at, sizeof(value));
            vars_.template Set<V::Pos>(value);
            SetVarsFromImpl<idx + 1>(data, at + static_cast<int>(sizeof(value)));
        }
    }

    template <class T>
    __aicore__ inline LocalTensor<T> Tile(int node, int parity) const {
        int id = parity ? Dag::BufferSlots.pong[node] : Dag::BufferSlots.ping[node];
        return tiles_[id].template ReinterpretCast<T>();
    }

    template <class T>
    __aicore__ inline GlobalTensor<T> Window(GM_ADDR base, int64_t elems) const {
        GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(base + elems * static_cast<int64_t>(sizeof(T))));
        return g;
    }

    template <class Holder, class T>
    __aicore__ inline T ReadInputScalar() const {
        return Window<T>(inGm_[Holder::Pos], 0).GetValue(0);
    }

    /* one operand of node `Node`, as its op declares input j */
    template <class Node, int j>
    __aicore__ inline auto Operand(int parity) {
        using A = typename Node::InArgs::template At<j>;
        using T = typename Node::template FunInArgType<j>;
        if constexpr (dag_detail::IsBind<A>::value) {
            constexpr int at = FunList::template GetIndex<A>();
            if constexpr (A::IsScalarOp) {
                return static_cast<T>(std::get<at>(scalars_));
            } else {
                return Tile<T>(at, parity);
            }
        } else if constexpr (dag_detail::kIsVar<A>) {
            return static_cast<T>(vars_.template Get<A::Pos>());
        } else if constexpr (dag_detail::kIsIn<A>) {
            return ReadInputScalar<A, T>();
        } else {
            static_assert(dag_detail::kIsConst<A>, "opsnn atvoss: an operand that is no node, placeholder or constant");
            return static_cast<T>(A::value);
        }
    }

    template <class Node, class Out, size_t... J>
    __aicore__ inline void Call(Out &out, int64_t count, int parity, std::index_sequence<J...>) {
        auto operands = std::make_tuple(Operand<Node, static_cast<int>(J)>(parity)...);
        (void)typename Node::Fun(out, std::get<J>(operands)..., count);
    }

    template <int pos>
    __aicore__ inline void RunFrom(int64_t offset, int64_t count, int parity) {
        if constexpr (pos < kNodes) {
            RunNode<pos>(offset, count, parity);
            RunFrom<pos + 1>(offset, count, parity);
        }
    }

    template <int pos>
    __aicore__ inline void RunNode(int64_t offset, int64_t count, int parity) {
        using Node = typename FunList::template At<pos>;
        using Out = typename Node::OutDataType;
        constexpr auto kind = Dag::Nodes.kind[pos];
        constexpr auto seq = std::make_index_sequence<Node::InArgs::Size>{};
        if constexpr (kind == dag_detail::COPY_IN) {
            using Holder = typename Node::InArgs::template At<0>;
            LocalTensor<Out> dst = Tile<Out>(pos, parity);
            if (brcMask_ & (int64_t{1} << Holder::Pos)) {
                if (dupBrc_) Vec::Duplicate<Out>(dst, ReadInputScalar<Holder, Out>(), static_cast<int32_t>(count));
                return;
            }
            using H = typename Holder::DType;
            static_assert(std::is_same_v<H, Out> || (std::is_same_v<H, uint1_t> && std::is_same_v<Out, uint8_t>),
                          "opsnn atvoss: a CopyIn's type is not its input placeholder's");
            if constexpr (Vec::IsCopyInBrcOp<typename Node::Fun>::Value) {
                if (nd_.on) {
                    CopyInNd<Node, Holder, Out>(dst);
                    return;
                }
            }
            GlobalTensor<Out> src;
            src.SetGlobalBuffer(reinterpret_cast<__gm__ Out *>(inGm_[Holder::Pos] +
                                                               ElemBytesNum<H>(blockStart_ + offset)));
            (void)typename Node::Fun(dst, src, static_cast<uint32_t>(ElemBytesNum<H>(count) / sizeof(Out)));
        } else if constexpr (kind == dag_detail::COPY_OUT) {
            using Holder = typename Node::Args::template At<0>;
            using Src = typename Node::InArgs::template At<0>;
            using T = typename Node::template FunInArgType<0>;
            using H = typename Holder::DType;
            static_assert(std::is_same_v<H, T> || (std::is_same_v<H, uint1_t> && std::is_same_v<T, uint8_t>),
                          "opsnn atvoss: a CopyOut's type is not its output placeholder's");
            GlobalTensor<T> dst;
            dst.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(outGm_[Holder::Pos] +
                                                             ElemBytesNum<H>(blockStart_ + offset)));
            LocalTensor<T> src = Tile<T>(FunList::template GetIndex<Src>(), parity);
            (void)typename Node::Fun(dst, src, static_cast<int>(ElemBytesNum<H>(count) / sizeof(T)));
        } else if constexpr (kind == dag_detail::SCALAR) {
            Out &out = std::get<pos>(scalars_);
            if constexpr (Vec::IsCopyInOp<typename Node::Fun>::Value) {
                out = ReadInputScalar<typename Node::InArgs::template At<0>, Out>();  // a tensor scalar
            } else {
                Call<Node>(out, count, parity, seq);
            }
        } else {
            LocalTensor<Out> dst = Tile<Out>(pos, parity);
            Call<Node>(dst, count, parity, seq);
        }
    }

    /* the CopyInBrc node's block of the current multi-dimension tile (NdTile) */
    template <class Node, class Holder, class T>
    __aicore__ inline void CopyInNd(LocalTensor<T> &dst) {
        int cache = -1;
        for (int k = 0; k < static_cast<int>(Dag::CopyBrcSize); ++k) {
            if (Dag::CopyBrcInputs.pos[k] == Holder::Pos && cache < 0) cache = Dag::BufferSlots.used + k;
        }
        GlobalTensor<T> src = Window<T>(inGm_[Holder::Pos], nd_.start[Holder::Pos]);
        const int64_t *d = nd_.dims, *st = nd_.strides[Holder::Pos];
        LocalTensor<T> cacheTile = nd_.ubBroadcast ? tiles_[cache].template ReinterpretCast<T>() : dst;
        ::opsnn_kt::Call("Atvoss.CopyInNd", __FILE__, __LINE__, dst, src, cacheTile, nd_.ubBroadcast, nd_.rank, d[0],
                         d[1], d[2], d[3], d[4], d[5], d[6], d[7], st[0], st[1], st[2], st[3], st[4], st[5], st[6],
                         st[7]);
    }

    GM_ADDR inGm_[kInputs > 0 ? kInputs : 1] = {};
    GM_ADDR outGm_[kOutputs > 0 ? kOutputs : 1] = {};
    int64_t blockStart_ = 0;
    int64_t brcMask_ = 0;
    bool dupBrc_ = false;
    constexpr static int kMaxBuffers = Dag::BufferSlots.used + static_cast<int>(Dag::CopyBrcSize) > kBuffers
                                           ? Dag::BufferSlots.used + static_cast<int>(Dag::CopyBrcSize)
                                           : kBuffers;
    int buffers_ = 0;
    NdTile nd_;
    TBuf<TPosition::VECCALC> bufs_[kMaxBuffers > 0 ? kMaxBuffers : 1];
    LocalTensor<uint8_t> tiles_[kMaxBuffers > 0 ? kMaxBuffers : 1];
    typename Dag::VarType vars_;
    typename Dag::ScalarOpType scalars_;
};

}  // namespace opsnn_detail
}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_UTIL_DAG_RUNNER_H_
