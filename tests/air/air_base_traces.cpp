// The base traces of the AIR tests (air_fixture.h): the fibonacci guest's, small hand-made
// programs' (synthetic: no ELF, the steps given), and programs run by the executor that exercise
// every ALU, multiply, divide, load, store and syscall form, the exit, and the memory and
// division edge cases. Each is built once, on first use.
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {
namespace {
namespace fs = std::filesystem;
}  // namespace

const spec::air::Spec& the_spec() {
  static const auto r = spec::air::load_spec_dir(ZKRV_SPEC_DIR);
  if (!r.spec) throw std::runtime_error(r.errors.front().str());
  return *r.spec;
}

namespace {

std::vector<uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::optional<Run> run_elf(const fs::path& elf, const fs::path& input, uint64_t max_cycles) {
  auto loaded = load_elf(slurp(elf));
  if (!loaded.ok()) return std::nullopt;
  spec::ExecOptions o;
  o.max_cycles = max_cycles;
  o.trace = true;
  o.random_seed = 1;
  const auto in = fs::exists(input) ? slurp(input) : std::vector<uint8_t>{};
  return Run{*loaded.image, opt::execute(*loaded.image, in, o)};
}

// The fibonacci guest's trace: the base of most mutations.
const AirTrace& fib() {
  static const AirTrace t = [] {
    auto r = run_elf(fs::path(ZKRV_GUEST_PROGRAMS_DIR) / "fibonacci.elf", fs::path(ZKRV_SOURCE_DIR) / "guest/programs/fibonacci.input",
                     1 << 20);
    return build_trace(r->image, r->result);
  }();
  return t;
}

// A program built without an ELF: `words` at 0x10000 (one executable segment), executed as the
// steps (pc, next_pc) say, the writes (step, rd, value) recorded. The test programs below use it.
AirTrace synthetic(const std::vector<uint32_t>& words, const std::vector<Step>& steps, const std::vector<Write>& writes) {
  spec::ProgramImage img;
  img.entry = 0x10000;
  std::vector<uint8_t> bytes;
  for (uint32_t w : words)
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(w >> (8 * k)));
  img.segments.push_back({0x10000, bytes.size(), spec::kFlagR | spec::kFlagX, bytes});
  spec::ExecResult r;
  r.status = spec::ExitStatus::kExited;
  r.cycles = steps.size();
  r.trace.resize(steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    r.trace[i].cycle = i, r.trace[i].pc = steps[i].pc, r.trace[i].next_pc = steps[i].next_pc;
    r.trace[i].insn = words[(steps[i].pc - 0x10000) / 4];
  }
  for (const Write& w : writes) r.trace[w.step].rd = w.rd, r.trace[w.step].rd_value = w.value;
  for (const Write& w : writes)  // the exit code: a0 at the exit
    if (w.rd == 10) r.exit_code = static_cast<int32_t>(w.value);
  return build_trace(img, r);
}

// lui x4, 1; addi x0, x0, 4; addi a7, x0, 93; ecall (exit). Its byte and range lookups are small,
// which leaves room in those tables for the attacks on them, and its first addi writes x0 with a
// J-immediate of 4, a row where every flag's value constraint can hold.
const AirTrace& mini() {
  static const AirTrace t =
      synthetic({0x00001237, 0x00400013, 0x05d00893, 0x00000073},
                {{0x10000, 0x10004}, {0x10004, 0x10008}, {0x10008, 0x1000c}, {0x1000c, 0x1000c}}, {{0, 4, 0x1000}, {2, 17, 93}});
  return t;
}

// ecall (a7 = 0, not the exit: it returns -ENOSYS in a0), beq x0, x0, +4, jal x0, +4, jal x0, +4, addi a7, x0, 93, ecall
// (exit), and a zero word that is never executed. The branch (whose target is not yet constrained), the duplicated jal and the
// zero word make room for the attacks on pc_ecall, one_class and jal_target that the real
// guests' traces do not offer.
const AirTrace& jumps() {
  static const AirTrace t =
      synthetic({0x00000073, 0x00000263, 0x0040006f, 0x0040006f, 0x05d00893, 0x00000073, 0x00000000},
                {{0x10000, 0x10004}, {0x10004, 0x10008}, {0x10008, 0x1000c}, {0x1000c, 0x10010}, {0x10010, 0x10014},
                 {0x10014, 0x10014}},
                {{0, 10, ~uint64_t{37}}, {4, 17, 93}});
  return t;
}

// lui x5, 0x10; remu x5, x5, x0 (x5 % 0 = x5); jalr x0, 13(x5); at the target 0x1000c addi a7,
// x0, 93 and ecall (exit); and a twin of those two at 0x10014. The tests change the jalr's input
// by rewriting the first two instructions (indirect_x5); the twin is where a wrong target can
// land.
const AirTrace& indirect() {
  static const AirTrace t =
      synthetic({0x000102b7, 0x0202f2b3, 0x00d28067, 0x05d00893, 0x00000073, 0x05d00893, 0x00000073},
                {{0x10000, 0x10004}, {0x10004, 0x10008}, {0x10008, 0x1000c}, {0x1000c, 0x10010}, {0x10010, 0x10010}},
                {{0, 5, 0x10000}, {1, 5, 0x10000}, {3, 17, 93}});
  return t;
}

namespace {

// A program of instruction words at 0x10000 (and `data` segments above it), executed with a
// trace on `input` (it must exit), as a trace.
struct Executed {
  spec::ProgramImage image;
  spec::ExecResult run;
};
Executed execute_words(const std::vector<uint32_t>& words, const char* name, const std::vector<spec::Segment>& data = {},
                       const std::string& input = "") {
  spec::ProgramImage img;
  img.entry = 0x10000;
  std::vector<uint8_t> bytes;
  for (uint32_t w : words)
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<uint8_t>(w >> (8 * k)));
  img.segments.push_back({0x10000, bytes.size(), spec::kFlagR | spec::kFlagX, bytes});
  img.segments.insert(img.segments.end(), data.begin(), data.end());
  spec::ExecOptions o;
  o.trace = true;
  o.random_seed = 7;
  const auto run = opt::execute(img, std::vector<uint8_t>(input.begin(), input.end()), o);
  if (run.status != spec::ExitStatus::kExited) throw std::logic_error(std::string(name) + " did not exit");
  return {img, run};
}

}  // namespace
AirTrace executed(const std::vector<uint32_t>& words, const char* name, const std::vector<spec::Segment>& data,
                  const std::string& input) {
  const auto e = execute_words(words, name, data, input);
  return build_trace(e.image, e.run);
}

