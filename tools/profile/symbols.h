#pragma once
// Function symbols of a guest ELF (the .symtab's STT_FUNC entries, C++ names demangled), for
// attributing program counters to functions. Reads section headers defensively: a stripped or
// malformed table gives no symbols, never a crash.

#include <cstdint>
#include <optional>
#include <utility>
#include <span>
#include <string>
#include <vector>

namespace zkrv::tools::profile {

struct Function {
  uint64_t start = 0, end = 0;  // [start, end); end = next symbol when the size is 0
  std::string name;             // demangled
};

class SymbolTable {
 public:
  static SymbolTable from_elf(std::span<const uint8_t> elf);
  // Index into functions() of the function holding pc, or -1.
  int find(uint64_t pc) const;
  // Index of the function holding pc when pc is a function entry (the start of any function
  // symbol, including aliases inside another function such as __riscv_restore_N), or -1.
  int starting_at(uint64_t pc) const;
  const std::vector<Function>& functions() const { return functions_; }
  // Empty, or what was wrong with the symbols (sizes clipped to their executable segment,
  // symbols outside every executable segment ignored): worth a warning, never fatal.
  const std::string& warning() const { return warning_; }
  // The stack zkrv.ld places, [bottom, top), from its _stack_bottom and _stack_top symbols; none
  // where the ELF lacks either (another linker script, stripped) or they are out of order.
  std::optional<std::pair<uint64_t, uint64_t>> stack() const {
    if (!stack_bottom_ || !stack_top_ || *stack_bottom_ >= *stack_top_) return std::nullopt;
    return std::pair{*stack_bottom_, *stack_top_};
  }

 private:
  std::vector<Function> functions_;  // sorted by start, non-overlapping
  std::vector<uint64_t> entries_;    // every function symbol's start, sorted
  std::string warning_;
  std::optional<uint64_t> stack_bottom_, stack_top_;
};

std::string demangle(const std::string& name);

}  // namespace zkrv::tools::profile
