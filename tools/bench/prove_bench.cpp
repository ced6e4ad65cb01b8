// zkrv-prove-bench: the proving sweep. For each workload (the bench_* guests and the hash-chain
// guests, sized by their input number) and each size 2^k cycles of a range, it proves with
// `zkrv prove` (the optimized prover, one process per run, so that each peak RSS is its own),
// and, at the small sizes, with the reference prover side by side (same bytes, and the speed
// ratio). Sizes beyond one segment (--segment-cycles, zkrv prove's default 2^20) are proven as
// bundles of segments: there the input is the one whose run is just over 2^k cycles, and with
// --verify each proof is also verified (its time in the table), so that the sweep shows how time,
// peak memory, proof size and verify time grow with the number of segments.
// In the same run it measures the floors the stages are compared with: memory bandwidth,
// the NTT rate and the Keccak rate (zkrv-stark-bench). It writes OUT/prove.csv, OUT/floors.csv,
// OUT/stages.csv and, when gnuplot is installed, OUT/prove.png. A program, not a test: the
// figures are this machine's (name it when you quote them).
//
//   zkrv-prove-bench [--out DIR] [--workloads loop,sha256,...] [--min-log 16] [--max-log 21]
//                    [--reference-max-log 16] [--reference-workloads loop]
//                    [--segment-cycles 2^k] [--verify] [--no-floors]

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "optimized/exec/fast_executor.h"
#include "reference/elf/elf_loader.h"
#include "tools/bench/common.h"
#include "tools/common/files.h"

namespace {

using namespace zkrv;
namespace fs = std::filesystem;
using json = nlohmann::json;

struct Workload {
  std::string name, elf;  // elf: file name in the guest folder
};
const std::vector<Workload> kWorkloads = {{"loop", "bench_loop.elf"},       {"memory", "bench_memory.elf"},
                                          {"muldiv", "bench_muldiv.elf"},   {"branchy", "bench_branchy.elf"},
                                          {"sha256", "sha256_chain.elf"}, {"keccak", "keccak_chain.elf"}};

// A shell command's exit status and standard output.
struct Run {
  int status = -1;
  std::string out;
};
Run shell(const std::string& cmd) {
  Run r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}
std::string quote(const std::string& s) { return "'" + s + "'"; }
std::string slurp(const fs::path& p) {
  std::stringstream ss;
  ss << std::ifstream(p, std::ios::binary).rdbuf();
  return ss.str();
}

// The cycles of a workload's run with input n (the fast executor).
uint64_t cycles_for(const spec::ProgramImage& image, uint64_t n) {
  spec::ExecOptions o;
  o.max_cycles = uint64_t{1} << 34;
  const auto r = opt::execute(image, bench::number(n), o);
  if (r.status != spec::ExitStatus::kExited) throw std::runtime_error("the workload did not exit");
  return r.cycles;
}
// The input whose run is just under 2^k cycles (so that the cpu table is 2^k rows high); with
// `over`, the least input whose run is at least 2^k cycles (a bundle of 2^k / segment segments
// and a short last one).
uint64_t input_for(const spec::ProgramImage& image, unsigned k, bool over) {
  const double c1 = static_cast<double>(cycles_for(image, 16)), c2 = static_cast<double>(cycles_for(image, 272));
  const double per_n = (c2 - c1) / 256.0, base = c1 - 16 * per_n;
  const uint64_t size = uint64_t{1} << k;
  if (over) {  // the cycles grow with n: bisect between an input below 2^k cycles and one at or above
    uint64_t hi = static_cast<uint64_t>(std::max(1.0, (static_cast<double>(size) - base) / per_n));
    while (cycles_for(image, hi) < size) hi *= 2;
    uint64_t lo = hi * 999 / 1000;
    while (lo > 0 && cycles_for(image, lo) >= size) hi = lo, lo = lo * 999 / 1000;
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      (cycles_for(image, mid) >= size ? hi : lo) = mid;
    }
    return hi;
  }
  const double target = std::ldexp(1.0, static_cast<int>(k)) * 0.97;
  uint64_t n = static_cast<uint64_t>(std::max(1.0, (target - base) / per_n));
  while (n > 1 && cycles_for(image, n) > (uint64_t{1} << k)) n = n * 97 / 100;
  return cycles_for(image, n) <= (uint64_t{1} << k) ? n : 0;  // 0: even the shortest run is longer
}