// add x0, x0, x0; addi a7, x0, 93; addi a0, x0, 0; ecall (exit 0), executed. The add is an OP
// word whose operand b (x0's value, 0) equals its I-immediate (rs2 = 0, funct7 = 0) and whose
// result goes to x0: the row that reads it as OPIMM + STORE - LOAD (cpu:c:f_load_bit) sends the
// same ALU tuple and writes nothing.
const AirTrace& op_x0_prog() {
  static const AirTrace t = executed({0x00000033, 0x05d00893, 0x00000513, 0x00000073}, "op_x0_prog");
  return t;
}

// A program executed by the executor (exit code 0): every operation the alu table proves, with
// operands of both signs, branches with offset +4 (taken or not, the same next pc, so a
// condition can be forged without changing the control flow), two identical sltu and two
// identical or tuples (for the one-operation attacks), shifts, multiplications and a division,
// a write to x0, FENCE, and a taken bne whose fall-through and target hold the same jalr (so
// that the negated condition leads to the same place).
const AirTrace& alu_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x800000b7,  // lui x1, 0x80000
        0xffb00113,  // addi x2, x0, -5
        0x00700193,  // addi x3, x0, 7
        0x00208233,  // add x4, x1, x2
        0x403102b3,  // sub x5, x2, x3
        0x0020833b,  // addw x6, x1, x2
        0x403103bb,  // subw x7, x2, x3
        0x0031041b,  // addiw x8, x2, 3
        0x003124b3,  // slt x9, x2, x3
        0x00313533,  // sltu x10, x2, x3
        0xfff12593,  // slti x11, x2, -1
        0x0081b613,  // sltiu x12, x3, 8
        0x0020c6b3,  // xor x13, x1, x2
        0x00316733,  // or x14, x2, x3
        0x0020f7b3,  // and x15, x1, x2
        0x05514813,  // xori x16, x2, 0x55
        0xff01e893,  // ori x17, x3, -16
        0x7f017913,  // andi x18, x2, 0x7f0
        0x00318263,  // beq x3, x3, +4
        0x00219263,  // bne x3, x2, +4
        0x00314263,  // blt x2, x3, +4
        0x0021d263,  // bge x3, x2, +4
        0x0021e263,  // bltu x3, x2, +4
        0x00317263,  // bgeu x2, x3, +4
        0x00310263,  // beq x2, x3, +4
        0x00311993,  // slli x19, x2, 3
        0x02310a33,  // mul x20, x2, x3
        0x40310033,  // sub x0, x2, x3
        0xcff0000f,  // fence (fm = 0b1100, ignored like the rest of a FENCE but funct3)
        0x00013c33,  // sltu x24, x2, x0
        0x00013cb3,  // sltu x25, x2, x0
        0x00316bb3,  // or x23, x2, x3
        0x00311a9b,  // slliw x21, x2, 3
        0x00000b17,  // auipc x22, 0
        0x014b0b13,  // addi x22, x22, 20
        0x00219463,  // bne x3, x2, +8
        0x000b0067,  // jalr x0, 0(x22)
        0x000b0067,  // jalr x0, 0(x22)
        0xff810d13,  // addi x26, x2, -8 (an immediate with bit 30 set)
        0x02111db3,  // mulh x27, x2, x1
        0x02112e33,  // mulhsu x28, x2, x1
        0x0220beb3,  // mulhu x29, x1, x2
        0x02208f3b,  // mulw x30, x1, x2
        0x02209fb3,  // mulh x31, x1, x2
        0x0021d263,  // bge x3, x2, +4 (a second identical bge tuple)
        0x00309db3,  // sll x27, x1, x3
        0x0030de33,  // srl x28, x1, x3
        0x4030deb3,  // sra x29, x1, x3
        0x4000df13,  // srai x30, x1, 0
        0x0030dfbb,  // srlw x31, x1, x3
        0x4030ddbb,  // sraw x27, x1, x3
        0x0000de1b,  // srliw x28, x1, 0
        0x00311ebb,  // sllw x29, x2, x3
        0x00009d13,  // slli x26, x1, 0
        0x02314c33,  // div x24, x2, x3
        0x02317cb3,  // remu x25, x2, x3
        0x0010dc13,  // srli x24, x1, 1 (0x7FFFFFFFC0000000: top byte 127)
        0x003c2cb3,  // slt x25, x24, x3 (0: the fractional-sign attack's row)
        0x05d00893,  // addi x17, x0, 93
        0x00000513,  // addi x10, x0, 0
        0x00000073,  // ecall
    };
    return executed(words, "alu_prog");
  }();
  return t;
}

