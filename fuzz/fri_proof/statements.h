#pragma once
// The FRI statements (options, degree, transcript domain) that fuzz/fri_proof verifies against
// and that make_corpus.cpp writes honest seed proofs for.
#include "spec/fri.h"

namespace zkrv::fuzz {

struct FriStatement {
  spec::FriOptions options;
  unsigned log_degree;
  const char* domain;
};
inline constexpr FriStatement kFriStatements[] = {
    {{2, 2, 4, 2, 1}, 5, "fuzz-fri-a"},
    {{1, 1, 3, 0, 2}, 4, "fuzz-fri-b"},
};

}  // namespace zkrv::fuzz
