#include "tools/profile/profiler.h"

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

namespace zkrv::tools::profile {

Profiler::Profiler(const SymbolTable& symbols, uint64_t sample_rate, size_t max_samples)
    : symbols_(symbols), sample_rate_(sample_rate), max_samples_(max_samples),
      unknown_(static_cast<int>(symbols.functions().size())) {
  pcs_seen_.resize(symbols.functions().size());
  for (size_t i = 0; i < symbols.functions().size(); ++i) {
    const auto& f = symbols.functions()[i];
    pcs_seen_[i].assign(static_cast<size_t>((f.end - f.start + 3) / 4), 0);
  }
  scope_node_self_.resize(kNoScope + 1);
}

std::string Profiler::function_name(int func) const {
  return func >= 0 && func < unknown_ ? symbols_.functions()[static_cast<size_t>(func)].name : "[unknown]";
}

int Profiler::func_of(uint64_t pc) const {
  if (last_func_ >= 0) {  // most lookups hit the function that ran last
    const auto& fn = symbols_.functions()[static_cast<size_t>(last_func_)];
    if (pc >= fn.start && pc < fn.end) return last_func_;
  }
  const int f = symbols_.find(pc);
  if (f >= 0) last_func_ = f;
  return f < 0 ? unknown_ : f;
}

int Profiler::child(int parent, int func) {
  auto siblings = [&]() -> std::vector<int>& { return parent >= 0 ? children_[static_cast<size_t>(parent)] : roots_; };
  for (int c : siblings())
    if (nodes_[static_cast<size_t>(c)].func == func) return c;
  nodes_.push_back({parent, func});
  children_.emplace_back();  // may move children_: siblings() is looked up again below
  node_self_.push_back(0);
  const int id = static_cast<int>(nodes_.size() - 1);
  siblings().push_back(id);
  return id;
}

void Profiler::push_frame(int node, uint64_t return_address) {
  if (return_address != UINT64_MAX) frames_by_return_[return_address].push_back(static_cast<uint32_t>(stack_.size()));
  stack_.push_back({node, return_address});
}

void Profiler::pop_frames(size_t keep) {
  while (stack_.size() > keep) {
    const uint64_t ra = stack_.back().return_address;
    if (ra != UINT64_MAX) {
      auto it = frames_by_return_.find(ra);
      it->second.pop_back();
      if (it->second.empty()) frames_by_return_.erase(it);
    }
    stack_.pop_back();
  }
}

void Profiler::set_top(int func) {
  if (stack_.empty()) {
    push_frame(child(-1, func), UINT64_MAX);
    return;
  }
  const int parent = nodes_[static_cast<size_t>(stack_.back().node)].parent;
  stack_.back().node = child(parent, func);
}

void Profiler::run(uint64_t pc, uint64_t count) {
  while (count > 0) {
    const int f = func_of(pc);
    // The stack's top must be the function executing; anything else is repaired.
    if (stack_.empty()) {
      push_frame(child(-1, f), UINT64_MAX);
    } else if (nodes_[static_cast<size_t>(stack_.back().node)].func != f) {
      set_top(f);
      ++repairs_;
    }
    // Instructions up to the end of this function (or of the range) run under one stack.
    uint64_t n = count;
    if (f != unknown_) {
      const auto& fn = symbols_.functions()[static_cast<size_t>(f)];
      n = std::min<uint64_t>(count, (fn.end - pc + 3) / 4);
      std::memset(pcs_seen_[static_cast<size_t>(f)].data() + (pc - fn.start) / 4, 1, static_cast<size_t>(n));
    } else {
      const auto& fns = symbols_.functions();  // stop at the next function's start
      const auto next = std::upper_bound(fns.begin(), fns.end(), pc, [](uint64_t v, const Function& g) { return v < g.start; });
      if (next != fns.end()) n = std::min<uint64_t>(count, (next->start - pc) / 4);
      if (n == 0) n = 1;
      for (uint64_t k = 0; k < n && unknown_pcs_.size() < 65536; ++k) unknown_pcs_.push_back(pc + 4 * k);
    }
    const int top = stack_.back().node;
    node_self_[static_cast<size_t>(top)] += n;
    const int scope = scope_stack_.empty() ? kNoScope : scope_stack_.back();
    auto& per_scope = scope_node_self_[static_cast<size_t>(scope)];
    if (per_scope.size() <= static_cast<size_t>(top)) per_scope.resize(nodes_.size(), 0);
    per_scope[static_cast<size_t>(top)] += n;
    if (sample_rate_) {
      uint64_t c = (cycles_ + sample_rate_ - 1) / sample_rate_ * sample_rate_;  // first sampled cycle >= cycles_
      while (c < cycles_ + n) {
        samples_.push_back(static_cast<uint32_t>(top));
        if (max_samples_ && samples_.size() > max_samples_) {
          // Too many: keep the samples at multiples of twice the rate (the even indices).
          for (size_t i = 0; 2 * i < samples_.size(); ++i) samples_[i] = samples_[2 * i];
          samples_.resize((samples_.size() + 1) / 2);
          sample_rate_ *= 2;
          c = (c / sample_rate_ + 1) * sample_rate_;
        } else {
          c += sample_rate_;
        }
      }
    }
    cycles_ += n;
    pc += 4 * n;
    count -= n;
  }
}

void Profiler::control(uint32_t insn, uint64_t pc, uint64_t next_pc, uint64_t a7, uint64_t a0) {
  const int f = func_of(pc);
  const int top = stack_.back().node;
  const uint32_t opcode = insn & 0x7f;
  const uint32_t rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;
  if (opcode == 0x6f || opcode == 0x67) {
    const bool link = rd == 1 || rd == 5;
    const bool ret = opcode == 0x67 && rd == 0 && (rs1 == 1 || rs1 == 5) && (insn >> 20) == 0;
    if (link) {
      push_frame(child(top, func_of(next_pc)), pc + 4);
    } else if (ret) {
      // The innermost frame expecting this return address (an index, so deep stacks stay cheap).
      if (auto it = frames_by_return_.find(next_pc); it != frames_by_return_.end()) {
        pop_frames(it->second.back());  // pop the returning frame and anything it left open
      } else {
        ++repairs_;  // a return to an address no frame expects
        if (stack_.size() > 1) pop_frames(stack_.size() - 1);
      }
      if (stack_.empty()) push_frame(child(-1, func_of(next_pc)), UINT64_MAX);
    } else if (symbols_.starting_at(next_pc) >= 0 && func_of(next_pc) != f) {
      set_top(func_of(next_pc));  // tail call: same frame, another function
    }
  } else if (insn == 0x00000073) {
    const uint64_t id = a0 & 0xff;
    if (a7 == spec::kSysCostScopeStart) {
      scope_stack_.push_back(static_cast<int>(id));
    } else if (a7 == spec::kSysCostScopeEnd) {
      if (scope_stack_.empty() || scope_stack_.back() != static_cast<int>(id)) {
        if (scope_error_.empty()) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "cost scope misuse at cycle %llu (pc 0x%llx): end(%llu) %s",
                        static_cast<unsigned long long>(cycles_ - 1), static_cast<unsigned long long>(pc),
                        static_cast<unsigned long long>(id),
                        scope_stack_.empty() ? "without a start" : ("while scope " + std::to_string(scope_stack_.back()) + " is open").c_str());
          scope_error_ = buf;
        }
      } else {
        scope_stack_.pop_back();
      }
    }
  }
}

