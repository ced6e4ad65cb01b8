#include "optimized/field/goldilocks.h"

namespace zkrv::opt {

void batch_inverse(std::span<Fp> values) {
  std::vector<Fp> prefix(values.size());
  Fp acc = Fp::from_u64(1);
  for (size_t i = 0; i < values.size(); ++i) {
    prefix[i] = acc;
    if (!(values[i] == Fp())) acc = acc * values[i];
  }
  Fp inv = acc.inverse();
  for (size_t i = values.size(); i-- > 0;) {
    if (values[i] == Fp()) continue;
    const Fp v = values[i];
    values[i] = inv * prefix[i];
    inv = inv * v;
  }
}

void batch_inverse(std::span<Fp3> values) {
  const Fp3 zero{}, one{{Fp::from_u64(1), Fp(), Fp()}};
  std::vector<Fp3> prefix(values.size());
  Fp3 acc = one;
  for (size_t i = 0; i < values.size(); ++i) {
    prefix[i] = acc;
    if (!(values[i] == zero)) acc = acc * values[i];
  }
  Fp3 inv = acc.inverse();
  for (size_t i = values.size(); i-- > 0;) {
    if (values[i] == zero) continue;
    const Fp3 v = values[i];
    values[i] = inv * prefix[i];
    inv = inv * v;
  }
}

}  // namespace zkrv::opt