// Two identical MULHSU tuples (0 × 0) and two identical BGE tuples (0 ≥ 1, not taken): the
// base of shift's one_op attack, where one shift row with two selectors receives both MULHSU
// tuples at once. Executed by the executor.
const AirTrace& merge_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x00100293,  // addi x5, x0, 1
        0x02002333,  // mulhsu x6, x0, x0
        0x020023b3,  // mulhsu x7, x0, x0
        0x00505463,  // bge x0, x5, +8 (not taken)
        0x00505463,  // bge x0, x5, +8 (not taken)
        0x05d00893,  // addi x17, x0, 93
        0x00000513,  // addi x10, x0, 0
        0x00000073,  // ecall
    };
    return executed(words, "merge_prog");
  }();
  return t;
}

// Every division form with operands of both signs, division by zero, the signed overflow of DIV,
// REM, DIVW and REMW, W forms whose operands have bits above 31, and two unsigned divisions with
// 49-bit operands (x8 = 3 x7 + 4, x7 = 0x0001000100010005) whose limbs are all non-zero, for the
// forged-quotient attacks. Executed by the executor (exit code 0).
const AirTrace& div_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x800000b7,  // lui x1, 0x80000
        0x02009093,  // slli x1, x1, 32 (x1 = -2^63)
        0xfff00113,  // addi x2, x0, -1
        0x00700193,  // addi x3, x0, 7
        0xfec00213,  // addi x4, x0, -20
        0x80000337,  // lui x6, 0x80000 (x6 = -2^31)
        0x00100393,  // addi x7, x0, 1
        0x01039393,  // slli x7, x7, 16
        0x00138393,  // addi x7, x7, 1
        0x01039393,  // slli x7, x7, 16
        0x00138393,  // addi x7, x7, 1
        0x01039393,  // slli x7, x7, 16
        0x00538393,  // addi x7, x7, 5
        0x00738433,  // add x8, x7, x7
        0x00740433,  // add x8, x8, x7
        0x00440413,  // addi x8, x8, 4 (x8 = 3 x7 + 4)
        0x00100493,  // addi x9, x0, 1
        0x02049493,  // slli x9, x9, 32
        0x00748493,  // addi x9, x9, 7 (x9 = 2^32 + 7)
        0x02324533,  // div x10, x4, x3 (-20 / 7 = -2)
        0x023265b3,  // rem x11, x4, x3 (-20 % 7 = -6)
        0x02325633,  // divu x12, x4, x3
        0x023276b3,  // remu x13, x4, x3
        0x0220c733,  // div x14, x1, x2 (-2^63 / -1 = -2^63 (overflow))
        0x0220e7b3,  // rem x15, x1, x2 (-2^63 % -1 = 0)
        0x02524833,  // div x16, x4, x5 (-20 / 0 = -1)
        0x025268b3,  // rem x17, x4, x5 (-20 % 0 = -20)
        0x02525933,  // divu x18, x4, x5 (/ 0 = 2^64 - 1)
        0x025279b3,  // remu x19, x4, x5 (% 0)
        0x02234a3b,  // divw x20, x6, x2 (-2^31 / -1 = -2^31 (W overflow))
        0x02236abb,  // remw x21, x6, x2 (-2^31 % -1 = 0)
        0x02324b3b,  // divw x22, x4, x3 (-20 / 7 = -2)
        0x02326bbb,  // remw x23, x4, x3 (-6)
        0x02325c3b,  // divuw x24, x4, x3 (0xffffffec / 7)
        0x02327cbb,  // remuw x25, x4, x3
        0x02524d3b,  // divw x26, x4, x5 (/ 0 = -1)
        0x02526dbb,  // remw x27, x4, x5 (% 0 = -20)
        0x02525e3b,  // divuw x28, x4, x5 (/ 0 = -1)
        0x02527ebb,  // remuw x29, x4, x5 (% 0 = sext32(x))
        0x0241cf33,  // div x30, x3, x4 (7 / -20 = 0)
        0x0241efb3,  // rem x31, x3, x4 (7 % -20 = 7)
        0x0292453b,  // divw x10, x4, x9 (b has bits above 31)
        0x0234d5bb,  // divuw x11, x9, x3 (a has bits above 31)
        0x0230c633,  // div x12, x1, x3 (-2^63 / 7)
        0x0220d6b3,  // divu x13, x1, x2 (2^63 / (2^64 - 1) = 0)
        0x02426733,  // rem x14, x4, x4 (-20 % -20 = 0)
        0x021247b3,  // div x15, x4, x1 (-20 / -2^63 = 0)
        0x02315833,  // divu x16, x2, x3 ((2^64 - 1) / 7)
        0x02745933,  // divu x18, x8, x7 (3)
        0x027479b3,  // remu x19, x8, x7 (4)
        0x02744a33,  // div x20, x8, x7 (3)
        0x02336abb,  // remw x21, x6, x3 (-2^31 % 7)
        0x02614b3b,  // divw x22, x2, x6 (-1 / -2^31 = 0)
        0x05d00893,  // addi x17, x0, 93
        0x00000513,  // addi x10, x0, 0
        0x00000073,  // ecall
    };
    return executed(words, "div_prog");
  }();
  return t;
}

