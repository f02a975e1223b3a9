/* opsnn's atvoss: a computation written as a DAG of vector ops, and what a schedule needs to know
 * of it at compile time.
 *
 *   Bind<Op, Args...>        a node: Op (a Vec op) applied to Args (nodes or placeholders)
 *   DAGSch<Elems<Outs...>, void, MemOptCfg<MemLevel::LEVEL_2>>
 *                            the DAG reaching the CopyOut nodes Outs
 *
 * The DAG's facts, derived once here (docs/arch35-atvoss.md §2 restates the rules):
 *   FunList      the nodes in execution order: post-order from the CopyOuts, operands left to
 *                right, each node once; a Cast to the type it reads is no node (its readers read
 *                its source).
 *   scalar op    a node all of whose operands are scalar inputs, Vars, constants or scalar ops,
 *                and which is not a Duplicate: a value, computed per tile, taking no UB.
 *   BufferNum    the tile-sized UB buffers the DAG needs (memory level 2): the most scratch
 *                tiles alive at one node, plus a ping and a pong tile per tensor input and per
 *                output that is not a bare copy of an input.
 *   MaxDtypeBytes / MinDtypeBytes  the widest / narrowest node output type (a tile's slot is
 *                ubFormer * MaxDtypeBytes bytes).
 *   Slots        which buffer each node's tile lives in, ping and pong: inputs and outputs in
 *                their pairs, scratch tiles by the lowest buffer no live scratch tile holds (on
 *                these lifetimes that needs exactly the counted number).
 * Memory levels 0 and 1 (fewer, shared buffers) are not modelled: a DAG whose level-2 count
 * exceeds what level 0 would allow is refused at compile time. */
#ifndef OPSNN_ATVOSS_UTIL_DAG_H_
#define OPSNN_ATVOSS_UTIL_DAG_H_

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "atvoss/util/elems.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/util/vec.h"

