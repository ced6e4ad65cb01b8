// C++ exceptions in a guest built with EXCEPTIONS (zkrv_add_guest ... EXCEPTIONS): a library
// exception and the program's own are thrown and caught, destructors run while the stack unwinds,
// and a rethrown exception reaches an outer handler. Output: one line per step.
#include <stdexcept>
#include <string>
#include <vector>

#include "zkvm_io.h"

namespace {

std::string log;

struct Guard {
  const char* name;
  ~Guard() { log += std::string("~") + name + " "; }
};

struct ParseError {
  std::string what;
  size_t at;
};

int parse_digit(char c, size_t at) {
  Guard g{"digit"};
  if (c < '0' || c > '9') throw ParseError{std::string("not a digit: ") + c, at};
  return c - '0';
}

int sum_digits(const std::string& s) {
  Guard g{"sum"};
  int sum = 0;
  for (size_t i = 0; i < s.size(); ++i) sum += parse_digit(s[i], i);
  return sum;
}

}  // namespace

int main() {
  std::vector<int> v{1, 2, 3};
  try {
    log += std::to_string(v.at(5));
  } catch (const std::out_of_range&) {
    log += "out_of_range caught\n";
  }
  try {
    log += "sum " + std::to_string(sum_digits("123")) + "\n";
    log += "sum " + std::to_string(sum_digits("12x4")) + "\n";
  } catch (const ParseError& e) {
    log += "\nParseError '" + e.what + "' at " + std::to_string(e.at) + "\n";
  }
  try {
    try {
      throw std::runtime_error("inner");
    } catch (const std::exception& e) {
      log += std::string("caught ") + e.what() + ", rethrowing\n";
      throw;
    }
  } catch (const std::runtime_error& e) {
    log += std::string("outer caught ") + e.what() + "\n";
  }
  write_output(reinterpret_cast<const uint8_t*>(log.data()), log.size());
  return 0;
}
