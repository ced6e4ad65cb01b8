// Typed input and output in C++ (the encoding of zkvm_typed.h), for the guest and the host.
//
// Encodable types: trivially copyable ones (their bytes as they are: integers, floats, arrays and
// structs of them, whose layout is the same for the guest and a little-endian LP64 host: no
// pointers, no long double; structs without padding, whose bytes would be whatever the padding
// held; no bool or enum read from bytes nobody checked), std::string (its length as u32, then its
// bytes; a string literal is a char array, written without a length) and std::vector of an
// encodable type (its size as u32, then its elements). Strings and vectors hold less than 4 GiB.
//
//   host:  zkvm::Writer w; w.put(uint32_t{7}).put(std::string("abc")).put(points);
//          write w.data() to a file: the guest's --input (or build it with `zkrv input`).
//   guest: auto n = zkvm::read<uint32_t>(); auto s = zkvm::read<std::string>(); ...
//          zkvm::commit(result);                      // the public output, the same encoding
//   host:  zkvm::Reader r(output); uint64_t v; if (!r.get(v)) ...;
//
// zkvm::read ends the guest with ZKVM_EXIT_INPUT_TOO_SHORT (138) when the input ends early; a
// Reader's get returns false and consumes nothing. Needs C++17 (if constexpr).
#ifndef ZKVM_TYPED_HPP
#define ZKVM_TYPED_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "zkvm.h"
#include "zkvm_typed.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "zkvm_typed.hpp: the encoding is the bytes of a little-endian host");

namespace zkvm {

namespace typed {
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// Appends v's encoding through sink(const void*, size_t).
template <class Sink, class T>
void encode(Sink& sink, const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    const uint32_t n = static_cast<uint32_t>(v.size());
    sink(&n, sizeof n);
    sink(v.data(), v.size());
  } else if constexpr (is_vector<T>::value) {
    const uint32_t n = static_cast<uint32_t>(v.size());
    sink(&n, sizeof n);
    if constexpr (std::is_trivially_copyable_v<typename T::value_type> && !is_vector<typename T::value_type>::value)
      sink(v.data(), v.size() * sizeof(typename T::value_type));
    else
      for (const auto& e : v) encode(sink, e);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "zkvm: encodable types are trivially copyable ones, std::string "
                                                   "and std::vector of encodable types");
    sink(&v, sizeof v);
  }
}

// Reads v's encoding through source(void*, size_t) -> bool and left() -> bytes remaining.
template <class Source, class T>
bool decode(Source& source, T& v) {
  if constexpr (std::is_same_v<T, std::string> || is_vector<T>::value) {
    uint32_t n;
    if (!source(&n, sizeof n)) return false;
    if constexpr (std::is_same_v<T, std::string>) {
      if (n > source.left()) return false;
      v.resize(n);
      return source(v.data(), n);
    } else {
      using E = typename T::value_type;
      // every element takes at least a byte: refuse a count past the input before allocating
      if (n > source.left() || (std::is_trivially_copyable_v<E> && uint64_t{n} * sizeof(E) > source.left())) return false;
      v.resize(n);
      if constexpr (std::is_trivially_copyable_v<E>) return source(v.data(), n * sizeof(E));
      for (auto& e : v)
        if (!decode(source, e)) return false;
      return true;
    }
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "zkvm: encodable types are trivially copyable ones, std::string "
                                                   "and std::vector of encodable types");
    return source(&v, sizeof v);
  }
}
}  // namespace typed

// Builds an input (on the host) or any byte string in the encoding.
class Writer {
 public:
  template <class T>
  Writer& put(const T& v) {
    auto sink = [this](const void* p, size_t n) {
      const auto* b = static_cast<const uint8_t*>(p);
      bytes_.insert(bytes_.end(), b, b + n);
    };
    typed::encode(sink, v);
    return *this;
  }
  const std::vector<uint8_t>& data() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Reads values from bytes in the encoding (on the host: a proof's public output).
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  explicit Reader(const std::vector<uint8_t>& v) : Reader(v.data(), v.size()) {}
  // The next value into v; false, with nothing consumed, when the bytes end too early.
  template <class T>
  bool get(T& v) {
    const size_t at = at_;
    Source s{this};
    if (typed::decode(s, v)) return true;
    at_ = at;
    return false;
  }
  size_t left() const { return n_ - at_; }

 private:
  struct Source {
    Reader* r;
    bool operator()(void* out, size_t n) {
      if (n > r->left()) return false;
      if (n) std::memcpy(out, r->p_ + r->at_, n);
      r->at_ += n;
      return true;
    }
    size_t left() const { return r->left(); }
  };
  const uint8_t* p_;
  size_t n_, at_ = 0;
};

// In a guest (or its native build with the host stubs): the next value of the private input;
// the guest ends with ZKVM_EXIT_INPUT_TOO_SHORT if the input ends first.
template <class T>
T read() {
  struct Source {
    bool operator()(void* out, size_t n) { return zkvm_read_raw(out, n) == 0; }
    size_t left() const { return zkvm_input_left(); }
  } source;
  T v{};
  if (!typed::decode(source, v)) zkvm_exit(ZKVM_EXIT_INPUT_TOO_SHORT);
  return v;
}

// Appends v to the public output, in the encoding.
template <class T>
void commit(const T& v) {
  auto sink = [](const void* p, size_t n) { write_output(static_cast<const uint8_t*>(p), n); };
  typed::encode(sink, v);
}

}  // namespace zkvm

#endif  // ZKVM_TYPED_HPP