namespace Ops {
namespace Base {

enum class MemLevel { LEVEL_0, LEVEL_1, LEVEL_2 };

template <MemLevel MemLvl = MemLevel::LEVEL_0, bool ReuseIn = false>
struct MemOptCfg {
    static constexpr MemLevel memoryLevel = MemLvl;
    static constexpr bool reuseIn = ReuseIn;
};

template <typename Func, typename... Ts>
struct Bind;

namespace dag_detail {

template <class T>
struct IsBind : std::false_type {};
template <class F, class... Ts>
struct IsBind<Bind<F, Ts...>> : std::true_type {};

template <class T>
constexpr bool kIsIn = Placeholder::IsInHolder<T>::Value;
template <class T>
constexpr bool kIsOut = Placeholder::IsOutHolder<T>::Value;
template <class T>
constexpr bool kIsVar = Placeholder::IsVar<T>::Value;
template <class T>
constexpr bool kIsConst = Placeholder::IsConstValue<T>::Value;

/* ---- type-list helpers ---- */
template <class List, class T>
struct AppendUnique;
template <class... Ts, class T>
struct AppendUnique<Elems<Ts...>, T> {
    using Type = std::conditional_t<(std::is_same_v<T, Ts> || ...), Elems<Ts...>, Elems<Ts..., T>>;
};

template <template <class> class Keep, class... Ts>
struct Filter {
    using Type = Elems<>;
};
template <template <class> class Keep, class T, class... Ts>
struct Filter<Keep, T, Ts...> {
    using Rest = typename Filter<Keep, Ts...>::Type;
    template <class L>
    struct Prepend;
    template <class... Us>
    struct Prepend<Elems<Us...>> {
        using Type = Elems<T, Us...>;
    };
    using Type = std::conditional_t<Keep<T>::value, typename Prepend<Rest>::Type, Rest>;
};

template <class T>
struct NotOutHolder : std::bool_constant<!kIsOut<T>> {};

/* ---- the node a reader really reads: no-op Casts dropped ---- */
template <class T>
struct Real {
    using Type = T;
};
template <class F, class... Ts>
struct Real<Bind<F, Ts...>> {
    using Rebuilt = Bind<F, typename Real<Ts>::Type...>;
    template <class... Us>
    struct FirstOf {
        using Type = void;
    };
    template <class U, class... Us>
    struct FirstOf<U, Us...> {
        using Type = U;
    };
    template <class U>
    struct Identity {
        using Type = U;
    };
    using Type = typename std::conditional_t<Vec::IsCastNoOp<F>::Value, FirstOf<typename Real<Ts>::Type...>,
                                             Identity<Rebuilt>>::Type;
};

/* ---- FunList: post-order from the outputs, operands left to right, first occurrence kept ---- */
template <class Acc, class Node>
struct Visit {
    using Type = Acc;  // a placeholder: no node
};
template <class Acc, class... Nodes>
struct VisitAll {
    using Type = Acc;
};
template <class Acc, class N, class... Nodes>
struct VisitAll<Acc, N, Nodes...> {
    using Type = typename VisitAll<typename Visit<Acc, N>::Type, Nodes...>::Type;
};
template <class... Done, class F, class... Ts>
struct Visit<Elems<Done...>, Bind<F, Ts...>> {
    using Self = Bind<F, Ts...>;
    using Type = std::conditional_t<(std::is_same_v<Self, Done> || ...), Elems<Done...>,
                                    typename AppendUnique<typename VisitAll<Elems<Done...>, Ts...>::Type, Self>::Type>;
};

/* ---- holders found in a FunList, by kind ---- */
template <class List, template <class> class Is, class... Nodes>
struct CollectArgs {
    using Type = List;
};
template <class List, template <class> class Is, class... Args>
struct CollectFromArgs {
    using Type = List;
};
template <class List, template <class> class Is, class A, class... Args>
struct CollectFromArgs<List, Is, A, Args...> {
    using Next = std::conditional_t<Is<A>::value, typename AppendUnique<List, A>::Type, List>;
    using Type = typename CollectFromArgs<Next, Is, Args...>::Type;
};
template <class List, template <class> class Is, class F, class... Ts, class... Nodes>
struct CollectArgs<List, Is, Bind<F, Ts...>, Nodes...> {
    using Type = typename CollectArgs<typename CollectFromArgs<List, Is, Ts...>::Type, Is, Nodes...>::Type;
};

template <class T>
struct IsInT : std::bool_constant<kIsIn<T>> {};
template <class T>
struct IsOutT : std::bool_constant<kIsOut<T>> {};
template <class T>
struct IsVarT : std::bool_constant<kIsVar<T>> {};
template <class T>
struct IsScalarInT : std::bool_constant<Placeholder::IsInScalar<T>::Value> {};

/* sort placeholders by Pos (insertion sort on the type level) */
template <class Sorted, class T>
struct Insert;
template <class T>
struct Insert<Elems<>, T> {
    using Type = Elems<T>;
};
template <class U, class... Us, class T>
struct Insert<Elems<U, Us...>, T> {
    template <class L>
    struct Prepend;
    template <class... Vs>
    struct Prepend<Elems<Vs...>> {
        using Type = Elems<U, Vs...>;
    };
    using Type = std::conditional_t<(T::Pos < U::Pos), Elems<T, U, Us...>,
                                    typename Prepend<typename Insert<Elems<Us...>, T>::Type>::Type>;
};
template <class List>
struct SortByPos;
template <>
struct SortByPos<Elems<>> {
    using Type = Elems<>;
};
template <class T, class... Ts>
struct SortByPos<Elems<T, Ts...>> {
    using Type = typename Insert<typename SortByPos<Elems<Ts...>>::Type, T>::Type;
};

/* no two placeholders of a sorted list share a Pos */
template <class List>
struct DistinctPos : std::true_type {};
template <class A, class B, class... Ts>
struct DistinctPos<Elems<A, B, Ts...>>
    : std::bool_constant<(A::Pos != B::Pos) && DistinctPos<Elems<B, Ts...>>::value> {};

}  // namespace dag_detail

/* A node: Func applied to Ts (nodes and placeholders; a CopyOut's first argument is its Out
 * placeholder). */
template <typename Func, typename... Ts>
struct Bind {
    using Fun = Func;
    using Args = Elems<Ts...>;
    using BindType = Bind<Func, Ts...>;
    constexpr static bool IsBindFun = true;

    /* the node with no-op Casts dropped from its operands (what the FunList holds) */
    using RealBindType = typename dag_detail::Real<Bind>::Type;

    template <int offset>
    using FunRetArgType = typename Fun::template FunRetArgType<offset>;
    template <int offset>
    using FunInArgType = typename Fun::template FunInArgType<offset>;
    using OutDataType = FunRetArgType<0>;
    using DType = OutDataType;

