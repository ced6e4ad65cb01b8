// zkrv input: builds a guest's private input from typed values, in the encoding of the guest's
// zkvm_typed.h / zkvm_typed.hpp (little-endian integers; a byte string is its u32 length and its
// bytes), for the guest's zkvm_read_* or zkvm::read<T>.

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <limits>

#include "tools/common/files.h"
#include "tools/zkrv/commands.h"
#include "tools/zkrv/exit_codes.h"

namespace zkrv::cli {

CLI::App* add_input(CLI::App& app, InputArgs& a) {
  auto* in = app.add_subcommand("input", "Build a guest's private input from typed values (zkvm_typed.h's encoding)");
  in->add_option("VALUE", a.values,
                 "KIND:VALUE, in order: u8, u16, u32, u64, i8, i16, i32, i64 (decimal or 0x hex, in the type's range; "
                 "little-endian); str:TEXT (a byte string: u32 length, then the bytes); hex:HEX and file:PATH (a byte "
                 "string of those bytes); raw:HEX and raw-file:PATH (the bytes alone, no length)")
      ->required();
  in->add_option("-o,--output,--out", a.out, "write the input to FILE (atomically); - is stdout")->capture_default_str();
  in->footer("Example: zkrv input u32:3 str:abc hex:00ff -o in.bin, then zkrv run PROGRAM --input in.bin; in the guest\n"
             "zkvm::read<uint32_t>(), zkvm::read<std::string>() and zkvm::read<std::vector<uint8_t>>(). Exit code:\n"
             "0 written, 64 a value that does not parse, 66 a file missing or not writable.");
  return in;
}

namespace {
std::optional<std::vector<uint8_t>> from_hex(const std::string& h) {
  if (h.size() % 2) return std::nullopt;
  std::vector<uint8_t> out;
  for (size_t i = 0; i < h.size(); i += 2) {
    auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = nibble(h[i]), lo = nibble(h[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return out;
}
}  // namespace

int cmd_input(const InputArgs& a) {
  std::vector<uint8_t> out;
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  auto put_bytes = [&](const std::vector<uint8_t>& b, bool length) {
    if (length) put(b.size(), 4);
    out.insert(out.end(), b.begin(), b.end());
  };
  for (const std::string& value : a.values) {
    const size_t colon = value.find(':');
    const std::string kind = value.substr(0, colon), body = colon == std::string::npos ? "" : value.substr(colon + 1);
    const auto bad = [&](const std::string& why) { return fail(kUsage, "input value '" + value + "': " + why); };
    if (colon == std::string::npos) return bad("write it as KIND:VALUE (see zkrv input --help)");
    static const std::vector<std::string> kIntegers = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"};
    if (std::find(kIntegers.begin(), kIntegers.end(), kind) != kIntegers.end()) {
      const int bits = std::atoi(kind.c_str() + 1);
      const bool is_signed = kind[0] == 'i';
      // decimal, or 0x hex: no sign but the minus of a signed type, no spaces, no octal
      const size_t digits = body.size() > 0 && body[0] == '-' ? 1 : 0;
      const bool hex = body.compare(digits, 2, "0x") == 0 || body.compare(digits, 2, "0X") == 0;
      if (body.size() <= digits + (hex ? 2 : 0) || (!is_signed && digits) ||
          body.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789", digits + (hex ? 2 : 0)) != std::string::npos)
        return bad("not a decimal or 0x hex number");
      const int base = hex ? 16 : 10;
      errno = 0;
      char* end = nullptr;
      uint64_t bitsv = 0;
      if (is_signed) {
        const long long v = std::strtoll(body.c_str(), &end, base);
        const long long lo = bits == 64 ? std::numeric_limits<long long>::min() : -(1LL << (bits - 1));
        const long long hi = bits == 64 ? std::numeric_limits<long long>::max() : (1LL << (bits - 1)) - 1;
        if (errno || *end || v < lo || v > hi) return bad("not a number in the range of " + kind);
        bitsv = static_cast<uint64_t>(v);
      } else {
        const unsigned long long v = std::strtoull(body.c_str(), &end, base);
        if (errno || *end || (bits < 64 && v >> bits)) return bad("not a number in the range of " + kind);
        bitsv = v;
      }
      put(bitsv, bits / 8);
    } else if (kind == "str") {
      put_bytes(std::vector<uint8_t>(body.begin(), body.end()), true);
    } else if (kind == "hex" || kind == "raw") {
      const auto b = from_hex(body);
      if (!b) return bad("not an even number of hex digits");
      put_bytes(*b, kind == "hex");
    } else if (kind == "file" || kind == "raw-file") {
      auto f = tools::read_file(body, kind == "file" ? UINT32_MAX : uint64_t{1} << 32, "input value file");
      if (!f.bytes) return fail(kIoError, f.error);
      put_bytes(*f.bytes, kind == "file");
    } else {
      return bad("unknown kind '" + kind + "' (u8 ... i64, str, hex, file, raw, raw-file)");
    }
  }
  if (auto err = tools::write_file_atomic(a.out, out); !err.empty()) return fail(kIoError, err);
  return 0;
}

}  // namespace zkrv::cli
