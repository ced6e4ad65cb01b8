// The mem table (spec/tables/mem.md): its constraints and bus interactions, block by
// block in the document's order, each under its `// spec: <id>` comment.
#include <string_view>

#include "reference/air/evaluate/tables.h"

namespace zkrv::ref::air::eval {

template <class V>
void eval_mem(const Point<V>& x, Values<V>& s) {
  const Emit<V> c{s};
  const V one = f<V>(1), real = x("is_real"), ff = x("from_file");
  auto rc = [&](std::string_view id, const char* col) { c.bus(id, "range16", true, {x(col)}, real); };
  // spec: mem:c:real_bit
  c("mem:c:real_bit", real * (real - one));
  // spec: mem:c:real_prefix
  c.transition("mem:c:real_prefix", (one - real) * x.next("is_real"));
  // spec: mem:c:order
  c.transition("mem:c:order", x.next("is_real") * (x.next("addr") - x("addr") - one - x("gap0") - f<V>(65536) * x("gap1")));
  // spec: mem:b:gap0
  rc("mem:b:gap0", "gap0");
  // spec: mem:b:gap1
  rc("mem:b:gap1", "gap1");
  if (!x.segmented()) {
    // spec whole: mem:b:init
    c.bus("mem:b:init", "mem", true, {x("addr"), f<V>(0), x("init"), x("w")}, real);
    // spec whole: mem:b:final
    c.bus("mem:b:final", "mem", false, {x("addr"), x("fin_ts"), x("fin_v"), x("w")}, real);
  } else {
    // spec segmented: mem:b:init
    c.bus("mem:b:init", "gmem", true, {x("addr"), f<V>(0), x("init"), x("w")}, real);
    // spec segmented: mem:b:final
    c.bus("mem:b:final", "gmem", false, {x("addr"), x("fin_ts"), x("fin_v"), x("w")}, real);
    // the segment's chunk: the touched addresses a with init_prev < a <= init_last
    const V prev = x.pub("init_prev"), last = x.pub("init_last");
    // spec segmented: mem:c:chunk_first
    c.first("mem:c:chunk_first", real * (x("addr") - prev - one - x("cb0") - f<V>(65536) * x("cb1")));
    // spec segmented: mem:c:chunk_rest
    c.transition("mem:c:chunk_rest", x.next("cb0") + x.next("cb1"));
    // spec segmented: mem:b:cb0
    rc("mem:b:cb0", "cb0");
    // spec segmented: mem:b:cb1
    rc("mem:b:cb1", "cb1");
    // spec segmented: mem:c:chunk_last
    c.transition("mem:c:chunk_last", real * (one - x.next("is_real")) * (x("addr") - last));
    // spec segmented: mem:c:chunk_last_full
    c.last("mem:c:chunk_last_full", real * (x("addr") - last));
    // spec segmented: mem:c:chunk_empty
    c.first("mem:c:chunk_empty", (one - real) * (last - prev));
  }
  // spec: mem:b:segment
  c.bus("mem:b:segment", "segment", true, {x("start"), x("file_end"), x("end"), x("w")}, real);
  // spec: mem:c:lo
  c("mem:c:lo", real * (x("addr") - x("start") - x("lo0") - f<V>(65536) * x("lo1")));
  // spec: mem:c:hi
  c("mem:c:hi", real * (x("end") - one - x("addr") - x("hi0") - f<V>(65536) * x("hi1")));
  // spec: mem:b:lo0
  rc("mem:b:lo0", "lo0");
  // spec: mem:b:lo1
  rc("mem:b:lo1", "lo1");
  // spec: mem:b:hi0
  rc("mem:b:hi0", "hi0");
  // spec: mem:b:hi1
  rc("mem:b:hi1", "hi1");
  // spec: mem:c:from_file_bit
  c("mem:c:from_file_bit", ff * (ff - one));
  // spec: mem:c:file_real
  c("mem:c:file_real", ff * (one - real));
  // spec: mem:c:fd
  c("mem:c:fd", real * (ff * (x("file_end") - one - x("addr")) + (one - ff) * (x("addr") - x("file_end")) - x("fd0") - f<V>(65536) * x("fd1")));
  // spec: mem:b:fd0
  rc("mem:b:fd0", "fd0");
  // spec: mem:b:fd1
  rc("mem:b:fd1", "fd1");
  // spec: mem:b:image
  c.bus("mem:b:image", "image", true, {x("addr"), x("init")}, ff);
  // spec: mem:c:zero_fill
  c("mem:c:zero_fill", (one - ff) * x("init"));
}

template void eval_mem<Fp>(const Point<Fp>&, Values<Fp>&);
template void eval_mem<Fp3>(const Point<Fp3>&, Values<Fp3>&);

}  // namespace zkrv::ref::air::eval
