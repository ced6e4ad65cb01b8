#pragma once
// File helpers for the host tools: bounded reads with one-line errors, and atomic writes
// (temp file + rename) so that a failed run never leaves a half-written file.

#include <cstdint>
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

}  // namespace zkrv::tools
