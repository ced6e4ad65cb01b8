// Typed IO round trip in C++ (tests/guest/typed_io_test.cpp): reads, in order, a u32, an i64, a
// string, a vector<uint32_t>, a vector<std::string> and a Point; commits n + 1, 0 - v, the string
// reversed, the vector's sum (u64) and the vector, the strings' lengths and the strings, the point
// with x and y swapped, and the bytes of input left (u64).
#include <algorithm>
#include <string>
#include <vector>

#include "zkvm_typed.hpp"

struct Point {  // no padding: its bytes are its fields
  int32_t x, y;
  int64_t z;
};

int main() {
  const auto n = zkvm::read<uint32_t>();
  const auto v = zkvm::read<int64_t>();
  auto s = zkvm::read<std::string>();
  const auto xs = zkvm::read<std::vector<uint32_t>>();
  const auto ss = zkvm::read<std::vector<std::string>>();
  const auto p = zkvm::read<Point>();
  zkvm::commit(n + 1);
  zkvm::commit(static_cast<int64_t>(0 - static_cast<uint64_t>(v)));
  std::reverse(s.begin(), s.end());
  zkvm::commit(s);
  uint64_t sum = 0;
  for (const uint32_t x : xs) sum += x;
  zkvm::commit(sum);
  zkvm::commit(xs);
  std::vector<uint32_t> lengths;
  for (const auto& t : ss) lengths.push_back(static_cast<uint32_t>(t.size()));
  zkvm::commit(lengths);
  zkvm::commit(ss);
  zkvm::commit(Point{p.y, p.x, p.z});
  zkvm::commit(static_cast<uint64_t>(zkvm_input_left()));
  return 0;
}
