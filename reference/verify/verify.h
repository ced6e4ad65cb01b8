#pragma once
// The verifier (spec/protocol.md, protocol:stark:verify). It links the spec and the reference
// STARK core, never a prover. It takes no shape from the proof without checking it against what
// it derives itself (widths and column kinds from the embedded spec, fixed heights, the ELF's
// and the output's tables), replays the transcript over everything the proof sends, and returns
// a typed rejection: it never throws or aborts on any proof.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spec/bundle.h"
#include "spec/isa.h"
#include "spec/key.h"
#include "spec/stark.h"

namespace zkrv::ref::verify {

// A rejection names its stage, the check that failed and where (table, query, FRI layer), and
// the values it compared; `what` is the one line the CLI prints after the stage.
struct Rejection {
  enum class Stage { kMalformed, kOptions, kStatement, kShape, kSecurity, kLogup, kConstraints, kMerkle, kPow, kFri };
  // One per place the verifier rejects, in the order it checks (spec/protocol.md,
  // protocol:stark:verify_*); each belongs to one stage.
  enum class Check {
    kMalformed,  // malformed: the bytes do not decode (`what` names the offset)
    kOptionsInvalid,  // options: check_options names the range violated
    kProgramDigest, kExitCode, kOutput,  // statement
    kKey,                                // statement: the key does not fit this verifier (protocol:stark:key)
    kBundleStatement,                    // statement: a bundle's cut (spec::check_bundle_statement)
    kSegmentCount, kSegmentHeight,       // shape: a bundle's parts per segment, its cpu heights
    // shape (kBlowupTooSmall: options)
    kHeightCount, kOutputTooLong, kHeightDerived, kTooTall, kTooShort, kBlowupTooSmall, kUnboundedSend, kInteractionBound,
    kNothingToFold, kTerminalSumCount, kOodCount, kFriRootCount, kFriOpeningCount, kFinalLength, kQueryCount,
    kNonCanonicalTerminalSum, kNonCanonicalOod, kNonCanonicalFinal,
    kSecurityPolicy,  // security: the options give less than the caller's policy accepts
    kNonzeroSumWithoutInteractions, kUnbalanced,  // logup
    kConstraintsAtZeta,  // constraints
    kPow,  // pow
    kFriRowCount, kFriRowWidth, kNonCanonicalFriRow,  // shape: a committed FRI layer's opening
    kFriLayerMerkle, kMerkleMain, kMerkleAux, kMerkleQuotient,  // merkle
    kMerkleProgram,  // merkle: the program tree (protocol:stark:program)
    kFriFold, kFriFinal,  // fri
  };
  Stage stage;
  Check check;
  std::string what;
  std::optional<std::string> table;  // the table the check is about
  std::optional<size_t> query;       // the query's index in the proof (0 .. num_queries − 1)
  std::optional<unsigned> layer;     // FRI layer: 1-based for committed ones, the fold count for the final
  std::string expected, found;       // the verifier's value and the proof's, where they say more than `what`
};
const char* stage_name(Rejection::Stage s);
const char* check_name(Rejection::Check c);

struct VerifyResult {
  std::optional<Rejection> rejection;
  spec::StarkSecurity security{};  // filled when the options and shapes were accepted (also on a security rejection)
  spec::SecurityShape shape{};     // the shape the security was computed for, filled with it
  bool ok() const { return !rejection; }
};

// What the verifier is told: the program (its ELF, or its verifying key: exactly one of the two),
// the expected exit code and, optionally, the expected public output (without it, the output
// the proof claims is the one verified).
struct Expected {
  const spec::ProgramImage* image = nullptr;
  uint32_t exit_code = 0;
  const std::vector<uint8_t>* output = nullptr;
  const spec::ProgramKey* key = nullptr;  // protocol:stark:key: instead of the image
};

// What the verifier derives from the ELF (or the key) and the claimed output (the preprocessed
// columns, their LDE, the program roots), kept between calls that verify many proofs of the same
// statement (tests, fuzzing): it is rebuilt whenever the program, the key, the output, the heights
// or the blowup differ.
struct Cache {
  bool valid = false;
  spec::Digest digest{};
  std::vector<uint8_t> output, log_heights;
  unsigned log_blowup = 0;
  std::vector<std::vector<std::vector<uint64_t>>> pre_lde;  // [table][column][position], the columns outside the program tree
  std::vector<std::optional<unsigned>> log_heights_derived;
  std::vector<std::pair<unsigned, spec::Digest>> program_roots;  // (log_blowup, root) of `digest`'s program tree
  std::optional<spec::ProgramKey> key;  // the key the rest was derived with (none: the ELF)
};

// `policy` is what the caller accepts (protocol:stark:policy): a proof whose options give less
// is rejected at the security stage, before any hash. There is no default: the caller says it.
VerifyResult verify(const spec::StarkProof& proof, const Expected& expected, const spec::SecurityPolicy& policy,
                    Cache* cache = nullptr);
// Decodes first; a malformed proof is a kMalformed rejection naming the offset.
VerifyResult verify_bytes(std::span<const uint8_t> bytes, const Expected& expected, const spec::SecurityPolicy& policy,
                          Cache* cache = nullptr);

// The transcript as the verifier replays it (protocol:stark:transcript), for audits and tests:
// every challenge squeezed (label and value; a query index as its first coefficient) and every
// item absorbed (label, and how many challenges came before it). nullopt when the proof's
// shapes do not allow a replay.
struct TranscriptLog {
  std::vector<std::pair<std::string, spec::Fp3Raw>> challenges;
  std::vector<std::pair<std::string, size_t>> absorbed;
};
std::optional<TranscriptLog> transcript_log(const spec::StarkProof& proof);

// spec: protocol:segments:* — a bundle of N >= 2 segments. The rejection names the segment where
// it is one segment's; `security` is the bundle's (protocol:segments:security), filled once the
// shapes are accepted. `max_cycles`: the longest run accepted (N·2^k at most).
struct BundleVerifyResult {
  std::optional<Rejection> rejection;
  std::optional<size_t> segment;
  spec::StarkSecurity security{};
  bool ok() const { return !rejection; }
};
BundleVerifyResult verify_bundle(const spec::BundleProof& bundle, const Expected& expected,
                                 const spec::SecurityPolicy& policy, uint64_t max_cycles = spec::kDefaultMaxCycles);
// Decodes first; a malformed bundle is a kMalformed rejection naming the offset.
BundleVerifyResult verify_bundle_bytes(std::span<const uint8_t> bytes, const Expected& expected,
                                       const spec::SecurityPolicy& policy, uint64_t max_cycles = spec::kDefaultMaxCycles);

}  // namespace zkrv::ref::verify
