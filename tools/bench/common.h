#pragma once
// What the benchmark programs share: a workload's input (one decimal number) and the machine's
// CPU name (to quote with the figures).
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace zkrv::bench {

inline std::vector<uint8_t> number(uint64_t n) {
  const std::string s = std::to_string(n);
  return {s.begin(), s.end()};
}

inline std::string cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

}  // namespace zkrv::bench