    /* the operands the op reads (its arguments less the Out placeholder) */
    using InArgs = typename dag_detail::Filter<dag_detail::NotOutHolder, Ts...>::Type;
    constexpr static uint32_t InputSize = InArgs::Size;

private:
    template <class A>
    constexpr static bool ScalarOperand() {
        if constexpr (dag_detail::IsBind<A>::value) {
            return A::IsScalarOp;
        } else if constexpr (dag_detail::kIsIn<A>) {
            return Placeholder::IsInScalar<A>::Value;
        } else {
            return true;  // a Var, a constant, an Out placeholder
        }
    }

public:
    /* a value, not a tile: every operand a scalar, and not a Duplicate (which makes a tile) */
    constexpr static bool IsScalarOp = (ScalarOperand<Ts>() && ...) && !Vec::IsDuplicateOp<Func>::Value;
};

namespace dag_detail {

/* what a schedule needs of one FunList node, as plain values */
constexpr int kMaxArgs = 12;
enum NodeKind : int8_t { COPY_IN, COPY_OUT, SCALAR, TENSOR };

template <int N>
struct Table {
    int8_t kind[N] = {};
    bool brc[N] = {};          // a CopyInBrc
    int8_t holder[N] = {};     // the In / Out placeholder's Pos of a copy node
    int8_t nargs[N] = {};
    int8_t args[N][kMaxArgs] = {};  // FunList index of each tensor operand, -1 for a scalar one
    int8_t temp[N] = {};       // the op's own scratch tiles
    int8_t bytes[N] = {};      // sizeof the output type
};

template <class FunList, class A>
constexpr int ArgIndex() {
    if constexpr (IsBind<A>::value) {
        return A::IsScalarOp ? -1 : FunList::template GetIndex<A>();
    } else {
        return -1;
    }
}

template <class FunList, class Node, size_t... J>
constexpr void FillArgs(Table<FunList::Size> &t, int i, std::index_sequence<J...>) {
    ((t.args[i][J] = static_cast<int8_t>(ArgIndex<FunList, typename Node::InArgs::template At<J>>())), ...);
}

template <class T, class = void>
struct SizeOf {
    constexpr static int value = sizeof(T);
};
template <>
struct SizeOf<uint1_t> {
    constexpr static int value = 1;
};

template <class FunList, size_t I>
constexpr void FillNode(Table<FunList::Size> &t) {
    using Node = typename FunList::template At<I>;
    using F = typename Node::Fun;
    static_assert(Node::InArgs::Size <= kMaxArgs, "opsnn atvoss: a node with more than 12 operands");
    static_assert(!Vec::IsVecBrcOp<F>::Value, "opsnn atvoss: Vec::Brc (a broadcast in UB) is not modelled");
    constexpr bool copyIn = Vec::IsCopyInOp<F>::Value;
    constexpr bool copyOut = Vec::IsCopyOutOp<F>::Value;
    if constexpr (copyOut) {
        using Out = typename Node::Args::template At<0>;
        static_assert(kIsOut<Out>, "opsnn atvoss: a CopyOut's first argument is its Out placeholder");
        t.kind[I] = COPY_OUT;
        t.holder[I] = Out::Pos;
    } else if constexpr (Node::IsScalarOp) {
        t.kind[I] = SCALAR;
    } else if constexpr (copyIn) {
        using In = typename Node::InArgs::template At<0>;
        static_assert(Node::InArgs::Size == 1 && kIsIn<In>, "opsnn atvoss: a CopyIn reads one In placeholder");
        t.kind[I] = COPY_IN;
        t.holder[I] = In::Pos;
        t.brc[I] = Vec::IsCopyInBrcOp<F>::Value;
    } else {
        t.kind[I] = TENSOR;
    }
    t.nargs[I] = Node::InArgs::Size;
    FillArgs<FunList, Node>(t, I, std::make_index_sequence<Node::InArgs::Size>{});
    t.temp[I] = Vec::IsCopyInBrcOp<F>::Value ? 0 : F::TempSize;
    t.bytes[I] = SizeOf<typename Node::OutDataType>::value;
}

template <class FunList, size_t... I>
constexpr Table<FunList::Size> MakeTable(std::index_sequence<I...>) {
    Table<FunList::Size> t{};
    (FillNode<FunList, I>(t), ...);
    return t;
}

/* a node that a CopyOut reads directly */
template <int N>
constexpr bool FeedsCopyOut(const Table<N> &t, int node) {
    for (int i = 0; i < N; ++i) {
        if (t.kind[i] == COPY_OUT && t.args[i][0] == node) return true;
    }
    return false;
}

/* the last FunList index that reads `node` as a tensor (-1: none) */
template <int N>
constexpr int LastUse(const Table<N> &t, int node) {
    int last = -1;
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < t.nargs[i]; ++j) {
            if (t.args[i][j] == node) last = i;
        }
    }
    return last;
}

/* a scratch tile: a tensor node that is no copy-in and no CopyOut reads directly (brcIsTemp: a
 * CopyInBrc tile, broadcast in UB rather than gathered by NDDMA, is one too) */
template <int N>
constexpr bool IsTemp(const Table<N> &t, int node, bool brcIsTemp) {
    const bool tile = t.kind[node] == TENSOR || (brcIsTemp && t.kind[node] == COPY_IN && t.brc[node]);
    return tile && !FeedsCopyOut(t, node);
}

/* the most scratch tiles (and op scratch) alive at one node, walking the FunList; reserveBrc:
 * CopyInBrc tiles are cached (persistent), never live nodes */
template <int N>
constexpr int MaxTemps(const Table<N> &t, bool reserveBrc = false, bool brcIsTemp = false) {
    bool alive[N] = {};
    int best = 0;
    for (int i = 0; i < N; ++i) {
        if (t.kind[i] == TENSOR || (t.kind[i] == COPY_IN && !(reserveBrc && t.brc[i]))) alive[i] = true;
        int live = 0;
        for (int k = 0; k < N; ++k) live += (alive[k] && IsTemp(t, k, brcIsTemp)) ? 1 : 0;
        best = live + t.temp[i] > best ? live + t.temp[i] : best;
        for (int j = 0; j < t.nargs[i]; ++j) {
            int a = t.args[i][j];
            if (a >= 0 && LastUse(t, a) == i) alive[a] = false;
        }
    }
    return best;
}

template <int N>
constexpr int MaxBytes(const Table<N> &t, bool widest) {
    int v = t.bytes[0];
    for (int i = 1; i < N; ++i) v = widest ? (t.bytes[i] > v ? t.bytes[i] : v) : (t.bytes[i] < v ? t.bytes[i] : v);
    return v;
}

/* outputs that need their own ping/pong pair (a CopyOut of a copy-in reads the input's tile) */
template <int N>
constexpr int BufferedOutputs(const Table<N> &t) {
    int n = 0;
    for (int i = 0; i < N; ++i) {
        if (t.kind[i] == COPY_OUT && t.kind[t.args[i][0]] != COPY_IN) ++n;
    }
    return n;
}

/* Where every node's tile lives: buffer ids (ping, pong) per FunList node, -1 for none.
 * Layout: [a pair per tensor input, by Pos] [a pair per buffered output, by Pos] [scratch]. */
template <int N>
struct Slots {
    int16_t ping[N] = {};
    int16_t pong[N] = {};
    int16_t used = 0;
};

template <int N>
constexpr Slots<N> PlanSlots(const Table<N> &t, const int (&inputRank)[16]) {
    Slots<N> s{};
    int outputRank[16] = {};
    for (int k = 0; k < 16; ++k) outputRank[k] = -1;
    int inputPairs = 0, outputPairs = 0;
    for (int k = 0; k < 16; ++k) inputPairs += inputRank[k] >= 0 ? 1 : 0;
    for (int pos = 0; pos < 16; ++pos) {  // buffered outputs by Pos
        for (int i = 0; i < N; ++i) {
            if (t.kind[i] == COPY_OUT && t.holder[i] == pos && t.kind[t.args[i][0]] != COPY_IN &&
                outputRank[pos] < 0) {
                outputRank[pos] = outputPairs++;
            }
        }
    }
    const int scratchBase = 2 * (inputPairs + outputPairs);
    int holder[N] = {};  // scratch index held by a live scratch node, -1 none
    for (int i = 0; i < N; ++i) holder[i] = -1;
    int top = 0;
    for (int i = 0; i < N; ++i) {
        s.ping[i] = s.pong[i] = -1;
        if (t.kind[i] == COPY_IN) {
            s.ping[i] = static_cast<int16_t>(2 * inputRank[t.holder[i]]);
            s.pong[i] = static_cast<int16_t>(s.ping[i] + 1);
        } else if (t.kind[i] == TENSOR && FeedsCopyOut(t, i)) {
            int pos = -1;
            for (int k = 0; k < N; ++k) {
                if (t.kind[k] == COPY_OUT && t.args[k][0] == i && pos < 0) pos = t.holder[k];
            }
            s.ping[i] = static_cast<int16_t>(2 * (inputPairs + outputRank[pos]));
            s.pong[i] = static_cast<int16_t>(s.ping[i] + 1);
        } else if (IsTemp(t, i, false)) {
            int k = 0;
            for (bool busy = true; busy; ++k) {
                busy = false;
                for (int m = 0; m < N; ++m) busy = busy || holder[m] == k;
                if (!busy) break;
            }
            holder[i] = k;
            top = k + 1 > top ? k + 1 : top;
            s.ping[i] = s.pong[i] = static_cast<int16_t>(scratchBase + k);
        }
        for (int j = 0; j < t.nargs[i]; ++j) {
            int a = t.args[i][j];
            if (a >= 0 && LastUse(t, a) == i) holder[a] = -1;
        }
    }
    s.used = static_cast<int16_t>(scratchBase + top);
    return s;
}

/* the Var placeholders' values, by Pos */
template <class Vars>
struct VarValues;
template <class... Vs>
struct VarValues<Elems<Vs...>> {
    std::tuple<typename Vs::DType...> values;
    template <int pos>
    constexpr static int IndexOf() {
        int i = 0, at = -1;
        ((at = (Vs::Pos == pos && at < 0) ? i : at, ++i), ...);
        return at;
    }
    template <int pos>
    __aicore__ inline auto Get() const {
        static_assert(IndexOf<pos>() >= 0, "opsnn atvoss: no Var of this index in the DAG");
        return std::get<IndexOf<pos>()>(values);
    }
    template <int pos, class U>
    __aicore__ inline void Set(U v) {
        static_assert(IndexOf<pos>() >= 0, "opsnn atvoss: no Var of this index in the DAG");
        using T = std::tuple_element_t<IndexOf<pos>(), std::tuple<typename Vs::DType...>>;
        std::get<IndexOf<pos>()>(values) = static_cast<T>(v);
    }
};

/* the scalar ops' values, by FunList index (an empty slot for a tile node) */
struct NoValue {};
template <class Node>
using ScalarSlot = std::conditional_t<Node::IsScalarOp, typename Node::OutDataType, NoValue>;
template <class FunList, class Seq>
struct ScalarValuesOf;
template <class FunList, size_t... I>
struct ScalarValuesOf<FunList, std::index_sequence<I...>> {
    using Type = std::tuple<ScalarSlot<typename FunList::template At<I>>...>;
};

}  // namespace dag_detail