// Every syscall kind: reads from the input (input "abcdef": 4 bytes, a short read of 2, a read
// after the end, a read of 0 bytes), a read of a bad fd, writes to fd 1, fd 2 and a bad fd
// (0x10001, whose low limb is 1), random_u64, both cost scopes, cycle_count, and four unhandled
// numbers next to handled ones (0x4A001, 2^32 + 0x5A000, 2^32 + 0x1003F, 0x5A004), then the exit. Code at 0x10000, a
// writable buffer at 0x20000. Executed by the executor.
const AirTrace& sys_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x000205b7,  // lui a1, 0x20 (buf = 0x20000, writable)
        0x00000513,  // addi a0, x0, 0
        0x00400613,  // addi a2, x0, 4
        0x03f00893,  // addi a7, x0, 63
        0x00000073,  // ecall #0: read(0, buf, 4) = 4 (input 'abcdef')
        0x00000513,  // addi a0, x0, 0
        0x00000073,  // ecall #1: read(0, buf, 4) = 2 (short: the input ends)
        0x00000513,  // addi a0, x0, 0
        0x00000073,  // ecall #2: read(0, buf, 4) = 0 (after the end)
        0x00000513,  // addi a0, x0, 0
        0x00000613,  // addi a2, x0, 0
        0x00000073,  // ecall #3: read(0, buf, 0) = 0
        0x00300513,  // addi a0, x0, 3
        0x00400613,  // addi a2, x0, 4
        0x00000073,  // ecall #4: read(3, buf, 4) = -EBADF
        0x00100513,  // addi a0, x0, 1
        0x00300613,  // addi a2, x0, 3
        0x04000893,  // addi a7, x0, 64
        0x00000073,  // ecall #5: write(1, buf, 3) = 3
        0x00200513,  // addi a0, x0, 2
        0x00200613,  // addi a2, x0, 2
        0x00000073,  // ecall #6: write(2, buf, 2) = 2
        0x00010537,  // lui a0, 0x10
        0x00150513,  // addi a0, a0, 1
        0x00000073,  // ecall #7: write(0x10001, buf, 2) = -EBADF (fd's low limb 1)
        0x0005a8b7,  // lui a7, 0x5a
        0x00000073,  // ecall #8: random_u64()
        0x00188893,  // addi a7, a7, 1
        0x00000073,  // ecall #9: cost scope start (0x5A001) = 0
        0x00188893,  // addi a7, a7, 1
        0x00000073,  // ecall #10: cost scope end (0x5A002) = 0
        0x00188893,  // addi a7, a7, 1
        0x00000073,  // ecall #11: cycle_count (0x5A003) = 32, the ecall's cycle
        0x0004a8b7,  // lui a7, 0x4a
        0x00188893,  // addi a7, a7, 1
        0x00000073,  // ecall #12: 0x4A001 = -ENOSYS
        0x00100893,  // addi a7, x0, 1
        0x02089893,  // slli a7, a7, 32
        0x0005a2b7,  // lui x5, 0x5a
        0x005888b3,  // add a7, a7, x5
        0x00000073,  // ecall #13: 2^32 + 0x5A000 = -ENOSYS
        0x000108b7,  // lui a7, 0x10
        0x03f88893,  // addi a7, a7, 63
        0x00100293,  // addi x5, x0, 1
        0x02029293,  // slli x5, x5, 32
        0x005888b3,  // add a7, a7, x5
        0x00700513,  // addi a0, x0, 7
        0x00000073,  // ecall #14: 2^32 + 0x1003F = -ENOSYS
        0x0005a8b7,  // lui a7, 0x5a
        0x00488893,  // addi a7, a7, 4
        0x00000073,  // ecall #15: 0x5A004 = -ENOSYS
        0x05d00893,  // addi a7, x0, 93
        0x00000513,  // addi a0, x0, 0
        0x00000073,  // ecall (exit 0)
    };
    const std::string data = "0123456789abcdef";
    return executed(words, "sys_prog", {{0x20000, 64, spec::kFlagR | spec::kFlagW, std::vector<uint8_t>(data.begin(), data.end())}},
                    "abcdef");
  }();
  return t;
}

