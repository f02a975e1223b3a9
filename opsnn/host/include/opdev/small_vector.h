/* opsnn host twin: opdev/small_vector.h -- op::internal::SmallVector<T, N>, the contiguous vector
 * op::FVector names.
 *
 * Its own container rather than std::vector: op_api code takes data() of an FVector<bool>
 * (ConvertToTensor(valVector.data(), ...)), which std::vector<bool> cannot give. CANN's keeps its
 * first N elements inline; this one always uses the heap (N is accepted and ignored: host code
 * only uses the interface). */
#ifndef OPSNN_HOST_OPDEV_SMALL_VECTOR_H_
#define OPSNN_HOST_OPDEV_SMALL_VECTOR_H_

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace op {
namespace internal {
template <typename T, size_t N = 8>
class SmallVector {
public:
    using value_type = T;
    using size_type = size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T &;
    using const_reference = const T &;
    using pointer = T *;
    using const_pointer = const T *;
    using iterator = T *;
    using const_iterator = const T *;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    SmallVector() = default;
    explicit SmallVector(size_type n) { resize(n); }
    SmallVector(size_type n, const T &value) { assign(n, value); }
    SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
    SmallVector(It first, It last) {
        assign(first, last);
    }
    SmallVector(const std::vector<T> &values) { assign(values.begin(), values.end()); }  // NOLINT: implicit
    SmallVector(const SmallVector &other) { assign(other.begin(), other.end()); }
    template <size_t M>
    SmallVector(const SmallVector<T, M> &other) {  // NOLINT: implicit, across inline sizes
        assign(other.begin(), other.end());
    }
    SmallVector(SmallVector &&other) noexcept { Swap(other); }
    ~SmallVector() {
        clear();
        ::operator delete(data_);
    }
    SmallVector &operator=(const SmallVector &other) {
        if (this != &other) {
            assign(other.begin(), other.end());
        }
        return *this;
    }
    SmallVector &operator=(SmallVector &&other) noexcept {
        if (this != &other) {
            clear();
            Swap(other);
        }
        return *this;
    }
    SmallVector &operator=(std::initializer_list<T> values) {
        assign(values.begin(), values.end());
        return *this;
    }

    template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
    void assign(It first, It last) {
        SmallVector fresh;  // built aside: `first` may point into this vector
        for (; first != last; ++first) {
            fresh.push_back(*first);
        }
        clear();
        Swap(fresh);
    }
    void assign(size_type n, const T &value) {
        SmallVector fresh;
        fresh.reserve(n);
        for (size_type i = 0; i < n; ++i) {
            fresh.push_back(value);
        }
        clear();
        Swap(fresh);
    }
    void assign(std::initializer_list<T> values) { assign(values.begin(), values.end()); }

    size_type size() const { return size_; }
    size_type capacity() const { return capacity_; }
    bool empty() const { return size_ == 0; }
    T *data() { return data_; }
    const T *data() const { return data_; }
    iterator begin() { return data_; }
    iterator end() { return data_ + size_; }
    const_iterator begin() const { return data_; }
    const_iterator end() const { return data_ + size_; }
    const_iterator cbegin() const { return data_; }
    const_iterator cend() const { return data_ + size_; }
    reverse_iterator rbegin() { return reverse_iterator(end()); }
    reverse_iterator rend() { return reverse_iterator(begin()); }
    const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
    const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
    T &operator[](size_type i) { return data_[i]; }
    const T &operator[](size_type i) const { return data_[i]; }
    T &at(size_type i) { return i < size_ ? data_[i] : throw std::out_of_range("SmallVector::at"); }
    const T &at(size_type i) const { return i < size_ ? data_[i] : throw std::out_of_range("SmallVector::at"); }
    T &front() { return data_[0]; }
    const T &front() const { return data_[0]; }
    T &back() { return data_[size_ - 1]; }
    const T &back() const { return data_[size_ - 1]; }

    void reserve(size_type n) {
        if (n <= capacity_) {
            return;
        }
        T *grown = static_cast<T *>(::operator new(n * sizeof(T)));
        for (size_type i = 0; i < size_; ++i) {
            new (grown + i) T(std::move(data_[i]));
            data_[i].~T();
        }
        ::operator delete(data_);
        data_ = grown;
        capacity_ = n;
    }
    template <typename... Args>
    T &emplace_back(Args &&...args) {
        if (size_ == capacity_) {
            /* args may refer to an element: build the new one before moving the old ones */
            T value(std::forward<Args>(args)...);
            reserve(capacity_ == 0 ? 8 : capacity_ * 2);
            new (data_ + size_) T(std::move(value));
        } else {
            new (data_ + size_) T(std::forward<Args>(args)...);
        }
        return data_[size_++];
    }
    void push_back(const T &value) { emplace_back(value); }
    void push_back(T &&value) { emplace_back(std::move(value)); }
    void pop_back() { data_[--size_].~T(); }
    void clear() {
        while (size_ > 0) {
            pop_back();
        }
    }
    void resize(size_type n) { resize(n, T()); }
    void resize(size_type n, const T &value) {
        while (size_ > n) {
            pop_back();
        }
        reserve(n);
        while (size_ < n) {
            emplace_back(value);
        }
    }
    iterator insert(const_iterator pos, const T &value) {
        const size_type at = static_cast<size_type>(pos - begin());
        push_back(value);
        std::rotate(begin() + at, end() - 1, end());
        return begin() + at;
    }
    iterator erase(const_iterator pos) {
        const size_type at = static_cast<size_type>(pos - begin());
        std::rotate(begin() + at, begin() + at + 1, end());
        pop_back();
        return begin() + at;
    }

    bool operator==(const SmallVector &other) const { return std::equal(begin(), end(), other.begin(), other.end()); }
    bool operator!=(const SmallVector &other) const { return !(*this == other); }

private:
    void Swap(SmallVector &other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
    }

    T *data_ = nullptr;
    size_type size_ = 0;
    size_type capacity_ = 0;
};
}  // namespace internal
}  // namespace op

#endif  // OPSNN_HOST_OPDEV_SMALL_VECTOR_H_
