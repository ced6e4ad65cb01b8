#include "spec/isa.h"

#include <cstdio>

namespace zkrv::spec {

std::string_view fault_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::kNone: return "none";
    case FaultKind::kIllegalInstruction: return "illegal instruction";
    case FaultKind::kMisalignedJump: return "misaligned jump";
    case FaultKind::kFetch: return "fetch fault";
    case FaultKind::kLoad: return "load fault";
    case FaultKind::kStore: return "store fault";
    case FaultKind::kBreakpoint: return "breakpoint";
    case FaultKind::kCycleLimit: return "cycle limit";
  }
  return "unknown";
}

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string describe(const Fault& f) {
  std::string s(fault_name(f.kind));
  s += " at pc " + hex(f.pc);
  if (f.kind != FaultKind::kFetch && !(f.kind == FaultKind::kCycleLimit && f.insn == 0))
    s += " (" + disassemble(f.insn, f.pc) + ")";
  switch (f.kind) {
    case FaultKind::kMisalignedJump: s += ": target " + hex(f.address) + " is not 4-byte aligned"; break;
    case FaultKind::kFetch: s += ": address is not in an executable segment"; break;
    case FaultKind::kLoad: s += ": address " + hex(f.address) + " is not readable"; break;
    case FaultKind::kStore: s += ": address " + hex(f.address) + " is not writable"; break;
    case FaultKind::kIllegalInstruction: s += ": not an RV64IM instruction"; break;
    case FaultKind::kCycleLimit: s += ": cycle limit reached"; break;
    default: break;
  }
  return s;
}

std::string_view class_name(InsnClass c) {
  static constexpr std::string_view names[] = {"alu",  "shift", "compare", "mul",  "div",   "load",
                                                "store", "branch", "jump", "upper", "system"};
  auto i = static_cast<size_t>(c);
  return i < std::size(names) ? names[i] : "?";
}

InsnClass insn_class(uint32_t insn) {
  const uint32_t opcode = insn & 0x7f, f3 = (insn >> 12) & 7, f7 = insn >> 25;
  const bool shift = f3 == 1 || f3 == 5, compare = f3 == 2 || f3 == 3;
  switch (opcode) {
    case 0x37: case 0x17: return InsnClass::kUpper;
    case 0x6f: case 0x67: return InsnClass::kJump;
    case 0x63: return InsnClass::kBranch;
    case 0x03: return InsnClass::kLoad;
    case 0x23: return InsnClass::kStore;
    case 0x13: return shift ? InsnClass::kShift : compare ? InsnClass::kCompare : InsnClass::kAlu;
    case 0x1b: return shift ? InsnClass::kShift : InsnClass::kAlu;
    case 0x33:
      if (f7 == 1) return f3 < 4 ? InsnClass::kMul : InsnClass::kDiv;
      return shift ? InsnClass::kShift : compare ? InsnClass::kCompare : InsnClass::kAlu;
    case 0x3b:
      if (f7 == 1) return f3 < 4 ? InsnClass::kMul : InsnClass::kDiv;
      return shift ? InsnClass::kShift : InsnClass::kAlu;
    default: return InsnClass::kSystem;  // fence, ecall (and what the executors refuse)
  }
}

// spec: isa:cost:model (version 1). Weights approximate the trace rows each class adds.
uint64_t cost_estimate(const ExecStats& s, uint64_t cycles) {
  auto n = [&](InsnClass c) { return s.per_class[static_cast<size_t>(c)]; };
  return cycles + n(InsnClass::kMul) + 3 * n(InsnClass::kDiv) + n(InsnClass::kLoad) +
         n(InsnClass::kStore) + 2 * s.misaligned_accesses + 64 * s.pages_touched +
         (s.input_bytes_read + s.output_bytes) / 8;
}

