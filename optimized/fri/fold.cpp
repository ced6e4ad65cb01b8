#include "optimized/fri/fold.h"

#include <stdexcept>
#include <vector>

#include "optimized/common/parallel.h"
#include "optimized/ntt/ntt.h"

namespace zkrv::opt {

// spec: protocol:fri:fold — g_k = 2^-a Σ_j v_j ζ^(-jk), result Σ_k (β / x)^k g_k (Horner).
void fri_fold_layer(std::span<const Fp3> in, unsigned log_arity, Fp shift, const Fp3& beta, std::span<Fp3> out,
                    unsigned threads) {
  const size_t a = size_t{1} << log_arity, m = in.size() >> log_arity;
  if (out.size() != m) throw std::invalid_argument("fold output must be 2^-log_arity of the input");
  const Fp w_inv = root_of_unity(spec::ntt_log2(in.size())).inverse();
  const Fp a_inv = Fp::from_u64(a).inverse();
  std::vector<Fp> zeta_inv(a);  // ζ^-t, pre-multiplied by a^-1
  const Fp z = root_of_unity(log_arity).inverse();
  zeta_inv[0] = a_inv;
  for (size_t t = 1; t < a; ++t) zeta_inv[t] = zeta_inv[t - 1] * z;
  parallel_for(m, threads, [&](size_t b, size_t e) {
    Fp x_inv = shift.inverse() * w_inv.pow(b);
    std::vector<Fp3> g(a);
    for (size_t i = b; i < e; ++i, x_inv = x_inv * w_inv) {
      const Fp3 s = beta * x_inv;
      if (a == 2) {
        const Fp3 v0 = in[i], v1 = in[i + m];
        out[i] = (v0 + v1) * a_inv + s * ((v0 - v1) * a_inv);
        continue;
      }
      for (size_t k = 0; k < a; ++k) {
        Fp3 acc;
        for (size_t j = 0; j < a; ++j) acc = acc + in[i + j * m] * zeta_inv[(j * k) & (a - 1)];
        g[k] = acc;
      }
      Fp3 r = g[a - 1];  // Horner in s = β / x
      for (size_t k = a - 1; k-- > 0;) r = r * s + g[k];
      out[i] = r;
    }
  }, 1024);
}

}  // namespace zkrv::opt
