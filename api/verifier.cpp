// The host API's verifying side (zkrv/verifier.h): programs, digests, and the verifier, on the
// reference verifier (reference/verify), which is the only one.
#include <cmath>
#include <new>
#include <stdexcept>

#include "api/program_impl.h"
#include "reference/elf/elf_loader.h"
#include "reference/stark/air.h"
#include "reference/verify/key.h"
#include "reference/verify/verify.h"
#include "spec/bundle.h"
#include "tools/common/files.h"

#ifndef ZKRV_VERSION
#define ZKRV_VERSION "unknown"
#endif

namespace zkrv {

const char* version() { return ZKRV_VERSION; }
unsigned proof_format_version() { return spec::kStarkProofVersion; }
unsigned bundle_format_version() { return spec::kBundleVersion; }

const char* error_code_name(ErrorCode c) {
  switch (c) {
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kBadProgram: return "bad program";
    case ErrorCode::kBadInput: return "bad input";
    case ErrorCode::kIo: return "i/o";
    case ErrorCode::kGuestFault: return "guest fault";
    case ErrorCode::kUnsatisfied: return "unsatisfied";
    case ErrorCode::kOutOfMemory: return "out of memory";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInternal: return "internal";
    case ErrorCode::kBadKey: return "bad key";
  }
  return "?";
}

Error::Error(ErrorCode code, const std::string& what, std::optional<Fault> fault)
    : std::runtime_error(what), code_(code), fault_(std::move(fault)) {}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) s += kDigits[b >> 4], s += kDigits[b & 15];
  return s;
}

