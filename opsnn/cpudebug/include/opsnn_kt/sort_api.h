/* opsnn CPU-debug runtime: AscendC's sorting on Atlas A2's (score, index) records -- Sort32,
 * MrgSort (+ GetMrgSortResult), the high-level Sort<T, isFullSort>, Extract, Concat, GetSortLen,
 * GetSortOffset; each instruction one call into the emulator (opsnn/ascendc/sort.py). */
#ifndef OPSNN_KT_SORT_API_H_
#define OPSNN_KT_SORT_API_H_

#include <cstdint>

#include "opsnn_kt/gather_api.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                            const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn),
          repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <typename T> struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In,
                              const LocalTensor<T> &src3In, const LocalTensor<T> &src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
    LocalTensor<T> src1, src2, src3, src4;
};

}  // namespace AscendC

namespace opsnn_kt {
inline void Pack(Slot &s, const AscendC::MrgSort4Info &p) {
    Pack(s, Fields{"MrgSort4Info", 7, {p.elementLengths[0], p.elementLengths[1], p.elementLengths[2],
                                       p.elementLengths[3], p.ifExhaustedSuspension, p.validBit, p.repeatTimes}});
}
/* MrgSort's lists: only the ones validBit names are passed (the others may be empty tensors) */
template <typename T>
inline int64_t CallMrgSort(const char *file, int line, const AscendC::LocalTensor<T> &dst,
                           const AscendC::MrgSortSrcList<T> &src, const AscendC::MrgSort4Info &params) {
    switch (params.validBit) {
        case 3: return Call("MrgSort", file, line, dst, params, src.src1, src.src2);
        case 7: return Call("MrgSort", file, line, dst, params, src.src1, src.src2, src.src3);
        default: return Call("MrgSort", file, line, dst, params, src.src1, src.src2, src.src3, src.src4);
    }
}
}  // namespace opsnn_kt

namespace AscendC {

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
                              const int32_t repeatTime, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Sort32", OPSNN_KT_AT, dst, src0, src1, repeatTime);
}
template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params,
                               OPSNN_KT_WHERE) {
    opsnn_kt::CallMrgSort(OPSNN_KT_AT, dst, src, params);
}
/* how many records of each list the last MrgSort took (VMS4_SR) */
__aicore__ inline void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2, uint16_t &mrgSortList3,
                                        uint16_t &mrgSortList4, OPSNN_KT_WHERE) {
    uint64_t r = static_cast<uint64_t>(opsnn_kt::Call("GetMrgSortResult", OPSNN_KT_AT));
    mrgSortList1 = static_cast<uint16_t>(r);
    mrgSortList2 = static_cast<uint16_t>(r >> 16);
    mrgSortList3 = static_cast<uint16_t>(r >> 32);
    mrgSortList4 = static_cast<uint16_t>(r >> 48);
}
/* the high-level form: sortedNum gets the counts when isExhaustedSuspension */
template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime, OPSNN_KT_WHERE) {
    MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime));
    opsnn_kt::CallMrgSort(OPSNN_KT_AT, dst, sortList, info);
    if (isExhaustedSuspension) {
        uint16_t n[4];
        GetMrgSortResult(n[0], n[1], n[2], n[3], OPSNN_KT_AT);
        for (int i = 0; i < 4; ++i) sortedNum[i] = n[i];
    }
}
template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
                            LocalTensor<T> &tmp, const int32_t repeatTime, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Sort", OPSNN_KT_AT, dst, concat, index, tmp, repeatTime, isFullSort);
}
template <typename T>
__aicore__ inline void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex,
                               const LocalTensor<T> &sorted, const int32_t repeatTime, OPSNN_KT_WHERE) {
    opsnn_kt::Call("Extract", OPSNN_KT_AT, dstValue, dstIndex, sorted, repeatTime);
}
/* On Atlas A2 the scores are sorted where they lie: concat becomes src (no data moves). */
template <typename T>
__aicore__ inline void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp,
                              const int32_t repeatTime) {
    (void)tmp;
    (void)repeatTime;
    concat = src;
}
/* T elements of n (score, index) records: 8 bytes each */
template <typename T> __aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "opsnn: GetSortLen takes half or float");
    return elemCount * 8 / sizeof(T);
}
template <typename T> __aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    return GetSortLen<T>(elemOffset);
}

}  // namespace AscendC

#endif  // OPSNN_KT_SORT_API_H_
