/* LaunchKernel (opsnn_host/launch.h): an l0 op's launch runs the operator's own AscendC kernel on
 * the emulator.
 *
 * The kernel is chosen as CANN's device build lays it out: the OpDef's dtype combination (the
 * DataType column every present tensor matches) selects a kernel library, built from
 * op_kernel/<opFile>.cpp for that combination by opsnn/host/kernels.py (in this program's Python,
 * through libopsnn_kt; cached by content) and dlopen'ed apart from the others; the tiling key
 * selects the instantiation inside it. The launch itself is libopsnn_kt's opsnn_kt_run, the one
 * `opsnn ut` runs ICPU_RUN_KF on: block_dim cores, GM arguments inputs..., outputs..., workspace,
 * tiling (the tiling bytes copied into GM, as the device passes them), under the sanitizer when
 * OPSNN_UT_SANITIZE says so. */
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "metadef/op_def_store.h"
#include "metadef/soc_table.h"
#include "opsnn_host/launch.h"
#include "opsnn_kt/abi.h"

namespace opsnn_host {
namespace {

const char *kLayer = "op_kernel";
constexpr int kAivMode = 2;  // KernelMode::AIV_MODE (tikicpulib.h): the vector cores

std::string DtypeName(ge::DataType dtype) {
    switch (dtype) {
#define OPSNN_DT_NAME(name, code, size) \
    case ge::name:                      \
        return #name;
        OPSNN_GE_DATA_TYPES(OPSNN_DT_NAME)
#undef OPSNN_DT_NAME
        default:
            return "DT_" + std::to_string(static_cast<int>(dtype));
    }
}

struct KernelLibrary {
    void (*run)(void *const *args) = nullptr;
    std::string entry;   /* the kernel function's name */
    std::string params;  /* its parameter names, ", "-separated (what findings name tensors by) */
    size_t nparams = 0;
};

std::mutex g_mutex;
std::map<std::string, KernelLibrary> g_libraries;  // by request text: one dlopen per combination

/* The column of the OpDef's DataType lists every present tensor of the request matches, or -1. */
int MatchColumn(const OpDefView &def, const LaunchRequest &request) {
    size_t columns = 0;
    for (const auto &p : def.inputs) columns = std::max(columns, p.dtypes.size());
    for (const auto &p : def.outputs) columns = std::max(columns, p.dtypes.size());
    for (size_t k = 0; k < columns; ++k) {
        bool ok = true;
        auto check = [&](const std::vector<TensorArg> &args, const std::vector<ParamView> &params) {
            for (size_t i = 0; i < args.size() && ok; ++i) {
                if (!args[i].present) continue;
                ok = k < params[i].dtypes.size() && params[i].dtypes[k] == args[i].dtype;
            }
        };
        check(request.inputs, def.inputs);
        check(request.outputs, def.outputs);
        if (ok) return static_cast<int>(k);
    }
    return -1;
}

std::vector<std::string> Names(const std::vector<ParamView> &params) {
    std::vector<std::string> out;
    for (const auto &p : params) out.push_back(p.name);
    return out;
}

std::string Signature(const std::vector<std::string> &in_names, const std::vector<std::string> &in_types,
                      const std::vector<std::string> &out_names, const std::vector<std::string> &out_types) {
    std::string s;
    for (size_t i = 0; i < in_names.size(); ++i) s += (i ? ", " : "") + in_names[i] + " " + in_types[i];
    s += " -> ";
    for (size_t i = 0; i < out_names.size(); ++i) s += (i ? ", " : "") + out_names[i] + " " + out_types[i];
    return s;
}

/* "a dtype its OpDef lacks": the request's dtypes and every combination the OpDef has. */
std::string NoColumnError(const OpDefView &def, const LaunchRequest &request, const std::string &family) {
    auto names = [](const std::vector<TensorArg> &args) {
        std::vector<std::string> out;
        for (const auto &a : args) out.push_back(a.present ? DtypeName(a.dtype) : "(absent)");
        return out;
    };
    auto column = [](const std::vector<ParamView> &params, size_t k) {
        std::vector<std::string> out;
        for (const auto &p : params) out.push_back(k < p.dtypes.size() ? DtypeName(p.dtypes[k]) : "?");
        return out;
    };
    std::ostringstream os;
    os << kLayer << ": " << request.op_type << " has no kernel for "
       << Signature(Names(def.inputs), names(request.inputs), Names(def.outputs), names(request.outputs))
       << ": its OpDef (" << family << ") lists these dtype combinations:";
    size_t columns = def.inputs.empty() ? 0 : def.inputs[0].dtypes.size();
    for (size_t k = 0; k < columns; ++k) {
        os << (k ? "; " : " ")
           << Signature(Names(def.inputs), column(def.inputs, k), Names(def.outputs), column(def.outputs, k));
    }
    return os.str();
}

/* The library for one combination: built (or found current) by opsnn.host.kernels.library_for in
 * this program's Python, then dlopen'ed once per process. */
std::string LoadLibrary(const std::string &request_text, KernelLibrary *out) {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_libraries.find(request_text);
    if (it != g_libraries.end()) {
        *out = it->second;
        return "";
    }
    char *result = nullptr;
    int status = opsnn_kt_python_call("opsnn.host.kernels", "library_for", request_text.c_str(), &result);
    std::string text = result ? result : "no answer";
    free(result);
    if (status != 0) {
        const std::string prefix = "KernelBuildError: ";
        return text.compare(0, prefix.size(), prefix) == 0 ? text.substr(prefix.size()) : text;
    }
    std::istringstream lines(text);
    std::string path;
    KernelLibrary lib;
    std::getline(lines, path);
    std::getline(lines, lib.entry);
    std::getline(lines, lib.params);
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) return "cannot load the kernel library " + path + ": " + dlerror();
    lib.run = reinterpret_cast<void (*)(void *const *)>(dlsym(handle, "opsnn_host_kernel"));
    if (lib.run == nullptr) return path + " has no opsnn_host_kernel (not built by opsnn.host.kernels)";
    lib.nparams = lib.params.empty() ? 0 : 1 + static_cast<size_t>(std::count(lib.params.begin(), lib.params.end(), ','));
    g_libraries.emplace(request_text, lib);
    *out = lib;
    return "";
}

struct Closure {
    void (*run)(void *const *);
    void *const *args;
};

}  // namespace

