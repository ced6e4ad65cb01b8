#include "tools/zkrv-prove-mpi/mpi_peers.h"

#include <climits>
#include <string>

namespace zkrv::mpi {

namespace {

constexpr int kBodyTag = 1;

// A byte count as MPI's int, or an error: no exchange of the protocol comes near 2 GiB.
int count_of(uint64_t n, const char* what) {
  if (n > static_cast<uint64_t>(INT_MAX))
    throw Error(ErrorCode::kInternal, std::string("internal error: an exchange of ") + std::to_string(n) + " bytes (" + what + ")");
  return static_cast<int>(n);
}

// Adds the wall time of its scope to `sum`.
class Timed {
 public:
  explicit Timed(double& sum) : sum_(sum), t0_(MPI_Wtime()) {}
  ~Timed() { sum_ += MPI_Wtime() - t0_; }

 private:
  double& sum_;
  double t0_;
};

}  // namespace

MpiPeers::MpiPeers() {
  int r = 0, s = 1, l = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &l);
  MPI_Comm_free(&local);
  rank_ = static_cast<unsigned>(r), size_ = static_cast<unsigned>(s), local_ = static_cast<unsigned>(l);
}

std::vector<std::vector<uint8_t>> MpiPeers::all_gather(std::span<const uint8_t> mine) {
  const Timed t(seconds_);
  const uint64_t n = mine.size();
  std::vector<uint64_t> sizes(size_);
  MPI_Allgather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  std::vector<int> counts(size_), displs(size_);
  uint64_t total = 0;
  for (unsigned r = 0; r < size_; ++r) {
    counts[r] = count_of(sizes[r], "a share");
    displs[r] = count_of(total, "the shares");
    total += sizes[r];
  }
  std::vector<uint8_t> all(count_of(total, "the shares"));
  MPI_Allgatherv(mine.data(), counts[rank_], MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, MPI_COMM_WORLD);
  std::vector<std::vector<uint8_t>> out(size_);
  for (unsigned r = 0; r < size_; ++r) {
    out[r].assign(all.begin() + displs[r], all.begin() + displs[r] + counts[r]);
    if (r != rank_) received_ += sizes[r];
  }
  sent_ += n * (size_ - 1);
  return out;
}

void MpiPeers::send(std::span<const uint8_t> bytes) {
  const Timed t(seconds_);
  std::vector<uint8_t>& b = pending_.emplace_back(bytes.begin(), bytes.end());
  MPI_Request req;
  MPI_Isend(b.data(), count_of(b.size(), "a segment's proof"), MPI_BYTE, 0, kBodyTag, MPI_COMM_WORLD, &req);
  requests_.push_back(req);
  sent_ += b.size();
}

std::vector<uint8_t> MpiPeers::receive(unsigned from) {
  const Timed t(seconds_);
  MPI_Status st;
  MPI_Probe(static_cast<int>(from), kBodyTag, MPI_COMM_WORLD, &st);
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  std::vector<uint8_t> b(static_cast<size_t>(n));
  MPI_Recv(b.data(), n, MPI_BYTE, static_cast<int>(from), kBodyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  received_ += b.size();
  return b;
}

void MpiPeers::finish() {
  const Timed t(seconds_);
  if (!requests_.empty()) MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  pending_.clear();
}

}  // namespace zkrv::mpi
