#include "tests/support/elf_builder.h"

#include <cstring>

namespace zkrv::testing {
namespace {
void put(std::vector<uint8_t>& b, size_t off, uint64_t v, size_t n) {
  if (b.size() < off + n) b.resize(off + n);
  for (size_t k = 0; k < n; ++k) b[off + k] = static_cast<uint8_t>(v >> (8 * k));
}
}  // namespace

std::vector<uint8_t> build_elf(const ElfSpec& e) {
  std::vector<uint8_t> b(64, 0);
  b[0] = 0x7f; b[1] = 'E'; b[2] = 'L'; b[3] = 'F';
  b[4] = e.ei_class; b[5] = e.ei_data; b[6] = e.ei_version;
  put(b, 16, e.e_type, 2);
  put(b, 18, e.e_machine, 2);
  put(b, 20, 1, 4);
  put(b, 24, e.entry, 8);
  const uint64_t phoff = 64;
  put(b, 32, e.e_phoff_override.value_or(phoff), 8);
  put(b, 40, e.garbage_section_headers ? 0xdeadbeefcafeull : 0, 8);  // e_shoff
  put(b, 52, 64, 2);
  put(b, 54, e.e_phentsize, 2);
  put(b, 56, e.e_phnum_override.value_or(static_cast<uint16_t>(e.phdrs.size())), 2);
  put(b, 58, 64, 2);
  put(b, 60, e.garbage_section_headers ? 77 : 0, 2);
  put(b, 62, e.garbage_section_headers ? 99 : 0, 2);
  b.resize(phoff + 56 * e.phdrs.size(), 0);
  // Lay segment bytes out page-aligned so that p_offset ≡ p_vaddr (mod p_align).
  uint64_t off = 0x1000;
  for (size_t k = 0; k < e.phdrs.size(); ++k) {
    const PhdrSpec& p = e.phdrs[k];
    off = ((off + 0xfff) & ~uint64_t{0xfff}) + p.vaddr % 0x1000;
    if (b.size() < off + p.data.size()) b.resize(off + p.data.size(), 0);
    if (!p.data.empty()) std::memcpy(b.data() + off, p.data.data(), p.data.size());
    const size_t h = phoff + 56 * k;
    put(b, h, p.type, 4);
    put(b, h + 4, p.flags, 4);
    put(b, h + 8, p.offset_override.value_or(off), 8);
    put(b, h + 16, p.vaddr, 8);
    put(b, h + 24, p.vaddr, 8);
    put(b, h + 32, p.filesz_override.value_or(p.data.size()), 8);
    put(b, h + 40, p.memsz ? p.memsz : p.data.size(), 8);
    put(b, h + 48, p.align, 8);
    off += p.data.size();
  }
  return b;
}

std::vector<uint8_t> simple_elf(const std::vector<uint32_t>& code, std::vector<uint8_t> data, uint64_t data_memsz) {
  ElfSpec e;
  PhdrSpec text;
  text.data.resize(code.size() * 4);
  std::memcpy(text.data.data(), code.data(), text.data.size());
  e.phdrs.push_back(text);
  PhdrSpec d;
  d.flags = 6;
  d.vaddr = 0x20000;
  d.memsz = std::max<uint64_t>(data_memsz, data.size());
  d.data = std::move(data);
  e.phdrs.push_back(d);
  return build_elf(e);
}

namespace rv {
uint32_t r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
uint32_t i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return (static_cast<uint32_t>(imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
uint32_t s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc) {
  const uint32_t v = static_cast<uint32_t>(imm);
  return (((v >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((v & 31) << 7) | opc;
}
uint32_t b(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  const uint32_t v = static_cast<uint32_t>(imm);
  return (((v >> 12) & 1) << 31) | (((v >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
         (((v >> 1) & 0xf) << 8) | (((v >> 11) & 1) << 7) | 0x63;
}
uint32_t u(uint32_t imm20, uint32_t rd, uint32_t opc) { return (imm20 << 12) | (rd << 7) | opc; }
uint32_t j(int32_t imm, uint32_t rd) {
  const uint32_t v = static_cast<uint32_t>(imm);
  return (((v >> 20) & 1) << 31) | (((v >> 1) & 0x3ff) << 21) | (((v >> 11) & 1) << 20) | (((v >> 12) & 0xff) << 12) |
         (rd << 7) | 0x6f;
}
std::vector<uint32_t> exit_with(int32_t code) { return {addi(10, 0, code), addi(17, 0, 93), ecall()}; }
}  // namespace rv

std::vector<uint8_t> echo_elf(int32_t spin) {
  using namespace rv;
  std::vector<uint32_t> code = {lui(8, 0x20),
                                addi(17, 0, 63), addi(10, 0, 0), addi(11, 8, 0), addi(12, 0, 4), ecall(),
                                addi(9, 10, 0),
                                addi(17, 0, 64), addi(10, 0, 1), addi(12, 9, 0), ecall(),
                                addi(8, 8, 4), addi(5, 0, spin),
                                addi(5, 5, -1), b(-4, 0, 5, 1),
                                b(-56, 0, 9, 1)};
  for (uint32_t w : exit_with(0)) code.push_back(w);
  return simple_elf(code);
}

}  // namespace zkrv::testing
