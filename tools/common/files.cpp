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
  const std::string tmp = path + ".tmp-zkrv";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write '" + path + "': " + std::strerror(errno);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) { std::remove(tmp.c_str()); return "cannot write '" + path + "': write failed"; }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return "cannot write '" + path + "': " + std::strerror(errno);
  }
  return {};
}

}  // namespace zkrv::tools
