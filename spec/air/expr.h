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
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace zkrv::spec::air {

struct Expr {
  enum class Op { kConst, kColumn, kNext, kPublic, kAdd, kSub, kMul, kNeg, kPow };
  Op op = Op::kConst;
  uint64_t value = 0;  // kConst: the constant; kPow: the exponent
  std::string name;    // kColumn / kNext / kPublic
  std::vector<std::unique_ptr<Expr>> args;
};

// ---- walking an expression ----
// Every walker of expressions (names, degree, to_string and eval below, core/air/layout.cpp's
// compiler, tools/air_solve's encoder) goes through visit or fold, so that the operations are
// enumerated in one place: an operation added to Expr::Op is a compile error in every walker
// that lacks a method for it, never a silent default. A visitor has one method per operation,
// all returning R:
//   constant(uint64_t value)                    kConst
//   column(const std::string& name, bool next)  kColumn (next = false), kNext (next = true)
//   public_value(const std::string& name)       kPublic
//   add(X a, X b), sub(X a, X b), mul(X a, X b), neg(X a), pow(X base, uint64_t exponent)
// where an operand X is the sub-expression (const Expr&) under visit, and the operand's result
// (R) under fold.

// One step: calls v's method for e's operation, with e's operands as sub-expressions; the
// visitor recurses where and as it chooses (for walkers that look at an operand's shape, or stop
// early).
template <class R, class V>
R visit(const Expr& e, V&& v) {
  switch (e.op) {
    case Expr::Op::kConst: return v.constant(e.value);
    case Expr::Op::kColumn: return v.column(e.name, false);
    case Expr::Op::kNext: return v.column(e.name, true);
    case Expr::Op::kPublic: return v.public_value(e.name);
    case Expr::Op::kAdd: return v.add(*e.args[0], *e.args[1]);
    case Expr::Op::kSub: return v.sub(*e.args[0], *e.args[1]);
    case Expr::Op::kMul: return v.mul(*e.args[0], *e.args[1]);
    case Expr::Op::kNeg: return v.neg(*e.args[0]);
    case Expr::Op::kPow: return v.pow(*e.args[0], e.value);
  }
  throw std::logic_error("an expression node with an unknown operation");
}

// Bottom-up (postorder): folds e's operands first, left operand before right, then calls v's
// method for e's operation with their results.
template <class R, class V>
R fold(const Expr& e, V&& v) {
  struct Operands {
    std::remove_reference_t<V>& v;
    R constant(uint64_t value) { return v.constant(value); }
    R column(const std::string& name, bool next) { return v.column(name, next); }
    R public_value(const std::string& name) { return v.public_value(name); }
    R add(const Expr& a, const Expr& b) {
      R left = fold<R>(a, v);  // a statement of its own: arguments have no evaluation order
      return v.add(std::move(left), fold<R>(b, v));
    }
    R sub(const Expr& a, const Expr& b) {
      R left = fold<R>(a, v);
      return v.sub(std::move(left), fold<R>(b, v));
    }
    R mul(const Expr& a, const Expr& b) {
      R left = fold<R>(a, v);
      return v.mul(std::move(left), fold<R>(b, v));
    }
    R neg(const Expr& a) { return v.neg(fold<R>(a, v)); }
    R pow(const Expr& base, uint64_t exponent) { return v.pow(fold<R>(base, v), exponent); }
  };
  return visit<R>(e, Operands{v});
}

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
void names(const Expr& e, const std::function<void(const std::string&, bool next)>& found);
std::string to_string(const Expr& e);

// Evaluation over F_p, values canonical in [0, p). lookup(name, next) gives a column's value on
// the row (next = the following row) or a public value.
uint64_t eval(const Expr& e, const std::function<uint64_t(const std::string& name, bool next)>& lookup);

// F_p helpers for the interpreter (p = 2^64 - 2^32 + 1).
uint64_t fp_add(uint64_t a, uint64_t b);
uint64_t fp_sub(uint64_t a, uint64_t b);
uint64_t fp_mul(uint64_t a, uint64_t b);

}  // namespace zkrv::spec::air