/* MAX_BUFFER_NUMBER: the level-2 count a DAG with the default memory level may reach */
constexpr static int MAX_BUFFER_NUMBER = 10;

template <typename OutList_, typename ComputeOrder_ = void, typename MemOptCfg_ = MemOptCfg<>>
struct DAGSch {
    static_assert(std::is_void_v<ComputeOrder_>, "opsnn atvoss: a DAG's own compute order is not modelled");

private:
    template <class L>
    struct RealOuts;
    template <class... Os>
    struct RealOuts<Elems<Os...>> {
        using Type = Elems<typename dag_detail::Real<Os>::Type...>;
    };
    template <class L>
    struct FunsOf;
    template <class... Os>
    struct FunsOf<Elems<Os...>> {
        using Type = typename dag_detail::VisitAll<Elems<>, Os...>::Type;
    };
    template <template <class> class Is, class L>
    struct Holders;
    template <template <class> class Is, class... Ns>
    struct Holders<Is, Elems<Ns...>> {
        using Type = typename dag_detail::SortByPos<typename dag_detail::CollectArgs<Elems<>, Is, Ns...>::Type>::Type;
    };

public:
    using OutList = typename RealOuts<OutList_>::Type;
    using MemOpt = MemOptCfg_;
    using FunList = typename FunsOf<OutList>::Type;