std::string_view reg_name(unsigned i) {
  static constexpr std::string_view names[32] = {
      "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
      "a6",   "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  return i < 32 ? names[i] : "?";
}

std::string disassemble(uint32_t insn, uint64_t pc) {
  const unsigned opcode = insn & 0x7f, rd = (insn >> 7) & 31, f3 = (insn >> 12) & 7,
                 rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31, f7 = insn >> 25;
  const int64_t imm_i = static_cast<int32_t>(insn) >> 20;
  const int64_t imm_s = (static_cast<int32_t>(insn) >> 25 << 5) | ((insn >> 7) & 31);
  const int64_t imm_b = (static_cast<int32_t>(insn) >> 31 << 12) | (((insn >> 7) & 1) << 11) |
                        (((insn >> 25) & 63) << 5) | (((insn >> 8) & 15) << 1);
  const int64_t imm_u = static_cast<int32_t>(insn & 0xfffff000u);
  const int64_t imm_j = (static_cast<int32_t>(insn) >> 31 << 20) | (insn & 0xff000) |
                        (((insn >> 20) & 1) << 11) | (((insn >> 21) & 0x3ff) << 1);
  auto R = [](unsigned r) { return std::string(reg_name(r)); };
  auto I = [](int64_t v) { return std::to_string(v); };
  const std::string illegal = "illegal " + hex(insn);
  switch (opcode) {
    case 0x37: return "lui " + R(rd) + ", " + hex(static_cast<uint64_t>(imm_u >> 12) & 0xfffff);
    case 0x17: return "auipc " + R(rd) + ", " + hex(static_cast<uint64_t>(imm_u >> 12) & 0xfffff);
    case 0x6f: return "jal " + R(rd) + ", " + hex(pc + imm_j);
    case 0x67: return f3 == 0 ? "jalr " + R(rd) + ", " + I(imm_i) + "(" + R(rs1) + ")" : illegal;
    case 0x63: {
      static constexpr const char* n[8] = {"beq", "bne", nullptr, nullptr, "blt", "bge", "bltu", "bgeu"};
      if (!n[f3]) return illegal;
      return std::string(n[f3]) + " " + R(rs1) + ", " + R(rs2) + ", " + hex(pc + imm_b);
    }
    case 0x03: {
      static constexpr const char* n[8] = {"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", nullptr};
      if (!n[f3]) return illegal;
      return std::string(n[f3]) + " " + R(rd) + ", " + I(imm_i) + "(" + R(rs1) + ")";
    }
    case 0x23: {
      static constexpr const char* n[8] = {"sb", "sh", "sw", "sd", nullptr, nullptr, nullptr, nullptr};
      if (!n[f3]) return illegal;
      return std::string(n[f3]) + " " + R(rs2) + ", " + I(imm_s) + "(" + R(rs1) + ")";
    }
    case 0x13: case 0x1b: {
      const bool w = opcode == 0x1b;
      const unsigned shamt = (insn >> 20) & (w ? 31 : 63), top = insn >> (w ? 25 : 26);
      std::string name;
      switch (f3) {
        case 0: name = w ? "addiw" : "addi"; break;
        case 1: if (top != 0) return illegal; name = w ? "slliw" : "slli"; break;
        case 5:
          if (top == 0) name = w ? "srliw" : "srli";
          else if (top == (w ? 0x20u : 0x10u)) name = w ? "sraiw" : "srai";
          else return illegal;
          break;
        case 2: if (w) return illegal; name = "slti"; break;
        case 3: if (w) return illegal; name = "sltiu"; break;
        case 4: if (w) return illegal; name = "xori"; break;
        case 6: if (w) return illegal; name = "ori"; break;
        case 7: if (w) return illegal; name = "andi"; break;
      }
      const bool shift = f3 == 1 || f3 == 5;
      return name + " " + R(rd) + ", " + R(rs1) + ", " + (shift ? I(shamt) : I(imm_i));
    }
    case 0x33: case 0x3b: {
      const bool w = opcode == 0x3b;
      static constexpr const char* base[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
      static constexpr const char* mul[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
      std::string name;
      if (f7 == 0) name = base[f3];
      else if (f7 == 0x20 && (f3 == 0 || f3 == 5)) name = f3 == 0 ? "sub" : "sra";
      else if (f7 == 1) name = mul[f3];
      else return illegal;
      if (w) {
        if (name == "slt" || name == "sltu" || name == "xor" || name == "or" || name == "and" ||
            name == "mulh" || name == "mulhsu" || name == "mulhu")
          return illegal;
        name += "w";
      }
      return name + " " + R(rd) + ", " + R(rs1) + ", " + R(rs2);
    }
    case 0x0f: return f3 == 0 ? "fence" : illegal;
    case 0x73:
      if (insn == 0x00000073) return "ecall";
      if (insn == 0x00100073) return "ebreak";
      return illegal;
  }
  return illegal;
}

}  // namespace zkrv::spec