void Profiler::consume(std::span<const spec::StepRecord> records) {
  for (const auto& r : records) {
    run(r.pc, 1);
    const bool is_ecall = r.insn == 0x00000073 && r.rs1 == 17;
    control(r.insn, r.pc, r.next_pc, is_ecall ? r.rs1_value : 0, is_ecall ? r.rs2_value : 0);
  }
}

void Profiler::consume_flow(std::span<const spec::FlowEvent> events) {
  for (const auto& e : events) {
    if (!started_) {  // the entry point: the first straight-line run ends at the first event
      resume_pc_ = e.pc - 4 * e.cycle;
      started_ = true;
    }
    run(resume_pc_, e.cycle - cycles_);  // the straight-line instructions before this one
    if (e.kind == spec::FlowEvent::kEnd) break;
    run(e.pc, 1);                         // the jump or ecall itself
    if (e.kind == spec::FlowEvent::kJump) {
      control(e.insn, e.pc, e.target, 0, 0);
      resume_pc_ = e.target;
    } else {
      control(0x00000073, e.pc, e.pc + 4, e.a7, e.a0);
      resume_pc_ = e.pc + 4;
    }
  }
}

void Profiler::finish() {
  if (!scope_stack_.empty() && scope_error_.empty())
    scope_error_ = "cost scope misuse: scope " + std::to_string(scope_stack_.back()) + " was never ended";
}

