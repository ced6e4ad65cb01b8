// spec: protocol:segments:peers — the exchanges of a bundle proven by several processes, as bytes:
// little-endian u64 words, digests as their 32 bytes.
#include "api/peers.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "optimized/hash/keccak.h"

namespace zkrv::api {

namespace {

class Writer {
 public:
  void u64(uint64_t v) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(v >> (8 * k)));
  }
  void raw(std::span<const uint8_t> b) { bytes.insert(bytes.end(), b.begin(), b.end()); }
  std::vector<uint8_t> bytes;
};

// Reads what a Writer wrote; a short or overlong share is a bug (every process runs this code).
class Reader {
 public:
  Reader(std::span<const uint8_t> b, unsigned from) : b_(b), from_(from) {}
  uint64_t u64() {
    need(8);
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= uint64_t{b_[at_ + k]} << (8 * k);
    at_ += 8;
    return v;
  }
  std::span<const uint8_t> raw(size_t n) {
    need(n);
    at_ += n;
    return b_.subspan(at_ - n, n);
  }
  bool done() const { return at_ == b_.size(); }
  [[noreturn]] void bad(const std::string& what) const {
    throw Error(ErrorCode::kInternal, "internal error: rank " + std::to_string(from_) + "'s share is malformed: " + what);
  }

 private:
  void need(size_t n) const {
    if (b_.size() - at_ < n) bad("it ends early");
  }
  std::span<const uint8_t> b_;
  unsigned from_;
  size_t at_ = 0;
};

// Each process's share, parsed: every segment of its block once, in order, by `read(s, reader)`.
template <class F>
void read_shares(const std::vector<std::vector<uint8_t>>& all, size_t n, unsigned size, F&& read) {
  if (all.size() != size) throw Error(ErrorCode::kInternal, "internal error: the exchange lost a rank's share");
  for (unsigned r = 0; r < size; ++r) {
    Reader in(all[r], r);
    const Block b = block_of(n, r, size);
    for (size_t s = b.first; s < b.last; ++s) {
      if (in.u64() != s) in.bad("segment " + std::to_string(s) + " is not where it belongs");
      read(s, in);
    }
    if (!in.done()) in.bad("it has bytes after its last segment");
  }
}

}  // namespace

Block block_of(size_t n, unsigned rank, unsigned size) {
  const auto at = [&](size_t r) { return static_cast<size_t>((static_cast<unsigned __int128>(r) * n) / size); };
  return {at(rank), at(rank + size_t{1})};
}

void agree(Peers& peers, const RunIdentity& mine) {
  // In this order; the first that differs from rank 0's is named.
  static constexpr const char* kWhat[] = {"the program",         "the input",  "an option that shapes the proof",
                                          "the output",          "the number of cycles", "the exit code"};
  static constexpr size_t kSize[] = {32, 32, 32, 32, 8, 8};
  Writer w;
  w.raw(mine.program), w.raw(mine.input), w.raw(mine.options), w.raw(mine.output);
  w.u64(mine.cycles), w.u64(mine.exit_code);
  const auto all = peers.all_gather(w.bytes);
  if (all.size() != peers.size() || all[0].size() != w.bytes.size())
    throw Error(ErrorCode::kInternal, "internal error: the exchange lost a rank's statement");
  size_t at = 0;
  for (size_t i = 0; i < std::size(kWhat); ++i) {
    const auto from = static_cast<std::ptrdiff_t>(at);
    at += kSize[i];
    if (!std::equal(w.bytes.begin() + from, w.bytes.begin() + static_cast<std::ptrdiff_t>(at), all[0].begin() + from))
      throw Error(ErrorCode::kInvalidArgument,
                  std::string(kWhat[i]) + " differs from rank 0's (every rank must prove the same run)");
  }
}

opt::prove::Peers prover_peers(Peers& peers, size_t n, size_t tables) {
  const unsigned rank = peers.rank(), size = peers.size();
  const Block mine = block_of(n, rank, size);
  opt::prove::Peers p;
  p.owns = [mine](size_t s) { return s >= mine.first && s < mine.last; };
  p.share_commitments = [&peers, mine, n, size, tables](std::vector<opt::prove::Commitment>& all) {
    Writer w;
    for (size_t s = mine.first; s < mine.last; ++s) {
      if (all[s].log_heights.size() != tables) throw Error(ErrorCode::kInternal, "internal error: a commitment's heights");
      w.u64(s), w.raw(all[s].log_heights), w.raw(all[s].main_root);
    }
    read_shares(peers.all_gather(w.bytes), n, size, [&](size_t s, Reader& in) {
      const auto h = in.raw(tables);
      all[s].log_heights.assign(h.begin(), h.end());
      const auto root = in.raw(32);
      std::copy(root.begin(), root.end(), all[s].main_root.begin());
    });
  };
  p.share_sums = [&peers, mine, n, size, tables](std::vector<std::vector<spec::Fp3Raw>>& all) {
    Writer w;
    for (size_t s = mine.first; s < mine.last; ++s) {
      if (all[s].size() != tables) throw Error(ErrorCode::kInternal, "internal error: a segment's terminal sums");
      w.u64(s);
      for (const spec::Fp3Raw& v : all[s])
        for (uint64_t c : v) w.u64(c);
    }
    read_shares(peers.all_gather(w.bytes), n, size, [&](size_t s, Reader& in) {
      all[s].assign(tables, {});
      for (spec::Fp3Raw& v : all[s])
        for (uint64_t& c : v) c = in.u64();
    });
  };
  return p;
}

opt::Fp3 sum_over(Peers& peers, const opt::Fp3& mine) {
  Writer w;
  for (const opt::Fp& c : mine.c) w.u64(c.value());
  opt::Fp3 sum{};
  unsigned r = 0;
  for (const auto& share : peers.all_gather(w.bytes)) {
    Reader in(share, r++);
    opt::Fp3 v;
    for (opt::Fp& c : v.c) c = opt::Fp::from_u64(in.u64());
    if (!in.done()) in.bad("a sum has bytes after it");
    sum = sum + v;
  }
  return sum;
}

}  // namespace zkrv::api
