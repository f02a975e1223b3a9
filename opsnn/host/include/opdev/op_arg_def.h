/* opsnn host twin: opdev/op_arg_def.h -- the argument groups an l0 op hands its kernel launch:
 * OP_INPUT(...), OP_OUTPUT(...), OP_ATTR(...), OP_WORKSPACE(...), OP_OUTSHAPE(...), OP_OPTION(...),
 * OP_MODE(...), OP_EMPTY_ARG, gathered by GetOpArgContext into one OpArgContext.
 *
 * Each argument is kept as what the launch needs: a tensor (nullptr: an optional input left out),
 * a tensor list, or an attribute value of opsnn_host::AttrValue's kinds (the seam's; integers as
 * int64, arrays as vectors, an aclScalar as its float value, a string as std::string). */
#ifndef OPSNN_HOST_OPDEV_OP_ARG_DEF_H_
#define OPSNN_HOST_OPDEV_OP_ARG_DEF_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "opdev/common_types.h"
#include "opsnn_host/launch.h"

namespace op {
enum OpArgDef {
    OP_INPUT_ARG = 0,
    OP_OUTPUT_ARG,
    OP_ATTR_ARG,
    OP_WORKSPACE_ARG,
    OP_OUTSHAPE_ARG,
    OP_OPTION_ARG,
    OP_EMPTY_ARG_DEF,
    OP_EXEC_MODE_ARG,
    OP_ARG_DEF_BUTT
};

struct OpArg {
    enum Kind { kTensor, kTensorList, kAttr, kScalarList, kNumber };
    Kind kind = kTensor;
    const aclTensor *tensor = nullptr;          // kTensor (nullptr: left out)
    const aclTensorList *tensorList = nullptr;  // kTensorList
    opsnn_host::AttrValue attr;                 // kAttr
    uint64_t number = 0;                        // kNumber: OP_OUTSHAPE's index, OP_OPTION's values
};
using OpArgList = std::vector<OpArg>;

class OpArgContext {
public:
    OpArgList *GetOpArg(OpArgDef type) { return type < OP_ARG_DEF_BUTT ? &lists_[type] : nullptr; }
    const OpArgList *GetOpArg(OpArgDef type) const { return type < OP_ARG_DEF_BUTT ? &lists_[type] : nullptr; }
    bool ContainsOpArgType(OpArgDef type) const { return type < OP_ARG_DEF_BUTT && present_[type]; }
    void MarkPresent(OpArgDef type) { present_[type] = true; }

private:
    OpArgList lists_[OP_ARG_DEF_BUTT];
    bool present_[OP_ARG_DEF_BUTT] = {};
};

/* One OP_xxx(...) group: its kind and its values as written. */
template <OpArgDef Kind, typename Tuple>
struct OpArgGroup {
    Tuple values;
};
template <OpArgDef Kind, typename Tuple>
OpArgGroup<Kind, typename std::decay<Tuple>::type> MakeOpArgGroup(Tuple &&values) {
    return {std::forward<Tuple>(values)};
}
struct EmptyOpArg {};
static constexpr EmptyOpArg EMPTY_OP_ARG{};

namespace arg_detail {
inline void Add(OpArgList &list, std::nullptr_t) { list.push_back(OpArg{}); }
inline void Add(OpArgList &list, const aclTensor *t) {
    OpArg a;
    a.tensor = t;
    list.push_back(a);
}
inline void Add(OpArgList &list, aclTensor *t) { Add(list, static_cast<const aclTensor *>(t)); }
inline void Add(OpArgList &list, const aclTensorList *t) {
    OpArg a;
    a.kind = OpArg::kTensorList;
    a.tensorList = t;
    list.push_back(a);
}
inline void Add(OpArgList &list, aclTensorList *t) { Add(list, static_cast<const aclTensorList *>(t)); }
inline void AddAttr(OpArgList &list, opsnn_host::AttrValue v) {
    OpArg a;
    a.kind = OpArg::kAttr;
    a.attr = std::move(v);
    list.push_back(std::move(a));
}
inline void Add(OpArgList &list, bool v) { AddAttr(list, v); }
inline void Add(OpArgList &list, float v) { AddAttr(list, v); }
inline void Add(OpArgList &list, double v) { AddAttr(list, v); }
inline void Add(OpArgList &list, ge::DataType v) { AddAttr(list, v); }
inline void Add(OpArgList &list, const char *v) { AddAttr(list, std::string(v == nullptr ? "" : v)); }
inline void Add(OpArgList &list, const std::string &v) { AddAttr(list, v); }
inline void Add(OpArgList &list, const aclScalar *v) {
    AddAttr(list, v == nullptr ? 0.0f : v->ToFloat());  // an attribute scalar is a Float attribute
}
inline void Add(OpArgList &list, aclScalar *v) { Add(list, static_cast<const aclScalar *>(v)); }
inline void Add(OpArgList &list, const aclIntArray *v) {
    std::vector<int64_t> values;
    for (uint64_t i = 0; v != nullptr && i < v->Size(); ++i) {
        values.push_back((*v)[i]);
    }
    AddAttr(list, std::move(values));
}
inline void Add(OpArgList &list, aclIntArray *v) { Add(list, static_cast<const aclIntArray *>(v)); }
inline void Add(OpArgList &list, const aclFloatArray *v) {
    std::vector<float> values;
    for (uint64_t i = 0; v != nullptr && i < v->Size(); ++i) {
        values.push_back((*v)[i]);
    }
    AddAttr(list, std::move(values));
}
inline void Add(OpArgList &list, aclFloatArray *v) { Add(list, static_cast<const aclFloatArray *>(v)); }
inline void Add(OpArgList &list, const aclBoolArray *v) {
    std::vector<bool> values;
    for (uint64_t i = 0; v != nullptr && i < v->Size(); ++i) {
        values.push_back((*v)[i]);
    }
    AddAttr(list, std::move(values));
}
inline void Add(OpArgList &list, aclBoolArray *v) { Add(list, static_cast<const aclBoolArray *>(v)); }
template <typename T, size_t N>
void Add(OpArgList &list, const op::FVector<T, N> &v) {
    AddAttr(list, std::vector<int64_t>(v.begin(), v.end()));
}
inline void Add(OpArgList &list, const std::vector<int64_t> &v) { AddAttr(list, v); }
/* Any other integer (int, int64_t, uint32_t, char...): an Int attribute. */
template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, int>::type = 0>
void Add(OpArgList &list, T v) {
    AddAttr(list, static_cast<int64_t>(v));
}
template <typename T, typename std::enable_if<std::is_enum<T>::value, int>::type = 0>
void Add(OpArgList &list, T v) {
    AddAttr(list, static_cast<int64_t>(v));
}

template <OpArgDef Kind, typename Tuple, size_t... I>
void AddGroup(OpArgContext &ctx, const OpArgGroup<Kind, Tuple> &group, std::index_sequence<I...>) {
    ctx.MarkPresent(Kind);
    OpArgList &list = *ctx.GetOpArg(Kind);
    (void)list;
    (Add(list, std::get<I>(group.values)), ...);
}
template <OpArgDef Kind, typename Tuple>
void AddGroup(OpArgContext &ctx, const OpArgGroup<Kind, Tuple> &group) {
    AddGroup(ctx, group, std::make_index_sequence<std::tuple_size<Tuple>::value>{});
}
inline void AddGroup(OpArgContext &ctx, const EmptyOpArg &) { ctx.MarkPresent(OP_EMPTY_ARG_DEF); }
}  // namespace arg_detail

/* A context holding the groups' arguments; the caller destroys it with DestroyOpArgContext
 * (CreatAiCoreKernelLauncher and the other consumers take it over and do). */
template <typename... Groups>
OpArgContext *GetOpArgContext(const Groups &...groups) {
    auto *ctx = new OpArgContext();
    (arg_detail::AddGroup(*ctx, groups), ...);
    return ctx;
}
inline void DestroyOpArgContext(OpArgContext *ctx) { delete ctx; }
}  // namespace op