std::string LaunchKernel(const LaunchRequest &request, const TilingResult &tiling, void *workspace,
                         size_t workspace_size) {
    (void)workspace_size;  // the sanitizer judges the workspace by its GmAlloc'd size
    const std::string where = std::string(kLayer) + ": " + request.op_type;
    const SocSpec *soc = FindSoc(request.soc);
    if (soc == nullptr) return where + ": unknown SoC '" + request.soc + "' (known: " + KnownSocNames() + ")";
    OpDefView def;
    std::string error = ViewOpDef(request.op_type, soc->family, &def);
    if (!error.empty()) return where + ": " + error;
    if (!def.soc_configured) {
        std::string listed;
        for (const auto &s : def.configured_socs) listed += (listed.empty() ? "" : ", ") + s;
        return where + ": its OpDef has no AICore config for " + soc->family + " (" + request.soc +
               "): AICore().AddConfig names " + (listed.empty() ? "no SoC" : listed);
    }
    if (request.inputs.size() != def.inputs.size() || request.outputs.size() != def.outputs.size()) {
        return where + ": the op_api launches it with " + std::to_string(request.inputs.size()) + " input(s) and " +
               std::to_string(request.outputs.size()) + " output(s); its OpDef declares " +
               std::to_string(def.inputs.size()) + " and " + std::to_string(def.outputs.size());
    }
    int column = MatchColumn(def, request);
    if (column < 0) return NoColumnError(def, request, soc->family);

    auto op_file = def.config.find("opFile.value");
    std::ostringstream req;
    req << "op_type " << request.op_type << "\nop_file " << (op_file == def.config.end() ? "" : op_file->second)
        << "\n";
    for (const auto &p : def.inputs) req << "input " << p.name << " " << DtypeName(p.dtypes[column]) << "\n";
    for (const auto &p : def.outputs) req << "output " << p.name << " " << DtypeName(p.dtypes[column]) << "\n";
    KernelLibrary lib;
    error = LoadLibrary(req.str(), &lib);
    if (!error.empty()) return where + ": " + error;

    const size_t nargs = request.inputs.size() + request.outputs.size() + 2;
    if (lib.nparams != nargs) {
        return where + ": kernel " + lib.entry + "(" + lib.params + ") takes " + std::to_string(lib.nparams) +
               " GM argument(s); the OpDef's inputs, outputs, workspace and tiling are " + std::to_string(nargs);
    }
    if (tiling.block_dim == 0) return where + ": the op_host tiling set block dim 0 (SetBlockDim): nothing would run";

    const char *file = request.file.empty() ? "(op_api)" : request.file.c_str();
    void *tiling_gm = opsnn_kt_gm_alloc(tiling.tiling_data.empty() ? 1 : tiling.tiling_data.size(), file, request.line);
    if (!tiling.tiling_data.empty()) std::memcpy(tiling_gm, tiling.tiling_data.data(), tiling.tiling_data.size());
    std::vector<void *> args;
    for (const auto &t : request.inputs) args.push_back(t.present ? t.addr : nullptr);
    for (const auto &t : request.outputs) args.push_back(t.present ? t.addr : nullptr);
    args.push_back(workspace);
    args.push_back(tiling_gm);

    opsnn_kt_set_tiling_key(tiling.tiling_key);
    opsnn_kt_set_kernel_mode(kAivMode);
    opsnn_kt_set_device_launch(1);  // device memory: its pool padding is traffic a device tolerates
    Closure closure{lib.run, args.data()};
    opsnn_kt_run(lib.entry.c_str(), tiling.block_dim,
                 [](void *c) {
                     auto *cl = static_cast<Closure *>(c);
                     cl->run(cl->args);
                 },
                 &closure, lib.params.c_str(), args.data(), static_cast<int>(args.size()), file, request.line);
    opsnn_kt_set_device_launch(0);
    const char *failure = opsnn_kt_last_failure();
    std::string outcome = failure ? where + " (block dim " + std::to_string(tiling.block_dim) + ", tiling key " +
                                        std::to_string(tiling.tiling_key) + "): " + failure
                                  : "";
    opsnn_kt_gm_free(tiling_gm, file, request.line);
    return outcome;
}

}  // namespace opsnn_host
