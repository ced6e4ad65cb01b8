#include <iostream>

#include "reference/elf/elf_loader.h"
#include "tools/common/files.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

int fail(int code, const std::string& msg) {
  std::cerr << "zkrv: error: " << msg << "\n";
  return code;
}

namespace {
bool quiet_ = false;
}
void set_quiet(bool quiet) { quiet_ = quiet; }
void progress(const std::string& line) {
  if (!quiet_) std::cerr << "zkrv: " << line << "\n";
}


int load_guest(const std::string& program, const std::string& input_path, uint64_t max_input, Guest& out) {
  using namespace zkrv;
  if (program == "-" && input_path == "-") return fail(cli::kUsage, "the program and the input cannot both be stdin (-)");
  auto elf = tools::read_file(program, kMaxElfBytes, "program");
  if (!elf.bytes) return fail(cli::kIoError, elf.error);
  if (!input_path.empty()) {
    auto in = tools::read_file(input_path, max_input, "input");
    if (!in.bytes) return fail(in.error.find("limit") != std::string::npos ? cli::kBadInput : cli::kIoError, in.error);
    out.input = std::move(*in.bytes);
  }
  auto loaded = ref::load_elf(*elf.bytes);
  if (!loaded.ok()) return fail(cli::kBadInput, program + ": " + loaded.message);
  out.image = std::move(*loaded.image);
  out.elf = std::move(*elf.bytes);
  return 0;
}

}  // namespace zkrv::cli
