// Goldilocks base and cubic extension fields: RapidCheck field axioms for the reference and the
// fast implementation, fast == reference on every operation, and every base-field operation
// against Boost.Multiprecision cpp_int modular arithmetic on random and edge values.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <random>
#include <vector>

#include "optimized/field/goldilocks.h"
#include "reference/field/goldilocks.h"

namespace zkrv {
namespace {

using boost::multiprecision::cpp_int;
constexpr uint64_t P = spec::GoldilocksTraits::kModulus;

// Edge encodings: 0, 1, p-1, 2^32, 2^64-1 (non-canonical inputs to from_u64), and neighbours.
const std::vector<uint64_t> kEdges = {0, 1, 2, P - 1, P - 2, P, P + 1, uint64_t{1} << 32, (uint64_t{1} << 32) - 1,
                                      (uint64_t{1} << 32) + 1, ~uint64_t{0}, ~uint64_t{0} - 1, uint64_t{1} << 63,
                                      0xFFFFFFFFull * 0xFFFFFFFFull};

rc::Gen<uint64_t> element_bits() {
  return rc::gen::weightedOneOf<uint64_t>({{1, rc::gen::elementOf(kEdges)}, {3, rc::gen::arbitrary<uint64_t>()}});
}

uint64_t big_mod(const cpp_int& v) {
  cpp_int r = v % P;
  if (r < 0) r += P;
  return static_cast<uint64_t>(r);
}

TEST(Goldilocks, BaseFieldMatchesCppIntOnEdgesAndRandom) {
  std::vector<uint64_t> vals = kEdges;
  std::mt19937_64 g(1);
  for (int i = 0; i < 2000; ++i) vals.push_back(g());
  for (size_t i = 0; i < vals.size(); ++i) {
    const uint64_t x = vals[i], y = vals[(i * 7 + 3) % vals.size()];
    const auto fx = opt::Fp::from_u64(x), fy = opt::Fp::from_u64(y);
    const auto rx = ref::Fp::from_u64(x), ry = ref::Fp::from_u64(y);
    const cpp_int bx = x % P, by = y % P;
    ASSERT_EQ(fx.value(), big_mod(bx)) << x;
    ASSERT_EQ((fx + fy).value(), big_mod(bx + by));
    ASSERT_EQ((fx - fy).value(), big_mod(bx - by));
    ASSERT_EQ((fx * fy).value(), big_mod(bx * by));
    ASSERT_EQ((-fx).value(), big_mod(-bx));
    ASSERT_EQ(fx.pow(y).value(), static_cast<uint64_t>(boost::multiprecision::powm(bx, cpp_int(y), cpp_int(P))));
    ASSERT_EQ((rx + ry).value(), (fx + fy).value());
    ASSERT_EQ((rx - ry).value(), (fx - fy).value());
    ASSERT_EQ((rx * ry).value(), (fx * fy).value());
    if (bx != 0) {
      ASSERT_EQ(big_mod(cpp_int(fx.inverse().value()) * bx), 1u) << x;
    }
  }
}

TEST(Goldilocks, Reduce128OnExtremes) {
  for (unsigned __int128 x : {static_cast<unsigned __int128>(0), ~static_cast<unsigned __int128>(0),
                              static_cast<unsigned __int128>(P) * P, (static_cast<unsigned __int128>(P - 1)) * (P - 1),
                              static_cast<unsigned __int128>(1) << 96, (static_cast<unsigned __int128>(1) << 96) - 1}) {
    cpp_int b = static_cast<uint64_t>(x >> 64);
    b = (b << 64) + static_cast<uint64_t>(x);
    EXPECT_EQ(opt::Fp::reduce128(x), big_mod(b));
  }
}

TEST(Goldilocks, RootsOfUnityAndGenerator) {
  const auto w = opt::Fp::from_u64(spec::GoldilocksTraits::kTwoAdicRoot);
  const auto one = opt::Fp::from_u64(1);
  EXPECT_EQ(w.pow(uint64_t{1} << 32), one);
  EXPECT_EQ(w.pow(uint64_t{1} << 31), -one);  // primitive
  const auto g = opt::Fp::from_u64(spec::GoldilocksTraits::kGenerator);
  for (uint64_t f : {2ull, 3ull, 5ull, 17ull, 257ull, 65537ull}) EXPECT_NE(g.pow((P - 1) / f), one) << f;
}

TEST(Goldilocks, BatchInverse) {
  std::mt19937_64 g(2);
  std::vector<opt::Fp> v;
  for (int i = 0; i < 1000; ++i) v.push_back(opt::Fp::from_u64(i % 17 == 0 ? 0 : g()));
  auto w = v;
  opt::batch_inverse(w);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(w[i], v[i].inverse()) << i;
}

template <typename F>
void base_axioms() {
  const auto a = F::from_u64(*element_bits()), b = F::from_u64(*element_bits()), c = F::from_u64(*element_bits());
  const F zero = F::from_u64(0), one = F::from_u64(1);
  RC_ASSERT((a + b) + c == a + (b + c));
  RC_ASSERT(a + b == b + a);
  RC_ASSERT((a * b) * c == a * (b * c));
  RC_ASSERT(a * b == b * a);
  RC_ASSERT(a * (b + c) == a * b + a * c);
  RC_ASSERT(a + zero == a);
  RC_ASSERT(a * one == a);
  RC_ASSERT(a + (-a) == zero);
  RC_ASSERT(a - b == a + (-b));
  if (!(a == zero)) RC_ASSERT(a * a.inverse() == one);
}

RC_GTEST_PROP(Goldilocks, ReferenceBaseAxioms, ()) { base_axioms<ref::Fp>(); }
RC_GTEST_PROP(Goldilocks, FastBaseAxioms, ()) { base_axioms<opt::Fp>(); }

template <typename F3, typename F>
F3 ext(uint64_t a, uint64_t b, uint64_t c) { return F3{{F::from_u64(a), F::from_u64(b), F::from_u64(c)}}; }

RC_GTEST_PROP(Goldilocks, ExtensionAxiomsAndFastEqualsReference, ()) {
  const uint64_t v[9] = {*element_bits(), *element_bits(), *element_bits(), *element_bits(), *element_bits(),
                         *element_bits(), *element_bits(), *element_bits(), *element_bits()};
  const auto a = ext<opt::Fp3, opt::Fp>(v[0], v[1], v[2]), b = ext<opt::Fp3, opt::Fp>(v[3], v[4], v[5]),
             c = ext<opt::Fp3, opt::Fp>(v[6], v[7], v[8]);
  const auto ra = ext<ref::Fp3, ref::Fp>(v[0], v[1], v[2]), rb = ext<ref::Fp3, ref::Fp>(v[3], v[4], v[5]);
  const auto one = ext<opt::Fp3, opt::Fp>(1, 0, 0), zero = ext<opt::Fp3, opt::Fp>(0, 0, 0);
  RC_ASSERT((a * b) * c == a * (b * c));
  RC_ASSERT(a * b == b * a);
  RC_ASSERT(a * (b + c) == a * b + a * c);
  RC_ASSERT(a * one == a);
  const auto fast = a * b;
  const auto slow = ra * rb;
  for (int i = 0; i < 3; ++i) RC_ASSERT(fast.c[static_cast<size_t>(i)].value() == slow.c[static_cast<size_t>(i)].value());
  if (!(a == zero)) {
    RC_ASSERT(a * a.inverse() == one);
    const auto rinv = ra.inverse();  // reference: a^(p^3 - 2)
    for (int i = 0; i < 3; ++i) RC_ASSERT(a.inverse().c[static_cast<size_t>(i)].value() == rinv.c[static_cast<size_t>(i)].value());
  }
}

TEST(Goldilocks, ExtensionIsAFieldForW3Equals2) {
  // w^3 = 2 in the extension, and w has an inverse.
  using E = opt::Fp3;
  const E w = ext<E, opt::Fp>(0, 1, 0), two = ext<E, opt::Fp>(2, 0, 0), one = ext<E, opt::Fp>(1, 0, 0);
  EXPECT_TRUE(w * w * w == two);
  EXPECT_TRUE(w * w.inverse() == one);
}

}  // namespace
}  // namespace zkrv
