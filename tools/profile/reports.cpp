// The profiler's reports: text tables, folded stacks and the Firefox Profiler's format.
#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "tools/profile/profiler.h"

namespace zkrv::tools::profile {

namespace {

std::string table(const std::vector<FunctionStats>& fs, uint64_t total, bool by_self, size_t top) {
  std::vector<const FunctionStats*> rows;
  for (const auto& f : fs)
    if (f.inclusive || f.self) rows.push_back(&f);
  std::sort(rows.begin(), rows.end(), [&](const FunctionStats* a, const FunctionStats* b) {
    const uint64_t ka = by_self ? a->self : a->inclusive, kb = by_self ? b->self : b->inclusive;
    return ka != kb ? ka > kb : a->name < b->name;
  });
  std::string o;
  char buf[512];
  std::snprintf(buf, sizeof buf, "  %14s %7s %7s %14s %7s %6s  %s\n", by_self ? "self" : "inclusive", "%", "cum %",
                by_self ? "inclusive" : "self", "%", "pcs", "function");
  o += buf;
  double cum = 0;
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const auto& r = *rows[i];
    const uint64_t key = by_self ? r.self : r.inclusive, other = by_self ? r.inclusive : r.self;
    const double pk = total ? 100.0 * static_cast<double>(key) / static_cast<double>(total) : 0;
    cum += pk;
    std::snprintf(buf, sizeof buf, "  %14llu %6.2f%% %6.2f%% %14llu %6.2f%% %6llu  %s\n", static_cast<unsigned long long>(key), pk,
                  by_self ? cum : pk, static_cast<unsigned long long>(other),
                  total ? 100.0 * static_cast<double>(other) / static_cast<double>(total) : 0,
                  static_cast<unsigned long long>(r.distinct_pcs), r.name.c_str());
    o += buf;
  }
  return o;
}

// Folded stacks deeper than kFoldedOuter + kFoldedInner frames print their outermost and
// innermost frames with "[...]" between, so that a deep recursion gives short lines; the
// stacks that then read the same are merged into one line.
constexpr size_t kFoldedOuter = 16, kFoldedInner = 112;

std::string folded_name(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (c == ';' || c == ' ') c = '_';  // folded format separators
  return s;
}

std::string json_string(const std::string& in) {
  std::string s = "\"";
  for (char c : in) {
    if (c == '"' || c == '\\') { s += '\\'; s += c; }
    else if (static_cast<unsigned char>(c) < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); s += b; }
    else s += c;
  }
  return s + "\"";
}

// The frames of `location` inside `func`, outermost first: the function alone without DWARF.
std::vector<SourceFrame> frames_at(const Profiler& p, int func, int location) {
  const std::string name = p.function_name(func);
  return p.debug() ? p.debug()->expand(location, name) : std::vector<SourceFrame>{{name, -1, 0, false}};
}

// A table of self cycles per key, largest first, `top` rows.
std::string self_table(const std::map<std::string, uint64_t>& self, uint64_t total, const char* what, size_t top) {
  std::vector<std::pair<std::string, uint64_t>> rows(self.begin(), self.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string o;
  char buf[128];
  std::snprintf(buf, sizeof buf, "  %14s %7s %7s  %s\n", "self", "%", "cum %", what);
  o += buf;
  double cum = 0;
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const double pk = total ? 100.0 * static_cast<double>(rows[i].second) / static_cast<double>(total) : 0;
    cum += pk;
    std::snprintf(buf, sizeof buf, "  %14llu %6.2f%% %6.2f%%  ", static_cast<unsigned long long>(rows[i].second), pk, cum);
    o += buf + rows[i].first + "\n";
  }
  return o;
}

// With DWARF: self cycles by function with inlined functions counted apart (the innermost
// frame), and by source line.
std::string source_tables(const Profiler& p, size_t top) {
  std::map<std::string, uint64_t> by_function, by_line;
  for (const Leaf& l : p.leaves()) {
    const auto frames = frames_at(p, p.nodes()[static_cast<size_t>(l.node)].func, l.location);
    const SourceFrame& f = frames.back();
    by_function[f.name + (f.inlined ? " [inlined]" : "")] += l.self;
    const std::string where = f.line ? p.debug()->file(f.file) + ":" + std::to_string(f.line) : std::string("[no line]");
    by_line[where + "  " + f.name] += l.self;
  }
  return "\ntop functions by self cycles, inlined functions apart (DWARF):\n" + self_table(by_function, p.cycles(), "function", top) +
         "\ntop source lines by self cycles (DWARF):\n" + self_table(by_line, p.cycles(), "file:line  function", top);
}

}  // namespace

