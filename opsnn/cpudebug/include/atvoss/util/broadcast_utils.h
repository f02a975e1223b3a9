/* opsnn's atvoss: the index and copy helpers hand-written broadcast kernels use (arch35 kernels
 * that split the output themselves and gather each input's block by NDDMA).
 *
 * A tile is `ubSplitSize` rows of the split axis times every axis after it, at the axes indices a
 * kernel keeps (the split axis' index counted in tiles of ubFormer rows). Its block of an input is
 * the input read with the input's strides over the tile's axes (0 on a broadcast axis), into a
 * dense tile in the output's layout: BroadcastNddmaWithLoop / WithoutLoop (on device, NDDMA of at
 * most five axes, looped over the outer ones past five; a plain copy where the input is as
 * contiguous as the output from the split axis on). Here both are one strided gather on the
 * emulator (DataCopyNd): the same elements in the same places. */
#ifndef OPSNN_ATVOSS_UTIL_BROADCAST_UTILS_H_
#define OPSNN_ATVOSS_UTIL_BROADCAST_UTILS_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"

namespace Ops {
namespace Base {

static constexpr int64_t BROADCAST_MAX_DIMS = 8;
static constexpr int64_t NDDMA_MAX_DIMS = 5;
static constexpr int64_t NDDMA_THROW_DIMS = 3;

/* the axes indices of tile `prodIdx` in the mixed radix of totalDims[0..endIdx] (totalProduct:
 * their product, the split axis counted in tiles); the split axis' index is the last digit */
template <std::size_t N>
__aicore__ inline void BroadcastGetAxesIndices(int64_t (&axesIndices)[N], int64_t prodIdx,
                                               const int64_t (&totalDims)[N], int64_t endIdx, int64_t totalProduct) {
    int64_t rest = prodIdx, weight = totalProduct;
    for (int64_t a = 0; a < endIdx; ++a) {
        weight /= totalDims[a];
        axesIndices[a] = weight == 0 ? 0 : rest / weight;
        rest -= axesIndices[a] * weight;
    }
    axesIndices[endIdx] = rest;
}

/* the next tile's indices: the split axis' index counts to endDim (its tiles), the outer axes to
 * their dims, each carrying into the one before it */
template <std::size_t N>
__aicore__ inline void BroadcastUpdateAxesIndices(int64_t (&axesIndices)[N], const int64_t (&totalDims)[N],
                                                  int64_t endIdx, int64_t endDim) {
    if (++axesIndices[endIdx] < endDim) return;
    axesIndices[endIdx] = 0;
    for (int64_t a = endIdx - 1; a >= 0; --a) {
        if (++axesIndices[a] < totalDims[a]) return;
        axesIndices[a] = 0;
    }
}

/* where a tile's block starts in a tensor of these strides (endDim: rows of a full tile) */
template <std::size_t N>
__aicore__ inline int64_t BroadcastGetGmOffset(const int64_t (&axesIndices)[N], const int64_t (&totalStrides)[N],
                                               int64_t endIdx, int64_t endDim) {
    int64_t offset = axesIndices[endIdx] * totalStrides[endIdx] * endDim;
    for (int64_t a = 0; a < endIdx; ++a) offset += axesIndices[a] * totalStrides[a];
    return offset;
}

/* the product of totalDims[startIdx..endIdx) */
template <std::size_t N>
__aicore__ inline int64_t BroadcastFuseAxes(const int64_t (&totalDims)[N], int64_t startIdx, int64_t endIdx) {
    int64_t product = 1;
    for (int64_t a = startIdx; a < endIdx; ++a) product *= totalDims[a];
    return product;
}

namespace brc_utils_detail {
/* the tile's block of an input: a strided gather of (ubSplitSize, outputDims after the split axis)
 * with the input's strides from the split axis on */
template <typename T1, typename T2, size_t N>
__aicore__ inline void GatherBlock(AscendC::GlobalTensor<T1> &inputGm, AscendC::LocalTensor<T2> &outputTensor,
                                   const int64_t (&outputDims)[N], const int64_t (&inputStrides)[N],
                                   const int64_t (&axesIndices)[N], int64_t ubSplitAxis, int64_t shapeLen,
                                   int64_t ubSplitSize, int64_t ubFormer) {
    int64_t dims[8] = {}, strides[8] = {};
    const int64_t rank = shapeLen - ubSplitAxis;
    for (int64_t a = 0; a < rank && a < 8; ++a) {
        dims[a] = a == 0 ? ubSplitSize : outputDims[ubSplitAxis + a];
        strides[a] = inputStrides[ubSplitAxis + a];
    }
    AscendC::LocalTensor<T1> dst = outputTensor.template ReinterpretCast<T1>();
    AscendC::GlobalTensor<T1> src = inputGm[BroadcastGetGmOffset(axesIndices, inputStrides, ubSplitAxis, ubFormer)];
    ::opsnn_kt::Call("Atvoss.CopyInNd", __FILE__, __LINE__, dst, src, dst, false, rank, dims[0], dims[1], dims[2],
                     dims[3], dims[4], dims[5], dims[6], dims[7], strides[0], strides[1], strides[2], strides[3],
                     strides[4], strides[5], strides[6], strides[7]);
}
}  // namespace brc_utils_detail

template <typename T1, typename T2, size_t N>
__aicore__ inline void BroadcastNddmaWithoutLoop(AscendC::GlobalTensor<T1> &inputGm,
                                                 AscendC::LocalTensor<T2> &outputTensor, const int64_t (&outputDims)[N],
                                                 const int64_t (&outputStrides)[N], const int64_t (&inputStrides)[N],
                                                 const int64_t (&axesIndices)[N], int64_t ubSplitAxis, int64_t shapeLen,
                                                 int64_t ubSplitSize, int64_t ubFormer) {
    (void)outputStrides;  // the tile is dense in the output's layout
    brc_utils_detail::GatherBlock(inputGm, outputTensor, outputDims, inputStrides, axesIndices, ubSplitAxis, shapeLen,
                                  ubSplitSize, ubFormer);
}
template <typename T1, typename T2, size_t N>
__aicore__ inline void BroadcastNddmaWithLoop(AscendC::GlobalTensor<T1> &inputGm, AscendC::LocalTensor<T2> &outputTensor,
                                              const int64_t (&outputDims)[N], const int64_t (&outputStrides)[N],
                                              const int64_t (&inputStrides)[N], const int64_t (&axesIndices)[N],
                                              int64_t ubSplitAxis, int64_t shapeLen, int64_t ubSplitSize,
                                              int64_t ubFormer) {
    (void)outputStrides;
    brc_utils_detail::GatherBlock(inputGm, outputTensor, outputDims, inputStrides, axesIndices, ubSplitAxis, shapeLen,
                                  ubSplitSize, ubFormer);
}
template <typename T1, typename T2, size_t N>
__aicore__ inline void BroadcastNddmaWithoutLoopNoInline(
    AscendC::GlobalTensor<T1> &inputGm, AscendC::LocalTensor<T2> &outputTensor, const int64_t (&outputDims)[N],
    const int64_t (&outputStrides)[N], const int64_t (&inputStrides)[N], const int64_t (&axesIndices)[N],
    int64_t ubSplitAxis, int64_t shapeLen, int64_t ubSplitSize, int64_t ubFormer) {
    BroadcastNddmaWithoutLoop(inputGm, outputTensor, outputDims, outputStrides, inputStrides, axesIndices, ubSplitAxis,
                              shapeLen, ubSplitSize, ubFormer);
}
template <typename T1, typename T2, size_t N>
__aicore__ inline void BroadcastNddmaWithLoopNoInline(
    AscendC::GlobalTensor<T1> &inputGm, AscendC::LocalTensor<T2> &outputTensor, const int64_t (&outputDims)[N],
    const int64_t (&outputStrides)[N], const int64_t (&inputStrides)[N], const int64_t (&axesIndices)[N],
    int64_t ubSplitAxis, int64_t shapeLen, int64_t ubSplitSize, int64_t ubFormer) {
    BroadcastNddmaWithLoop(inputGm, outputTensor, outputDims, outputStrides, inputStrides, axesIndices, ubSplitAxis,
                           shapeLen, ubSplitSize, ubFormer);
}

}  // namespace Base
}  // namespace Ops

#endif  // OPSNN_ATVOSS_UTIL_BROADCAST_UTILS_H_
