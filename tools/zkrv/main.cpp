// zkrv — command-line front end: `zkrv run` executes a guest ELF (run.cpp), `zkrv profile`
// attributes its cycles (profile.cpp), `zkrv check` checks its trace against the constraint spec
// (check.cpp), `zkrv prove` and `zkrv verify` (prove.cpp, verify.cpp) make and check a proof,
// `zkrv security` prints a preset's security figures (security.cpp), `zkrv input` builds a typed
// private input (input.cpp), `zkrv inspect`, `zkrv digest` and `zkrv key` read a proof's header,
// an ELF's program digest and write its verifying key (inspect.cpp).
// main wires the subcommands to the app, runs the one chosen and turns what escapes into an exit
// code.

#include <CLI/CLI.hpp>
#include <exception>
#include <new>
#include <string>

#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

int main(int argc, char** argv) {
  using zkrv::cli::fail;
  CLI::App app{"zkrv: a zero-knowledge virtual machine for RISC-V (RV64IM)"};
  app.set_version_flag("--version", std::string("zkrv ") + ZKRV_VERSION);
  app.require_subcommand(1);
  app.footer(zkrv::cli::exit_code_table());

  zkrv::cli::RunArgs ra;
  auto* run = zkrv::cli::add_run(app, ra);
  zkrv::cli::ProfileArgs pa;
  auto* prof = zkrv::cli::add_profile(app, pa);
  zkrv::cli::CheckArgs ca;
  auto* chk = zkrv::cli::add_check(app, ca);
  zkrv::cli::ProveArgs pra;
  auto* prv = zkrv::cli::add_prove(app, pra);
  zkrv::cli::VerifyArgs va;
  auto* ver = zkrv::cli::add_verify(app, va);
  zkrv::cli::SecurityArgs sa;
  auto* sec = zkrv::cli::add_security(app, sa);
  zkrv::cli::InputArgs ia;
  auto* inp = zkrv::cli::add_input(app, ia);
  zkrv::cli::InspectArgs ina;
  auto* ins = zkrv::cli::add_inspect(app, ina);
  zkrv::cli::DigestArgs da;
  auto* dig = zkrv::cli::add_digest(app, da);
  zkrv::cli::KeyArgs ka;
  auto* key = zkrv::cli::add_key(app, ka);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(zkrv::cli::kUsage, std::string(e.what()) + " (see zkrv --help)");
  }
  zkrv::cli::set_quiet(pa.quiet || ca.quiet || pra.quiet);
  try {
    if (*run) return zkrv::cli::cmd_run(ra);
    if (*prof) return zkrv::cli::cmd_profile(pa);
    if (*chk) return zkrv::cli::cmd_check(ca);
    if (*prv) return zkrv::cli::cmd_prove(pra);
    if (*ver) return zkrv::cli::cmd_verify(va);
    if (*sec) return zkrv::cli::cmd_security(sa);
    if (*inp) return zkrv::cli::cmd_input(ia);
    if (*ins) return zkrv::cli::cmd_inspect(ina);
    if (*dig) return zkrv::cli::cmd_digest(da);
    if (*key) return zkrv::cli::cmd_key(ka);
  } catch (const std::bad_alloc&) {
    return fail(zkrv::cli::kOutOfMemory, "out of memory");
  } catch (const std::exception& e) {
    return fail(zkrv::cli::kInternal, std::string("internal error: ") + e.what());
  }
  return 0;
}
