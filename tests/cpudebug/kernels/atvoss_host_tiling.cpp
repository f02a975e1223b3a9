// opsnn's host-side tilings (opsnn/host/include/atvoss/{elewise/elewise_tiling.h,
// broadcast/broadcast_tiling.h}) for a DAG of atvoss_test_dags.h:
//   atvoss_host_tiling <dag> <ub bytes> <cores> <dim>...           the 80-byte EleBaseTilingData
//   atvoss_host_tiling brc <dag> <ub> <cores> <out> <in0> <in1>...  (shapes as d,d,d): the schedule
//                                                                   mode, then its tiling struct
// as hex, or FAILED; test_atvoss.py compares them with upstream's expected tiling strings and with
// opsnn's Python atvoss.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "atvoss/broadcast/broadcast_tiling.h"
#include "atvoss/elewise/elewise_tiling.h"
#include "atvoss_test_dags.h"

using namespace Ops::Base;
using namespace test_dags;

template <class Dag>
static int Tile(int64_t ub, int64_t cores, const std::vector<int64_t> &dims) {
    gert::Shape shape;
    for (int64_t d : dims) shape.AppendDim(d);
    ElewiseTilingParams params{cores, shape, ub, {{0, DagComputeParams<Dag>(0, 0)}}};
    ElewiseTilingData split{};
    if (ElewiseTiling(params, split) != ge::GRAPH_SUCCESS) {
        std::printf("FAILED\n");
        return 0;
    }
    EleBaseTilingData data{};
    FillEleBaseTilingData(split, data);
    const unsigned char *raw = reinterpret_cast<const unsigned char *>(&data);
    for (size_t i = 0; i < sizeof(data); ++i) std::printf("%02x", raw[i]);
    std::printf("\n");
    return 0;
}

static void Hex(const void *p, size_t n) {
    for (size_t i = 0; i < n; ++i) std::printf("%02x", static_cast<const unsigned char *>(p)[i]);
    std::printf("\n");
}

static gert::Shape ShapeOf(const char *text) {
    gert::Shape s;
    for (const char *p = text; *p;) {
        s.AppendDim(std::strtoll(p, const_cast<char **>(&p), 10));
        if (*p == ',') ++p;
    }
    return s;
}

template <class Dag>
static int Brc(int64_t ub, int64_t cores, int argc, char **argv) {
    std::vector<gert::Shape> ins;
    for (int i = 6; i < argc; ++i) ins.push_back(ShapeOf(argv[i]));
    BroadcastTilingInput in;
    in.coreNum = cores;
    in.ubSize = ub;
    if (DimensionCollapse(ins, ShapeOf(argv[5]), in.dims, in.strides) != ge::GRAPH_SUCCESS) {
        std::printf("FAILED\n");
        return 0;
    }
    using S = BroadcastSplit<Dag>;
    ge::graphStatus status;
    if (in.dims.back().size() == 1 && S::kAdvance) {
        BroadcastOneDimTilingDataAdvance d{};
        status = S::OneDimAdvance(in, d);
        if (status == ge::GRAPH_SUCCESS) std::printf("202 "), Hex(&d, sizeof(d));
    } else if (in.dims.back().size() == 1) {
        BroadcastOneDimTilingData d{};
        status = S::OneDim(in, d);
        if (status == ge::GRAPH_SUCCESS) std::printf("201 "), Hex(&d, sizeof(d));
    } else {
        typename S::Data d{};
        uint64_t mode = 0;
        status = S::MultiDim(in, d, mode);
        if (status == ge::GRAPH_SUCCESS) std::printf("%lu ", mode), Hex(&d, sizeof(d));
    }
    if (status != ge::GRAPH_SUCCESS) std::printf("FAILED\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 5 && !std::strcmp(argv[1], "brc")) {
        const int64_t ub = std::atoll(argv[3]), cores = std::atoll(argv[4]);
        const char *dag = argv[2];
        if (!std::strcmp(dag, "threshold_grad_v2_d/float32")) return Brc<Tgv2d<float>::Dag>(ub, cores, argc, argv);
        if (!std::strcmp(dag, "threshold_grad_v2_d/float16")) return Brc<Tgv2d<half>::Dag>(ub, cores, argc, argv);
        if (!std::strcmp(dag, "threshold_grad_v2_d/int8")) return Brc<Tgv2d<int8_t>::Dag>(ub, cores, argc, argv);
        if (!std::strcmp(dag, "mul_brc/float32")) return Brc<MulBrc<float>::Dag>(ub, cores, argc, argv);
        return 2;
    }
    if (argc < 4) return 2;
    std::vector<int64_t> dims;
    for (int i = 4; i < argc; ++i) dims.push_back(std::atoll(argv[i]));
    const int64_t ub = std::atoll(argv[2]), cores = std::atoll(argv[3]);
    const char *dag = argv[1];
    if (!std::strcmp(dag, "hardtanh_grad_like/float16")) return Tile<HardtanhLike<half>::Dag>(ub, cores, dims);
    if (!std::strcmp(dag, "erfinv_like/float32")) return Tile<ErfinvLike<float>::Dag>(ub, cores, dims);
    if (!std::strcmp(dag, "erfinv_like/float16")) return Tile<ErfinvLike<half>::Dag>(ub, cores, dims);
    if (!std::strcmp(dag, "threshold_v2_like/int8")) return Tile<ThresholdLike<int8_t>::Dag>(ub, cores, dims);
    if (!std::strcmp(dag, "threshold_v2_like/int64")) return Tile<ThresholdLike<int64_t>::Dag>(ub, cores, dims);
    if (!std::strcmp(dag, "threshold_v2_like/bfloat16")) return Tile<ThresholdLikeBf16::Dag>(ub, cores, dims);
    return 2;
}