struct Result {
  std::string workload, prover;
  unsigned log2 = 0;
  uint64_t cycles = 0, proof_bytes = 0, segments = 1;
  double wall_s = 0, peak_mb = 0, verify_s = 0;
  bool ok = false;
  std::string note, lde;  // lde: how the optimized prover had the LDE (hold, stream)
  struct Stage {
    std::string label;
    double seconds = 0, peak_mb = 0;  // peak: the largest RSS sample inside the stage
  };
  std::vector<Stage> stages;
};
std::map<std::string, std::vector<std::string>> g_plot_rows;  // per workload: "cycles,cps,proof,bpc"

Result prove(const std::string& zkrv, const std::string& elf, const fs::path& input, const std::string& prover,
             const fs::path& dir, const std::string& security, const std::string& segment_cycles, bool verify) {
  Result r;
  r.prover = prover;
  fs::remove_all(dir / "spans");
  fs::create_directories(dir / "spans");
  const fs::path proof = dir / (prover + ".proof");
  const auto run = shell(quote(zkrv) + " prove " + quote(elf) + " --input " + quote(input.string()) + " -o " +
                         quote(proof.string()) + " --prover " + prover + " --security " + security +
                         (segment_cycles.empty() ? "" : " --segment-cycles " + segment_cycles) + " --json -q --spans " +
                         quote((dir / "spans").string()) + " 2>" + quote((dir / "err.txt").string()));
  if (run.status != 0) {
    const std::string err = slurp(dir / "err.txt");  // the error line (the spans follow it)
    const size_t at = err.find("zkrv: error: ");
    r.note = at == std::string::npos ? "exit " + std::to_string(run.status) : err.substr(at + 13, err.find('\n', at) - at - 13);
    return r;
  }
  const auto j = json::parse(run.out.substr(run.out.find('{')));
  r.ok = true;
  r.cycles = j["cycles"];
  r.proof_bytes = j["proof_bytes"];
  r.wall_s = j["wall_s"];
  r.peak_mb = j["peak_rss_mb"];
  if (j.contains("lde")) r.lde = j["lde"];
  if (j.contains("segments")) r.segments = j["segments"];
  if (verify) {  // the verifier's wall time, the ELF read and the proof decoded included
    const auto t0 = std::chrono::steady_clock::now();
    const auto v = shell(quote(zkrv) + " verify " + quote(proof.string()) + " --program " + quote(elf) + " 2>&1");
    r.verify_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (v.status != 0) {
      r.ok = false;
      r.note = "verify failed: " + v.out.substr(0, v.out.find('\n'));
      return r;
    }
  }
  const auto s = json::parse(slurp(dir / "spans" / "summary.json"));
  for (const auto& st : s["stages"])
    r.stages.push_back({st["label"].get<std::string>(), st["ns"].get<double>() / 1e9,
                        st["peak_rss_bytes"].get<double>() / 1048576.0});
  return r;
}

