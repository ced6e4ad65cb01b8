/* What picolibc 1.8 lacks and the C++ standard library calls: wcsftime (libstdc++'s
 * std::time_put<wchar_t>, which every program with iostreams links). The format is narrowed,
 * formatted by strftime and widened back; picolibc's C locale is ASCII, so a format or result
 * outside ASCII is refused (0, as for a result that does not fit). */
#include <stddef.h>
#include <time.h>
#include <wchar.h>

size_t wcsftime(wchar_t* restrict s, size_t max, const wchar_t* restrict format, const struct tm* restrict t) {
  char fmt[256], out[512];
  size_t n = 0;
  for (; format[n]; ++n) {
    if (n + 1 >= sizeof fmt || format[n] < 0 || format[n] > 0x7f) return 0;
    fmt[n] = (char)format[n];
  }
  fmt[n] = '\0';
  const size_t len = strftime(out, sizeof out, fmt, t);
  if (len == 0 || len + 1 > max) return 0;
  for (size_t i = 0; i < len; ++i) {
    if ((unsigned char)out[i] > 0x7f) return 0;
    s[i] = (wchar_t)out[i];
  }
  s[len] = L'\0';
  return len;
}
