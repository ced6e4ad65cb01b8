#include "tools/profile/debuginfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_set>
#include <tuple>

#include "tools/profile/symbols.h"

namespace zkrv::tools::profile {

// Collects one ELF's line rows and inlined ranges, then cuts the address space into ranges of
// one location each.
class DebugInfoBuilder {
 public:
  explicit DebugInfoBuilder(DebugInfo& out) : out_(out) {}

  void unit(Dwarf_Die* cu) {
    // libdw gives file names absolute or relative to the unit's compilation directory; joined
    // with it, as LLVM's tools print them.
    Dwarf_Attribute attr;
    const char* dir = dwarf_attr(cu, DW_AT_comp_dir, &attr) ? dwarf_formstring(&attr) : nullptr;
    const std::string comp_dir = dir ? dir : "";
    auto file_id = [&](const char* name) {
      return this->file_id(name[0] == '/' || comp_dir.empty() ? std::string(name) : comp_dir + "/" + name);
    };
    // The unit's file table, as global file ids.
    std::vector<int> file_ids;
    Dwarf_Files* files = nullptr;
    size_t nfiles = 0;
    if (dwarf_getsrcfiles(cu, &files, &nfiles) == 0)
      for (size_t i = 0; i < nfiles; ++i) {
        const char* name = dwarf_filesrc(files, i, nullptr, nullptr);
        file_ids.push_back(name ? file_id(name) : -1);
      }
    // Line rows: a row that does not end its sequence covers the addresses up to the next row.
    Dwarf_Lines* lines = nullptr;
    size_t nlines = 0;
    if (dwarf_getsrclines(cu, &lines, &nlines) == 0) {
      for (size_t i = 0; i + 1 < nlines; ++i) {
        Dwarf_Line* l = dwarf_onesrcline(lines, i);
        Dwarf_Line* next = dwarf_onesrcline(lines, i + 1);
        Dwarf_Addr a = 0, b = 0;
        bool end_sequence = false;
        int lineno = 0;
        if (!l || !next || dwarf_lineaddr(l, &a) != 0 || dwarf_lineaddr(next, &b) != 0 ||
            dwarf_lineendsequence(l, &end_sequence) != 0 || end_sequence || b <= a || dwarf_lineno(l, &lineno) != 0)
          continue;
        const char* src = dwarf_linesrc(l, nullptr, nullptr);
        if (full()) break;
        line_ranges_.push_back({a, b, src ? file_id(src) : -1, static_cast<uint32_t>(std::max(lineno, 0))});
      }
    }
    // Inlined functions, anywhere below the unit.
    Dwarf_Die child;
    if (dwarf_child(cu, &child) == 0) walk(&child, -1, 0, file_ids);
  }

  void finish() {
    // Every address where a line range or an inlined range starts or ends.
    std::vector<uint64_t> cuts;
    for (const auto& r : line_ranges_) { cuts.push_back(r.start); cuts.push_back(r.end); }
    for (const auto& r : inline_ranges_) { cuts.push_back(r.start); cuts.push_back(r.end); }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    if (cuts.size() < 2) return;
    // For each piece between cuts, the line range and the inlined range holding it: where several
    // do, the innermost inlined function, and the line range read last. One sweep over the cuts
    // with the ranges open at each, so that overlapping ranges (malformed DWARF) cost a log each,
    // not a pass over every piece they cover.
    const size_t pieces = cuts.size() - 1;
    std::vector<int> line_at(pieces, -1), inline_at(pieces, -1);
    auto sweep = [&](const auto& ranges, auto priority, std::vector<int>& out) {
      std::vector<std::pair<uint64_t, int>> events;  // (address, range + 1 opens, -(range + 1) closes)
      for (size_t i = 0; i < ranges.size(); ++i) {
        events.push_back({ranges[i].start, static_cast<int>(i) + 1});
        events.push_back({ranges[i].end, -static_cast<int>(i) - 1});
      }
      std::sort(events.begin(), events.end());
      std::set<std::pair<int, int>> open;  // (priority, range)
      size_t e = 0;
      for (size_t k = 0; k < pieces; ++k) {
        for (; e < events.size() && events[e].first <= cuts[k]; ++e) {
          const int i = std::abs(events[e].second) - 1;
          if (events[e].second > 0) open.insert({priority(ranges[static_cast<size_t>(i)]), i});
          else open.erase({priority(ranges[static_cast<size_t>(i)]), i});
        }
        if (!open.empty()) out[k] = open.rbegin()->second;
      }
    };
    sweep(line_ranges_, [](const LineRange&) { return 0; }, line_at);
    sweep(inline_ranges_, [](const InlineRange& r) { return r.depth; }, inline_at);
    std::map<std::tuple<int, int, uint32_t>, int> location_ids;
    for (size_t k = 0; k < pieces; ++k) {
      if (line_at[k] < 0 && inline_at[k] < 0) continue;
      const int frame = inline_at[k] < 0 ? -1 : inline_ranges_[static_cast<size_t>(inline_at[k])].frame;
      const int file = line_at[k] < 0 ? -1 : line_ranges_[static_cast<size_t>(line_at[k])].file;
      const uint32_t line = line_at[k] < 0 ? 0 : line_ranges_[static_cast<size_t>(line_at[k])].line;
      auto [it, fresh] = location_ids.try_emplace({frame, file, line}, static_cast<int>(out_.locations_.size()));
      if (fresh) out_.locations_.push_back({frame, file, line});
      auto& ranges = out_.ranges_;
      if (!ranges.empty() && ranges.back().end == cuts[k] && ranges.back().location == it->second) ranges.back().end = cuts[k + 1];
      else ranges.push_back({cuts[k], cuts[k + 1], it->second});
    }
  }

