/* opsnn host twin: BEGIN_TILING_DATA_DEF / TILING_DATA_FIELD_DEF(_ARR/_STRUCT) /
 * END_TILING_DATA_DEF / REGISTER_TILING_DATA_CLASS -- tiling data declared as a class whose fields
 * live in one byte buffer laid out as the kernel's C struct is: each field at the next offset
 * aligned to its element size (a nested tiling struct to 8), the whole rounded up to 8 bytes.
 * set_x writes the buffer, SaveToBuffer copies it out, GetDataSize is its size.
 *
 * A field's offset is computed by its member initialiser, so fields are laid out in declaration
 * order; a nested struct's fields live inside its parent's buffer. Header-only (kernel code may
 * include a host tiling header). */
#ifndef OPSNN_HOST_REGISTER_TILINGDATA_BASE_H_
#define OPSNN_HOST_REGISTER_TILINGDATA_BASE_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "securec.h"

namespace optiling {
struct CharPtrCmp {
    bool operator()(const char *left, const char *right) const { return std::strcmp(left, right) < 0; }
};

/* Each tiling class's size, by class name (a nested struct field takes its struct's size). */
class StructSizeInfoBase {
public:
    static StructSizeInfoBase &GetInstance() {
        static StructSizeInfoBase instance;
        return instance;
    }
    void SetStructSize(const char *structType, const size_t structSize) { sizes_.emplace(structType, structSize); }
    size_t GetStructSize(const char *structType) { return sizes_.at(structType); }

private:
    StructSizeInfoBase() = default;
    std::map<const char *, size_t, CharPtrCmp> sizes_;
};

/* A field as declared: a scalar (classType "0"), an array ("1") or a nested struct ("2"). */
class FieldInfo {
public:
    FieldInfo(const char *dtype, const char *name) : dtype_(dtype), name_(name), classType_("0") {}
    FieldInfo(const char *dtype, const char *name, size_t arrSize)
        : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1") {}
    FieldInfo(const char *dtype, const char *name, const char *structType, size_t structSize)
        : dtype_(dtype), name_(name), structType_(structType), structSize_(structSize), classType_("2") {}
    const char *dtype_;
    const char *name_;
    size_t arrSize_ = 0;
    const char *structType_ = nullptr;
    size_t structSize_ = 0;
    const char *classType_;
};

class TilingDef {
public:
    TilingDef() = default;
    TilingDef(const TilingDef &) = delete;
    TilingDef &operator=(const TilingDef &) = delete;
    virtual ~TilingDef() {
        if (!inited_data_ptr && data_ptr_ != nullptr) {
            delete[] data_ptr_;
        }
        data_ptr_ = nullptr;
    }
    /* Copies the data into pdata; nothing (and an error on stderr) where capacity is smaller. */
    void SaveToBuffer(void *pdata, size_t capacity) {
        if (pdata == nullptr || capacity < data_size_) {
            GeLogError("SaveToBuffer: " + std::to_string(data_size_) + " bytes of " + class_name_ +
                       " do not fit a buffer of " + std::to_string(capacity));
            return;
        }
        if (data_ptr_ != nullptr && pdata != data_ptr_ && data_size_ > 0) {
            std::memcpy(pdata, data_ptr_, data_size_);
        }
    }
    std::vector<FieldInfo> GetFieldInfo() const { return field_info_; }
    const char *GetTilingClassName() const { return class_name_; }
    size_t GetDataSize() const { return data_size_; }
    /* The data lives at dataPtr from now on (a nested struct's inside its parent's buffer). */
    void SetDataPtr(void *dataPtr) {
        if (!inited_data_ptr && data_ptr_ != nullptr) {
            delete[] data_ptr_;
        }
        data_ptr_ = static_cast<uint8_t *>(dataPtr);
        inited_data_ptr = true;
        for (auto &nested : saveBufferPtr) {
            static_cast<TilingDef *>(nested.first)->SetDataPtr(data_ptr_ + nested.second);
        }
    }
    /* Pads the layout so the next field of typeSize bytes starts aligned to it. */
    void CheckAlignAndGenPlaceHolder(const char *name, size_t typeSize) {
        if (typeSize == 0 || data_size_ % typeSize == 0) {
            return;
        }
        const size_t pad = typeSize - data_size_ % typeSize;
        field_info_.emplace_back(FieldInfo("uint8_t", name, pad));
        data_size_ += pad;
    }

protected:
    /* The object's own zeroed buffer, once every field is laid out. */
    void InitData() {
        data_ptr_ = new uint8_t[data_size_ == 0 ? 1 : data_size_]();
        inited_data_ptr = false;
        for (auto &nested : saveBufferPtr) {
            static_cast<TilingDef *>(nested.first)->SetDataPtr(data_ptr_ + nested.second);
        }
    }
    void GeLogError(const std::string &text) const {
        std::fprintf(stderr, "[opsnn host] tiling data %s: %s\n", class_name_ == nullptr ? "?" : class_name_,
                     text.c_str());
    }

