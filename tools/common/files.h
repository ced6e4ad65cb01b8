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
// `path` whole, at most max_bytes of it: a regular file, or read to its end where it has no size
// (a pipe such as <(cmd), a FIFO, a device such as /dev/null); "-" is stdin. `what` names it in
// the error ("input", "program").
ReadResult read_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// Returns an empty string on success, else a one-line error.
std::string write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);

// A file written piece by piece and put in place whole by commit(), so that a run that fails,
// throws or is killed part way leaves nothing: it is written unnamed in the output's folder (Linux's
// O_TMPFILE), and commit() names it and renames it onto `path`. Where the file system has no
// unnamed files, it is written to `path`.tmp-zkrv.<pid>.<n>, removed when the object is destroyed
// uncommitted (but left behind by a killed process). A device or a pipe (/dev/null, a FIFO) is
// written in place, never replaced; "-" is stdout. After the first error (one line, naming
// `path`) nothing more is written.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  bool write(std::span<const uint8_t> bytes);  // false after an error (see error()) or after commit()
  std::string commit();                        // close and rename once: empty, or the first error
  const std::string& error() const { return error_; }
  uint64_t size() const { return size_; }  // the bytes written
  bool unnamed() const;                    // open, and no name of it in the folder yet

 private:
  std::string path_, tmp_, error_;
  std::FILE* f_ = nullptr;
  uint64_t size_ = 0;
  bool direct_ = false;  // a device or a pipe, written in place
};

}  // namespace zkrv::tools
