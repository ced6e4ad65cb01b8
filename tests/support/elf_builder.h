#pragma once
// Test support: builds ELF64 RISC-V executables byte by byte (valid ones and deliberately
// broken ones), and encodes RV64IM instructions. Shared by the tests and the fuzz harnesses.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zkrv::testing {

struct PhdrSpec {
  uint32_t type = 1;  // PT_LOAD
  uint32_t flags = 5; // R|X
  uint64_t vaddr = 0x10000;
  uint64_t memsz = 0;  // 0: = data.size()
  uint64_t align = 0x1000;
  std::vector<uint8_t> data;
  // Overrides for broken headers (applied as written, after layout).
  std::optional<uint64_t> offset_override, filesz_override;
};

struct ElfSpec {
  uint64_t entry = 0x10000;
  std::vector<PhdrSpec> phdrs;
  uint8_t ei_class = 2, ei_data = 1, ei_version = 1;
  uint16_t e_type = 2, e_machine = 243, e_phentsize = 56;
  std::optional<uint16_t> e_phnum_override;
  std::optional<uint64_t> e_phoff_override;
  bool garbage_section_headers = false;
};

std::vector<uint8_t> build_elf(const ElfSpec& spec);

// A program with a code segment at 0x10000 (R|X) and a data segment at 0x20000 (R|W).
std::vector<uint8_t> simple_elf(const std::vector<uint32_t>& code, std::vector<uint8_t> data = {},
                                uint64_t data_memsz = 0x1000);

namespace rv {
uint32_t r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc);
uint32_t i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc);
uint32_t s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc);
uint32_t b(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3);
uint32_t u(uint32_t imm20, uint32_t rd, uint32_t opc);
uint32_t j(int32_t imm, uint32_t rd);
inline uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i(imm, rs1, 0, rd, 0x13); }
inline uint32_t lui(uint32_t rd, uint32_t imm20) { return u(imm20, rd, 0x37); }
inline uint32_t ld(uint32_t rd, uint32_t rs1, int32_t imm) { return i(imm, rs1, 3, rd, 0x03); }
inline uint32_t sd(uint32_t rs2, uint32_t rs1, int32_t imm) { return s(imm, rs2, rs1, 3, 0x23); }
inline uint32_t ecall() { return 0x00000073; }
// li rd, exit; li a7, 93; ecall  (rd = a0)
std::vector<uint32_t> exit_with(int32_t code);
}  // namespace rv

// Reads its input 4 bytes at a time and echoes each piece to fd 1, spinning ~900 cycles between
// reads (`spin` times round a two-instruction loop), then exits 0: cut into segments of 2^10
// cycles, its reads, writes and final short read fall in different segments (the segment tests'
// program; kEchoInput: 10 bytes). Another `spin` is another program of the same shape.
std::vector<uint8_t> echo_elf(int32_t spin = 450);
inline const std::vector<uint8_t> kEchoInput = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9'};

}  // namespace zkrv::testing