std::vector<FunctionStats> Profiler::functions(int scope) const {
  std::vector<FunctionStats> out(static_cast<size_t>(unknown_) + 1);
  for (int i = 0; i <= unknown_; ++i) out[static_cast<size_t>(i)].name = function_name(i);
  const std::vector<uint64_t>* counts = &node_self_;
  if (scope >= 0) counts = &scope_node_self_[static_cast<size_t>(scope)];
  auto count = [&](size_t n) { return n < counts->size() ? (*counts)[n] : 0; };
  // Inclusive cycles count once per distinct function on a stack (recursion counts once): a
  // function gets the cycles of the subtrees of its outermost nodes, the nodes that have no
  // ancestor of the same function. Linear in the nodes, whatever the depth: parents are
  // created before their children, so one backward pass sums the subtrees and one forward
  // pass, in depth-first order, knows which functions are on the path.
  std::vector<uint64_t> subtree(nodes_.size());
  for (size_t n = nodes_.size(); n-- > 0;) {
    subtree[n] += count(n);
    if (nodes_[n].parent >= 0) subtree[static_cast<size_t>(nodes_[n].parent)] += subtree[n];
    out[static_cast<size_t>(nodes_[n].func)].self += count(n);
  }
  std::vector<uint32_t> on_path(out.size(), 0);
  std::vector<std::pair<int, size_t>> dfs;  // node, next child to visit
  for (int root : roots_) {
    dfs.push_back({root, 0});
    while (!dfs.empty()) {
      auto& [n, next] = dfs.back();
      const int fn = nodes_[static_cast<size_t>(n)].func;
      if (next == 0 && on_path[static_cast<size_t>(fn)]++ == 0) out[static_cast<size_t>(fn)].inclusive += subtree[static_cast<size_t>(n)];
      const auto& kids = children_[static_cast<size_t>(n)];
      if (next < kids.size()) {
        const int c = kids[next++];
        if (subtree[static_cast<size_t>(c)]) dfs.push_back({c, 0});
      } else {
        --on_path[static_cast<size_t>(fn)];
        dfs.pop_back();
      }
    }
  }
  for (int i = 0; i < unknown_; ++i)
    out[static_cast<size_t>(i)].distinct_pcs = static_cast<uint64_t>(
        std::count(pcs_seen_[static_cast<size_t>(i)].begin(), pcs_seen_[static_cast<size_t>(i)].end(), uint8_t{1}));
  out.back().distinct_pcs = std::set<uint64_t>(unknown_pcs_.begin(), unknown_pcs_.end()).size();
  return out;
}

