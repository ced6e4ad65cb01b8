#pragma once
// Little-endian byte writing and a bounds-checked reader with typed errors, shared by the proof
// decoders (protocol:proof:*). Internal to spec/: the reader never throws and never allocates
// more than the bytes left allow.

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spec/field.h"
#include "spec/fri.h"
#include "spec/stark.h"

namespace zkrv::spec::codec {

inline void put(std::vector<uint8_t>& b, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) b.push_back(static_cast<uint8_t>(v >> (8 * k)));
}

// The head every statement starts with (protocol:proof:stark, protocol:segments:proof): u32
// version, the options (u8 log_blowup, u16 queries, u8 pow_bits, u8 log_final_size), the program
// digest, u32 exit code, u64 output length and the output's bytes.
inline void put_statement_head(std::vector<uint8_t>& b, uint32_t version, const StarkOptions& o, const Digest& digest,
                               uint32_t exit_code, const std::vector<uint8_t>& output) {
  put(b, version, 4);
  put(b, o.log_blowup, 1);
  put(b, o.num_queries, 2);
  put(b, o.pow_bits, 1);
  put(b, o.log_final_size, 1);
  b.insert(b.end(), digest.begin(), digest.end());
  put(b, exit_code, 4);
  put(b, output.size(), 8);
  b.insert(b.end(), output.begin(), output.end());
}

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> b) : b_(b) {}
  std::optional<ParseError> err;
  size_t pos() const { return pos_; }
  size_t left() const { return b_.size() - pos_; }
  bool ok() const { return !err; }

  uint64_t uint(int bytes) {
    if (err) return 0;
    if (left() < static_cast<size_t>(bytes)) return fail(ParseError::Kind::kTruncated, "unexpected end of proof"), 0;
    uint64_t v = 0;
    for (int k = 0; k < bytes; ++k) v |= uint64_t{b_[pos_ + static_cast<size_t>(k)]} << (8 * k);
    pos_ += static_cast<size_t>(bytes);
    return v;
  }
  uint64_t field() {
    const size_t at = pos_;
    const uint64_t v = uint(8);
    if (ok() && v >= GoldilocksTraits::kModulus) {
      pos_ = at;
      fail(ParseError::Kind::kNonCanonical, "field element not canonical (>= p)");
    }
    return v;
  }
  Digest digest() {
    Digest d{};
    if (err) return d;
    if (left() < 32) return fail(ParseError::Kind::kTruncated, "unexpected end of proof"), d;
    std::memcpy(d.data(), b_.data() + pos_, 32);
    pos_ += 32;
    return d;
  }
  // A u32 count of items at least item_bytes long each: never more than the bytes left allow,
  // so a hostile count cannot make the parser allocate.
  size_t count(size_t item_bytes, const char* what) {
    const size_t at = pos_;
    const uint64_t n = uint(4);
    if (ok() && n * item_bytes > left()) {
      pos_ = at;
      fail(ParseError::Kind::kTooLarge, std::string(what) + " count exceeds the remaining bytes");
      return 0;
    }
    return static_cast<size_t>(n);
  }
  void fail(ParseError::Kind k, std::string what) { fail_at(pos_, k, std::move(what)); }
  // A failure that names the offset where the offending field starts.
  void fail_at(size_t at, ParseError::Kind k, std::string what) {
    if (!err) err = ParseError{k, at, std::move(what)};
  }

 private:
  std::span<const uint8_t> b_;
  size_t pos_ = 0;
};

// A FRI layer opening (protocol:proof:stark): u32 R, R rows (u32 W, W field elements), u32 D, D digests.
inline void put_layer_opening(std::vector<uint8_t>& b, const FriLayerOpening& o) {
  put(b, o.rows.size(), 4);
  for (const auto& row : o.rows) {
    put(b, row.size(), 4);
    for (uint64_t v : row) put(b, v, 8);
  }
  put(b, o.merkle_proof.size(), 4);
  for (const Digest& d : o.merkle_proof) b.insert(b.end(), d.begin(), d.end());
}
inline void read_layer_opening(Reader& r, FriLayerOpening& o) {
  o.rows.resize(r.count(4, "opened row"));
  for (auto& row : o.rows) {
    row.resize(r.count(8, "row element"));
    for (uint64_t& v : row) v = r.field();
  }
  o.merkle_proof.resize(r.count(32, "Merkle digest"));
  for (Digest& d : o.merkle_proof) d = r.digest();
}