#define OP_INPUT(...) ::op::MakeOpArgGroup<::op::OP_INPUT_ARG>(std::make_tuple(__VA_ARGS__))
#define OP_OUTPUT(...) ::op::MakeOpArgGroup<::op::OP_OUTPUT_ARG>(std::make_tuple(__VA_ARGS__))
#define OP_ATTR(...) ::op::MakeOpArgGroup<::op::OP_ATTR_ARG>(std::make_tuple(__VA_ARGS__))
#define OP_WORKSPACE(...) ::op::MakeOpArgGroup<::op::OP_WORKSPACE_ARG>(std::make_tuple(__VA_ARGS__))
#define OP_OUTSHAPE(...) ::op::MakeOpArgGroup<::op::OP_OUTSHAPE_ARG>(std::tuple<aclTensor *, uint64_t>(__VA_ARGS__))
#define OP_OPTION(...) ::op::MakeOpArgGroup<::op::OP_OPTION_ARG>(std::make_tuple(__VA_ARGS__))
#define OP_MODE(...) ::op::MakeOpArgGroup<::op::OP_EXEC_MODE_ARG>(std::make_tuple(__VA_ARGS__))
#define OP_EMPTY_ARG ::op::EMPTY_OP_ARG

#endif  // OPSNN_HOST_OPDEV_OP_ARG_DEF_H_
