#pragma once
// File helpers for the host tools: bounded reads with one-line errors, and atomic writes
// (temp file + rename) so that a failed run never leaves a half-written file.

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zkrv::tools {

struct ReadResult {
  std::optional<std::vector<uint8_t>> bytes;
  std::string error;  // one line, names the file
};
ReadResult read_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// Returns an empty string on success, else a one-line error.
std::string write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);

// A file written piece by piece into a temporary file beside `path` and renamed onto it by
// commit(), so that a run that fails or throws part way leaves nothing: destroyed uncommitted, it
// removes the temporary file. After the first error (one line, naming `path`) writes do nothing.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  bool write(std::span<const uint8_t> bytes);  // false once an error has happened
  std::string commit();                        // close and rename once: empty, or the first error
  const std::string& error() const { return error_; }
  uint64_t size() const { return size_; }  // the bytes written

 private:
  std::string path_, tmp_, error_;
  std::FILE* f_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace zkrv::tools
