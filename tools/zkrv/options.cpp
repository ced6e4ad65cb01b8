// Strict parsing of the numeric options every subcommand shares, and the small text helpers
// (hex, JSON strings) their outputs share.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "spec/run_segments.h"
#include "tools/zkrv/commands.h"

namespace zkrv::cli {

std::optional<uint64_t> parse_uint(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;  // sign, fraction, overflow, junk
  return v;
}

CLI::Validator uint_range(uint64_t lo, uint64_t hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        const auto v = parse_uint(s);
        if (!v || *v < lo || *v > hi) return "'" + s + "' is not a whole number from " + range;
        s = std::to_string(*v);  // what CLI11 then converts: plain decimal, never octal
        return {};
      },
      range);
}

std::optional<uint64_t> parse_bytes(std::string_view s) {
  uint64_t scale = 1;
  if (!s.empty()) {
    const char last = s.back();
    const std::string_view units = "KMGT";
    if (const size_t i = units.find(last); i != std::string_view::npos) {
      scale = uint64_t{1} << (10 * (i + 1));
      s.remove_suffix(1);
    }
  }
  const auto v = parse_uint(s);
  if (!v || *v == 0 || *v > UINT64_MAX / scale) return std::nullopt;
  return *v * scale;
}

CLI::Validator byte_count() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const auto v = parse_bytes(s);
        if (!v) return "'" + s + "' is not a number of bytes (a whole number, optionally followed by K, M, G or T: 2^10 ...)";
        s = std::to_string(*v);
        return {};
      },
      "BYTES");
}

CLI::Validator segment_cycles() {
  const std::string range = "a power of two from " + std::to_string(uint64_t{1} << spec::kMinSegmentLog) + " to " +
                            std::to_string(uint64_t{1} << spec::kMaxSegmentLog);
  return CLI::Validator(
      [range](std::string& s) -> std::string {
        const auto v = parse_uint(s);
        if (!v || !std::has_single_bit(*v) || *v < (uint64_t{1} << spec::kMinSegmentLog) ||
            *v > (uint64_t{1} << spec::kMaxSegmentLog))
          return "'" + s + "' is not " + range;
        s = std::to_string(*v);
        return {};
      },
      range);
}

CLI::Validator real_range(double lo, double hi) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g to %g", lo, hi);
  const std::string range = buf;
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        double v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v) || v < lo || v > hi)
          return "'" + s + "' is not a number from " + range;
        return {};
      },
      range);
}

std::string hex_bytes(std::span<const uint8_t> v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(v.size() * 2);
  for (uint8_t b : v) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

std::string json_escape(const std::string& in) {
  std::string s;
  for (char c : in) {
    if (c == '"' || c == '\\') s += '\\', s += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      s += b;
    } else s += c;
  }
  return s;
}

}  // namespace zkrv::cli