// The floors, from zkrv-stark-bench's JSON: name, rate, unit.
std::vector<std::tuple<std::string, double, std::string>> floors(const std::string& stark_bench) {
  std::vector<std::tuple<std::string, double, std::string>> out;
  const auto run = shell(quote(stark_bench) +
                         " --benchmark_filter='BM_MemcpyBandwidth|BM_Ntt/log_n:20/threads:(1|2)/simd:1|"
                         "BM_KeccakF1600x8/simd:1|BM_KeccakF1600$' --benchmark_format=json 2>/dev/null");
  if (run.status != 0) return out;
  const auto j = json::parse(run.out);
  for (const auto& b : j["benchmarks"]) {
    const std::string name = b["name"];
    if (b.contains("bytes_per_second")) out.emplace_back(name, b["bytes_per_second"].get<double>() / 1e9, "GB/s");
    else if (b.contains("items_per_second")) out.emplace_back(name, b["items_per_second"].get<double>() / 1e6, "M items/s");
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"zkrv-prove-bench: the proving sweep (cycles/s, proof size, peak memory against cycles) and its floors"};
  std::string out_dir = "prove-bench", guest_dir = ZKRV_BENCH_GUEST_DIR, zkrv = ZKRV_BENCH_ZKRV,
              stark_bench = ZKRV_BENCH_STARK_BENCH, security = "provable";
  std::vector<std::string> workloads = {"loop", "memory", "muldiv", "branchy", "sha256", "keccak"};
  std::vector<std::string> ref_workloads = {"loop"};
  unsigned min_log = 16, max_log = 21, ref_max_log = 16, segment_log = 20;
  bool verify = false, no_floors = false;
  app.add_option("--out", out_dir, "folder for the CSV files and the plot")->capture_default_str();
  app.add_option("--guest-dir", guest_dir, "folder with the guest ELFs")->capture_default_str();
  app.add_option("--zkrv", zkrv, "the zkrv binary")->capture_default_str();
  app.add_option("--stark-bench", stark_bench, "the zkrv-stark-bench binary (the floors)")->capture_default_str();
  app.add_option("--workloads", workloads, "loop, memory, muldiv, branchy, sha256, keccak")->delimiter(',')->capture_default_str();
  app.add_option("--min-log", min_log, "smallest size: 2^N cycles")->capture_default_str()->check(CLI::Range(10u, 32u));
  app.add_option("--max-log", max_log, "largest size: 2^N cycles (beyond --segment-cycles: a bundle of segments)")
      ->capture_default_str()->check(CLI::Range(10u, 32u));
  app.add_option("--segment-log", segment_log, "zkrv prove --segment-cycles 2^N")->capture_default_str()
      ->check(CLI::Range(10u, 24u));
  app.add_flag("--verify", verify,
               "verify each optimized proof with zkrv verify (its wall time in the table); exit 70 if any proof of "
               "the optimized prover fails to be made or verified");
  app.add_flag("--no-floors", no_floors, "skip the floors (memory bandwidth, NTT and Keccak rates)");
  app.add_option("--reference-max-log", ref_max_log, "also run the reference prover up to 2^N cycles (0: never)")
      ->capture_default_str()->check(CLI::Range(0u, 24u));
  app.add_option("--reference-workloads", ref_workloads, "the workloads the reference prover runs")->delimiter(',')
      ->capture_default_str();
  app.add_option("--security", security, "provable or conjectured")->capture_default_str()
      ->check(CLI::IsMember({"provable", "conjectured"}));
  CLI11_PARSE(app, argc, argv);
  if (min_log > max_log) {
    std::cerr << "zkrv-prove-bench: error: --min-log is above --max-log\n";
    return 64;
  }
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || ::access(out_dir.c_str(), W_OK) != 0) {
    std::cerr << "zkrv-prove-bench: error: " << out_dir << ": cannot write there\n";
    return 66;
  }
  const fs::path out(out_dir), work = out / "work";
  fs::create_directories(work);
  std::printf("machine: %s, %u hardware threads\n", bench::cpu_name().c_str(), std::thread::hardware_concurrency());

  if (!no_floors) {  // the floors
    std::ofstream f(out / "floors.csv");
    f << "benchmark,rate,unit\n";
    for (const auto& [name, rate, unit] : floors(stark_bench)) {
      std::printf("floor  %-40s %10.2f %s\n", name.c_str(), rate, unit.c_str());
      f << name << "," << rate << "," << unit << "\n";
    }
  }
  std::ofstream csv(out / "prove.csv"), stages_csv(out / "stages.csv");
  csv << "workload,log2_cycles,cycles,segments,prover,lde,wall_s,cycles_per_s,peak_rss_mb,bytes_per_cycle,proof_bytes,"
         "verify_s,same_bytes,note\n";
  stages_csv << "workload,log2_cycles,prover,stage,seconds,peak_rss_mb\n";
  std::printf("%-8s %4s %10s %4s %-10s %-6s %9s %10s %9s %8s %10s %8s\n", "workload", "log2", "cycles", "segs", "prover", "LDE",
              "wall s", "cycles/s", "peak MB", "B/cycle", "proof B", "verify s");
  const std::string segment_cycles = std::to_string(uint64_t{1} << segment_log);
  bool failed = false;
  for (const std::string& name : workloads) {
    const Workload* w = nullptr;
    for (const auto& k : kWorkloads)
      if (k.name == name) w = &k;
    if (!w) {
      std::cerr << "zkrv-prove-bench: error: unknown workload " << name << "\n";
      return 64;
    }
    const std::string elf = guest_dir + "/" + w->elf;
    const auto bytes = tools::read_file(elf, uint64_t{1} << 30, "guest");
    if (!bytes.bytes) {
      std::cerr << "zkrv-prove-bench: error: " << bytes.error << "\n";
      return 66;
    }
    const auto image = *ref::load_elf(*bytes.bytes).image;
    for (unsigned k = min_log; k <= max_log; ++k) {
      const bool bundle = k > segment_log;
      const uint64_t n = input_for(image, k, bundle);
      if (n == 0) {
        std::printf("%-8s %4u (its shortest run is longer than 2^%u cycles)\n", name.c_str(), k, k);
        continue;
      }
      const fs::path input = work / (name + ".input");
      {
        const auto num = bench::number(n);
        std::ofstream(input, std::ios::binary).write(reinterpret_cast<const char*>(num.data()), static_cast<std::streamsize>(num.size()));
      }
      std::vector<Result> results = {prove(zkrv, elf, input, "optimized", work, security, segment_cycles, verify)};
      const bool with_ref = k <= ref_max_log && std::find(ref_workloads.begin(), ref_workloads.end(), name) != ref_workloads.end();
      if (with_ref) results.push_back(prove(zkrv, elf, input, "reference", work, security, segment_cycles, false));
      const bool same = with_ref && results[0].ok && results[1].ok &&
                        slurp(work / "optimized.proof") == slurp(work / "reference.proof");
      if (verify && !results[0].ok) failed = true;
      for (auto& r : results) {
        r.workload = name, r.log2 = k;
        const double cps = r.ok ? static_cast<double>(r.cycles) / r.wall_s : 0;
        const double bpc = r.ok ? r.peak_mb * 1048576.0 / static_cast<double>(r.cycles) : 0;
        std::printf("%-8s %4u %10llu %4llu %-10s %-6s %9.2f %10.0f %9.0f %8.0f %10llu %8.2f %s\n", name.c_str(), k,
                    static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.segments), r.prover.c_str(),
                    r.lde.c_str(), r.wall_s, cps, r.peak_mb, bpc, static_cast<unsigned long long>(r.proof_bytes), r.verify_s,
                    r.ok ? "" : r.note.c_str());
        std::fflush(stdout);
        std::string note = r.note;
        for (char& c : note)
          if (c == ',' || c == '"') c = ';';
        csv << name << "," << k << "," << r.cycles << "," << r.segments << "," << r.prover << "," << r.lde << "," << r.wall_s << ","
            << cps << "," << r.peak_mb << "," << bpc << "," << r.proof_bytes << "," << r.verify_s << ","
            << (with_ref ? (same ? "yes" : "NO") : "") << "," << note << "\n";
        if (r.ok && r.prover == "optimized")
          g_plot_rows[name].push_back(std::to_string(r.cycles) + "," + std::to_string(cps) + "," +
                                      std::to_string(r.proof_bytes) + "," + std::to_string(bpc));
        for (const auto& st : r.stages)
          stages_csv << name << "," << k << "," << r.prover << "," << st.label << "," << st.seconds << "," << st.peak_mb
                     << "\n";
      }
      if (with_ref && results[0].ok && results[1].ok) {
        std::printf("%-8s %4u optimized/reference: %.1fx faster, %s bytes\n", name.c_str(), k,
                    results[1].wall_s / results[0].wall_s, same ? "the same" : "DIFFERENT");
        if (!same) return 70;
      }
    }
  }
  csv.close();
  stages_csv.close();
  // the plot: cycles/s, proof size and peak bytes per cycle against cycles, per workload
  for (const std::string& name : workloads) {
    std::ofstream f(work / ("plot_" + name + ".csv"));
    for (const auto& row : g_plot_rows[name]) f << row << "\n";
  }
  std::ofstream gp(out / "prove.gp");
  gp << "set terminal pngcairo size 1500,450 noenhanced\nset output '" << (out / "prove.png").string() << "'\n"
     << "set datafile separator ','\nset logscale x 2\nset format x '2^%L'\nset key left top\nset grid\n"
     << "set multiplot layout 1,3\n";
  auto series = [&](int col, const char* title) {
    gp << "set title '" << title << "'\nset xlabel 'cycles'\nplot ";
    for (size_t i = 0; i < workloads.size(); ++i)
      gp << (i ? ", " : "") << "'" << (work / ("plot_" + workloads[i] + ".csv")).string() << "' using 1:" << col
         << " with linespoints title '" << workloads[i] << "'";
    gp << "\n";
  };
  series(2, "cycles per second (optimized prover)");
  series(3, "proof bytes");
  series(4, "peak RSS bytes per cycle");
  gp << "unset multiplot\n";
  gp.close();
  if (shell("command -v gnuplot >/dev/null").status == 0) {
    const auto g = shell("gnuplot " + quote((out / "prove.gp").string()) + " 2>&1");
    if (g.status != 0) std::cerr << "zkrv-prove-bench: gnuplot failed: " << g.out;
    else std::printf("wrote %s\n", (out / "prove.png").string().c_str());
  } else {
    std::printf("gnuplot is not installed (scripts/setup.sh installs gnuplot-nox): %s not drawn\n",
                (out / "prove.png").string().c_str());
  }
  std::printf("wrote %s, %s, %s\n", (out / "prove.csv").string().c_str(), (out / "stages.csv").string().c_str(),
              (out / "floors.csv").string().c_str());
  if (failed) {
    std::cerr << "zkrv-prove-bench: error: a proof of the optimized prover failed to be made or verified (see the table)\n";
    return 70;
  }
  return 0;
}
