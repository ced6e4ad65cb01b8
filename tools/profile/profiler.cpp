#include "tools/profile/profiler.h"

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

namespace zkrv::tools::profile {

Profiler::Profiler(const SymbolTable& symbols, uint64_t sample_rate, size_t max_samples, const DebugInfo* debug)
    : symbols_(symbols), debug_(debug && !debug->empty() ? debug : nullptr), sample_rate_(sample_rate), max_samples_(max_samples),
      unknown_(static_cast<int>(symbols.functions().size())) {
  pcs_seen_.resize(symbols.functions().size());
  for (size_t i = 0; i < symbols.functions().size(); ++i) {
    const auto& f = symbols.functions()[i];
    pcs_seen_[i].assign(static_cast<size_t>((f.end - f.start + 3) / 4), 0);
  }
  scope_node_self_.resize(kNoScope + 1);
  if (debug_) {
    range_cache_.assign(kRangeCache, {0, -1});
    chunk_cache_.assign(kChunkCache, {});
  }
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

int Profiler::location_at(uint64_t pc) const {
  if (!debug_) return -1;
  const auto& ranges = debug_->ranges();
  auto& cached = range_cache_[(pc >> 2) % kRangeCache];
  if (cached.first == pc && cached.second >= 0) {
    last_range_ = cached.second;
  } else if (last_range_ < 0 || pc < ranges[static_cast<size_t>(last_range_)].start || pc >= ranges[static_cast<size_t>(last_range_)].end) {
    const int r = debug_->find_range(pc);
    if (r < 0) return -1;
    last_range_ = r;
    cached = {pc, r};
  }
  return ranges[static_cast<size_t>(last_range_)].location;
}

void Profiler::count_locations(int node, uint64_t pc, uint64_t n) {
  const auto& ranges = debug_->ranges();
  while (n > 0) {
    // Most straight-line runs start where one ran before under the same node: the cache gives
    // the end of the source range they start in and its counter at once.
    auto& c = chunk_cache_[((pc >> 2) * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(node)) % kChunkCache];
    if (c.pc != pc || c.node != node || !c.counter) {
      uint64_t end = UINT64_MAX;
      const int loc = location_at(pc);
      if (loc >= 0) {
        end = ranges[static_cast<size_t>(last_range_)].end;
      } else {  // up to the next range that DWARF describes
        const auto next = std::upper_bound(ranges.begin(), ranges.end(), pc, [](uint64_t v, const DebugInfo::Range& r) { return v < r.start; });
        if (next != ranges.end()) end = next->start;
      }
      c = {pc, node, end, &leaf_self_[uint64_t(static_cast<uint32_t>(node)) << 32 | static_cast<uint32_t>(loc + 1)]};
    }
    const uint64_t m = std::min<uint64_t>(n, std::max<uint64_t>(1, (c.end - pc) / 4 + ((c.end - pc) % 4 != 0)));
    *c.counter += m;
    pc += 4 * m;
    n -= m;
  }
}

std::vector<Leaf> Profiler::leaves() const {
  std::vector<Leaf> out;
  if (!debug_) {
    for (size_t n = 0; n < node_self_.size(); ++n)
      if (node_self_[n]) out.push_back({static_cast<int>(n), -1, node_self_[n]});
    return out;
  }
  for (const auto& [key, self] : leaf_self_)
    out.push_back({static_cast<int>(key >> 32), static_cast<int>(key & 0xffffffff) - 1, self});
  std::sort(out.begin(), out.end(), [](const Leaf& a, const Leaf& b) { return a.node != b.node ? a.node < b.node : a.location < b.location; });
  return out;
}

int Profiler::child(int parent, int func, int site) {
  auto siblings = [&]() -> std::vector<int>& { return parent >= 0 ? children_[static_cast<size_t>(parent)] : roots_; };
  for (int c : siblings())
    if (nodes_[static_cast<size_t>(c)].func == func && nodes_[static_cast<size_t>(c)].site == site) return c;
  nodes_.push_back({parent, func, site});
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
    push_frame(child(-1, func, -1), UINT64_MAX);
    return;
  }
  const Node& top = nodes_[static_cast<size_t>(stack_.back().node)];
  stack_.back().node = child(top.parent, func, top.site);  // the same call, another function
}

void Profiler::run(uint64_t pc, uint64_t count) {
  while (count > 0) {
    const int f = func_of(pc);
    // The stack's top must be the function executing; anything else is repaired.
    if (stack_.empty()) {
      push_frame(child(-1, f, -1), UINT64_MAX);
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
    if (debug_) count_locations(top, pc, n);
    const int scope = scope_stack_.empty() ? kNoScope : scope_stack_.back();
    auto& per_scope = scope_node_self_[static_cast<size_t>(scope)];
    if (per_scope.size() <= static_cast<size_t>(top)) per_scope.resize(nodes_.size(), 0);
    per_scope[static_cast<size_t>(top)] += n;
    if (sample_rate_) {
      uint64_t c = (cycles_ + sample_rate_ - 1) / sample_rate_ * sample_rate_;  // first sampled cycle >= cycles_
      while (c < cycles_ + n) {
        samples_.push_back(static_cast<uint32_t>(top));
        if (debug_) sample_locations_.push_back(location_at(pc + 4 * (c - cycles_)));
        if (max_samples_ && samples_.size() > max_samples_) {
          // Too many: keep the samples at multiples of twice the rate (the even indices).
          for (size_t i = 0; 2 * i < samples_.size(); ++i) samples_[i] = samples_[2 * i];
          samples_.resize((samples_.size() + 1) / 2);
          if (debug_) {
            for (size_t i = 0; 2 * i < sample_locations_.size(); ++i) sample_locations_[i] = sample_locations_[2 * i];
            sample_locations_.resize(samples_.size());
          }
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
      push_frame(child(top, func_of(next_pc), location_at(pc)), pc + 4);
    } else if (ret) {
      // The innermost frame expecting this return address (an index, so deep stacks stay cheap).
      if (auto it = frames_by_return_.find(next_pc); it != frames_by_return_.end()) {
        pop_frames(it->second.back());  // pop the returning frame and anything it left open
      } else {
        ++repairs_;  // a return to an address no frame expects
        if (stack_.size() > 1) pop_frames(stack_.size() - 1);
      }
      if (stack_.empty()) push_frame(child(-1, func_of(next_pc), -1), UINT64_MAX);
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

}  // namespace zkrv::tools::profile
