/* gert::RuntimeAttrs buffers (attr_buffer.h). Two passes over the values: sizes, then bytes; every
 * value starts 8-aligned so any of them can be read in place. */
#include "metadef/attr_buffer.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/runtime_attrs.h"

namespace opsnn_host {
namespace {
constexpr size_t kAlign = 8;

size_t AlignUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

size_t ListBytes(size_t count, size_t element) { return sizeof(gert::ContinuousVector) + count * element; }

/* Bytes one value takes (before alignment). */
size_t ValueBytes(const RuntimeAttrValue &value) {
    return std::visit(
        [](const auto &v) -> size_t {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>) {
                return v.size() + 1;
            } else if constexpr (std::is_same_v<V, std::vector<bool>>) {
                return ListBytes(v.size(), sizeof(bool));
            } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
                size_t text = 0;
                for (const auto &s : v) {
                    text += s.size() + 1;
                }
                return ListBytes(v.size(), sizeof(const char *)) + text;
            } else if constexpr (std::is_same_v<V, std::vector<std::vector<int64_t>>>) {
                size_t total = gert::ContinuousVectorVector::GetOverHeadLength(v.size());
                for (const auto &inner : v) {
                    total += ListBytes(inner.size(), sizeof(int64_t));
                }
                return total;
            } else if constexpr (std::is_arithmetic_v<V>) {
                return sizeof(V);
            } else {
                return ListBytes(v.size(), sizeof(typename V::value_type));
            }
        },
        value);
}

template <typename T>
void WriteList(uint8_t *at, const std::vector<T> &values) {
    auto *list = reinterpret_cast<gert::ContinuousVector *>(at);
    list->Init(values.size());
    (void)list->SetSize(values.size());
    T *data = static_cast<T *>(list->MutableData());
    for (size_t i = 0; i < values.size(); ++i) {
        data[i] = values[i];
    }
}

void WriteValue(uint8_t *at, const RuntimeAttrValue &value) {
    std::visit(
        [at](const auto &v) {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>) {
                std::memcpy(at, v.c_str(), v.size() + 1);
            } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
                /* A list of C-string pointers, the strings after it in the same buffer. */
                auto *list = reinterpret_cast<gert::ContinuousVector *>(at);
                list->Init(v.size());
                (void)list->SetSize(v.size());
                auto **pointers = static_cast<const char **>(list->MutableData());
                char *text = reinterpret_cast<char *>(at + ListBytes(v.size(), sizeof(const char *)));
                for (size_t i = 0; i < v.size(); ++i) {
                    std::memcpy(text, v[i].c_str(), v[i].size() + 1);
                    pointers[i] = text;
                    text += v[i].size() + 1;
                }
            } else if constexpr (std::is_same_v<V, std::vector<std::vector<int64_t>>>) {
                auto *lists = reinterpret_cast<gert::ContinuousVectorVector *>(at);
                lists->Init(v.size());
                for (const auto &inner : v) {
                    gert::ContinuousVector *slot = lists->Add<int64_t>(inner.size());
                    for (size_t i = 0; i < inner.size(); ++i) {
                        static_cast<int64_t *>(slot->MutableData())[i] = inner[i];
                    }
                }
            } else if constexpr (std::is_arithmetic_v<V>) {
                std::memcpy(at, &v, sizeof(V));
            } else {
                WriteList(at, v);
            }
        },
        value);
}
}  // namespace

std::unique_ptr<uint8_t[]> BuildRuntimeAttrs(const std::vector<RuntimeAttrValue> &values) {
    /* Header: the count and one offset per value (at least one slot, as the struct declares). */
    const size_t header = AlignUp(sizeof(size_t) * (1 + (values.empty() ? 1 : values.size())));
    std::vector<size_t> offsets;
    size_t total = header;
    for (const auto &value : values) {
        offsets.push_back(total);
        total += AlignUp(ValueBytes(value));
    }
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[total]());
    auto *words = reinterpret_cast<size_t *>(buffer.get());
    words[0] = values.size();
    for (size_t i = 0; i < values.size(); ++i) {
        words[1 + i] = offsets[i];
        WriteValue(buffer.get() + offsets[i], values[i]);
    }
    return buffer;
}
}  // namespace opsnn_host
