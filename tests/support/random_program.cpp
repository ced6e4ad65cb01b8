#include "tests/support/random_program.h"

#include <random>

#include "tests/support/elf_builder.h"

namespace zkrv::testing {

using namespace rv;

namespace {
constexpr uint32_t kBase = 31;   // data base register, = 0x20800, never written by the body
constexpr uint32_t kTemp = 30;   // auipc/jalr temporary
constexpr uint64_t kDataSize = 0x2000;
}  // namespace

RandomProgram random_program(uint64_t seed, const RandomProgramOptions& o) {
  std::mt19937_64 g(seed);
  auto rnd = [&](uint64_t n) { return static_cast<uint32_t>(g() % n); };
  auto rd_any = [&] { return rnd(30); };        // x0..x29 (x0 allowed: writes must not stick)
  auto rs_any = [&] { return rnd(32); };

  RandomProgram out;
  std::vector<uint32_t> code;
  // Prologue: x31 = 0x20800; x1..x30 from the table at 0x20000.
  code.push_back(lui(kBase, 0x21));
  code.push_back(addi(kBase, kBase, -0x800));
  for (uint32_t r = 1; r <= 30; ++r) code.push_back(ld(r, kBase, static_cast<int32_t>(r * 8) - 0x800));

  const size_t body_start = code.size();
  const unsigned n = o.body_instructions;
  std::vector<bool> no_target(n + 1, false);  // second half of auipc/jalr pairs
  std::vector<bool> targeted(n + 1, false);   // already the target of an earlier jump
  std::vector<uint32_t> body(n, 0);
  const bool fault = o.fault_rate > 0 && (g() % 1000000) < o.fault_rate * 1000000;
  const unsigned fault_at = fault ? rnd(n) : n + 1;
  out.expects_fault = false;

  static const uint32_t r_ops[][3] = {  // f7, f3, opcode
      {0, 0, 0x33}, {0x20, 0, 0x33}, {0, 1, 0x33}, {0, 2, 0x33}, {0, 3, 0x33}, {0, 4, 0x33}, {0, 5, 0x33},
      {0x20, 5, 0x33}, {0, 6, 0x33}, {0, 7, 0x33}, {1, 0, 0x33}, {1, 1, 0x33}, {1, 2, 0x33}, {1, 3, 0x33},
      {1, 4, 0x33}, {1, 5, 0x33}, {1, 6, 0x33}, {1, 7, 0x33}, {0, 0, 0x3b}, {0x20, 0, 0x3b}, {0, 1, 0x3b},
      {0, 5, 0x3b}, {0x20, 5, 0x3b}, {1, 0, 0x3b}, {1, 4, 0x3b}, {1, 5, 0x3b}, {1, 6, 0x3b}, {1, 7, 0x3b}};
  for (unsigned k = 0; k < n; ++k) {
    if (k == fault_at) {
      switch (rnd(4)) {
        case 0: body[k] = ld(rd_any(), 0, static_cast<int32_t>(rnd(2048))); break;          // null page
        case 1: body[k] = s(static_cast<int32_t>(rnd(2048)), rs_any(), 0, rnd(4), 0x23); break;
        case 2: body[k] = 0; break;                                                           // illegal
        default: body[k] = 0x00100073; break;                                                 // ebreak
      }
      out.expects_fault = true;
      continue;
    }
    const uint32_t kind = rnd(100);
    const uint32_t rd = rd_any(), rs1 = rs_any(), rs2 = rs_any();
    const int32_t imm = static_cast<int32_t>(rnd(4096)) - 2048;
    if (kind < 35) {
      const auto& op = r_ops[rnd(std::size(r_ops))];
      body[k] = r(op[0], rs2, rs1, op[1], rd, op[2]);
    } else if (kind < 50) {
      static const uint32_t f3s[] = {0, 2, 3, 4, 6, 7};
      body[k] = i(imm, rs1, f3s[rnd(6)], rd, 0x13);
    } else if (kind < 55) {
      body[k] = i(imm, rs1, 0, rd, 0x1b);  // addiw
    } else if (kind < 62) {
      const uint32_t which = rnd(6);
      const uint32_t sh = which < 3 ? rnd(64) : rnd(32);
      const uint32_t opc = which < 3 ? 0x13 : 0x1b;
      const uint32_t f3 = (which % 3) == 0 ? 1 : 5;
      const uint32_t top = (which % 3) == 2 ? (opc == 0x13 ? 0x400 : 0x400) : 0;
      body[k] = i(static_cast<int32_t>(sh | top), rs1, f3, rd, opc);
    } else if (kind < 65) {
      body[k] = u(static_cast<uint32_t>(g()) & 0xfffff, rd, rnd(2) ? 0x37 : 0x17);
    } else if (kind < 77) {
      static const uint32_t f3s[] = {0, 1, 2, 3, 4, 5, 6};
      body[k] = i(imm, kBase, f3s[rnd(7)], rd, 0x03);
    } else if (kind < 87) {
      body[k] = s(imm, rs2, kBase, rnd(4), 0x23);
    } else if (kind < 95) {
      static const uint32_t f3s[] = {0, 1, 4, 5, 6, 7};
      const unsigned left = n - k;  // target in (k, n]: n is the epilogue
      unsigned dist = 1 + rnd(std::min(left, 16u));
      while (no_target[k + dist] && dist > 1) --dist;
      if (no_target[k + dist]) { body[k] = addi(0, 0, 0); continue; }
      body[k] = b(static_cast<int32_t>(dist * 4), rs2, rs1, f3s[rnd(6)]);
      targeted[k + dist] = true;
    } else if (kind < 97) {
      const unsigned left = n - k;
      unsigned dist = 1 + rnd(std::min(left, 16u));
      while (no_target[k + dist] && dist > 1) --dist;
      if (no_target[k + dist]) { body[k] = addi(0, 0, 0); continue; }
      body[k] = j(static_cast<int32_t>(dist * 4), rd);
      targeted[k + dist] = true;
    } else if (k + 2 < n && !targeted[k + 1]) {
      // auipc x30, 0 ; jalr rd, off(x30) to a later instruction (bit 0 sometimes set).
      const unsigned left = n - (k + 1);
      unsigned dist = 1 + rnd(std::min(left, 16u));
      body[k] = u(0, kTemp, 0x17);
      body[k + 1] = i(static_cast<int32_t>((dist + 1) * 4 + rnd(2)), kTemp, 0, rd, 0x67);
      no_target[k + 1] = true;
      targeted[k + 1 + dist] = true;
      ++k;
    } else {
      body[k] = addi(0, 0, 0);
    }
  }
  code.insert(code.end(), body.begin(), body.end());
  (void)body_start;

  // Epilogue: dump x1..x30 at 0x20c00.., write(1, 0x20000, 0x2000), exit(0).
  for (uint32_t r = 1; r <= 30; ++r) code.push_back(sd(r, kBase, 0x400 + static_cast<int32_t>(r) * 8));
  code.push_back(addi(10, 0, 1));
  code.push_back(lui(11, 0x20));
  code.push_back(lui(12, 0x2));
  code.push_back(addi(17, 0, 64));
  code.push_back(ecall());
  code.push_back(addi(10, 0, 0));
  code.push_back(addi(17, 0, 93));
  code.push_back(ecall());

  std::vector<uint8_t> data(kDataSize);
  for (auto& byte : data) byte = static_cast<uint8_t>(g());
  out.elf = simple_elf(code, data, kDataSize);
  return out;
}

}  // namespace zkrv::testing