// A read from an empty input (read(0, buf, 4) = 0) and a write to the debug log (write(2, buf,
// 2) = 2), then the exit: the input is exhausted from the first ecall on, and nothing is written
// to the public output. The base of the first-row attacks on eof and opos, which nothing else
// reads there, and of two on its io group (the first of the table, of fd 2): a first row left
// out (idx_first), and a byte sent to the public output (next_out). Executed by the executor.
const AirTrace& log_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x000205b7,  // lui a1, 0x20 (buf = 0x20000, writable)
        0x00000513,  // addi a0, x0, 0
        0x00400613,  // addi a2, x0, 4
        0x03f00893,  // addi a7, x0, 63
        0x00000073,  // ecall #0: read(0, buf, 4) = 0 (the input is empty)
        0x00200513,  // addi a0, x0, 2
        0x00200613,  // addi a2, x0, 2
        0x04000893,  // addi a7, x0, 64
        0x00000073,  // ecall #1: write(2, buf, 2) = 2
        0x05d00893,  // addi a7, x0, 93
        0x00000513,  // addi a0, x0, 0
        0x00000073,  // ecall (exit 0)
    };
    return executed(words, "log_prog", {{0x20000, 64, spec::kFlagR | spec::kFlagW, std::vector<uint8_t>(64, 0x2a)}});
  }();
  return t;
}