Program::Program(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
const Digest& Program::digest() const { return impl_->digest; }
std::span<const uint8_t> Program::elf() const { return impl_->elf; }

Program Program::from_elf(std::span<const uint8_t> elf) {
  auto loaded = ref::load_elf(elf);
  if (!loaded.ok()) throw Error(ErrorCode::kBadProgram, loaded.message);
  auto impl = std::make_shared<Impl>();
  impl->elf.assign(elf.begin(), elf.end());
  impl->image = std::move(*loaded.image);
  impl->digest = ref::stark::program_digest(impl->image);
  return Program(std::move(impl));
}

Program Program::from_file(const std::string& path) {
  auto r = tools::read_file(path, uint64_t{1} << 30, "program");
  if (!r.bytes) throw Error(ErrorCode::kIo, r.error);
  try {
    return from_elf(*r.bytes);
  } catch (const Error& e) {
    throw Error(ErrorCode::kBadProgram, path + ": " + e.what());
  }
}

Key::Key(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
const Digest& Key::digest() const { return impl_->key.program_digest; }
std::vector<uint8_t> Key::bytes() const { return spec::encode_key(impl_->key); }

Key Key::of(const Program& program) {
  try {
    auto impl = std::make_shared<Impl>();
    impl->key = ref::verify::make_key(program.impl().image);
    return Key(std::move(impl));
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kOutOfMemory, "out of memory");
  } catch (const std::invalid_argument& e) {
    throw Error(ErrorCode::kBadProgram, e.what());
  }
}

Key Key::from_bytes(std::span<const uint8_t> bytes) {
  auto parsed = spec::decode_key(bytes);
  if (!parsed.key) throw Error(ErrorCode::kBadKey, parsed.error->what + " at byte " + std::to_string(parsed.error->offset));
  auto impl = std::make_shared<Impl>();
  impl->key = std::move(*parsed.key);
  return Key(std::move(impl));
}

Key Key::from_file(const std::string& path) {
  auto r = tools::read_file(path, uint64_t{1} << 20, "key");
  if (!r.bytes) throw Error(ErrorCode::kIo, r.error);
  try {
    return from_bytes(*r.bytes);
  } catch (const Error& e) {
    throw Error(ErrorCode::kBadKey, path + ": " + e.what());
  }
}

std::string Policy::describe() const { return api::to_spec(*this).str(); }

const char* stage_name(Rejection::Stage s) { return ref::verify::stage_name(static_cast<ref::verify::Rejection::Stage>(s)); }

namespace api {

spec::SecurityPolicy to_spec(const Policy& p) {
  return spec::SecurityPolicy::at_least(p.measure == Policy::Measure::kProvable ? spec::SecurityPolicy::Measure::kProvable
                                                                                : spec::SecurityPolicy::Measure::kConjectured,
                                        p.min_bits);
}

Fault to_api(const spec::Fault& f, uint64_t cycles, const std::array<uint64_t, 32>& regs) {
  return Fault{static_cast<FaultKind>(f.kind), f.pc, f.address, cycles, f.insn, regs, spec::describe(f)};
}

}  // namespace api

namespace {

// The reference verifier's stages, in its order, are the API's (a static_assert per end keeps them so).
static_assert(static_cast<int>(Rejection::Stage::kMalformed) == static_cast<int>(ref::verify::Rejection::Stage::kMalformed));
static_assert(static_cast<int>(Rejection::Stage::kFri) == static_cast<int>(ref::verify::Rejection::Stage::kFri));

Rejection to_api(const ref::verify::Rejection& r, std::optional<size_t> segment) {
  Rejection out;
  out.stage = static_cast<Rejection::Stage>(r.stage);
  out.check = ref::verify::check_name(r.check);
  out.what = r.what;
  out.table = r.table;
  if (segment) out.segment = *segment;
  return out;
}

Verdict malformed(const std::string& what) {
  Verdict v;
  v.rejection = Rejection{Rejection::Stage::kMalformed, "malformed", what, std::nullopt, std::nullopt};
  return v;
}

}  // namespace

namespace {
// From the program's image or its key (one of the two).
Verdict verify_unguarded(const spec::ProgramImage* image, const spec::ProgramKey* key, std::span<const uint8_t> proof,
                         const Expected& expected, const Policy& policy) {
  if (!(policy.min_bits >= 0 && policy.min_bits <= spec::kHashCollisionBits))
    throw Error(ErrorCode::kInvalidArgument, "the policy's min_bits must be within [0, " +
                                                 std::to_string(static_cast<int>(spec::kHashCollisionBits)) + "]");
  const spec::SecurityPolicy sp = api::to_spec(policy);
  const std::vector<uint8_t>* output = expected.output ? &*expected.output : nullptr;
  const ref::verify::Expected e{image, expected.exit_code, output, key};
  Verdict v;
  if (spec::is_bundle(proof)) {
    const auto parsed = spec::decode_bundle(proof);
    if (!parsed.proof) return malformed(parsed.error->what + " at byte " + std::to_string(parsed.error->offset));
    const spec::BundleStatement& st = parsed.proof->statement;
    v.statement = Statement{st.program_digest, st.exit_code, st.output, true, {}, st.segments(), st.log_segment};
    const auto r = ref::verify::verify_bundle(*parsed.proof, e, sp, expected.max_cycles);
    if (!r.ok()) v.rejection = to_api(*r.rejection, r.segment);
    v.security_computed = r.ok() || r.rejection->stage == ref::verify::Rejection::Stage::kSecurity;
    if (v.security_computed) v.provable_bits = r.security.provable_bits, v.conjectured_bits = r.security.conjectured_bits;
    return v;
  }
  const auto parsed = spec::decode_stark_proof(proof);
  if (!parsed.proof) return malformed(parsed.error->what + " at byte " + std::to_string(parsed.error->offset));
  const spec::Statement& st = parsed.proof->statement;
  v.statement = Statement{st.program_digest, st.exit_code, st.output, false, st.log_heights, 1, 0};
  const auto r = ref::verify::verify(*parsed.proof, e, sp);
  if (!r.ok()) v.rejection = to_api(*r.rejection, std::nullopt);
  v.security_computed = r.ok() || r.rejection->stage == ref::verify::Rejection::Stage::kSecurity;
  if (v.security_computed) v.provable_bits = r.security.provable_bits, v.conjectured_bits = r.security.conjectured_bits;
  return v;
}
}  // namespace

Verdict verify(const Program& program, std::span<const uint8_t> proof, const Expected& expected, const Policy& policy) {
  try {
    return verify_unguarded(&program.impl().image, nullptr, proof, expected, policy);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kOutOfMemory, "out of memory");
  }
}

Verdict verify(const Key& key, std::span<const uint8_t> proof, const Expected& expected, const Policy& policy) {
  try {
    return verify_unguarded(nullptr, &key.impl().key, proof, expected, policy);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kOutOfMemory, "out of memory");
  }
}

}  // namespace zkrv
