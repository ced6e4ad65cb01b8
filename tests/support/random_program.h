#pragma once
// Random RV64IM program generator for differential testing. Programs use only valid
// encodings; every register starts from a random table; loads and stores go through x31 into
// a data region (any alignment); branches and jumps go forward, so every program ends. The
// epilogue stores x1..x30 and writes the whole data region to fd 1 (register dump + memory
// digest), then exits 0. With `fault_rate` > 0, a few programs end in a deliberate fault
// (null-page access, illegal word, ebreak, misaligned jump) that every executor must report.

#include <cstdint>
#include <vector>

namespace zkrv::testing {

struct RandomProgramOptions {
  unsigned body_instructions = 200;
  double fault_rate = 0.0;  // chance per program of one deliberate fault
};

struct RandomProgram {
  std::vector<uint8_t> elf;
  bool expects_fault = false;
};

RandomProgram random_program(uint64_t seed, const RandomProgramOptions& options = {});

}  // namespace zkrv::testing
