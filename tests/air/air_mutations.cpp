// The negative suite's machinery (air_fixture.h): a mutation's base trace, every mutation in one
// order, how a mutated trace is judged; and the tests that run the list: every mutation rejected
// by the ID it targets, the forgeries that only one constraint set catches, and adequacy (with
// each constraint switched off in turn, some mutation must be accepted).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "reference/air/interpret.h"
#include "tests/air/air_fixture.h"

namespace zkrv::ref::air::fixture {

AirTrace Mutation::start() const {
  return base == Base::kMini       ? mini()
         : base == Base::kJumps    ? jumps()
         : base == Base::kIndirect ? indirect()
         : base == Base::kAlu      ? alu_prog()
         : base == Base::kExit     ? exit_prog()
         : base == Base::kMem      ? mem_prog()
         : base == Base::kDiv      ? div_prog()
         : base == Base::kSys      ? sys_prog()
         : base == Base::kMerge    ? merge_prog()
         : base == Base::kLog      ? log_prog()
         : base == Base::kBigRead  ? big_read_prog()
         : base == Base::kFar      ? far_prog()
         : base == Base::kOpX0     ? op_x0_prog()
                                   : fib();
}

// Fault class "<what> output changed": for each result limb k, the alu_prog instruction `word`
// claims its result with bit 0 of limb k flipped; `<table>:c:r<k>` must reject it.
void flip_result_limbs(std::vector<Mutation>& m, const std::string& table, uint32_t word, const std::string& what,
                       Mutation::Base base) {
  for (int k = 0; k < 4; ++k)
    m.push_back({table + ":c:r" + std::to_string(k),
                 "fault class '" + what + " output changed': result limb " + std::to_string(k) + " with its low bit flipped",
                 [k, word](AirTrace& t) {
                   const size_t r = row_with_insn(t, word);
                   forge_result(t, r, cpu_result(t, r) ^ (uint64_t{1} << (16 * k)));
                   return true;
                 }, base});
}

std::vector<Mutation> all_mutations() {
  std::vector<Mutation> m;
  cpu_mutations(m);
  alu_mutations(m);
  exit_mutations(m);
  mem_mutations(m);
  mul_mutations(m);
  div_mutations(m);
  sys_mutations(m);
  shift_mutations(m);
  padding_mutations(m);
  changed_row_mutations(m);
  return m;
}
// Every mutation, or with ZKRV_AIR_MUTATIONS=PREFIX set (a development aid) those whose expected ID
// starts with PREFIX (the lint and the adequacy list then report the rest as missing).
std::vector<Mutation> mutations() {
  auto m = all_mutations();
  if (const char* prefix = std::getenv("ZKRV_AIR_MUTATIONS"))
    m.erase(std::remove_if(m.begin(), m.end(), [&](const Mutation& x) { return x.expect.rfind(prefix, 0) != 0; }), m.end());
  return m;
}

namespace {

std::string bus_of(const std::string& id) {
  for (const auto& t : the_spec().tables)
    for (const auto& b : t.buses)
      if (b.id == id) return b.bus;
  return {};
}

// Rejected, and by the expected ID (a failing constraint, or the expected bus unbalanced).
std::string verdict(const CheckReport& rep, const std::string& expect) {
  if (rep.ok()) return "accepted";
  if (expect.find(":b:") != std::string::npos) {
    for (const auto& b : rep.buses)
      if (b.bus == bus_of(expect) && !b.balanced) return "rejected";
    return "rejected, but not by bus " + bus_of(expect) + ": " + rep.summary();
  }
  if (rep.failing_ids.count(expect)) return "rejected";
  return "rejected, but not by " + expect + ": " + rep.summary();
}

}  // namespace

// The one mutation of `id` whose description starts with `what`, applied and checked as a
// forgery that only `only` catches: every bus balances, exactly `only` fails, and with `only`
// switched off the checker accepts it. Empty where there is no such mutation (a failure).
std::optional<AirTrace> forgery_only_caught_by(const std::string& id, const std::string& what,
                                               const std::set<std::string>& only) {
  std::optional<AirTrace> out;
  size_t found = 0;
  for (const auto& mu : mutations()) {
    if (mu.expect != id || mu.what.rfind(what, 0) != 0) continue;
    AirTrace t = mu.start();
    EXPECT_TRUE(mu.apply(t)) << mu.what;
    const auto rep = check_trace(t);
    EXPECT_EQ(rep.failing_ids, only) << rep.summary();
    for (const auto& b : rep.buses) EXPECT_TRUE(b.balanced) << b.bus;
    EXPECT_TRUE(check_trace(t, only).ok()) << check_trace(t, only).summary();
    out = std::move(t);
    ++found;
  }
  EXPECT_EQ(found, 1u) << id << ": " << what;
  return out;
}

namespace {

TEST(Air, EveryMutationIsRejectedByItsId) {
  size_t i = 0;
  for (const auto& mu : mutations()) {
    AirTrace t = mu.start();
    ASSERT_TRUE(mu.apply(t)) << mu.expect << ": mutation not applicable (" << mu.what << ")";
    EXPECT_EQ(verdict(check_trace(t), mu.expect), "rejected") << mu.expect << ": " << mu.what;
    if (i++ % 4 == 0) {  // the spec sees the same values
      const auto d = spec_disagreement(the_spec(), t);
      EXPECT_FALSE(d) << mu.expect << ": " << d.value_or("");
    }
  }
  std::printf("%zu mutations, each rejected by the ID it targets\n", i);
}

// The forgery that zkrv-air-solve's uniqueness question found in the alu table (alu.md, "Why
// the sign columns are bits"): slt(0x7FFFFFFFC0000000, 7) claimed 1 through signs 3/4 and -1/2.
// Every bus balances and every other constraint holds: without sa_bit and sb_bit the checker
// accepts the false result.
TEST(Air, FractionalSignsForgeASignedComparisonWithoutTheSignBits) {
  EXPECT_TRUE(forgery_only_caught_by("alu:c:sa_bit", "slt(", {"alu:c:sa_bit", "alu:c:sb_bit"}));
}

// Adequacy: with one constraint switched off, some mutation must pass. A mutation passes with
// constraint X off exactly when X is the only constraint it violates and every bus balances, so
// one check per mutation decides it for every X at once. The survivors are the constraints that
// other constraints already imply, or for which no single-constraint attack is known (each listed
// with the reason in its table's "Adequacy" section).
TEST(Air, AdequacyKillRate) {
  const auto muts = mutations();
  std::vector<const spec::air::Constraint*> all;
  for (const auto& table : the_spec().tables)
    for (const auto& c : table.constraints) all.push_back(&c);
  std::vector<std::string> lone(muts.size());  // the only failing constraint of a mutation whose buses balance
  auto work = [&](size_t begin, size_t step) {
    for (size_t i = begin; i < muts.size(); i += step) {
      AirTrace t = muts[i].start();
      if (!muts[i].apply(t)) continue;  // not applicable: proves nothing
      const auto rep = check_trace(t);
      bool balanced = true;
      for (const auto& b : rep.buses) balanced = balanced && b.balanced;
      if (balanced && rep.failing_ids.size() == 1) lone[i] = *rep.failing_ids.begin();
    }
  };
  std::thread helper(work, 1, 2);  // check_trace is pure: two mutations at a time
  work(0, 2);
  helper.join();
  std::vector<char> kill(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i)
    kill[i] = std::find(lone.begin(), lone.end(), all[i]->id) != lone.end();
  std::vector<std::string> killed, survivors;
  for (size_t i = 0; i < all.size(); ++i) (kill[i] ? killed : survivors).push_back(all[i]->id);
  // A survivor must be marked in its table: `adequacy ID implied` (zkrv-air-solve proves it, and
  // AirSolve.EveryImpliedMarkIsProved asks again) or `adequacy ID open` (neither an attack nor a
  // proof known, with what was tried). A mark on a killed constraint is stale.
  std::vector<std::string> marked;
  size_t implied = 0, open = 0;
  for (const auto& table : the_spec().tables)
    for (const auto& mark : table.adequacy) {
      marked.push_back(mark.id);
      (mark.kind == spec::air::AdequacyMark::Kind::kImplied ? implied : open) += 1;
    }
  std::printf("adequacy: %zu of %zu constraints killed (%.0f%%), %zu implied (solver), %zu open\n", killed.size(),
              all.size(), 100.0 * killed.size() / all.size(), implied, open);
  for (const auto& sv : survivors) {
    if (std::find(marked.begin(), marked.end(), sv) != marked.end()) continue;
    std::printf("  survivor without an adequacy mark: %s\n", sv.c_str());
    for (const auto& mu : muts)
      if (mu.expect == sv) {
        AirTrace t = mu.start();
        if (!mu.apply(t)) continue;
        std::printf("    its mutation is still caught: %.200s\n", check_trace(t, {sv}).summary().c_str());
      }
  }
  for (const auto& id : marked)
    EXPECT_NE(std::find(survivors.begin(), survivors.end(), id), survivors.end())
        << id << " is killed: its adequacy mark in the spec is stale";
  EXPECT_EQ(survivors.size(), marked.size()) << "every survivor needs an adequacy mark in its table";
}

}  // namespace
}  // namespace zkrv::ref::air::fixture
