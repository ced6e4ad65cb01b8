#include "tests/support/guest_list.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace zkrv::test {
namespace {

struct Change {
  const char* name;
  unsigned log_segment;
  const char* input;  // nullptr: the guest's own
  uint64_t cycles;
};
// The cycle counts are `zkrv run`'s with that input.
constexpr Change kChanges[] = {
    {"fibonacci", 10, nullptr, 2'049},
    {"posix_io", 10, nullptr, 8'333},
    {"fail_assert", 10, nullptr, 4'218},
    {"sha256_chain", 12, "15", 91'055},  // its own input (1000): 5.6 M
    {"keccak_chain", 12, "2", 113'317},  // 200: 4.5 M
    {"modexp", 12, "7846d917d293056a 5 8e4edc90253d9e31", 123'482},  // 13.1 M
    {"alloc_stress_bump", 12, "6", 29'932},  // 600: about 9 M
    {"alloc_stress_picolibc", 12, "6", 30'472},
    {"alloc_stress_arena", 12, "6", 36'510},
    {"quicksort", 12,
     "-299408714727 423832436795 941766039684 968054021410 368381007133 -74191628567 261789980789 "
     "853483736854 708239657593 81335821503 699737713853 -31113270554 -994674523677 -821268353556",
     12'904},  // 289,506
    {"wordfreq", 12,
     "merkle hash layer field fold fold the the a query field trace prover's five a zero fold OF "
     "prover's knowledge trace proof query fold hash five risc zero FIELD query knowledge COMMIT "
     "commit of trace of Merkle HASH layer",
     21'678},  // 742,300
    {"cost_scopes", 12, nullptr, 33'224},
    {"zero_init", 12, nullptr, 20'712},
    // no input, about a million cycles: segments of 2^16
    {"out_of_memory_bump", 16, nullptr, 404'048},
    {"out_of_memory_picolibc", 16, nullptr, 1'039'600},
    {"out_of_memory_arena", 16, nullptr, 379'562},
    // the C++ standard library's
    {"routes", 12, "road Ana Bel 5\nroad Bel Cor 7\nroad Ana Dor 20\nroute Ana Cor\nroute Dor Cor\n", 74'312},  // 598,010
    {"fail_stdcxx_assert", 10, nullptr, 4'660},
    {"fail_stdcxx_throw", 16, nullptr, 426'374},  // no input
    {"cxx_exceptions", 16, nullptr, 547'760},
};
// Under 2^10 cycles: one proof.
constexpr const char* kOneProof[] = {"cxx_lifecycle", "random_seed", "fail_abort", "fail_new",
                                     "fail_stdcxx_new", "fail_stdcxx_terminate", "fail_stdcxx_abort"};

void read_list(const std::string& path, const std::string& sources, const std::filesystem::path& scratch,
               std::vector<GuestRun>& out) {
  std::ifstream list(path);
  if (!list) throw std::runtime_error("cannot read the guests' list " + path);
  for (std::string line; std::getline(list, line);) {
    std::istringstream words(line);
    std::string name, expect;
    if (!(words >> name >> expect) || name[0] == '#' || expect.rfind("fault=", 0) == 0) continue;
    GuestRun g;
    g.name = name;
    if (expect.rfind("exit=", 0) == 0) g.exit_code = static_cast<uint32_t>(std::stoul(expect.substr(5)));
    for (std::string w; words >> w;) {
      if (w.rfind("input=", 0) == 0) g.input = sources + w.substr(6);
      if (w.rfind("output=", 0) == 0) g.expected = sources + w.substr(7);
    }
    bool known = false;
    for (const Change& c : kChanges)
      if (name == c.name) {
        known = true;
        g.log_segment = c.log_segment;
        g.cycles = c.cycles;
        if (c.input) {  // its output is another
          g.expected.clear();
          g.input = (scratch / (name + ".input")).string();
          std::ofstream(g.input, std::ios::binary) << c.input;
        }
      }
    for (const char* n : kOneProof)
      if (name == n) known = true, g.bundle = false;
    if (!known)  // a new guest: give it a segment size and a run (and say so here)
      throw std::runtime_error("guest " + name + " of " + path + " is not in tests/support/guest_list.cpp");
    out.push_back(g);
  }
}

}  // namespace

std::vector<GuestRun> exiting_guests(const std::string& sources, const std::filesystem::path& scratch, bool with_stdcxx) {
  std::vector<GuestRun> out;
  read_list(sources + "programs.txt", sources, scratch, out);
  if (with_stdcxx) read_list(sources + "programs_stdcxx.txt", sources, scratch, out);
  return out;
}

}  // namespace zkrv::test
