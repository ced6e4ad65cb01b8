// zkrv-prove-mpi: `zkrv prove` over the ranks of an MPI job (spec/protocol.md,
// protocol:segments:peers). `mpirun -np P zkrv-prove-mpi PROGRAM [zkrv prove's options]`: every
// rank executes the guest, proves its block of the bundle's segments and joins the two exchanges
// of phase 1; rank 0 writes the bundle (the bytes `zkrv prove` writes alone) and the summary.
// A separate program, not `zkrv prove --mpi`: zkrv itself stays free of libmpi, which a verifier
// or a one-machine prover does not need, and an MPI job can only start an MPI program anyway.
//
// A rank that fails prints its one error line (named "zkrv-prove-mpi [rank R]", with the
// segments it proves) and brings the job down with MPI_Abort and its exit code; rank 0's proof,
// in a file with no name until it is whole, is then never written. A rank killed outright is
// reported by mpirun, which ends the others.

#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <new>
#include <string>

#include "tools/zkrv-prove-mpi/mpi_peers.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace {

// Ends this rank: with rc 0, MPI_Finalize; otherwise MPI_Abort, which ends every rank (they may
// be waiting for this one in an exchange) with rc as mpirun's exit code.
int finish(int rc) {
  if (rc != 0) MPI_Abort(MPI_COMM_WORLD, rc);
  MPI_Finalize();
  return 0;
}

// What zkrv prove accepts but a rank cannot: stdin, a pipe or a FIFO (mpirun gives stdin to rank 0
// alone, and ranks would share a pipe's bytes), and the proof on stdout beside the ranks' JSON lines.
std::string unsupported(const zkrv::cli::ProveArgs& a, bool exchange_json) {
  if (!a.input.empty() && !std::filesystem::is_regular_file(a.input) && std::filesystem::exists(a.input))
    return "--input " + a.input + ": every rank reads the input itself, so it must be a regular file (not stdin, a pipe "
           "or a FIFO)";
  if (a.input == "-") return "--input -: every rank reads the input itself, so it must be a regular file (mpirun gives stdin to rank 0 alone)";
  if (a.out == "-" && exchange_json) return "-o - with --exchange-json: both would be on stdout";
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);  // the prover's threads never call MPI
  zkrv::mpi::MpiPeers peers;
  const std::string me = peers.size() > 1 ? "zkrv-prove-mpi [rank " + std::to_string(peers.rank()) + "]" : "zkrv-prove-mpi";
  zkrv::cli::set_name(me);
  CLI::App app{"zkrv-prove-mpi: zkrv prove over the ranks of an MPI job (mpirun -np P zkrv-prove-mpi PROGRAM ...): "
               "each rank proves a block of the bundle's segments, rank 0 writes the bundle, the same bytes as zkrv "
               "prove alone"};
  app.set_version_flag("--version", std::string("zkrv-prove-mpi ") + ZKRV_VERSION);
  zkrv::cli::ProveArgs a;
  zkrv::cli::add_prove_options(app, a);
  bool exchange_json = false;
  app.add_flag("--exchange-json", exchange_json, "each rank prints one JSON line on stdout at its end: the bytes it sent "
                                                 "and received, the seconds it spent in the exchanges, its wall time");
  // Every rank parses its own words (mpirun's "A : B" gives ranks different ones): a rank that
  // cannot go on says why; if every rank stops, rank 0 speaks for them, else the job is aborted.
  int status = 0;  // 0: go on; 1: help or version shown; 2: a usage error
  std::string why;
  try {
    app.parse(argc, argv);
    why = unsupported(a, exchange_json);
    if (!why.empty()) status = 2;
    else if (provided < MPI_THREAD_FUNNELED) status = 2, why = "this MPI library gives no thread support (MPI_THREAD_FUNNELED)";
  } catch (const CLI::Error& e) {
    status = e.get_exit_code() == 0 ? 1 : 2;
    if (status == 1 && peers.rank() == 0) app.exit(e);
    if (status == 2) why = std::string(e.what()) + " (see zkrv-prove-mpi --help)";
  }
  int lowest = status, highest = status;
  MPI_Allreduce(&status, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&status, &highest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (status == 2 && (lowest < 2 || peers.rank() == 0)) zkrv::cli::fail(zkrv::cli::kUsage, why);
  if (highest == 2) return lowest == 2 ? (MPI_Finalize(), zkrv::cli::kUsage) : finish(zkrv::cli::kUsage);
  if (highest == 1) return MPI_Finalize(), 0;

  zkrv::cli::set_quiet(a.quiet);
  const double t0 = MPI_Wtime();
  int rc = 0;
  try {
    rc = zkrv::cli::cmd_prove(a, &peers);
    if (rc == 0) peers.finish();
  } catch (const std::bad_alloc&) {
    rc = zkrv::cli::fail(zkrv::cli::kOutOfMemory, "out of memory");
  } catch (const std::exception& e) {
    rc = zkrv::cli::fail(zkrv::cli::kInternal, std::string("internal error: ") + e.what());
  }
  if (rc == 0 && exchange_json) {
    std::printf("{\"rank\":%u,\"ranks\":%u,\"sent_bytes\":%llu,\"received_bytes\":%llu,\"exchange_s\":%.3f,\"wall_s\":%.3f}\n",
                peers.rank(), peers.size(), static_cast<unsigned long long>(peers.sent()),
                static_cast<unsigned long long>(peers.received()), peers.exchange_seconds(), MPI_Wtime() - t0);
    std::fflush(stdout);
  }
  return finish(rc);  // before peers' sends are freed: an abort with sends in flight
}