std::string text_report(const Profiler& p, size_t top) {
  std::string o;
  char buf[256];
  std::snprintf(buf, sizeof buf, "total cycles: %llu   (stack repairs: %llu)\n", static_cast<unsigned long long>(p.cycles()),
                static_cast<unsigned long long>(p.repairs()));
  o += buf;
  const auto all = p.functions();
  o += "\ntop functions by self cycles:\n" + table(all, p.cycles(), true, top);
  o += "\ntop functions by inclusive cycles:\n" + table(all, p.cycles(), false, top);
  if (p.debug()) o += source_tables(p, top);
  const auto scopes = p.scopes_used();
  if (scopes.size() > 1 || (scopes.size() == 1 && scopes[0] != kNoScope)) {
    for (int s : scopes) {
      const auto fs = p.functions(s);
      uint64_t total = 0;
      for (const auto& f : fs) total += f.self;
      std::snprintf(buf, sizeof buf, "\n%s: %llu cycles (%.2f%%)\n", s == kNoScope ? "outside cost scopes" : ("cost scope " + std::to_string(s)).c_str(),
                    static_cast<unsigned long long>(total), p.cycles() ? 100.0 * static_cast<double>(total) / static_cast<double>(p.cycles()) : 0);
      o += buf + table(fs, total, true, top);
    }
  }
  if (!p.scope_error().empty()) o += "\nerror: " + p.scope_error() + "\n";
  return o;
}

std::string folded_report(const Profiler& p) {
  const auto& nodes = p.nodes();
  // depth, outermost-part anchor (the ancestor at depth kFoldedOuter - 1) and the anchor's
  // child on the path (whose call site the anchor's frames end at) of every node; parents come
  // before their children.
  std::vector<uint32_t> depth(nodes.size());
  std::vector<int> anchor(nodes.size(), -1), after_anchor(nodes.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n) {
    const int parent = nodes[n].parent;
    depth[n] = parent < 0 ? 0 : depth[static_cast<size_t>(parent)] + 1;
    anchor[n] = depth[n] == kFoldedOuter - 1 ? static_cast<int>(n) : (parent < 0 ? -1 : anchor[static_cast<size_t>(parent)]);
    after_anchor[n] = depth[n] == kFoldedOuter ? static_cast<int>(n) : (parent < 0 ? -1 : after_anchor[static_cast<size_t>(parent)]);
  }
  // A node's frames: its function, and with DWARF the functions inlined at `location` in it
  // (suffixed _[i], flamegraph.pl's mark for inlined frames).
  auto add_frames = [&](int node, int location, std::string& s) {
    for (const auto& f : frames_at(p, nodes[static_cast<size_t>(node)].func, location))
      s += folded_name(f.name) + (f.inlined ? "_[i];" : ";");
  };
  auto frames = [&](int node, size_t count, std::vector<int>& out) {  // `count` nodes from node outwards
    for (; node >= 0 && count > 0; node = nodes[static_cast<size_t>(node)].parent, --count) out.push_back(node);
  };
  std::vector<std::string> lines;
  std::vector<uint64_t> totals;
  std::unordered_map<std::string, size_t> line_of;
  std::vector<int> inner, outer;
  for (const Leaf& leaf : p.leaves()) {
    const size_t n = static_cast<size_t>(leaf.node);
    inner.clear();
    outer.clear();
    const bool elide = depth[n] + 1 > kFoldedOuter + kFoldedInner;
    frames(leaf.node, elide ? kFoldedInner : depth[n] + 1, inner);
    if (elide) frames(anchor[n], kFoldedOuter, outer);
    // Each node's frames end where it calls the next node on the path (that node's site).
    std::string s;
    for (size_t k = outer.size(); k-- > 0;)
      add_frames(outer[k], nodes[static_cast<size_t>(k > 0 ? outer[k - 1] : after_anchor[n])].site, s);
    if (elide) s += "[...];";
    for (size_t k = inner.size(); k-- > 0;)
      add_frames(inner[k], k > 0 ? nodes[static_cast<size_t>(inner[k - 1])].site : leaf.location, s);
    s.pop_back();
    auto [it, fresh] = line_of.try_emplace(s, lines.size());
    if (fresh) {
      lines.push_back(std::move(s));
      totals.push_back(0);
    }
    totals[it->second] += leaf.self;
  }
  std::string o;
  for (size_t i = 0; i < lines.size(); ++i) o += lines[i] + " " + std::to_string(totals[i]) + "\n";
  return o;
}

