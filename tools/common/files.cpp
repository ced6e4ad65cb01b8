#include "tools/common/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace zkrv::tools {

ReadResult read_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  ReadResult r;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    r.error = what + " '" + path + "': " + (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
    return r;
  }
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) { r.error = what + " '" + path + "': " + ec.message(); return r; }
  if (size > max_bytes) {
    r.error = what + " '" + path + "' is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes);
    return r;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) { r.error = what + " '" + path + "': " + std::strerror(errno); return r; }
  std::vector<uint8_t> bytes(size);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    r.error = what + " '" + path + "': read failed";
    return r;
  }
  r.bytes = std::move(bytes);
  return r;
}

std::string write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
  AtomicFile f(path);
  f.write(bytes);
  return f.commit();
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp-zkrv") {
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) error_ = "cannot write '" + path_ + "': " + std::strerror(errno);
}

AtomicFile::~AtomicFile() {
  if (!f_) return;  // never opened, or committed (renamed, or removed on its error)
  std::fclose(f_);
  std::remove(tmp_.c_str());
}

bool AtomicFile::write(std::span<const uint8_t> bytes) {
  if (!f_ || !error_.empty()) return false;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) {
    error_ = "cannot write '" + path_ + "': " + std::strerror(errno);
    return false;
  }
  size_ += bytes.size();
  return true;
}

std::string AtomicFile::commit() {
  if (!f_) return error_;
  const auto fail = [&] {
    if (error_.empty()) error_ = "cannot write '" + path_ + "': " + std::strerror(errno);
  };
  if (error_.empty() && std::fflush(f_) != 0) fail();
  if (std::fclose(f_) != 0) fail();
  f_ = nullptr;
  if (error_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0) fail();
  if (!error_.empty()) std::remove(tmp_.c_str());
  return error_;
}

}  // namespace zkrv::tools
