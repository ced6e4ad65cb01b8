#pragma once
// The bus checker: every bus's LogUp sum Σ_send m / (α − h(t)) − Σ_receive m / (α − h(t)) must be
// 0 in F_{p^3}, with h(t) = tag + Σ_i β^(i+1) t_i (tag = the bus's index in spec/tables/air.md)
// and α, β drawn from a transcript seeded by `seed`. A failure names the bus and the tuples whose
// sent and received multiplicities differ (counted exactly, for the message).

#include <cstdint>
#include <string>
#include <vector>

namespace zkrv::ref::air {

struct BusEvent {
  std::string id, bus;
  bool send;
  size_t row;
  std::vector<uint64_t> tuple;
  uint64_t mult;
};
struct BusResult {
  std::string bus;
  bool balanced;
  size_t interactions;            // events with a nonzero multiplicity
  std::vector<std::string> unmatched;  // "(t0, t1): sent 2, received 1", at most 10
};
std::vector<BusResult> check_buses(const std::vector<BusEvent>& events, const std::string& seed = "zkrv-air-check");

}  // namespace zkrv::ref::air