 private:
  struct LineRange { uint64_t start, end; int file; uint32_t line; };
  struct InlineRange { uint64_t start, end; int depth, frame; };
  static constexpr int kMaxDepth = 512;  // DIE nesting followed; deeper (malformed) trees are cut
  // Line and inlined ranges kept, at most (a guest with the C++ standard library has about 10^5);
  // DWARF that describes more (units sharing one line table, entries sharing one range list, over
  // and over) is cut there, with a warning, so that memory stays bounded.
  static constexpr size_t kMaxRanges = size_t{1} << 22;
  bool full() {
    if (line_ranges_.size() + inline_ranges_.size() < kMaxRanges) return false;
    truncated_ = true;
    return true;
  }

  int file_id(const std::string& name) {
    auto [it, fresh] = file_ids_.try_emplace(name, static_cast<int>(out_.files_.size()));
    if (fresh) out_.files_.push_back(name);
    return it->second;
  }

  static std::string die_name(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name})
      if (dwarf_attr_integrate(die, at, &attr))
        if (const char* s = dwarf_formstring(&attr)) return demangle(s);
    return "??";
  }

  // Visits die and its siblings; `parent` is the inlined frame they sit in. Each entry once:
  // a sibling link back into visited entries (malformed DWARF) ends the chain.
  void walk(Dwarf_Die* first, int parent, int depth, const std::vector<int>& file_ids) {
    if (depth > kMaxDepth) { truncated_ = true; return; }
    Dwarf_Die die = *first;
    do {
      if (!visited_.insert(dwarf_dieoffset(&die)).second || full()) { truncated_ = true; return; }
      const int tag = dwarf_tag(&die);
      int inner = parent;
      if (tag == DW_TAG_subprogram) {
        inner = -1;  // a function's own code: nothing inlined yet
      } else if (tag == DW_TAG_inlined_subroutine) {
        InlineFrame f{parent, die_name(&die), -1, 0};
        Dwarf_Attribute attr;
        Dwarf_Word v = 0;
        if (dwarf_attr(&die, DW_AT_call_file, &attr) && dwarf_formudata(&attr, &v) == 0 && v < file_ids.size())
          f.call_file = file_ids[static_cast<size_t>(v)];
        if (dwarf_attr(&die, DW_AT_call_line, &attr) && dwarf_formudata(&attr, &v) == 0)
          f.call_line = static_cast<uint32_t>(std::min<Dwarf_Word>(v, UINT32_MAX));
        auto key = std::make_tuple(f.parent, f.name, f.call_file, f.call_line);
        auto [it, fresh] = frame_ids_.try_emplace(key, static_cast<int>(out_.inline_frames_.size()));
        if (fresh) out_.inline_frames_.push_back(std::move(f));
        inner = it->second;
        Dwarf_Addr base = 0, start = 0, end = 0;
        for (ptrdiff_t off = 0; !full() && (off = dwarf_ranges(&die, off, &base, &start, &end)) > 0;)
          if (end > start) inline_ranges_.push_back({start, end, depth, inner});
      }
      Dwarf_Die child;
      if (dwarf_haschildren(&die) && dwarf_child(&die, &child) == 0) walk(&child, inner, depth + 1, file_ids);
    } while (dwarf_siblingof(&die, &die) == 0);
  }

 public:
  bool truncated_ = false;

 private:
  DebugInfo& out_;
  std::vector<LineRange> line_ranges_;
  std::vector<InlineRange> inline_ranges_;
  std::map<std::string, int> file_ids_;
  std::map<std::tuple<int, std::string, int, uint32_t>, int> frame_ids_;
  std::unordered_set<Dwarf_Off> visited_;
};

