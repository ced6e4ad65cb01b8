#include "reference/elf/elf_loader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace zkrv::ref {
namespace {

constexpr uint32_t kPtLoad = 1;
constexpr uint16_t kEtExec = 2;
constexpr uint16_t kEmRiscv = 243;
constexpr size_t kEhdrSize = 64;
constexpr size_t kPhdrSize = 56;

uint64_t le(std::span<const uint8_t> b, size_t off, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{b[off + i]} << (8 * i);
  return v;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

ElfLoadResult reject(std::string rule, std::string message) {
  ElfLoadResult r;
  r.rule = std::move(rule);
  r.message = "ELF rejected [" + r.rule + "]: " + message;
  return r;
}

struct Phdr {
  size_t index;
  uint32_t type, flags;
  uint64_t offset, vaddr, filesz, memsz, align;
};

std::string where(const Phdr& p) {
  return "program header " + std::to_string(p.index) + " (PT_LOAD at " + hex(p.vaddr) + ")";
}

}  // namespace

ElfLoadResult load_elf(std::span<const uint8_t> b) {
  // spec: isa:elf:magic
  if (b.size() < kEhdrSize || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F')
    return reject("isa:elf:magic", "not an ELF file (missing \\x7fELF header)");
  // spec: isa:elf:class
  if (b[4] != 2) return reject("isa:elf:class", "not ELFCLASS64 (EI_CLASS = " + std::to_string(b[4]) + ")");
  // spec: isa:elf:data
  if (b[5] != 1) return reject("isa:elf:data", "not little-endian (EI_DATA = " + std::to_string(b[5]) + ")");
  // spec: isa:elf:version
  if (b[6] != 1 || le(b, 20, 4) != 1) return reject("isa:elf:version", "ELF version is not 1");
  // spec: isa:elf:type
  const uint64_t type = le(b, 16, 2);
  if (type != kEtExec)
    return reject("isa:elf:type", "e_type is " + std::to_string(type) + ", expected ET_EXEC (2): link a static executable");
  // spec: isa:elf:machine
  const uint64_t machine = le(b, 18, 2);
  if (machine != kEmRiscv)
    return reject("isa:elf:machine", "e_machine is " + std::to_string(machine) + ", expected EM_RISCV (243)");
  const uint64_t entry = le(b, 24, 8), phoff = le(b, 32, 8);
  const uint64_t phentsize = le(b, 54, 2), phnum = le(b, 56, 2);
  // spec: isa:elf:phdr_table
  if (phnum == 0 || phnum == 0xffff)
    return reject("isa:elf:phdr_table", "e_phnum is " + std::to_string(phnum) + "; expected 1..65534 program headers");
  if (phentsize != kPhdrSize)
    return reject("isa:elf:phdr_table", "e_phentsize is " + std::to_string(phentsize) + ", expected 56");
  if (phoff > b.size() || phnum * kPhdrSize > b.size() - phoff)
    return reject("isa:elf:phdr_table", "program header table at offset " + hex(phoff) + " runs past the end of the file");

  std::vector<Phdr> loads;
  for (size_t i = 0; i < phnum; ++i) {
    const size_t o = phoff + i * kPhdrSize;
    Phdr p{i, static_cast<uint32_t>(le(b, o, 4)), static_cast<uint32_t>(le(b, o + 4, 4)),
           le(b, o + 8, 8), le(b, o + 16, 8), le(b, o + 32, 8), le(b, o + 40, 8), le(b, o + 48, 8)};
    // spec: isa:elf:pt_load_only — every other header type is ignored; empty segments too.
    if (p.type != kPtLoad || p.memsz == 0) continue;
    // spec: isa:elf:file_range
    if (p.filesz > p.memsz)
      return reject("isa:elf:file_range", where(p) + " has p_filesz " + hex(p.filesz) + " > p_memsz " + hex(p.memsz));
    if (p.offset > b.size() || p.filesz > b.size() - p.offset)
      return reject("isa:elf:file_range", where(p) + " file bytes [" + hex(p.offset) + ", +" + hex(p.filesz) + ") run past the end of the file");
    // spec: isa:elf:address_range
    if (p.vaddr < spec::kNullPageEnd || p.vaddr >= spec::kAddressLimit ||
        p.memsz > spec::kAddressLimit - p.vaddr)
      return reject("isa:elf:address_range", where(p) + " with p_memsz " + hex(p.memsz) + " is outside [0x1000, 2^32)");
    // spec: isa:elf:alignment
    if (p.align > 1 && ((p.align & (p.align - 1)) != 0 || (p.vaddr % p.align) != (p.offset % p.align)))
      return reject("isa:elf:alignment", where(p) + " has p_align " + hex(p.align) + " that is not a power of two congruent with p_offset " + hex(p.offset));
    if ((p.flags & spec::kFlagX) && p.vaddr % 4 != 0)
      return reject("isa:elf:alignment", where(p) + " is executable but its p_vaddr is not 4-byte aligned");
    // spec: isa:elf:wx
    if ((p.flags & spec::kFlagW) && (p.flags & spec::kFlagX))
      return reject("isa:elf:wx", where(p) + " is both writable and executable");
    // spec: isa:elf:exec_model
    if ((p.flags & spec::kFlagX) && !(p.flags & spec::kFlagR))
      return reject("isa:elf:exec_model", where(p) + " is executable but not readable; zkrv takes PF_R|PF_X code");
    loads.push_back(p);
  }
  // spec: isa:elf:overlap — checked on the sorted list so that header order cannot matter.
  std::sort(loads.begin(), loads.end(), [](const Phdr& a, const Phdr& c) { return a.vaddr < c.vaddr; });
  for (size_t i = 1; i < loads.size(); ++i) {
    if (loads[i].vaddr < loads[i - 1].vaddr + loads[i - 1].memsz)
      return reject("isa:elf:overlap", where(loads[i]) + " overlaps " + where(loads[i - 1]));
  }
  // spec: isa:elf:entry
  if (entry % 4 != 0) return reject("isa:elf:entry", "entry point " + hex(entry) + " is not 4-byte aligned");
  const bool entry_ok = std::any_of(loads.begin(), loads.end(), [&](const Phdr& p) {
    return (p.flags & spec::kFlagX) && entry >= p.vaddr && entry < p.vaddr + p.memsz;
  });
  if (!entry_ok) return reject("isa:elf:entry", "entry point " + hex(entry) + " is not inside an executable segment");

  ElfLoadResult r;
  r.image.emplace();
  r.image->entry = entry;
  for (const Phdr& p : loads) {
    spec::Segment s;
    s.vaddr = p.vaddr;
    s.memsz = p.memsz;
    s.flags = p.flags & (spec::kFlagR | spec::kFlagW | spec::kFlagX);
    // spec: isa:elf:zero_fill — p_filesz bytes copied; the rest of p_memsz reads as zero.
    s.data.assign(b.begin() + static_cast<ptrdiff_t>(p.offset),
                  b.begin() + static_cast<ptrdiff_t>(p.offset + p.filesz));
    r.image->segments.push_back(std::move(s));
  }
  return r;
}

}  // namespace zkrv::ref
