#pragma once
// A prover's stage clock: lap(name) reports the seconds since the previous lap to a progress
// callback. Shared by the reference and the optimized prover (core/: below both).

#include <chrono>
#include <functional>
#include <string_view>

namespace zkrv::core {

using Progress = std::function<void(std::string_view stage, double seconds)>;

class Stopwatch {
 public:
  explicit Stopwatch(const Progress& p) : p_(p), t_(std::chrono::steady_clock::now()) {}
  void lap(std::string_view stage) {
    const auto now = std::chrono::steady_clock::now();
    if (p_) p_(stage, std::chrono::duration<double>(now - t_).count());
    t_ = now;
  }

 private:
  const Progress& p_;
  std::chrono::steady_clock::time_point t_;
};

}  // namespace zkrv::core
