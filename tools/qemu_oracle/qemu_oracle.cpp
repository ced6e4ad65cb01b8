#include "tools/qemu_oracle/qemu_oracle.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#ifndef ZKRV_QEMU_DEFAULT
#define ZKRV_QEMU_DEFAULT ""
#endif

namespace zkrv::tools {

std::string qemu_path() {
  if (const char* env = std::getenv("ZKRV_QEMU"); env && *env) return env;
  return ZKRV_QEMU_DEFAULT;
}

std::string write_temp_file(std::span<const uint8_t> bytes, const std::string& suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/zkrv-XXXXXX" + suffix;
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const int fd = mkstemps(buf.data(), static_cast<int>(suffix.size()));
  if (fd < 0) return {};
  size_t off = 0;
  while (off < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + off, bytes.size() - off);
    if (n <= 0) { close(fd); unlink(buf.data()); return {}; }
    off += static_cast<size_t>(n);
  }
  fchmod(fd, 0700);  // qemu-user refuses files without an execute bit (silently, exit 1)
  close(fd);
  return buf.data();
}

QemuResult run_qemu(const std::string& elf_path, std::span<const uint8_t> input, double timeout_s) {
  QemuResult r;
  const std::string qemu = qemu_path();
  if (qemu.empty()) { r.error = "qemu-riscv64 not found"; return r; }
  int in_pipe[2], out_pipe[2];
  if (pipe(in_pipe) != 0) { r.error = "pipe failed"; return r; }
  if (pipe(out_pipe) != 0) { close(in_pipe[0]); close(in_pipe[1]); r.error = "pipe failed"; return r; }
  char err_path[] = "/tmp/zkrv-qemu-stderr-XXXXXX";
  const int err_fd = mkstemp(err_path);
  if (err_fd < 0) { r.error = "cannot create a temporary file"; return r; }
  unlink(err_path);
  const pid_t pid = fork();
  if (pid < 0) { r.error = "fork failed"; return r; }
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_fd, 2);
    close(err_fd);
    close(in_pipe[0]); close(in_pipe[1]); close(out_pipe[0]); close(out_pipe[1]);
    const rlimit no_core{0, 0};  // qemu-user would otherwise dump qemu_*.core files on faults
    setrlimit(RLIMIT_CORE, &no_core);
    execl(qemu.c_str(), qemu.c_str(), "-cpu", "rv64,c=false", elf_path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  signal(SIGPIPE, SIG_IGN);
  fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  size_t in_off = 0;
  bool in_open = true;
  if (input.empty()) { close(in_pipe[1]); in_open = false; }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool out_open = true;
  uint8_t buf[65536];
  while (out_open) {
    pollfd fds[2];
    int nfds = 0;
    fds[nfds++] = {out_pipe[0], POLLIN, 0};
    if (in_open) fds[nfds++] = {in_pipe[1], POLLOUT, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) { r.timed_out = true; kill(pid, SIGKILL); break; }
    if (poll(fds, static_cast<nfds_t>(nfds), static_cast<int>(left)) < 0) continue;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = read(out_pipe[0], buf, sizeof buf);
      if (n <= 0) out_open = false;
      else r.stdout_bytes.insert(r.stdout_bytes.end(), buf, buf + n);
    }
    if (in_open && nfds > 1 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = write(in_pipe[1], input.data() + in_off, input.size() - in_off);
      if (n > 0) in_off += static_cast<size_t>(n);
      if (n < 0 && errno != EAGAIN) in_off = input.size();
      if (in_off >= input.size()) { close(in_pipe[1]); in_open = false; }
    }
  }
  if (in_open) close(in_pipe[1]);
  close(out_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  {
    char ebuf[65536];
    const ssize_t n = pread(err_fd, ebuf, sizeof ebuf, 0);
    if (n > 0) r.stderr_text.assign(ebuf, static_cast<size_t>(n));
    close(err_fd);
  }
  r.started = true;
  if (WIFEXITED(status)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(status);
    if (r.exit_code == 127 && r.stdout_bytes.empty()) { r.started = false; r.error = "could not exec " + qemu; }
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return r;
}

}  // namespace zkrv::tools
