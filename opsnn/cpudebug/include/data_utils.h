/* opsnn's data_utils.h: the file helpers ops-nn's op_kernel unit tests call (ReadFile, WriteFile),
 * written for opsnn. */
#ifndef OPSNN_DATA_UTILS_H_
#define OPSNN_DATA_UTILS_H_

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#ifndef KERNEL_UT_LOG_INFO
#define KERNEL_UT_LOG_INFO(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\n", ##__VA_ARGS__)
#define KERNEL_UT_LOG_WARN(fmt, ...) fprintf(stdout, "[WARN]  " fmt "\n", ##__VA_ARGS__)
#define KERNEL_UT_LOG_ERROR(fmt, ...) fprintf(stdout, "[ERROR] " fmt "\n", ##__VA_ARGS__)
#endif

/* Read the whole file into buffer (at most bufferSize bytes); fileSize gets the file's size.
 * False, with a line on stderr, when the file cannot be read or does not fit. */
inline bool ReadFile(const std::string &filePath, size_t &fileSize, void *buffer, size_t bufferSize) {
    std::ifstream in(filePath, std::ios::binary | std::ios::ate);
    if (!in) {
        std::cerr << "ReadFile: cannot open " << filePath << std::endl;
        return false;
    }
    std::streamoff size = in.tellg();
    if (size < 0 || static_cast<size_t>(size) > bufferSize) {
        std::cerr << "ReadFile: " << filePath << " holds " << size << " bytes, the buffer " << bufferSize
                  << std::endl;
        return false;
    }
    in.seekg(0);
    if (size > 0 && !in.read(static_cast<char *>(buffer), size)) {
        std::cerr << "ReadFile: reading " << filePath << " failed" << std::endl;
        return false;
    }
    fileSize = static_cast<size_t>(size);
    return true;
}

inline bool WriteFile(const std::string &filePath, const void *buffer, size_t size) {
    std::ofstream out(filePath, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(static_cast<const char *>(buffer), static_cast<std::streamsize>(size))) {
        std::cerr << "WriteFile: cannot write " << filePath << std::endl;
        return false;
    }
    return true;
}

#endif  // OPSNN_DATA_UTILS_H_
