/* Runs an operator's registered C++ tiling through the host twin's RunTiling, for
 * tests/host/test_threshold_cpp_chain.py: each stdin line "OpType dtype-code elements SoC [threshold]"
 * gives one line "ok block_dim tiling_key workspace hex-bytes" or "failed <the error>". */
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "opsnn_host/launch.h"

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string op, soc;
        int dtype = 0;
        int64_t n = 0;
        in >> op >> dtype >> n >> soc;
        opsnn_host::LaunchRequest request;
        request.op_type = op;
        request.soc = soc;
        opsnn_host::TensorArg tensor;
        tensor.dtype = static_cast<ge::DataType>(dtype);
        tensor.shape = {n};
        request.inputs = {tensor, tensor};
        request.outputs = {tensor};
        float threshold = 0.0f;
        if (in >> threshold) request.attrs.push_back(threshold);
        opsnn_host::TilingResult r = opsnn_host::RunTiling(request);
        if (!r.ok) {
            std::string error = r.error;
            for (char &c : error) if (c == '\n') c = ' ';
            std::cout << "failed " << error << std::endl;
            continue;
        }
        std::cout << "ok " << r.block_dim << ' ' << r.tiling_key << ' '
                  << (r.workspace_sizes.empty() ? 0 : r.workspace_sizes[0]) << ' ';
        for (uint8_t b : r.tiling_data) {
            char hex[3];
            std::snprintf(hex, sizeof hex, "%02x", b);
            std::cout << hex;
        }
        std::cout << std::endl;
    }
    return 0;
}
