#include "spec/air/expr.h"

#include <algorithm>
#include <cctype>

#include "spec/field.h"

namespace zkrv::spec::air {
namespace {

constexpr uint64_t P = GoldilocksTraits::kModulus;

class Parser {
 public:
  Parser(const std::string& t, ParseFailure* err) : t_(t), err_(err) {}

  std::unique_ptr<Expr> parse() {
    auto e = expr();
    skip();
    if (e && pos_ < t_.size()) return fail("unexpected '" + std::string(1, t_[pos_]) + "'");
    return e;
  }

 private:
  std::unique_ptr<Expr> fail(const std::string& what) {
    if (err_ && !failed_) *err_ = {pos_, what};
    failed_ = true;
    return nullptr;
  }
  void skip() {
    while (pos_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  static std::unique_ptr<Expr> node(Expr::Op op, std::unique_ptr<Expr> a, std::unique_ptr<Expr> b = nullptr) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    e->args.push_back(std::move(a));
    if (b) e->args.push_back(std::move(b));
    return e;
  }
  std::unique_ptr<Expr> expr() {
    auto lhs = term();
    while (lhs) {
      if (eat('+')) lhs = bin(Expr::Op::kAdd, std::move(lhs), term());
      else if (eat('-')) lhs = bin(Expr::Op::kSub, std::move(lhs), term());
      else break;
    }
    return lhs;
  }
  std::unique_ptr<Expr> bin(Expr::Op op, std::unique_ptr<Expr> a, std::unique_ptr<Expr> b) {
    if (!b) return nullptr;
    return node(op, std::move(a), std::move(b));
  }
  std::unique_ptr<Expr> term() {
    auto lhs = unary();
    while (lhs && eat('*')) lhs = bin(Expr::Op::kMul, std::move(lhs), unary());
    return lhs;
  }
  std::unique_ptr<Expr> unary() {
    if (eat('-')) {
      auto a = unary();
      return a ? node(Expr::Op::kNeg, std::move(a)) : nullptr;
    }
    auto base = atom();
    if (base && eat('^')) {
      skip();
      const size_t start = pos_;
      uint64_t k = 0;
      while (pos_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[pos_])) && k < 100) k = k * 10 + (t_[pos_++] - '0');
      if (pos_ == start) return fail("expected a small integer exponent after '^'");
      if (k < 1 || k > 16) return pos_ = start, fail("exponent must be in 1..16");
      auto e = node(Expr::Op::kPow, std::move(base));
      e->value = k;
      return e;
    }
    return base;
  }
  std::unique_ptr<Expr> atom() {
    skip();
    if (pos_ >= t_.size()) return fail("unexpected end of expression");
    const char c = t_[pos_];
    if (c == '(') {
      ++pos_;
      auto e = expr();
      if (!e) return nullptr;
      if (!eat(')')) return fail("expected ')'");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[pos_])) || t_[pos_] == '_')) ++pos_;
      auto e = std::make_unique<Expr>();
      e->name = t_.substr(start, pos_ - start);
      e->op = Expr::Op::kColumn;
      if (pos_ < t_.size() && t_[pos_] == '\'') {
        ++pos_;
        e->op = Expr::Op::kNext;
      }
      return e;
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }
  std::unique_ptr<Expr> number() {
    const size_t start = pos_;
    unsigned __int128 v = 0;
    const bool hex = t_.compare(pos_, 2, "0x") == 0;
    if (hex) pos_ += 2;
    const size_t digits = pos_;
    while (pos_ < t_.size() && (hex ? std::isxdigit(static_cast<unsigned char>(t_[pos_])) : std::isdigit(static_cast<unsigned char>(t_[pos_])))) {
      const char d = static_cast<char>(std::tolower(t_[pos_]));
      v = v * (hex ? 16 : 10) + static_cast<unsigned>(d <= '9' ? d - '0' : d - 'a' + 10);
      ++pos_;
      if (v >= P) return pos_ = start, fail("constant is not below p");
    }
    if (pos_ == digits) return fail("expected hex digits after 0x");
    auto e = std::make_unique<Expr>();
    e->value = static_cast<uint64_t>(v);
    return e;
  }

  const std::string& t_;
  ParseFailure* err_;
  size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace

uint64_t fp_add(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<unsigned __int128>(a) + b) % P); }
uint64_t fp_sub(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<unsigned __int128>(a) + P - b) % P); }
uint64_t fp_mul(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) % P); }

std::unique_ptr<Expr> parse_expr(const std::string& text, ParseFailure* error) { return Parser(text, error).parse(); }

unsigned degree(const Expr& e) {
  struct Degree {
    unsigned constant(uint64_t) const { return 0; }
    unsigned column(const std::string&, bool) const { return 1; }
    unsigned public_value(const std::string&) const { return 0; }
    unsigned add(unsigned a, unsigned b) const { return std::max(a, b); }
    unsigned sub(unsigned a, unsigned b) const { return std::max(a, b); }
    unsigned mul(unsigned a, unsigned b) const { return a + b; }
    unsigned neg(unsigned a) const { return a; }
    unsigned pow(unsigned a, uint64_t k) const { return a * static_cast<unsigned>(k); }
  };
  return fold<unsigned>(e, Degree{});
}

void names(const Expr& e, const std::function<void(const std::string&, bool)>& found) {
  struct Names {  // the leaves, left to right
    const std::function<void(const std::string&, bool)>& found;
    void constant(uint64_t) const {}
    void column(const std::string& name, bool next) const { found(name, next); }
    void public_value(const std::string& name) const { found(name, false); }
    void add(const Expr& a, const Expr& b) const { names(a, found), names(b, found); }
    void sub(const Expr& a, const Expr& b) const { names(a, found), names(b, found); }
    void mul(const Expr& a, const Expr& b) const { names(a, found), names(b, found); }
    void neg(const Expr& a) const { names(a, found); }
    void pow(const Expr& base, uint64_t) const { names(base, found); }
  };
  visit<void>(e, Names{found});
}

std::string to_string(const Expr& e) {
  struct Text {
    std::string constant(uint64_t v) const { return std::to_string(v); }
    std::string column(const std::string& name, bool next) const { return next ? name + "'" : name; }
    std::string public_value(const std::string& name) const { return name; }
    std::string add(const std::string& a, const std::string& b) const { return "(" + a + " + " + b + ")"; }
    std::string sub(const std::string& a, const std::string& b) const { return "(" + a + " - " + b + ")"; }
    std::string mul(const std::string& a, const std::string& b) const { return a + " * " + b; }
    std::string neg(const std::string& a) const { return "-" + a; }
    std::string pow(const std::string& a, uint64_t k) const { return a + "^" + std::to_string(k); }
  };
  return fold<std::string>(e, Text{});
}

uint64_t eval(const Expr& e, const std::function<uint64_t(const std::string&, bool)>& lookup) {
  struct Value {
    const std::function<uint64_t(const std::string&, bool)>& lookup;
    uint64_t constant(uint64_t v) const { return v; }
    uint64_t column(const std::string& name, bool next) const { return lookup(name, next); }
    uint64_t public_value(const std::string& name) const { return lookup(name, false); }
    uint64_t add(uint64_t a, uint64_t b) const { return fp_add(a, b); }
    uint64_t sub(uint64_t a, uint64_t b) const { return fp_sub(a, b); }
    uint64_t mul(uint64_t a, uint64_t b) const { return fp_mul(a, b); }
    uint64_t neg(uint64_t a) const { return fp_sub(0, a); }
    uint64_t pow(uint64_t b, uint64_t k) const {
      uint64_t r = 1;
      for (uint64_t i = 0; i < k; ++i) r = fp_mul(r, b);
      return r;
    }
  };
  return fold<uint64_t>(e, Value{lookup});
}

}  // namespace zkrv::spec::air