// read(0, buf, 2^32 + 4) from the input "abcd": the executor copies min(n, remaining) = 4 bytes
// and returns 4 (the buffer need only be writable for those). A count of 2^32 or more is
// reachable this way, and only r_small keeps a read from claiming it back. Then the exit.
const AirTrace& big_read_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x000205b7,  // lui a1, 0x20 (buf = 0x20000, writable)
        0x00000513,  // addi a0, x0, 0
        0x00100613,  // addi a2, x0, 1
        0x02061613,  // slli a2, a2, 32
        0x00460613,  // addi a2, a2, 4 (a2 = 2^32 + 4)
        0x03f00893,  // addi a7, x0, 63
        0x00000073,  // ecall #0: read(0, buf, 2^32 + 4) = 4
        0x05d00893,  // addi a7, x0, 93
        0x00000513,  // addi a0, x0, 0
        0x00000073,  // ecall (exit 0)
    };
    return executed(words, "big_read_prog", {{0x20000, 64, spec::kFlagR | spec::kFlagW, std::vector<uint8_t>(64, 0)}},
                    "abcd");
  }();
  return t;
}

// random_u64 gives R; t0 = R & 2^32, t2 = R & 2^33 and t3 = (R & 2^35) << 13, which are 0 for the
// tests' seed (the run exits only then); read(0, 0x20000 + t0, 4) of "abcd"; write(1, 0x20000 + t0,
// 3 + t2); ld a5, 0(0x20000 + t3); exit 0. The random number is the prover's choice, so the
// record of a run with another R is as good a witness: far_run is the run with bit 32, 33 or 35
// of R set as a prover who hides the executor's fault would record it: the buffer at
// 2^32 + 0x20000, the count 2^33 + 3, or the load at 2^48 + 0x20000, with every access and byte
// where the honest run has it (the low 32 bits of the address).
namespace {

const std::vector<uint32_t> kFarWords = {
    0x0005a8b7,  // 0: lui a7, 0x5a
    0x00000073,  // 1: ecall: random_u64() = R
    0x00100313,  // 2: addi t1, x0, 1
    0x02031313,  // 3: slli t1, t1, 32
    0x006572b3,  // 4: and t0, a0, t1
    0x00131313,  // 5: slli t1, t1, 1
    0x006573b3,  // 6: and t2, a0, t1
    0x00231313,  // 7: slli t1, t1, 2
    0x00657e33,  // 8: and t3, a0, t1
    0x00de1e13,  // 9: slli t3, t3, 13
    0x000205b7,  // 10: lui a1, 0x20
    0x005585b3,  // 11: add a1, a1, t0
    0x00000513,  // 12: addi a0, x0, 0
    0x00400613,  // 13: addi a2, x0, 4
    0x03f00893,  // 14: addi a7, x0, 63
    0x00000073,  // 15: ecall: read(0, a1, 4) = 4
    0x00100513,  // 16: addi a0, x0, 1
    0x00300613,  // 17: addi a2, x0, 3
    0x00760633,  // 18: add a2, a2, t2
    0x04000893,  // 19: addi a7, x0, 64
    0x00000073,  // 20: ecall: write(1, a1, a2) = a2
    0x00020737,  // 21: lui a4, 0x20
    0x01c70733,  // 22: add a4, a4, t3
    0x00073783,  // 23: ld a5, 0(a4)
    0x05d00893,  // 24: addi a7, x0, 93
    0x00000513,  // 25: addi a0, x0, 0
    0x00000073,  // 26: ecall (exit 0)
};
Executed far_honest() {
  return execute_words(kFarWords, "far_prog", {{0x20000, 64, spec::kFlagR | spec::kFlagW, std::vector<uint8_t>(64, 0)}}, "abcd");
}

}  // namespace
const AirTrace& far_prog() {
  static const AirTrace t = [] {
    const auto e = far_honest();
    return build_trace(e.image, e.run);
  }();
  return t;
}
AirTrace far_run(int bit) {
  auto e = far_honest();
  auto& steps = e.run.trace;
  // step `at` writes `value` to its rd; the later steps that read that register see it
  auto rewrite = [&](size_t at, uint64_t value) {
    const uint8_t rd = steps[at].rd;
    if (rd == 0) throw std::logic_error("far_run: step writes no register");
    steps[at].rd_value = value;
    for (size_t i = at + 1; i < steps.size(); ++i) {
      if (steps[i].rs1 == rd) steps[i].rs1_value = value;
      if (steps[i].rs2 == rd) steps[i].rs2_value = value;
      if (steps[i].rd == rd) break;
    }
  };
  const uint64_t r = steps[1].rd_value | (uint64_t{1} << bit), k = uint64_t{1} << bit;
  if (steps.size() != kFarWords.size() || e.run.syscalls.size() != 4 || steps[1].rd_value & k)
    throw std::logic_error("far_run: not the run far_prog's comment describes");
  rewrite(1, r), e.run.syscalls[0].result = r;
  if (bit == 32) rewrite(4, k), rewrite(11, 0x20000 + k);  // a1: the read's and the write's buffer
  if (bit == 33) {                                          // a2: the write's count, and so its result
    rewrite(6, k), rewrite(18, 3 + k), rewrite(20, 3 + k);
    e.run.syscalls[2].args[2] = 3 + k, e.run.syscalls[2].result = 3 + k;
  }
  if (bit == 35) rewrite(8, k), rewrite(9, k << 13), rewrite(22, 0x20000 + (k << 13));  // a4: the load's base
  return build_trace(e.image, e.run);
}