    using InHolders = typename Holders<dag_detail::IsInT, FunList>::Type;
    using OutHolders = typename Holders<dag_detail::IsOutT, FunList>::Type;
    using InScalarHolders = typename Holders<dag_detail::IsScalarInT, FunList>::Type;
    using Vars = typename Holders<dag_detail::IsVarT, FunList>::Type;
    static_assert(dag_detail::DistinctPos<InHolders>::value, "opsnn atvoss: one input read as two placeholder types");
    static_assert(dag_detail::DistinctPos<OutHolders>::value, "opsnn atvoss: one output written as two types");
    static_assert(dag_detail::DistinctPos<Vars>::value, "opsnn atvoss: one Var index with two types");

    constexpr static uint32_t InputSize = InHolders::Size;
    constexpr static uint32_t OutputSize = OutHolders::Size;
    constexpr static uint32_t TensorScalarSize = InScalarHolders::Size;
    constexpr static uint32_t InputSizeWoScalar = InputSize - TensorScalarSize;
    constexpr static uint32_t VarSize = Vars::Size;
    using VarType = dag_detail::VarValues<Vars>;
    using ScalarOpType = typename dag_detail::ScalarValuesOf<FunList, std::make_index_sequence<FunList::Size>>::Type;

    constexpr static dag_detail::Table<FunList::Size> Nodes =
        dag_detail::MakeTable<FunList>(std::make_index_sequence<FunList::Size>{});

