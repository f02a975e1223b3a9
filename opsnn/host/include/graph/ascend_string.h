/* opsnn host twin: ge::AscendString, the string type graph interfaces pass names and string
 * attributes by. Header-only: a null-constructed string is empty, GetString() never returns null. */
#ifndef OPSNN_HOST_GRAPH_ASCEND_STRING_H_
#define OPSNN_HOST_GRAPH_ASCEND_STRING_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "graph/types.h"

namespace ge {
class AscendString {
public:
    AscendString() = default;
    AscendString(const char_t *const name) {  // NOLINT: implicit, as callers pass literals
        if (name != nullptr) {
            text_ = std::make_shared<std::string>(name);
        }
    }
    AscendString(const char_t *const name, size_t length) {
        if (name != nullptr) {
            text_ = std::make_shared<std::string>(name, length);
        }
    }
    const char_t *GetString() const { return text_ ? text_->c_str() : ""; }
    size_t GetLength() const { return text_ ? text_->size() : 0U; }
    /* Position of `other` in this string, or std::string::npos. */
    size_t Find(const AscendString &other) const { return View().find(other.View()); }
    size_t Hash() const { return std::hash<std::string>()(View()); }
    bool operator<(const AscendString &d) const { return View() < d.View(); }
    bool operator>(const AscendString &d) const { return View() > d.View(); }
    bool operator<=(const AscendString &d) const { return View() <= d.View(); }
    bool operator>=(const AscendString &d) const { return View() >= d.View(); }
    bool operator==(const AscendString &d) const { return View() == d.View(); }
    bool operator!=(const AscendString &d) const { return View() != d.View(); }
    bool operator==(const char_t *const d) const { return View() == (d == nullptr ? "" : d); }
    bool operator!=(const char_t *const d) const { return !(*this == d); }

private:
    std::string View() const { return text_ ? *text_ : std::string(); }
    std::shared_ptr<std::string> text_;  // shared: copies are cheap, as the interface passes them by value
};
}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
    size_t operator()(const ge::AscendString &s) const { return s.Hash(); }
};
}  // namespace std

#endif  // OPSNN_HOST_GRAPH_ASCEND_STRING_H_
