// A bundle proven by several processes (zkrv::Peers; spec/protocol.md, protocol:segments:peers),
// here threads of one process joined by an in-memory exchange, so that the sharing of the work is
// tested with or without MPI (tests/mpi runs the same through zkrv-prove-mpi): for any number of
// ranks, rank 0 writes exactly the bundle of one process alone; the blocks cover the segments;
// a rank proving another run is named; the exchanges carry the bytes the README's model counts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/peers.h"
#include "core/air/layout.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"
#include "tools/common/files.h"
#include "zkrv/prover.h"

namespace zkrv {
namespace {

// P ranks' exchange in memory. abort() (a rank failed) makes every waiting call throw.
class Hub {
 public:
  explicit Hub(unsigned size) : size_(size), shares_(size), mail_(size) {}
  std::vector<std::vector<uint8_t>> all_gather(unsigned rank, std::span<const uint8_t> mine) {
    std::unique_lock lock(m_);
    wait(lock, [&] { return !releasing_; });
    shares_[rank].assign(mine.begin(), mine.end());
    const uint64_t round = round_;
    if (++arrived_ == size_) {
      result_ = shares_, releasing_ = true, left_ = size_, ++round_;
      cv_.notify_all();
    }
    wait(lock, [&] { return round_ != round; });
    std::vector<std::vector<uint8_t>> all = result_;
    if (--left_ == 0) arrived_ = 0, releasing_ = false, cv_.notify_all();
    return all;
  }
  void send(unsigned from, std::span<const uint8_t> bytes) {
    std::lock_guard lock(m_);
    mail_[from].emplace_back(bytes.begin(), bytes.end());
    cv_.notify_all();
  }
  std::vector<uint8_t> receive(unsigned from) {
    std::unique_lock lock(m_);
    wait(lock, [&] { return !mail_[from].empty(); });
    std::vector<uint8_t> b = std::move(mail_[from].front());
    mail_[from].pop_front();
    return b;
  }
  void abort() {
    std::lock_guard lock(m_);
    aborted_ = true;
    cv_.notify_all();
  }

 private:
  template <class Pred>
  void wait(std::unique_lock<std::mutex>& lock, Pred ready) {
    cv_.wait(lock, [&] { return aborted_ || ready(); });
    if (aborted_) throw Error(ErrorCode::kCancelled, "another rank failed");
  }
  const unsigned size_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::vector<uint8_t>> shares_, result_;
  std::vector<std::deque<std::vector<uint8_t>>> mail_;
  unsigned arrived_ = 0, left_ = 0;
  uint64_t round_ = 0;
  bool releasing_ = false, aborted_ = false;
};

class ThreadPeers : public Peers {
 public:
  ThreadPeers(Hub& hub, unsigned rank, unsigned size) : hub_(hub), rank_(rank), size_(size) {}
  unsigned rank() const override { return rank_; }
  unsigned size() const override { return size_; }
  std::vector<std::vector<uint8_t>> all_gather(std::span<const uint8_t> mine) override {
    sent += mine.size() * (size_ - 1);  // what an all-gather moves from this rank to the others
    auto all = hub_.all_gather(rank_, mine);
    for (unsigned r = 0; r < size_; ++r)
      if (r != rank_) received += all[r].size();
    return all;
  }
  void send(std::span<const uint8_t> bytes) override {
    sent += bytes.size();
    hub_.send(rank_, bytes);
  }
  std::vector<uint8_t> receive(unsigned from) override {
    auto b = hub_.receive(from);
    received += b.size();
    return b;
  }
  uint64_t sent = 0, received = 0;