// One mixed-height opening (protocol:proof:stark): u32 V, V field elements, u32 D, D digests.
inline void put_opening(std::vector<uint8_t>& b, const MixedOpening& o) {
  put(b, o.values.size(), 4);
  for (uint64_t v : o.values) put(b, v, 8);
  put(b, o.siblings.size(), 4);
  for (const Digest& d : o.siblings) b.insert(b.end(), d.begin(), d.end());
}
inline void read_opening(Reader& r, MixedOpening& o) {
  o.values.resize(r.count(8, "opened value"));
  for (uint64_t& v : o.values) v = r.field();
  o.siblings.resize(r.count(32, "Merkle sibling"));
  for (Digest& d : o.siblings) d = r.digest();
}
inline void put_fp3(std::vector<uint8_t>& b, const Fp3Raw& c) {
  for (uint64_t v : c) put(b, v, 8);
}
inline Fp3Raw read_fp3(Reader& r) { return {r.field(), r.field(), r.field()}; }

// A proof's body from its aux root on (protocol:proof:stark; protocol:segments:proof, per
// segment): the aux and quotient roots, u32 count and the opened values, u32 count and the FRI
// layer roots, u32 count and the final polynomial, u64 nonce, u32 count and the query openings
// (main, aux, quotient, program), u32 count and the FRI layer openings. P is StarkProof or SegmentProof.
template <class P>
void put_tail(std::vector<uint8_t>& b, const P& p) {
  b.insert(b.end(), p.aux_root.begin(), p.aux_root.end());
  b.insert(b.end(), p.quotient_root.begin(), p.quotient_root.end());
  put(b, p.ood.size(), 4);
  for (const Fp3Raw& c : p.ood) put_fp3(b, c);
  put(b, p.fri_roots.size(), 4);
  for (const Digest& d : p.fri_roots) b.insert(b.end(), d.begin(), d.end());
  put(b, p.final_poly.size(), 4);
  for (const Fp3Raw& c : p.final_poly) put_fp3(b, c);
  put(b, p.pow_nonce, 8);
  put(b, p.queries.size(), 4);
  for (const QueryOpening& q : p.queries) {
    put_opening(b, q.main);
    put_opening(b, q.aux);
    put_opening(b, q.quotient);
    put_opening(b, q.program);
  }
  put(b, p.fri_openings.size(), 4);
  for (const FriLayerOpening& o : p.fri_openings) put_layer_opening(b, o);
}
template <class P>
void read_tail(Reader& r, P& p) {
  p.aux_root = r.digest();
  p.quotient_root = r.digest();
  p.ood.resize(r.count(24, "opened value"));
  for (Fp3Raw& c : p.ood) c = read_fp3(r);
  p.fri_roots.resize(r.count(32, "FRI layer root"));
  for (Digest& d : p.fri_roots) d = r.digest();
  p.final_poly.resize(r.count(24, "final polynomial coefficient"));
  for (Fp3Raw& c : p.final_poly) c = read_fp3(r);
  p.pow_nonce = r.uint(8);
  p.queries.resize(r.count(32, "query"));
  for (QueryOpening& q : p.queries) {
    read_opening(r, q.main);
    read_opening(r, q.aux);
    read_opening(r, q.quotient);
    read_opening(r, q.program);
  }
  p.fri_openings.resize(r.count(8, "FRI layer opening"));
  for (FriLayerOpening& o : p.fri_openings) read_layer_opening(r, o);
}

}  // namespace zkrv::spec::codec
