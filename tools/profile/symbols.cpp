#include "tools/profile/symbols.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace zkrv::tools::profile {
namespace {
uint64_t rd(std::span<const uint8_t> b, uint64_t off, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= uint64_t{b[off + i]} << (8 * i);
  return v;
}
}  // namespace

std::string demangle(const std::string& name) {
  // Only mangled names: __cxa_demangle also reads a bare "f" as the type float.
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

SymbolTable SymbolTable::from_elf(std::span<const uint8_t> b) {
  SymbolTable t;
  if (b.size() < 64 || b[0] != 0x7f || b[1] != 'E' || b[4] != 2 || b[5] != 1) return t;
  const uint64_t shoff = rd(b, 40, 8), shentsize = rd(b, 58, 2), shnum = rd(b, 60, 2);
  if (shentsize != 64 || shoff > b.size() || shnum > (b.size() - shoff) / 64) return t;
  struct Raw { uint64_t value, size; std::string name; uint64_t segment_end = 0; };
  std::vector<Raw> raw;
  for (uint64_t i = 0; i < shnum; ++i) {
    const uint64_t sh = shoff + i * 64;
    if (rd(b, sh + 4, 4) != 2) continue;  // SHT_SYMTAB
    const uint64_t off = rd(b, sh + 24, 8), size = rd(b, sh + 32, 8), link = rd(b, sh + 40, 4), entsize = rd(b, sh + 56, 8);
    if (entsize != 24 || off > b.size() || size > b.size() - off || link >= shnum) continue;
    const uint64_t str_sh = shoff + link * 64;
    const uint64_t str_off = rd(b, str_sh + 24, 8), str_size = rd(b, str_sh + 32, 8);
    if (str_off > b.size() || str_size > b.size() - str_off) continue;
    for (uint64_t s = off; s + 24 <= off + size; s += 24) {
      const uint64_t name_off = rd(b, s, 4), info = b[s + 4], shndx = rd(b, s + 6, 2);
      const uint64_t value = rd(b, s + 8, 8), sz = rd(b, s + 16, 8);
      if (shndx == 0 || name_off >= str_size) continue;  // defined
      std::string name;
      for (uint64_t k = str_off + name_off; k < str_off + str_size && b[k]; ++k) name += static_cast<char>(b[k]);
      if (name == "_stack_bottom") t.stack_bottom_ = value;  // zkrv.ld's stack, whatever the symbol's type
      if (name == "_stack_top") t.stack_top_ = value;
      if ((info & 0xf) == 2) raw.push_back({value, sz, name});  // STT_FUNC
    }
  }
  // Executable bytes the file holds (PT_LOAD with PF_X, file-backed part): no instruction runs
  // anywhere else, so a function is clipped to the executable range it starts in, and one
  // that starts outside every such range is dropped. This bounds what a symbol's size can ask
  // the profiler to allocate by the file's own size.
  struct Range { uint64_t start, end; };
  std::vector<Range> exec;
  const uint64_t phoff = rd(b, 32, 8), phentsize = rd(b, 54, 2), phnum = rd(b, 56, 2);
  if (phentsize == 56 && phoff <= b.size() && phnum <= (b.size() - phoff) / 56)
    for (uint64_t i = 0; i < phnum; ++i) {
      const uint64_t ph = phoff + i * 56;
      if (rd(b, ph, 4) != 1 || (rd(b, ph + 4, 4) & 1) == 0) continue;  // PT_LOAD, PF_X
      const uint64_t vaddr = rd(b, ph + 16, 8), filesz = std::min(rd(b, ph + 32, 8), rd(b, ph + 40, 8));
      if (filesz > 0 && vaddr <= UINT64_MAX - filesz) exec.push_back({vaddr, vaddr + filesz});
    }
  size_t clipped = 0, dropped = 0;
  std::vector<Raw> kept;
  for (Raw r : raw) {
    const auto in = std::find_if(exec.begin(), exec.end(), [&](const Range& e) { return r.value >= e.start && r.value < e.end; });
    if (in == exec.end()) { ++dropped; continue; }
    if (r.size > in->end - r.value) { r.size = in->end - r.value; ++clipped; }
    r.segment_end = in->end;
    kept.push_back(std::move(r));
  }
  raw = std::move(kept);
  if (clipped || dropped)
    t.warning_ = std::to_string(dropped) + " function symbol(s) outside the executable segments ignored, " +
                 std::to_string(clipped) + " symbol size(s) past the end of their segment clipped";
  std::sort(raw.begin(), raw.end(), [](const Raw& x, const Raw& y) { return x.value != y.value ? x.value < y.value : x.size > y.size; });
  for (const Raw& r : raw) t.entries_.push_back(r.value);
  t.entries_.erase(std::unique(t.entries_.begin(), t.entries_.end()), t.entries_.end());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!t.functions_.empty() && raw[i].value < t.functions_.back().end) continue;  // alias or overlap: keep the first
    uint64_t end = raw[i].value + raw[i].size;
    if (raw[i].size == 0) end = std::min(i + 1 < raw.size() ? raw[i + 1].value : raw[i].value + 4, raw[i].segment_end);
    if (end <= raw[i].value) continue;
    t.functions_.push_back({raw[i].value, end, demangle(raw[i].name)});
  }
  return t;
}

int SymbolTable::find(uint64_t pc) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), pc,
                             [](uint64_t v, const Function& f) { return v < f.start; });
  if (it == functions_.begin()) return -1;
  --it;
  return pc < it->end ? static_cast<int>(it - functions_.begin()) : -1;
}

int SymbolTable::starting_at(uint64_t pc) const {
  return std::binary_search(entries_.begin(), entries_.end(), pc) ? find(pc) : -1;
}

}  // namespace zkrv::tools::profile