DebugInfo DebugInfo::from_elf(std::span<const uint8_t> elf) {
  DebugInfo info;
  if (elf_version(EV_CURRENT) == EV_NONE) {
    info.warning_ = "libelf refused to start; no source lines";
    return info;
  }
  std::vector<char> copy(elf.begin(), elf.end());  // libelf reads from writable memory
  Elf* e = elf_memory(copy.data(), copy.size());
  if (!e) {
    info.warning_ = std::string("libelf cannot read the ELF (") + elf_errmsg(-1) + "); no source lines";
    return info;
  }
  Dwarf* dw = dwarf_begin_elf(e, DWARF_C_READ, nullptr);
  if (!dw) {
    info.warning_ = std::string("no DWARF (") + dwarf_errmsg(-1) + "; build the guest with -g for source lines and inlined frames)";
    elf_end(e);
    return info;
  }
  DebugInfoBuilder b(info);
  Dwarf_CU* cu = nullptr;
  Dwarf_CU* next = nullptr;
  Dwarf_Half version = 0;
  uint8_t unit_type = 0;
  Dwarf_Die cudie, subdie;
  while (dwarf_get_units(dw, cu, &next, &version, &unit_type, &cudie, &subdie) == 0) {
    cu = next;
    if (dwarf_tag(&cudie) == DW_TAG_compile_unit) b.unit(&cudie);
  }
  b.finish();
  if (b.truncated_) info.warning_ = "malformed or oversized DWARF (entries nested deeper than 512, visited twice, or more than 2^22 ranges): part of it is left out";
  if (info.ranges_.empty() && info.warning_.empty()) info.warning_ = "DWARF gives no line for any address; no source lines";
  dwarf_end(dw);
  elf_end(e);
  return info;
}

int DebugInfo::find_range(uint64_t pc) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), pc, [](uint64_t v, const Range& r) { return v < r.start; });
  if (it == ranges_.begin()) return -1;
  --it;
  return pc < it->end ? static_cast<int>(it - ranges_.begin()) : -1;
}

const std::string& DebugInfo::file(int id) const {
  static const std::string unknown = "??";
  return id >= 0 && static_cast<size_t>(id) < files_.size() ? files_[static_cast<size_t>(id)] : unknown;
}

std::vector<SourceFrame> DebugInfo::expand(int location, const std::string& outer) const {
  if (location < 0 || static_cast<size_t>(location) >= locations_.size()) return {{outer, -1, 0, false}};
  const Location& loc = locations_[static_cast<size_t>(location)];
  std::vector<int> chain;  // innermost first
  for (int f = loc.inline_frame; f >= 0 && chain.size() <= inline_frames_.size(); f = inline_frames_[static_cast<size_t>(f)].parent)
    chain.push_back(f);
  std::reverse(chain.begin(), chain.end());
  std::vector<SourceFrame> frames;
  if (chain.empty()) return {{outer, loc.file, loc.line, false}};
  const auto& first = inline_frames_[static_cast<size_t>(chain[0])];
  frames.push_back({outer, first.call_file, first.call_line, false});
  for (size_t i = 0; i < chain.size(); ++i) {
    const auto& f = inline_frames_[static_cast<size_t>(chain[i])];
    if (i + 1 < chain.size()) {
      const auto& in = inline_frames_[static_cast<size_t>(chain[i + 1])];
      frames.push_back({f.name, in.call_file, in.call_line, true});
    } else {
      frames.push_back({f.name, loc.file, loc.line, true});
    }
  }
  return frames;
}

}  // namespace zkrv::tools::profile
