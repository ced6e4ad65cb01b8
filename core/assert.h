#pragma once
// ZKRV_ASSERT: a broken internal invariant (a bug in zkrv, never bad input) throws
// zkrv::InvariantError naming the file, the line and the condition. Bad input gets a typed
// error or a clear message instead; this is for what no input can cause.

#include <stdexcept>
#include <string>

namespace zkrv {

struct InvariantError : std::logic_error {
  using std::logic_error::logic_error;
};

[[noreturn]] inline void invariant_failed(const char* file, int line, const char* condition, const std::string& why) {
  throw InvariantError(std::string(file) + ":" + std::to_string(line) + ": invariant `" + condition + "` broken" +
                       (why.empty() ? "" : ": " + why));
}

}  // namespace zkrv

#define ZKRV_ASSERT(condition, why)                                                   \
  do {                                                                                \
    if (!(condition)) ::zkrv::invariant_failed(__FILE__, __LINE__, #condition, (why)); \
  } while (false)
