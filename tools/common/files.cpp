#include "tools/common/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace zkrv::tools {

namespace {
// Reads fd to its end, refusing more than max_bytes: a pipe, a FIFO or a device has no size to
// check first. `name` is the file as the errors call it.
ReadResult read_stream(int fd, uint64_t max_bytes, const std::string& name) {
  ReadResult r;
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      r.error = name + ": " + std::strerror(errno);
      return r;
    }
    if (bytes.size() + static_cast<uint64_t>(got) > max_bytes) {
      r.error = name + " has more than " + std::to_string(max_bytes) + " bytes; the limit is " + std::to_string(max_bytes);
      return r;
    }
    bytes.insert(bytes.end(), chunk, chunk + got);
  }
  r.bytes = std::move(bytes);
  return r;
}
}  // namespace

ReadResult read_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  if (path == "-") return read_stream(STDIN_FILENO, max_bytes, what + " (stdin)");
  ReadResult r;
  const std::string name = what + " '" + path + "'";
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(st)) {
    r.error = name + ": no such file";
    return r;
  }
  if (std::filesystem::is_directory(st)) {
    r.error = name + ": it is a folder";
    return r;
  }
  if (!std::filesystem::is_regular_file(st)) {  // a pipe (<(cmd)), a FIFO, a device (/dev/null): read to its end
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      r.error = name + ": " + std::strerror(errno);
      return r;
    }
    r = read_stream(fd, max_bytes, name);
    ::close(fd);
    return r;
  }
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) { r.error = name + ": " + ec.message(); return r; }
  if (size > max_bytes) {
    r.error = name + " is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes);
    return r;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) { r.error = name + ": " + std::strerror(errno); return r; }
  std::vector<uint8_t> bytes(size);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    r.error = name + ": read failed";
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

namespace {
std::string why(const std::string& path) { return "cannot write '" + path + "': " + std::strerror(errno); }
// A name beside `path` that no other process and no other call of this one uses.
std::string temp_name(const std::string& path) {
  static std::atomic<unsigned> serial{0};
  return path + ".tmp-zkrv." + std::to_string(::getpid()) + "." + std::to_string(serial++);
}
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {  // stdout, written in place; a duplicate, so that commit() leaves stdout open
    std::fflush(stdout);
    const int fd = ::dup(STDOUT_FILENO);
    if (fd < 0 || !(f_ = ::fdopen(fd, "wb"))) {
      error_ = "cannot write stdout: " + std::string(std::strerror(errno));
      if (fd >= 0) ::close(fd);
    }
    direct_ = true;
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) {
    error_ = "cannot write '" + path_ + "': it is a folder";
    return;
  }
  if (const auto st = std::filesystem::status(path_, ec); std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    // a device or a pipe (/dev/null, a FIFO): written in place, never replaced by a file
    if (!(f_ = std::fopen(path_.c_str(), "wb"))) error_ = why(path_);
    direct_ = true;
    return;
  }
  const auto slash = path_.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path_.substr(0, slash));
  // An unnamed file in the output's folder (Linux's O_TMPFILE; named at commit through /proc):
  // nothing to remove if the process is killed. Where there is none, a named one unique to this
  // process and object.
  const bool proc = ::access("/proc/self/fd", X_OK) == 0;
  int fd = proc ? ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666) : -1;
  if (fd < 0 && (!proc || (errno != ENOENT && errno != ENOTDIR && errno != EACCES && errno != EROFS && errno != ENOSPC))) {
    tmp_ = temp_name(path_);
    fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  }
  if (fd < 0) {
    error_ = why(path_);
  } else if (!(f_ = ::fdopen(fd, "wb"))) {
    error_ = why(path_);
    ::close(fd);
    if (!tmp_.empty()) std::remove(tmp_.c_str());
  }
}

AtomicFile::~AtomicFile() {
  if (!f_) return;  // never opened, or committed (renamed, or removed on its error)
  std::fclose(f_);
  if (!tmp_.empty()) std::remove(tmp_.c_str());
}

bool AtomicFile::write(std::span<const uint8_t> bytes) {
  if (!f_ || !error_.empty()) return false;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) {
    error_ = why(path_);
    return false;
  }
  size_ += bytes.size();
  return true;
}

std::string AtomicFile::commit() {
  if (!f_) return error_;
  const auto fail = [&] {
    if (error_.empty()) error_ = why(path_);
  };
  if (error_.empty() && std::fflush(f_) != 0) fail();
  if (error_.empty() && tmp_.empty() && !direct_) {  // the unnamed file gets a name of its own, then the output's
    const std::string name = temp_name(path_);
    const std::string self = "/proc/self/fd/" + std::to_string(::fileno(f_));
    if (::linkat(::fileno(f_), "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH) == 0 ||
        ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0)
      tmp_ = name;
    else
      fail();
  }
  if (std::fclose(f_) != 0) fail();
  f_ = nullptr;
  if (error_.empty() && !direct_ && std::rename(tmp_.c_str(), path_.c_str()) != 0) fail();
  if (!error_.empty() && !tmp_.empty()) std::remove(tmp_.c_str());
  return error_;
}

bool AtomicFile::unnamed() const { return f_ && tmp_.empty() && !direct_; }

}  // namespace zkrv::tools
