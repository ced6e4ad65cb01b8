// Greets every name of the private input (C++20 with the standard library): each name once, in
// order of first appearance, with how often it was given.
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "zkvm_io.h"

int main() {
  const uint8_t* in = nullptr;
  size_t len = 0;
  read_input(&in, &len);
  std::istringstream words(std::string(reinterpret_cast<const char*>(in), len));
  std::vector<std::string> order;
  std::map<std::string, int> count;
  for (std::string w; words >> w;)
    if (count[w]++ == 0) order.push_back(w);
  std::ostringstream out;
  out << "hello";
  for (const std::string& w : order) out << ", " << w << (count[w] > 1 ? " x" + std::to_string(count[w]) : "");
  out << " (" << order.size() << (order.size() == 1 ? " name)\n" : " names)\n");
  const std::string s = out.str();
  write_output(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  return 0;
}
