#pragma once
// zkrv::Peers over MPI (Open MPI, from Debian): the ranks of MPI_COMM_WORLD. all_gather is
// MPI_Allgather of the sizes and MPI_Allgatherv of the bytes; send() is non-blocking (MPI_Isend,
// its buffer kept until finish()), so that a rank goes on proving while rank 0 is busy with its
// own segments; receive() probes for the size and receives. Counts every byte in and out.
// Errors of MPI itself abort the job (MPI_ERRORS_ARE_FATAL, Open MPI's default).

#include <mpi.h>

#include <cstdint>
#include <list>
#include <span>
#include <vector>

#include "zkrv/prover.h"

namespace zkrv::mpi {

class MpiPeers : public Peers {
 public:
  MpiPeers();  // after MPI_Init
  // Waits for nothing: a rank that fails ends the job with MPI_Abort, sends pending or not.
  unsigned rank() const override { return rank_; }
  unsigned size() const override { return size_; }
  unsigned local_size() const override { return local_; }
  std::vector<std::vector<uint8_t>> all_gather(std::span<const uint8_t> mine) override;
  void send(std::span<const uint8_t> bytes) override;
  std::vector<uint8_t> receive(unsigned from) override;
  // Waits until every send() has been received (before MPI_Finalize, on success).
  void finish();

  uint64_t sent() const { return sent_; }
  uint64_t received() const { return received_; }
  double exchange_seconds() const { return seconds_; }  // spent inside the calls above

 private:
  unsigned rank_ = 0, size_ = 1, local_ = 1;
  std::list<std::vector<uint8_t>> pending_;  // the bytes of sends not yet known to be received
  std::vector<MPI_Request> requests_;
  uint64_t sent_ = 0, received_ = 0;
  double seconds_ = 0;
};

}  // namespace zkrv::mpi