// Gecko profile format (version 24, which the Firefox Profiler upgrades on loading): one
// thread, one sample per cycle (or per sample_rate cycles) at 1 "ms" per cycle, stack and frame
// tables as that format defines them. The profiler makes its funcTable from the frames'
// location strings, one func per function name; with DWARF each frame also carries its source
// line (the frameTable's line column), and inlined functions are frames of their own, called
// from the line they were inlined at (the format has no inline depth).
std::string firefox_profile(const Profiler& p, const std::string& product) {
  const auto& nodes = p.nodes();
  const uint64_t rate = p.sample_rate() ? p.sample_rate() : 1;
  std::vector<std::string> strings;
  std::unordered_map<std::string, int> string_id;
  std::vector<std::pair<int, uint32_t>> frame_list;  // (string, line: 0 for none)
  std::map<std::pair<int, uint32_t>, int> frame_id;
  std::vector<std::pair<int, int>> stack_list;  // (prefix or -1, frame)
  std::unordered_map<uint64_t, int> stack_id;
  auto push = [&](int prefix, int func, int location) {  // the stack of func's frames at location on prefix
    for (const auto& f : frames_at(p, func, location)) {
      auto [s, fresh_s] = string_id.try_emplace(f.name, static_cast<int>(strings.size()));
      if (fresh_s) strings.push_back(f.name);
      auto [fr, fresh_f] = frame_id.try_emplace({s->second, f.line}, static_cast<int>(frame_list.size()));
      if (fresh_f) frame_list.push_back({s->second, f.line});
      const uint64_t key = uint64_t(static_cast<uint32_t>(prefix + 1)) << 32 | static_cast<uint32_t>(fr->second);
      auto [st, fresh_st] = stack_id.try_emplace(key, static_cast<int>(stack_list.size()));
      if (fresh_st) stack_list.push_back({prefix, fr->second});
      prefix = st->second;
    }
    return prefix;
  };
  // The stack up to each node's call: its parent's, then the parent's frames at the call site.
  std::vector<int> called_from(nodes.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n)
    if (const int parent = nodes[n].parent; parent >= 0)
      called_from[n] = push(called_from[static_cast<size_t>(parent)], nodes[static_cast<size_t>(parent)].func, nodes[n].site);
  std::vector<int> sample_stacks(p.samples().size());
  std::unordered_map<uint64_t, int> leaf_stack;
  for (size_t i = 0; i < p.samples().size(); ++i) {
    const int node = static_cast<int>(p.samples()[i]);
    const int location = p.sample_locations().empty() ? -1 : p.sample_locations()[i];
    const uint64_t key = uint64_t(static_cast<uint32_t>(node)) << 32 | static_cast<uint32_t>(location + 1);
    auto it = leaf_stack.find(key);
    if (it == leaf_stack.end())
      it = leaf_stack.emplace(key, push(called_from[static_cast<size_t>(node)], nodes[static_cast<size_t>(node)].func, location)).first;
    sample_stacks[i] = it->second;
  }
  std::string o = "{\"meta\":{\"version\":24,\"interval\":" + std::to_string(rate) +
                  ",\"startTime\":0,\"shutdownTime\":null,\"processType\":0,\"product\":" + json_string(product) +
                  ",\"stackwalk\":0,\"debug\":0,\"gcpoison\":0,\"asyncstack\":0,\"presymbolicated\":true,"
                  "\"categories\":[{\"name\":\"Guest\",\"color\":\"blue\",\"subcategories\":[\"Other\"]}],\"markerSchema\":[]},"
                  "\"libs\":[],\"processes\":[],\"pausedRanges\":[],\"threads\":[{\"name\":\"guest\",\"processType\":\"default\","
                  "\"processName\":\"zkrv\",\"tid\":0,\"pid\":0,\"registerTime\":0,\"unregisterTime\":null,";
  o += "\"stringTable\":[";
  for (size_t i = 0; i < strings.size(); ++i) o += (i ? "," : "") + json_string(strings[i]);
  o += "],\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,\"implementation\":3,"
       "\"optimizations\":4,\"line\":5,\"column\":6,\"category\":7,\"subcategory\":8},\"data\":[";
  for (size_t i = 0; i < frame_list.size(); ++i)
    o += (i ? "," : "") + std::string("[") + std::to_string(frame_list[i].first) + ",false,0,null,null," +
         (frame_list[i].second ? std::to_string(frame_list[i].second) : "null") + ",null,0,0]";
  o += "]},\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[";
  for (size_t i = 0; i < stack_list.size(); ++i)
    o += (i ? "," : "") + std::string("[") + (stack_list[i].first < 0 ? "null" : std::to_string(stack_list[i].first)) + "," +
         std::to_string(stack_list[i].second) + "]";
  o += "]},\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2},\"data\":[";
  for (size_t i = 0; i < sample_stacks.size(); ++i)
    o += (i ? "," : "") + std::string("[") + std::to_string(sample_stacks[i]) + "," + std::to_string(i * rate) + ",0]";
  o += "]},\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,\"category\":4,\"data\":5},\"data\":[]}}]}\n";
  return o;
}

}  // namespace zkrv::tools::profile
