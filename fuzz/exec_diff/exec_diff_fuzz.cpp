// fuzz/exec_diff: bytes become an instruction stream (after a two-instruction prologue that
// points x31 at a data region); the reference and fast executors must agree on every step,
// on the final state and on the fault. Any difference aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "optimized/exec/fast_executor.h"
#include "reference/exec/executor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zkrv;
  if (size > 4096) size = 4096;
  spec::ProgramImage image;
  image.entry = 0x10000;
  spec::Segment code;
  code.vaddr = 0x10000;
  code.flags = spec::kFlagR | spec::kFlagX;
  const uint32_t prologue[2] = {0x00021fb7 /* lui x31, 0x21 */, 0x800f8f93 /* addi x31, x31, -2048 */};
  code.data.resize(8 + (size / 4) * 4);
  std::memcpy(code.data.data(), prologue, 8);
  if (size >= 4) std::memcpy(code.data.data() + 8, data, (size / 4) * 4);
  code.memsz = code.data.size() + 4 * (size % 4);  // a partial word at the end: zero-filled, illegal
  image.segments.push_back(code);
  spec::Segment ram;
  ram.vaddr = 0x20000;
  ram.memsz = 0x2000;
  ram.flags = spec::kFlagR | spec::kFlagW;
  ram.data.assign(data, data + std::min<size_t>(size, 0x800));
  image.segments.push_back(ram);

  spec::ExecOptions opt;
  opt.max_cycles = 20000;
  opt.trace = opt.collect_stats = true;
  const std::vector<uint8_t> input(data, data + std::min<size_t>(size, 64));
  auto r = ref::execute(image, input, opt);
  auto f = opt::execute(image, input, opt);
  if (r.trace != f.trace || r.syscalls != f.syscalls || r.regs != f.regs || !(r.fault == f.fault) ||
      r.cycles != f.cycles || r.output != f.output || r.log != f.log || !(r.stats == f.stats) ||
      r.status != f.status || r.exit_code != f.exit_code) {
    std::fprintf(stderr, "exec_diff: executors disagree (ref cycles %llu, fast cycles %llu)\n",
                 static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(f.cycles));
    std::abort();
  }
  return 0;
}