    std::vector<FieldInfo> field_info_;
    uint8_t *data_ptr_ = nullptr;
    size_t data_size_ = 0;
    const char *class_name_ = nullptr;
    std::vector<std::pair<void *, size_t>> saveBufferPtr;  // nested structs and their offsets
    size_t struct_size_ = 0;
    bool inited_data_ptr = false;
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

/* Tiling data classes by op type (REGISTER_TILING_DATA_CLASS). */
class CTilingDataClassFactory {
public:
    static CTilingDataClassFactory &GetInstance() {
        static CTilingDataClassFactory instance;
        return instance;
    }
    void RegisterTilingData(const char *op_type, const TilingDataConstructor constructor) {
        constructors_[op_type] = constructor;
    }
    /* nullptr where none is registered for op_type. */
    std::shared_ptr<TilingDef> CreateTilingDataInstance(const char *op_type) {
        auto it = constructors_.find(op_type);
        return it == constructors_.end() ? nullptr : it->second();
    }

private:
    CTilingDataClassFactory() = default;
    std::map<const char *, TilingDataConstructor, CharPtrCmp> constructors_;
};
}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                                         \
    class class_name : public TilingDef {                                                                         \
    public:                                                                                                       \
        size_t FieldHandler(const char *dtype, const char *name, size_t typeSize, const char *namePh) {           \
            CheckAlignAndGenPlaceHolder(namePh, typeSize);                                                        \
            field_info_.emplace_back(FieldInfo(dtype, name));                                                     \
            const size_t offset = data_size_;                                                                     \
            data_size_ += typeSize;                                                                               \
            return offset;                                                                                        \
        }                                                                                                         \
        size_t FieldHandler(const char *dtype, const char *name, size_t typeSize, size_t arrSize,                 \
                            const char *namePh) {                                                                 \
            CheckAlignAndGenPlaceHolder(namePh, typeSize);                                                        \
            field_info_.emplace_back(FieldInfo(dtype, name, arrSize));                                            \
            const size_t offset = data_size_;                                                                     \
            data_size_ += typeSize * arrSize;                                                                     \
            return offset;                                                                                        \
        }                                                                                                         \
        size_t FieldHandler(const char *dtype, const char *name, const char *structType, size_t structSize,       \
                            void *ptr, const char *namePh) {                                                      \
            CheckAlignAndGenPlaceHolder(namePh, 8);                                                               \
            field_info_.emplace_back(FieldInfo(dtype, name, structType, structSize));                             \
            const size_t offset = data_size_;                                                                     \
            data_size_ += structSize;                                                                             \
            saveBufferPtr.emplace_back(ptr, offset);                                                              \
            struct_size_ += structSize;                                                                           \
            return offset;                                                                                        \
        }                                                                                                         \
        class_name() {                                                                                            \
            class_name_ = #class_name;                                                                            \
            CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                                     \
            StructSizeInfoBase::GetInstance().SetStructSize(#class_name, data_size_);                             \
            InitData();                                                                                           \
        }                                                                                                         \
        explicit class_name(void *ptr) {                                                                          \
            class_name_ = #class_name;                                                                            \
            CheckAlignAndGenPlaceHolder(#class_name "PH", 8);                                                     \
            StructSizeInfoBase::GetInstance().SetStructSize(#class_name, data_size_);                             \
            if (ptr != nullptr) {                                                                                 \
                SetDataPtr(ptr);                                                                                  \
            }                                                                                                     \
        }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                       \
public:                                                                                                    \
    void set_##field_name(data_type field_name) {                                                          \
        field_name##_ = field_name;                                                                        \
        std::memcpy(data_ptr_ + field_name##_offset_, &field_name##_, sizeof(data_type));                  \
    }                                                                                                      \
    data_type get_##field_name() { return field_name##_; }                                                 \
                                                                                                           \
private:                                                                                                   \
    data_type field_name##_ = 0;                                                                           \
    size_t field_name##_offset_ = FieldHandler(#data_type, #field_name, sizeof(data_type), #field_name "PH");

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                              \
public:                                                                                                        \
    void set_##field_name(arr_type *field_name) {                                                              \
        uint8_t *at = data_ptr_ + field_name##_offset_;                                                        \
        if (at != reinterpret_cast<uint8_t *>(field_name)) {                                                   \
            if (memcpy_s(at, data_size_ - field_name##_offset_, field_name, (arr_size) * sizeof(arr_type)) !=  \
                EOK) {                                                                                         \
                GeLogError("set_" #field_name ": the array does not fit its field");                           \
            }                                                                                                  \
        }                                                                                                      \
    }                                                                                                          \
    arr_type *get_##field_name() { return reinterpret_cast<arr_type *>(data_ptr_ + field_name##_offset_); }   \
                                                                                                               \
private:                                                                                                       \
    size_t field_name##_offset_ = FieldHandler(#arr_type, #field_name, sizeof(arr_type), arr_size, #field_name "PH");

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                                   \
public:                                                                                                         \
    struct_type field_name{nullptr};                                                                            \
                                                                                                                \
private:                                                                                                        \
    size_t field_name##_offset_ = FieldHandler("struct", #field_name, #struct_type,                             \
                                               StructSizeInfoBase::GetInstance().GetStructSize(#struct_type), \
                                               static_cast<void *>(&field_name), #field_name "PH");

#define END_TILING_DATA_DEF \
    }                       \
    ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                       \
    namespace {                                                                               \
    class op_type##class_name##Helper {                                                       \
    public:                                                                                   \
        op_type##class_name##Helper() {                                                       \
            CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type, Create);      \
        }                                                                                     \
        static std::shared_ptr<TilingDef> Create() { return std::make_shared<class_name>(); } \
    };                                                                                        \
    static class_name g_##op_type##class_name##init;                                          \
    static op_type##class_name##Helper g_tilingdata_##op_type##class_name##helper;            \
    }

#endif  // OPSNN_HOST_REGISTER_TILINGDATA_BASE_H_
