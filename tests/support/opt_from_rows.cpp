#include "tests/support/opt_from_rows.h"

#include <stdexcept>

#include "core/air/layout.h"
#include "reference/exec/executor.h"
#include "spec/air/embedded.h"
#include "spec/bundle.h"

namespace zkrv::test {

SpecColumns spec_columns(const ref::air::AirTrace& trace, spec::air::Mode mode) {
  SpecColumns out;
  for (const auto& st : spec::air::embedded_spec(mode).tables) {
    const ref::air::TraceTable& tt = trace.table(st.name);
    opt::air::TableColumns t;
    t.height = tt.height();
    t.columns.assign(st.columns.size(), opt::Column(t.height));
    for (size_t c = 0; c < st.columns.size(); ++c) {
      const size_t k = tt.col(st.columns[c].name);
      for (size_t r = 0; r < t.height; ++r) t.columns[c][r] = opt::Fp::from_u64(tt.rows[r][k]);
    }
    out.tables.push_back(std::move(t));
  }
  for (const std::string& name : core::air_layout(mode).publics) out.publics.push_back(opt::Fp::from_u64(trace.publics.at(name)));
  return out;
}

spec::StarkProof prove_optimized(const spec::ProgramImage& image, const ref::air::AirTrace& trace,
                                 const spec::StarkOptions& options, unsigned threads, opt::prove::Lde lde) {
  SpecColumns c = spec_columns(trace);
  return opt::prove::prove_unchecked(image, std::move(c.tables), c.publics, options, threads, {}, {}, lde);
}

SegmentedRun segmented_run(const spec::ProgramImage& image, std::span<const uint8_t> input, unsigned k) {
  SegmentedRun r;
  spec::RunPlanner planner(image, k);
  spec::ExecOptions o;
  spec::attach(planner, o);
  r.plan = planner.finish(ref::execute(image, input, o));
  spec::ExecOptions t;
  t.trace = true;
  r.run = ref::execute(image, input, t);
  r.segments = ref::air::build_segment_traces(image, r.run, r.plan);
  std::vector<spec::StepRecord>().swap(r.run.trace);
  return r;
}

spec::BundleProof prove_bundle_optimized(const spec::ProgramImage& image, const std::vector<ref::air::AirTrace>& segments,
                                         const spec::RunPlan& plan, const spec::StarkOptions& options, unsigned threads) {
  std::vector<opt::prove::Segment> segs;
  for (const auto& t : segments) {
    SpecColumns c = spec_columns(t, spec::air::Mode::kSegmented);
    segs.push_back({std::move(c.tables), std::move(c.publics)});
  }
  return opt::prove::prove_bundle_unchecked(image, std::move(segs), plan, options, threads);
}

std::vector<uint8_t> prove_bundle_streamed_bytes(const spec::ProgramImage& image,
                                                 const std::vector<ref::air::AirTrace>& segments,
                                                 const spec::RunPlan& plan, uint32_t exit_code,
                                                 const std::vector<uint8_t>& output, const spec::StarkOptions& options) {
  const opt::prove::SegmentSource source = [&](const std::function<void(size_t, opt::prove::Segment&&)>& take) {
    for (size_t s = 0; s < segments.size(); ++s) {
      SpecColumns c = spec_columns(segments[s], spec::air::Mode::kSegmented);
      take(s, {std::move(c.tables), std::move(c.publics)});
    }
  };
  std::vector<uint8_t> bytes;
  size_t next = 0;
  const opt::prove::BundleSink sink{[&](const spec::BundleProof& head) {
                                      if (!bytes.empty()) throw std::logic_error("the head came twice");
                                      bytes = spec::encode_bundle_head(head);
                                    },
                                    [&](size_t s, spec::SegmentProof&& sp) {
                                      if (bytes.empty() || s != next++) throw std::logic_error("a body out of order");
                                      const auto body = spec::encode_segment_body(sp);
                                      bytes.insert(bytes.end(), body.begin(), body.end());
                                    }};
  const spec::BundleProof b =
      opt::prove::prove_bundle_streamed(image, plan, exit_code, output, source, options, 0, {}, nullptr, nullptr, std::nullopt, &sink);
  if (!b.segments.empty() || next != segments.size()) throw std::logic_error("a segment's proof was kept or never given");
  return bytes;
}

}  // namespace zkrv::test
