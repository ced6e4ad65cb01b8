#include "tests/support/opt_from_rows.h"

#include "core/air/layout.h"
#include "spec/air/embedded.h"

namespace zkrv::test {

SpecColumns spec_columns(const ref::air::AirTrace& trace) {
  SpecColumns out;
  for (const auto& st : spec::air::embedded_spec().tables) {
    const ref::air::TraceTable& tt = trace.table(st.name);
    opt::air::TableColumns t;
    t.height = tt.height();
    t.columns.assign(st.columns.size(), std::vector<opt::Fp>(t.height));
    for (size_t c = 0; c < st.columns.size(); ++c) {
      const size_t k = tt.col(st.columns[c].name);
      for (size_t r = 0; r < t.height; ++r) t.columns[c][r] = opt::Fp::from_u64(tt.rows[r][k]);
    }
    out.tables.push_back(std::move(t));
  }
  for (const std::string& name : core::air_layout().publics) out.publics.push_back(opt::Fp::from_u64(trace.publics.at(name)));
  return out;
}

spec::StarkProof prove_optimized(const spec::ProgramImage& image, const ref::air::AirTrace& trace,
                                 const spec::StarkOptions& options, unsigned threads, opt::prove::Lde lde) {
  SpecColumns c = spec_columns(trace);
  return opt::prove::prove_unchecked(image, std::move(c.tables), c.publics, options, threads, {}, {}, lde);
}

}  // namespace zkrv::test
