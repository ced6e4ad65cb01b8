#pragma once
// The AIR as the reference prover and the verifier see it (spec/protocol.md, protocol:stark:*):
// the compiled AIR of core/air (layout, LogUp layout, combination) over ref::Fp, and what only
// this side needs: the preprocessed columns and the heights the verifier derives itself from the
// ELF and the claimed output, the program digest (the reference Keccak over core's encoding),
// and field helpers.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/air/layout.h"
#include "reference/field/goldilocks.h"
#include "spec/air/spec.h"
#include "spec/bundle.h"
#include "spec/isa.h"
#include "spec/key.h"
#include "spec/stark.h"

namespace zkrv::ref::stark {

// ---- field helpers ----
inline Fp3 scale(const Fp3& a, Fp s) { return {{a.c[0] * s, a.c[1] * s, a.c[2] * s}}; }
inline Fp3 from_raw(const spec::Fp3Raw& r) { return {{Fp::from_u64(r[0]), Fp::from_u64(r[1]), Fp::from_u64(r[2])}}; }
inline spec::Fp3Raw to_raw(const Fp3& a) { return {a.c[0].value(), a.c[1].value(), a.c[2].value()}; }
// a0 + a1 w + a2 w^2 from the three base components (each a value in F_{p^3} at ζ).
inline Fp3 recombine(const Fp3& a0, const Fp3& a1, const Fp3& a2) {
  const Fp3 w{{Fp(), Fp::from_u64(1), Fp()}};
  return a0 + w * (a1 + w * a2);
}
// In-place Montgomery batch inversion; every element must be nonzero (throws otherwise).
void batch_inverse(std::vector<Fp>& v);
void batch_inverse(std::vector<Fp3>& v);

// ---- the compiled AIR (core/air), over this side's field ----
using core::AirLayout;
using core::air_layout;
using core::CompiledConstraint;
using core::CompiledInteraction;
using core::combine;
using core::combination_powers;
using core::denominator;
using core::eval;
using core::Node;
using core::Program;
using core::spec_values;
using core::TableLayout;
using core::TableValues;
using LogupChallenges = core::LogupChallenges<Fp3>;

// ---- what the verifier derives ----
// protocol:stark:digest — Keccak-256 of the canonical encoding of the loadable image and entry.
spec::Digest program_digest(const spec::ProgramImage& image);

// protocol:stark:preprocessed — every table's preprocessed columns (spec order among the
// table's preprocessed columns), from the ELF and the claimed output alone, padded as the
// tables' documents say; and each table's log height where the verifier knows it (fixed tables
// and those built from the ELF or the output), nullopt where the prover chooses it.
struct Preprocessed {
  std::vector<std::vector<std::vector<Fp>>> columns;  // [table][preprocessed column][row]
  std::vector<std::optional<unsigned>> log_heights;
};
Preprocessed preprocessed(const spec::ProgramImage& image, const std::vector<uint8_t>& output);
// protocol:stark:key — the same from a key: the heights of the tables built from the ELF taken
// from the key (which must have one per program table), and the other tables' columns as above;
// the tables built from the ELF get no columns (the program tree holds them).
Preprocessed preprocessed(const spec::ProgramKey& key, const std::vector<uint8_t>& output);
// protocol:segments:vk — segment s's preprocessed columns in the segment AIR: the program's, the
// output table's slice opos_start … opos_end of the statement's output, and regs' iv* (Σ_s's
// registers) and ev* (Σ_(s+1)'s). The statement must have passed spec::check_bundle_statement.
// From the image, or (image null) from the key as preprocessed(key, output).
Preprocessed segment_preprocessed(const spec::ProgramImage* image, const spec::ProgramKey* key,
                                  const spec::BundleStatement& st, size_t s);

}  // namespace zkrv::ref::stark
