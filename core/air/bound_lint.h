#pragma once
// The interaction bound (spec/protocol.md, protocol:stark:interaction_bound) trusts the declared
// column types: a multiplicity `f` of a `bit` column counts as 1, of a `byte` column as 255. A
// type is only a declaration; a trace may hold p − 1 in a `bit` column unless a constraint or a
// lookup forbids it, and then the bound is void. The lint takes every column that a finitely
// bounded multiplicity reads (this row or the next) and names what enforces its type on every
// row, or says why nothing does.
//
// What enforces a type. Each rule is sound on its own; a form is recognised by evaluating the
// constraint on a grid that determines a polynomial of its degree, whatever its spelling.
//  - Any preprocessed column: the verifier fixes its values.
//  - bit c: an `every` constraint, reading only this row, that is
//    (a) k·c·(c − 1), k ≠ 0;
//    (b) k·c·(c − b), k ≠ 0, with b an enforced bit (so c ∈ {0, b});
//    (c) a definition: linear in c, its other columns enforced bits, and on every admissible
//        assignment of them c's coefficient is nonzero and the root is 0 or 1. Admissible: no
//        two 1s among the columns of a one-hot constraint, Σ g − b (or Σ g − 1) with b and every
//        g enforced bits (then Σ g ≤ 1 as an integer). The value, not the bound algebra, decides:
//        mo0 = f_load + f_store passes only through the one-hot cpu:c:one_class, and without it
//        the lint reports mo0 = 2 at f_load = f_store = 1;
//    or (d) the pair k1·x·(1 − c) and k2·c·(x·y − 1): c ≠ 0 forces x ≠ 0 and then c = 1.
//  - byte c (u16 c): a send of the 1-tuple (c) on the `byte` (`byte` or `range16`) lookup with a
//    nonzero constant multiplicity, where every receiver on that bus reads one preprocessed
//    column (the verifier's own table of the range). A gated lookup leaves the rows where its
//    multiplicity is 0 unchecked, and fails; so does a lookup that another table also receives.
//  - u32: no rule, as no multiplicity reads one yet; reported as a failure.

#include <string>
#include <vector>

#include "spec/air/spec.h"

namespace zkrv::core {

// One column that one interaction's multiplicity bound relies on.
struct BoundReliance {
  std::string table, interaction, column;
  spec::air::ColumnType type = spec::air::ColumnType::kField;
  std::vector<std::string> enforced_by;  // constraint or bus IDs ("preprocessed" for such a column)
  std::vector<std::string> given;        // columns the rule needs in range, each checked in turn
  std::string failure;                   // why nothing enforces the type; empty when enforced
  bool enforced() const { return failure.empty(); }
};

// Every (interaction with a finite bound, non-field column of its multiplicity), tables and
// interactions in spec order, columns in order of first mention.
std::vector<BoundReliance> lint_bounds(const spec::air::Spec& spec);

// "table interaction column (type): ID + ID [given a b]" or "... NOT ENFORCED: why".
std::string to_string(const BoundReliance& r);

}  // namespace zkrv::core
