#pragma once
// The example guests that exit (guest/programs/programs.txt and, where the C++ standard library
// is built, programs_stdcxx.txt; the faulting ones left out), each with the run the bundle tests
// give it: a segment size that cuts it into a few to a few dozen segments, and, for the guests
// that run for hundreds of thousands to millions of cycles on their own input, a shorter one.
// bundle_guests_test (stark.bundles.long) proves and verifies each; mpi_test (mpi.guests.long)
// proves each with 2 and 4 ranks against one process.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace zkrv::test {

struct GuestRun {
  std::string name;
  unsigned log_segment = 12;
  std::string input;   // a path, or empty for none
  bool bundle = true;   // false: under 2^10 cycles, the one proof of the whole run
  uint64_t cycles = 0;  // the run's cycles with that input (what the list was sized by)
  uint32_t exit_code = 0;  // the list's expectation: `pass` is 0, `exit=N` is N
  std::string expected;    // the list's expected output (a path) for the guest's own input, or empty
};

// `sources`: the source tree's guest/programs/ (with its trailing slash); the shorter inputs are
// written to `scratch`. Throws std::runtime_error when a list cannot be read.
std::vector<GuestRun> exiting_guests(const std::string& sources, const std::filesystem::path& scratch, bool with_stdcxx);

}  // namespace zkrv::test
