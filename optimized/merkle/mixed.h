#pragma once
// protocol:merkle:mixed on the backend seam: the same root and openings as ref::MixedMerkleTree,
// each level a backend buffer, with the matrices never held whole but computed one part at a
// time (the parts of every matrix that a level needs at once). The optimized prover commits its
// main, auxiliary and quotient columns with it.

#include <cstddef>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "optimized/backend/backend.h"
#include "spec/stark.h"

namespace zkrv::opt {

// A matrix of LDE rows that is never held whole: its `rows` rows (a power of two, at least
// `parts`) come in `parts` interleaved parts, part k holding rows k, k + parts, k + 2·parts, ...
// (on the LDE coset these are the cosets shift·ω^k·<ω^parts>, one NTT of rows/parts each).
struct Matrix {
  size_t rows = 0, width = 0, parts = 1;
  // part k: width columns of rows/parts values, in `out` (computed into `scratch`, or held elsewhere)
  std::function<void(size_t k, std::vector<Buffer<Fp>>& scratch, std::vector<Buffer<Fp>>& out)> part;
  // rows idx of part k only: result[j] = row idx[j] (cheaper than the part)
  std::function<std::vector<std::vector<Fp>>(size_t k, const std::vector<size_t>& idx)> rows_at;
};

class MixedTree {
 public:
  // Matrices of width 0 are left out; the tallest needs at least 2 rows.
  MixedTree(Backend& be, std::vector<Matrix> matrices);
  const Digest& root() const { return root_; }
  // What its levels hold.
  size_t bytes() const;
  // Its number of leaves: half the tallest matrix's rows.
  size_t leaves() const { return levels_.front().size(); }
  // The rows of each matrix that the openings of leaves `leaves` read: (matrix, row) pairs.
  std::vector<std::pair<size_t, size_t>> rows_opened(const std::vector<size_t>& leaves) const;
  // Those rows' values, one part of each matrix at a time: values[(m, row)] = the row.
  std::map<std::pair<size_t, size_t>, std::vector<Fp>> fetch(const std::vector<std::pair<size_t, size_t>>& rows) const;
  // Leaf i's opening (protocol:merkle:mixed), from the values fetch gave.
  spec::MixedOpening open(size_t i, const std::map<std::pair<size_t, size_t>, std::vector<Fp>>& values) const;

 private:
  // The matrices of height h1 or h2, and their common number of parts P (all must agree).
  std::vector<size_t> select(size_t h1, size_t h2, size_t& P, const char* what) const;
  Backend& be_;
  std::vector<Matrix> m_;
  std::vector<Buffer<Digest>> levels_;
  Digest root_{};
};

}  // namespace zkrv::opt