std::vector<int> Profiler::scopes_used() const {
  std::vector<int> ids;
  for (int s = 0; s <= kNoScope; ++s)
    for (uint64_t c : scope_node_self_[static_cast<size_t>(s)])
      if (c) { ids.push_back(s); break; }
  return ids;
}

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
  // depth and outermost-part anchor (the ancestor at depth kFoldedOuter - 1) of every node;
  // parents come before their children.
  std::vector<uint32_t> depth(nodes.size());
  std::vector<int> anchor(nodes.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n) {
    const int parent = nodes[n].parent;
    depth[n] = parent < 0 ? 0 : depth[static_cast<size_t>(parent)] + 1;
    anchor[n] = depth[n] == kFoldedOuter - 1 ? static_cast<int>(n) : (parent < 0 ? -1 : anchor[static_cast<size_t>(parent)]);
  }
  std::vector<std::string> names;
  for (size_t f = 0; f < p.functions().size(); ++f) names.push_back(folded_name(p.function_name(static_cast<int>(f))));
  auto frames = [&](int node, size_t count, std::vector<int>& out) {  // `count` frames from node outwards
    for (; node >= 0 && count > 0; node = nodes[static_cast<size_t>(node)].parent, --count) out.push_back(node);
  };
  std::vector<std::string> lines;
  std::vector<uint64_t> totals;
  std::unordered_map<std::string, size_t> line_of;
  std::vector<int> inner, outer;
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (p.node_self()[n] == 0) continue;
    inner.clear();
    outer.clear();
    const bool elide = depth[n] + 1 > kFoldedOuter + kFoldedInner;
    frames(static_cast<int>(n), elide ? kFoldedInner : depth[n] + 1, inner);
    if (elide) frames(anchor[n], kFoldedOuter, outer);
    std::string s;
    for (auto it = outer.rbegin(); it != outer.rend(); ++it) s += names[static_cast<size_t>(nodes[static_cast<size_t>(*it)].func)] + ";";
    if (elide) s += "[...];";
    for (auto it = inner.rbegin(); it != inner.rend(); ++it) s += names[static_cast<size_t>(nodes[static_cast<size_t>(*it)].func)] + ";";
    s.pop_back();
    auto [it, fresh] = line_of.try_emplace(s, lines.size());
    if (fresh) {
      lines.push_back(std::move(s));
      totals.push_back(0);
    }
    totals[it->second] += p.node_self()[n];
  }
  std::string o;
  for (size_t i = 0; i < lines.size(); ++i) o += lines[i] + " " + std::to_string(totals[i]) + "\n";
  return o;
}

// Gecko profile format (version 24), which the Firefox Profiler loads: one thread, one sample
// per cycle (or per sample_rate cycles) at 1 "ms" per cycle, stack and frame tables as that
// format defines them.
std::string firefox_profile(const Profiler& p, const std::string& product) {
  const size_t nfuncs = p.functions().size();
  const uint64_t rate = p.sample_rate() ? p.sample_rate() : 1;
  std::string o = "{\"meta\":{\"version\":24,\"interval\":" + std::to_string(rate) +
                  ",\"startTime\":0,\"shutdownTime\":null,\"processType\":0,\"product\":" + json_string(product) +
                  ",\"stackwalk\":0,\"debug\":0,\"gcpoison\":0,\"asyncstack\":0,\"presymbolicated\":true,"
                  "\"categories\":[{\"name\":\"Guest\",\"color\":\"blue\",\"subcategories\":[\"Other\"]}],\"markerSchema\":[]},"
                  "\"libs\":[],\"processes\":[],\"pausedRanges\":[],\"threads\":[{\"name\":\"guest\",\"processType\":\"default\","
                  "\"processName\":\"zkrv\",\"tid\":0,\"pid\":0,\"registerTime\":0,\"unregisterTime\":null,";
  // strings = function names; frames = one per function; stacks = call-tree nodes.
  o += "\"stringTable\":[";
  for (size_t f = 0; f < nfuncs; ++f) o += (f ? "," : "") + json_string(p.function_name(static_cast<int>(f)));
  o += "],\"frameTable\":{\"schema\":{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,\"implementation\":3,"
       "\"optimizations\":4,\"line\":5,\"column\":6,\"category\":7,\"subcategory\":8},\"data\":[";
  for (size_t f = 0; f < nfuncs; ++f) o += (f ? "," : "") + std::string("[") + std::to_string(f) + ",false,0,null,null,null,null,0,0]";
  o += "]},\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},\"data\":[";
  for (size_t n = 0; n < p.nodes().size(); ++n) {
    const auto& node = p.nodes()[n];
    o += (n ? "," : "") + std::string("[") + (node.parent < 0 ? "null" : std::to_string(node.parent)) + "," +
         std::to_string(node.func) + "]";
  }
  o += "]},\"samples\":{\"schema\":{\"stack\":0,\"time\":1,\"eventDelay\":2},\"data\":[";
  for (size_t i = 0; i < p.samples().size(); ++i)
    o += (i ? "," : "") + std::string("[") + std::to_string(p.samples()[i]) + "," + std::to_string(i * rate) + ",0]";
  o += "]},\"markers\":{\"schema\":{\"name\":0,\"startTime\":1,\"endTime\":2,\"phase\":3,\"category\":4,\"data\":5},\"data\":[]}}]}\n";
  return o;
}

}  // namespace zkrv::tools::profile
