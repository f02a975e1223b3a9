// opsnn's host-side ElewiseTiling (opsnn/host/include/atvoss/elewise/elewise_tiling.h) for a DAG of
// atvoss_test_dags.h: `atvoss_host_tiling <dag> <ub bytes> <cores> <dim>...` prints the 80-byte
// EleBaseTilingData as hex, or FAILED; test_atvoss.py compares it with upstream's expected tiling
// strings and with opsnn's Python atvoss.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

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

int main(int argc, char **argv) {
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
