// Word frequencies (C++ without exceptions or RTTI: classes, templates, constructors and
// destructors, new/delete). Input: text. Output: the 10 most frequent lowercase words as
// "count word" lines (count descending, then word ascending).
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "zkvm_io.h"

namespace {

struct Word {
  const char* text = nullptr;
  size_t len = 0;
  uint32_t count = 0;
};

template <typename Hash>
class WordTable {
 public:
  explicit WordTable(size_t capacity) : cap_(capacity), slots_(new Word[capacity]) {}
  ~WordTable() { delete[] slots_; }
  WordTable(const WordTable&) = delete;
  WordTable& operator=(const WordTable&) = delete;

  void add(const char* w, size_t n) {
    if (2 * (size_ + 1) > cap_) grow();
    Word& slot = find(slots_, cap_, w, n);
    if (slot.count == 0) {
      slot.text = w;
      slot.len = n;
      ++size_;
    }
    ++slot.count;
  }
  size_t size() const { return size_; }
  template <typename F>
  void each(F&& f) const {
    for (size_t i = 0; i < cap_; ++i)
      if (slots_[i].count) f(slots_[i]);
  }

 private:
  static Word& find(Word* slots, size_t cap, const char* w, size_t n) {
    for (size_t i = Hash()(w, n) & (cap - 1);; i = (i + 1) & (cap - 1))
      if (slots[i].count == 0 || (slots[i].len == n && memcmp(slots[i].text, w, n) == 0)) return slots[i];
  }
  void grow() {
    Word* bigger = new Word[2 * cap_];
    for (size_t i = 0; i < cap_; ++i)
      if (slots_[i].count) find(bigger, 2 * cap_, slots_[i].text, slots_[i].len) = slots_[i];
    delete[] slots_;
    slots_ = bigger;
    cap_ *= 2;
  }
  size_t cap_, size_ = 0;
  Word* slots_;
};

struct Fnv1a {
  size_t operator()(const char* p, size_t n) const {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<uint8_t>(p[i])) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

bool before(const Word& a, const Word& b) {
  if (a.count != b.count) return a.count > b.count;
  const size_t n = a.len < b.len ? a.len : b.len;
  const int c = memcmp(a.text, b.text, n);
  return c != 0 ? c < 0 : a.len < b.len;
}

}  // namespace

int main() {
  const uint8_t* in;
  size_t len;
  read_input(&in, &len);
  char* text = new char[len + 1];
  for (size_t i = 0; i < len; ++i) {
    const char c = static_cast<char>(in[i]);
    text[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  WordTable<Fnv1a> table(16);
  for (size_t i = 0; i < len;) {
    while (i < len && !(text[i] >= 'a' && text[i] <= 'z')) ++i;
    const size_t start = i;
    while (i < len && ((text[i] >= 'a' && text[i] <= 'z') || text[i] == '\'')) ++i;
    if (i > start) table.add(text + start, i - start);
  }
  Word top[10];
  size_t have = 0;
  table.each([&](const Word& w) {  // insertion into a sorted top-10
    size_t pos = have;
    while (pos > 0 && before(w, top[pos - 1])) --pos;
    if (pos >= 10) return;
    for (size_t k = (have < 10 ? have : 9); k > pos; --k) top[k] = top[k - 1];
    top[pos] = w;
    if (have < 10) ++have;
  });
  for (size_t k = 0; k < have; ++k) {
    char line[128];
    const int m = snprintf(line, sizeof line, "%u %.*s\n", top[k].count, static_cast<int>(top[k].len), top[k].text);
    write_output(reinterpret_cast<const uint8_t*>(line), static_cast<size_t>(m));
  }
  fprintf(stderr, "wordfreq: %zu distinct words\n", table.size());  // the debug log, natively too
  delete[] text;
  return 0;
}
