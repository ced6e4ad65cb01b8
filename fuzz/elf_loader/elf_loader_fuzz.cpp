// fuzz/elf_loader: the ELF loader never crashes, never reads out of bounds (ASan/UBSan), and
// every accepted image satisfies the loader's own rules.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "reference/elf/elf_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto r = zkrv::ref::load_elf(std::span<const uint8_t>(data, size));
  if (!r.ok()) {
    if (r.rule.empty() || r.message.empty()) std::abort();
    return 0;
  }
  uint64_t prev_end = 0;
  for (const auto& s : r.image->segments) {
    if (s.vaddr < prev_end || s.vaddr < 0x1000 || s.vaddr + s.memsz > (uint64_t{1} << 32)) std::abort();
    if (s.data.size() > s.memsz) std::abort();
    if ((s.flags & 2) && (s.flags & 1)) std::abort();
    prev_end = s.vaddr + s.memsz;
  }
  if (r.image->entry % 4) std::abort();
  return 0;
}
