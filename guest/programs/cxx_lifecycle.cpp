// C++ start-up and shut-down: a global object's constructor runs before main and its
// destructor after main returns (through exit), in order; a function-local static is built
// once; virtual dispatch works without RTTI. Output: the events, one per line.
#include <stddef.h>
#include <string.h>

#include "zkvm_io.h"

namespace {

void say(const char* s) { write_output(reinterpret_cast<const uint8_t*>(s), strlen(s)); }

struct Global {
  Global() { say("global constructed\n"); }
  ~Global() { say("global destroyed\n"); }
} global;

struct Shape {
  virtual ~Shape() = default;
  virtual int area() const = 0;
};
struct Square : Shape {
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
  int side;
};

int counter() {
  static int calls = 0;  // zero-initialised once
  return ++calls;
}

}  // namespace

int main() {
  say("main\n");
  Shape* s = new Square(7);
  if (s->area() != 49) return 1;
  delete s;
  counter();
  if (counter() != 2) return 2;
  say("main returns\n");
  return 0;
}
