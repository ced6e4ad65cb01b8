#pragma once
// The constraint expression language of spec/tables/*.md (conventions in spec/README.md):
// polynomials over F_p in column names (`pc`), next-row references (`pc'`), public values
// (declared with `public`), integer constants (decimal or 0x hex, < p), + - * and ^ with a small
// integer exponent, parentheses. Parsing reports the column of the error; evaluation is plain
// modular arithmetic (the spec interpreter), independent of reference/ and optimized/.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace zkrv::spec::air {

struct Expr {
  enum class Op { kConst, kColumn, kNext, kPublic, kAdd, kSub, kMul, kNeg, kPow };
  Op op = Op::kConst;
  uint64_t value = 0;  // kConst: the constant; kPow: the exponent
  std::string name;    // kColumn / kNext / kPublic
  std::vector<std::unique_ptr<Expr>> args;
};

struct ParseFailure {
  size_t column;  // 0-based offset in the text
  std::string what;
};

// Parses `text`; names are classified later (a bare name is a column until the checker finds a
// public value of that name). Returns null and fills *error on a syntax error.
std::unique_ptr<Expr> parse_expr(const std::string& text, ParseFailure* error);

// Polynomial degree in the column variables (public values and constants have degree 0).
unsigned degree(const Expr& e);
// Every name the expression mentions, with whether it is a next-row reference.
void names(const Expr& e, const std::function<void(const std::string&, bool next)>& visit);
std::string to_string(const Expr& e);

// Evaluation over F_p, values canonical in [0, p). lookup(name, next) gives a column's value on
// the row (next = the following row) or a public value.
uint64_t eval(const Expr& e, const std::function<uint64_t(const std::string& name, bool next)>& lookup);

// F_p helpers for the interpreter (p = 2^64 - 2^32 + 1).
uint64_t fp_add(uint64_t a, uint64_t b);
uint64_t fp_sub(uint64_t a, uint64_t b);
uint64_t fp_mul(uint64_t a, uint64_t b);

}  // namespace zkrv::spec::air