 private:
  Hub& hub_;
  const unsigned rank_, size_;
};

struct RankResult {
  std::vector<uint8_t> bytes;  // what its write got
  std::optional<Error> error;
  ProveReport report;
  uint64_t sent = 0, received = 0;
};

// Each rank proves `program` on its own input (inputs[r], or inputs[0]) on its own thread, with
// `o` as per_rank(r, o) leaves it, through a PeersT.
template <class PeersT = ThreadPeers>
std::vector<RankResult> prove_with_ranks(const Program& program, const std::vector<std::vector<uint8_t>>& inputs,
                                         unsigned ranks, const ProveOptions& o,
                                         const std::function<void(unsigned, ProveOptions&)>& per_rank = {}) {
  Hub hub(ranks);
  std::vector<RankResult> out(ranks);
  std::vector<std::thread> threads;
  for (unsigned r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      PeersT peers(hub, r, ranks);
      ProveOptions mine = o;
      mine.peers = &peers;
      if (per_rank) per_rank(r, mine);
      try {
        out[r].report = prove_to(program, r < inputs.size() ? inputs[r] : inputs[0], mine, [&](std::span<const uint8_t> b) {
          out[r].bytes.insert(out[r].bytes.end(), b.begin(), b.end());
        });
      } catch (const Error& e) {
        out[r].error = e;
        hub.abort();
      }
      out[r].sent = peers.sent, out[r].received = peers.received;
    });
  for (auto& t : threads) t.join();
  return out;
}

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

ProveOptions small_segments() {
  ProveOptions o;
  o.segment_cycles = uint64_t{1} << 12;
  o.threads = 1;
  return o;
}

const Program& loop_program() {
  static const Program p = Program::from_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/bench_loop.elf");
  return p;
}

// spec: protocol:segments:peers — the same bytes whatever the number of ranks, more ranks than
// segments included; only rank 0 writes.
TEST(Peers, AnyNumberOfRanksWritesTheBundleOfOneProcess) {
  const auto input = bytes_of("2000");  // about 20,000 cycles: 5 segments of 2^12
  const Proof alone = prove(loop_program(), input, small_segments());
  ASSERT_EQ(alone.report.statement.segments, 5u);
  for (unsigned ranks : {1u, 2u, 3u, 7u}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const auto got = prove_with_ranks(loop_program(), {input}, ranks, small_segments());
    for (unsigned r = 0; r < ranks; ++r) {
      ASSERT_FALSE(got[r].error) << "rank " << r << ": " << got[r].error->what();
      if (r > 0) {
        EXPECT_TRUE(got[r].bytes.empty()) << "rank " << r << " wrote";
      }
      EXPECT_EQ(got[r].report.statement.segments, 5u);
    }
    EXPECT_EQ(got[0].bytes, alone.bytes);
    EXPECT_EQ(got[0].report.proof_bytes, alone.bytes.size());
  }
}

// A guest that reads its input and writes its output in several segments (posix_io: 9 segments of
// 2^10 cycles, bytes moved in segments 1, 8 and 9), each rank skipping all segments but its own:
// what a skipped segment leaves (each byte's value and time) is what the next one starts from.
TEST(Peers, SkippedSegmentsLeaveTheirMemoryToTheNext) {
  const Program program = Program::from_file(std::string(ZKRV_GUEST_PROGRAMS_DIR) + "/posix_io.elf");
  const auto in = tools::read_file(std::string(ZKRV_SOURCE_DIR) + "/guest/programs/posix_io.input", 1 << 20, "input");
  ASSERT_TRUE(in.bytes) << in.error;
  ProveOptions o = small_segments();
  o.segment_cycles = 1024;
  const Proof alone = prove(program, *in.bytes, o);
  ASSERT_EQ(alone.report.statement.segments, 9u);
  for (unsigned ranks : {4u, 9u}) {
    const auto got = prove_with_ranks(program, {*in.bytes}, ranks, o);
    for (const auto& g : got) ASSERT_FALSE(g.error) << g.error->what();
    EXPECT_EQ(got[0].bytes, alone.bytes) << ranks << " ranks";
  }
}

// A run of one segment: rank 0 proves it alone, the proof of one process.
TEST(Peers, OneSegmentIsProvenByRankZero) {
  const auto input = bytes_of("100");
  const Proof alone = prove(loop_program(), input, small_segments());
  ASSERT_FALSE(alone.report.statement.bundle);
  const auto got = prove_with_ranks(loop_program(), {input}, 2, small_segments());
  for (const auto& g : got) ASSERT_FALSE(g.error) << g.error->what();
  EXPECT_EQ(got[0].bytes, alone.bytes);
  EXPECT_TRUE(got[1].bytes.empty());
}

// A rank with another input (so another run) is refused, named by what differs; nothing is written.
TEST(Peers, ARankProvingAnotherRunIsRefused) {
  const auto got = prove_with_ranks(loop_program(), {bytes_of("2000"), bytes_of("2001")}, 2, small_segments());
  ASSERT_TRUE(got[1].error);
  EXPECT_EQ(got[1].error->code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(std::string(got[1].error->what()).find("the input differs from rank 0's"), std::string::npos)
      << got[1].error->what();
  ASSERT_TRUE(got[0].error);  // brought down by the other's failure
  EXPECT_TRUE(got[0].bytes.empty());
}

// The options that shape the bytes must agree too (the threads need not).
TEST(Peers, ARankWithOtherOptionsIsRefused) {
  const auto got = prove_with_ranks(loop_program(), {bytes_of("2000")}, 2, small_segments(), [](unsigned r, ProveOptions& o) {
    o.threads = r + 1;
    if (r == 1) o.security = ProveOptions::Security::kConjectured;
  });
  ASSERT_TRUE(got[1].error);
  EXPECT_NE(std::string(got[1].error->what()).find("an option that shapes the proof differs from rank 0's"), std::string::npos)
      << got[1].error->what();
}

// Ranks on one machine share its memory: each is given its share of the machine's budget.
TEST(Peers, RanksOnOneMachineShareItsMemory) {
  ::unsetenv("ZKRV_MEMORY_BYTES");  // each process's own budget, not divided
  struct Crowded : ThreadPeers {
    using ThreadPeers::ThreadPeers;
    unsigned local_size() const override { return 1u << 20; }
  };
  const auto got = prove_with_ranks<Crowded>(loop_program(), {bytes_of("2000")}, 2, small_segments());
  for (unsigned r = 0; r < 2; ++r) {
    ASSERT_TRUE(got[r].error) << "rank " << r;
    EXPECT_EQ(got[r].error->code(), ErrorCode::kOutOfMemory) << got[r].error->what();
    EXPECT_NE(std::string(got[r].error->what()).find("shared by 1048576 ranks here"), std::string::npos) << got[r].error->what();
  }
}

// The bytes each rank sends and receives are the model's (README.md, "Proving across machines"):
// its statement and its global sum to every other rank, each of its segments' commitment and sums
// to every other rank, and each of its segments' body to rank 0.
TEST(Peers, TheExchangesCarryTheModelsBytes) {
  const unsigned ranks = 3;
  const auto got = prove_with_ranks(loop_program(), {bytes_of("2000")}, ranks, small_segments());
  for (const auto& g : got) ASSERT_FALSE(g.error) << g.error->what();
  const auto bundle = spec::decode_bundle(got[0].bytes);
  ASSERT_TRUE(bundle.proof);
  const size_t n = bundle.proof->segments.size(), T = core::air_layout(spec::air::Mode::kSegmented).tables.size();
  const uint64_t per_segment = api::commitment_bytes(T) + api::sums_bytes(T), per_rank = api::kRankBytes;
  uint64_t bodies_to_root = 0;
  for (unsigned r = 0; r < ranks; ++r) {
    const api::Block b = api::block_of(n, r, ranks);
    uint64_t bodies = 0;
    for (size_t s = b.first; s < b.last; ++s) bodies += spec::encode_segment_body(bundle.proof->segments[s]).size();
    const uint64_t gathered_out = (per_rank + b.size() * per_segment) * (ranks - 1),
                   gathered_in = per_rank * (ranks - 1) + (n - b.size()) * per_segment;
    EXPECT_EQ(got[r].sent, gathered_out + (r > 0 ? bodies : 0)) << "rank " << r;
    if (r > 0) {
      EXPECT_EQ(got[r].received, gathered_in) << "rank " << r;
      bodies_to_root += bodies;
    }
  }
  EXPECT_EQ(got[0].received, api::kRankBytes * (ranks - 1) + (n - api::block_of(n, 0, ranks).size()) * per_segment + bodies_to_root);
}

// spec: protocol:segments:peers — blocks in order, covering every segment once, sizes within one.
RC_GTEST_PROP(Peers, BlocksCoverTheSegmentsInOrder, ()) {
  const size_t n = *rc::gen::inRange<size_t>(0, 5000);
  const unsigned p = *rc::gen::inRange<unsigned>(1, 300);
  size_t next = 0, lo = SIZE_MAX, hi = 0;
  for (unsigned r = 0; r < p; ++r) {
    const api::Block b = api::block_of(n, r, p);
    RC_ASSERT(b.first == next);
    RC_ASSERT(b.last >= b.first);
    next = b.last;
    lo = std::min(lo, b.size()), hi = std::max(hi, b.size());
  }
  RC_ASSERT(next == n);
  RC_ASSERT(hi - lo <= 1);
}

}  // namespace
}  // namespace zkrv