// addi a7, x0, 93; remu a7, a7, x0 (a7 % 0 = a7); remu x0, a7, x0; auipc x5, 0x12345; ecall
// (exit); and a twin ecall. The remus were free steps while divisions were unconstrained; some
// tests still change their results (and are then rejected by the div table too); x5 is never read.
const AirTrace& exit_prog() {
  static const AirTrace t =
      synthetic({0x05d00893, 0x0208f8b3, 0x0208f033, 0x12345297, 0x00000073, 0x00000073},
                {{0x10000, 0x10004}, {0x10004, 0x10008}, {0x10008, 0x1000c}, {0x1000c, 0x10010}, {0x10010, 0x10010}},
                {{0, 17, 93}, {1, 17, 93}, {3, 5, 0x12345000 + 0x1000c}});
  return t;
}

// Loads and stores of every size and signedness, misaligned ones, accesses that cross a page
// boundary into never-written memory (which reads 0), loads from a read-only segment, and a load
// into x0. The image: code at 0x10000; rodata (R, 16 file bytes) at 0x20000; data (RW, 16 file
// bytes, 256 in all) at 0x30000; a one-byte read-only segment at 0x30100 between it and more data
// (RW, no file bytes) up to 0x32000, so that a store can reach one read-only byte at any position.
const AirTrace& mem_prog() {
  static const AirTrace t = [] {
    const std::vector<uint32_t> words = {
        0x000302b7,  // lui x5, 0x30
        0x00020337,  // lui x6, 0x20
        0xffe00393,  // addi x7, x0, -2
        0x0072b023,  // sd x7, 0(x5)
        0x0072a4a3,  // sw x7, 9(x5)
        0x00729723,  // sh x7, 14(x5)
        0x007288a3,  // sb x7, 17(x5)
        0x0002b403,  // ld x8, 0(x5)
        0x0092a483,  // lw x9, 9(x5)
        0x0092e983,  // lwu x19, 9(x5)
        0x00e29583,  // lh x11, 14(x5)
        0x00e2d603,  // lhu x12, 14(x5)
        0x01128683,  // lb x13, 17(x5)
        0x0112c703,  // lbu x14, 17(x5)
        0x00033783,  // ld x15, 0(x6)
        0x00031a37,  // lui x20, 0x31
        0xffea3803,  // ld x16, -2(x20)
        0xfe7a3ea3,  // sd x7, -3(x20)
        0xffda3903,  // ld x18, -3(x20)
        0x0002a003,  // lw x0, 0(x5)
        0x00330a83,  // lb x21, 3(x6)
        0x05d00893,  // addi x17, x0, 93
        0x00000513,  // addi x10, x0, 0
        0x00000073,  // ecall
    };
    spec::ProgramImage img;
    img.entry = 0x10000;
    std::vector<uint8_t> code, ro, data;
    for (uint32_t w : words)
      for (int k = 0; k < 4; ++k) code.push_back(static_cast<uint8_t>(w >> (8 * k)));
    for (int k = 0; k < 16; ++k) ro.push_back(static_cast<uint8_t>(0x11 + k)), data.push_back(static_cast<uint8_t>(0xa0 + k));
    img.segments.push_back({0x10000, code.size(), spec::kFlagR | spec::kFlagX, code});
    img.segments.push_back({0x20000, 16, spec::kFlagR, ro});
    img.segments.push_back({0x30000, 0x100, spec::kFlagR | spec::kFlagW, data});
    img.segments.push_back({0x30100, 1, spec::kFlagR, {0x5a}});
    img.segments.push_back({0x30101, 0x32000 - 0x30101, spec::kFlagR | spec::kFlagW, {}});
    spec::ExecOptions o;
    o.trace = true;
    const auto run = opt::execute(img, {}, o);
    if (run.status != spec::ExitStatus::kExited) throw std::logic_error("mem_prog did not exit: " + spec::describe(run.fault));
    return build_trace(img, run);
  }();
  return t;
}

}  // namespace zkrv::ref::air::fixture