    constexpr static uint32_t CopyBrcSize = [] {
        uint32_t n = 0;
        for (int i = 0; i < static_cast<int>(FunList::Size); ++i) n += Nodes.kind[i] == dag_detail::COPY_IN && Nodes.brc[i];
        return n;
    }();
    constexpr static uint32_t VecBrcSize = 0;

    /* the input Pos of each CopyInBrc node, in FunList order (the broadcast tiling's row order) */
    struct BrcInputs {
        int pos[16];
    };
    constexpr static BrcInputs CopyBrcInputs = [] {
        BrcInputs b{};
        int n = 0;
        for (int i = 0; i < static_cast<int>(FunList::Size); ++i) {
            if (Nodes.kind[i] == dag_detail::COPY_IN && Nodes.brc[i] && n < 16) b.pos[n++] = Nodes.holder[i];
        }
        return b;
    }();

    /* sizeof each input's element type, by Pos (0 past the inputs) */
    template <int pos>
    constexpr static uint32_t InputDtypeBytes() {
        if constexpr (pos < static_cast<int>(InHolders::Size)) {
            return dag_detail::SizeOf<typename InHolders::template At<pos>::DType>::value;
        } else {
            return 0;
        }
    }

    constexpr static uint32_t TempCalcNode = dag_detail::MaxTemps(Nodes);
    constexpr static uint32_t MaxDtypeBytes = dag_detail::MaxBytes(Nodes, true);
    constexpr static uint32_t MinDtypeBytes = dag_detail::MaxBytes(Nodes, false);

    /* The level-2 buffer count: scratch tiles + a ping/pong pair per tensor input and buffered
     * output. use_nddma = false (the UB-broadcast schedules): a live CopyInBrc tile is scratch
     * too, and with cache_brc each CopyInBrc input keeps one cache buffer besides. */
    template <bool use_nddma = true, bool cache_brc = false>
    __aicore__ constexpr static uint32_t GetBufferNum() {
        const uint32_t temps = dag_detail::MaxTemps(Nodes, cache_brc, !use_nddma);
        const uint32_t caches = (!use_nddma && cache_brc) ? CopyBrcSize : 0;
        return temps + 2 * InputSizeWoScalar + 2 * dag_detail::BufferedOutputs(Nodes) + caches;
    }
    constexpr static uint32_t BufferNum = GetBufferNum<true, false>();
    constexpr static MemLevel BufLevel = MemLevel::LEVEL_2;
    static_assert(MemOpt::memoryLevel == MemLevel::LEVEL_2 ||
                      (MemOpt::memoryLevel == MemLevel::LEVEL_0 && BufferNum <= MAX_BUFFER_NUMBER),
                  "opsnn atvoss: only memory level 2 is modelled (this DAG would take level 1 or 0)");

private:
    struct InputRanks {
        int rank[16];
    };
    constexpr static InputRanks MakeInputRanks() {
        InputRanks r{};
        for (int k = 0; k < 16; ++k) r.rank[k] = -1;
        int n = 0;
        for (int pos = 0; pos < 16; ++pos) {
            for (int i = 0; i < static_cast<int>(FunList::Size); ++i) {
                if (Nodes.kind[i] == dag_detail::COPY_IN && Nodes.holder[i] == pos && r.rank[pos] < 0) r.rank[pos] = n++;
            }
        }
        return r;
    }
    constexpr static InputRanks Ranks = MakeInputRanks();

public:
    constexpr static dag_detail::Slots<FunList::Size> BufferSlots = dag_detail::PlanSlots(Nodes, Ranks.rank);
    static_assert(BufferSlots.used <= static_cast<int>(BufferNum), "opsnn atvoss: buffer plan exceeds BufferNum");

    /* FunList index of a node (-1: not in the DAG) */
    template <class Node>
    constexpr static int PosOf = FunList::template GetIndex<Node>();
};

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_UTIL_DAG_H_
