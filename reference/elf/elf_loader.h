#pragma once
// The reference ELF loader: turns ELF bytes into a validated spec::ProgramImage, applying every
// rule of spec/isa.md § ELF loading (isa:elf:*) in the order the spec lists them.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "spec/isa.h"

namespace zkrv::ref {

struct ElfLoadResult {
  std::optional<spec::ProgramImage> image;  // set on success
  std::string rule;                         // on failure: the violated rule ID (isa:elf:...)
  std::string message;                      // on failure: one line naming the offending header
  bool ok() const { return image.has_value(); }
};

// Never throws on malformed input and never reads outside `bytes`.
ElfLoadResult load_elf(std::span<const uint8_t> bytes);

}  // namespace zkrv::ref
