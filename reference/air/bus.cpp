#include "reference/air/bus.h"

#include <map>
#include <sstream>

#include "reference/air/evaluate.h"
#include "reference/transcript/transcript.h"
#include "spec/air/embedded.h"

namespace zkrv::ref::air {

std::vector<BusResult> check_buses(const std::vector<BusEvent>& events, const std::string& seed) {
  Transcript t(seed);
  const Fp3 alpha = t.squeeze_ext("logup-alpha"), beta = t.squeeze_ext("logup-beta");
  std::vector<BusResult> out;
  // a whole run's buses (a bundle's are counted by check_segment_traces): every bus but gmem
  const auto& buses = spec::air::embedded_spec().buses;
  for (size_t tag = 0; tag < buses.size(); ++tag) {
    const std::string& name = buses[tag].name;
    std::vector<Fp3> numer, denom;  // ± m and α − h(t) per interaction
    size_t count = 0;
    for (const BusEvent& e : events) {
      if (e.bus != name || e.mult == 0) continue;
      ++count;
      // h(t) = tag + Σ β^(i+1) t_i; the term is ± m / (α − h(t))
      Fp3 h{{Fp::from_u64(tag), Fp(), Fp()}}, pw = beta;
      for (uint64_t v : e.tuple) {
        h = h + pw * Fp3{{Fp::from_u64(v), Fp(), Fp()}};
        pw = pw * beta;
      }
      const Fp m = Fp::from_u64(e.mult);
      numer.push_back(Fp3{{e.send ? m : -m, Fp(), Fp()}});
      denom.push_back(alpha - h);
    }
    // Σ numer_i / denom_i with one inversion: Montgomery's trick, written out.
    Fp3 sum;
    if (!denom.empty()) {
      std::vector<Fp3> prefix(denom.size());
      Fp3 acc{{Fp::from_u64(1), Fp(), Fp()}};
      for (size_t i = 0; i < denom.size(); ++i) prefix[i] = acc, acc = acc * denom[i];
      Fp3 inv = acc.inverse();  // nonzero: α is a random extension element, h(t) a combination of base values
      for (size_t i = denom.size(); i-- > 0;) {
        sum = sum + numer[i] * inv * prefix[i];
        inv = inv * denom[i];
      }
    }
    // For the message only: the tuples whose sent and received multiplicities differ.
    std::map<std::vector<uint64_t>, std::pair<uint64_t, uint64_t>> tally;  // sent, received (mod p)
    if (!(sum == Fp3{}))
      for (const BusEvent& e : events) {
        if (e.bus != name || e.mult == 0) continue;
        auto& [sent, received] = tally[e.tuple];
        (e.send ? sent : received) = (Fp::from_u64(e.send ? sent : received) + Fp::from_u64(e.mult)).value();
      }
    BusResult r{name, sum == Fp3{}, count, {}};
    for (const auto& [tuple, sr] : tally) {
      if (sr.first == sr.second) continue;
      if (r.unmatched.size() == 10) {
        r.unmatched.push_back("...");
        break;
      }
      std::ostringstream os;
      os << "(";
      for (size_t i = 0; i < tuple.size(); ++i) os << (i ? ", " : "") << "0x" << std::hex << tuple[i];
      os << std::dec << "): sent " << sr.first << ", received " << sr.second;
      r.unmatched.push_back(os.str());
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace zkrv::ref::air
