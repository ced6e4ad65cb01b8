// Every ELF rule of spec/isa.md (isa:elf:*) with a hand-made bad ELF, plus the accepted shapes.
#include "reference/elf/elf_loader.h"

#include <gtest/gtest.h>

#include "tests/support/elf_builder.h"

namespace zkrv {
namespace {

using testing::ElfSpec;
using testing::PhdrSpec;

ElfSpec good() {
  ElfSpec e;
  PhdrSpec text;
  text.data = {0x13, 0, 0, 0, 0x73, 0, 0, 0};
  e.phdrs.push_back(text);
  PhdrSpec data;
  data.flags = 6;
  data.vaddr = 0x20000;
  data.data = {1, 2, 3};
  data.memsz = 0x2000;
  e.phdrs.push_back(data);
  return e;
}

void expect_rejected(const ElfSpec& e, const std::string& rule) {
  auto r = ref::load_elf(testing::build_elf(e));
  ASSERT_FALSE(r.ok()) << "expected rejection by " << rule;
  EXPECT_EQ(r.rule, rule) << r.message;
  EXPECT_NE(r.message.find(rule), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find('\n'), std::string::npos) << "one line: " << r.message;
}

TEST(ElfLoader, AcceptsAWellFormedProgram) {
  auto r = ref::load_elf(testing::build_elf(good()));
  ASSERT_TRUE(r.ok()) << r.message;
  ASSERT_EQ(r.image->segments.size(), 2u);
  EXPECT_EQ(r.image->entry, 0x10000u);
  EXPECT_EQ(r.image->segments[0].flags, 5u);
  EXPECT_EQ(r.image->segments[1].data, (std::vector<uint8_t>{1, 2, 3}));  // isa:elf:zero_fill
  EXPECT_EQ(r.image->segments[1].memsz, 0x2000u);
}

TEST(ElfLoader, Magic) {
  EXPECT_EQ(ref::load_elf(std::vector<uint8_t>{}).rule, "isa:elf:magic");
  EXPECT_EQ(ref::load_elf(std::vector<uint8_t>(63, 0)).rule, "isa:elf:magic");
  auto b = testing::build_elf(good());
  b[1] = 'X';
  EXPECT_EQ(ref::load_elf(b).rule, "isa:elf:magic");
}
TEST(ElfLoader, Class) { auto e = good(); e.ei_class = 1; expect_rejected(e, "isa:elf:class"); }
TEST(ElfLoader, Data) { auto e = good(); e.ei_data = 2; expect_rejected(e, "isa:elf:data"); }
TEST(ElfLoader, Version) { auto e = good(); e.ei_version = 0; expect_rejected(e, "isa:elf:version"); }
TEST(ElfLoader, Type) {
  auto e = good(); e.e_type = 3;  // ET_DYN
  expect_rejected(e, "isa:elf:type");
}
TEST(ElfLoader, Machine) { auto e = good(); e.e_machine = 62; expect_rejected(e, "isa:elf:machine"); }
TEST(ElfLoader, PhdrTable) {
  { auto e = good(); e.e_phnum_override = 0; expect_rejected(e, "isa:elf:phdr_table"); }
  { auto e = good(); e.e_phentsize = 32; expect_rejected(e, "isa:elf:phdr_table"); }
  { auto e = good(); e.e_phoff_override = 1ull << 40; expect_rejected(e, "isa:elf:phdr_table"); }
  { auto e = good(); e.e_phnum_override = 500; expect_rejected(e, "isa:elf:phdr_table"); }
}
TEST(ElfLoader, OnlyPtLoadCounts) {
  auto e = good();
  PhdrSpec note;
  note.type = 4;  // PT_NOTE overlapping the code, with W|X flags: ignored
  note.flags = 7;
  note.data = {9, 9, 9, 9};
  e.phdrs.push_back(note);
  auto r = ref::load_elf(testing::build_elf(e));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.image->segments.size(), 2u);
}
TEST(ElfLoader, FileRange) {
  { auto e = good(); e.phdrs[1].filesz_override = 0x3000; expect_rejected(e, "isa:elf:file_range"); }
  { auto e = good(); e.phdrs[0].offset_override = 1ull << 50; expect_rejected(e, "isa:elf:file_range"); }
  { auto e = good(); e.phdrs[1].memsz = 0x100; e.phdrs[1].data.assign(0x200, 1); e.phdrs[1].filesz_override = 0x200; expect_rejected(e, "isa:elf:file_range"); }
}
TEST(ElfLoader, AddressRange) {
  { auto e = good(); e.phdrs[1].vaddr = 0; expect_rejected(e, "isa:elf:address_range"); }  // null page
  { auto e = good(); e.phdrs[1].vaddr = 0xFFFFF000; e.phdrs[1].memsz = 0x2000; expect_rejected(e, "isa:elf:address_range"); }
  { auto e = good(); e.phdrs[1].vaddr = 1ull << 32; expect_rejected(e, "isa:elf:address_range"); }
  { auto e = good(); e.phdrs[1].vaddr = 0x20000; e.phdrs[1].memsz = ~0ull - 0x100; expect_rejected(e, "isa:elf:address_range"); }
}
TEST(ElfLoader, Alignment) {
  { auto e = good(); e.phdrs[1].align = 0x3000; expect_rejected(e, "isa:elf:alignment"); }   // not a power of two
  { auto e = good(); e.phdrs[1].offset_override = 0x1FFF; expect_rejected(e, "isa:elf:alignment"); }  // offset ≢ vaddr
  { auto e = good(); e.phdrs[0].vaddr = 0x10002; e.phdrs[0].align = 1; e.entry = 0x10004; expect_rejected(e, "isa:elf:alignment"); }
}
TEST(ElfLoader, WriteXorExecute) { auto e = good(); e.phdrs[0].flags = 7; expect_rejected(e, "isa:elf:wx"); }
TEST(ElfLoader, ExecutableMustBeReadable) { auto e = good(); e.phdrs[0].flags = 1; expect_rejected(e, "isa:elf:exec_model"); }
TEST(ElfLoader, OverlapIndependentOfHeaderOrder) {
  auto e = good();
  e.phdrs[1].vaddr = 0x10000 + 4;  // overlaps the code
  e.phdrs[1].align = 4;
  expect_rejected(e, "isa:elf:overlap");
  std::swap(e.phdrs[0], e.phdrs[1]);
  expect_rejected(e, "isa:elf:overlap");
}
TEST(ElfLoader, Entry) {
  { auto e = good(); e.entry = 0x10002; expect_rejected(e, "isa:elf:entry"); }
  { auto e = good(); e.entry = 0x20000; expect_rejected(e, "isa:elf:entry"); }  // data segment
  { auto e = good(); e.entry = 0x90000; expect_rejected(e, "isa:elf:entry"); }
}
TEST(ElfLoader, SectionHeadersAreIgnored) {
  auto e = good();
  auto plain = ref::load_elf(testing::build_elf(e));
  e.garbage_section_headers = true;
  auto garbage = ref::load_elf(testing::build_elf(e));
  ASSERT_TRUE(plain.ok());
  ASSERT_TRUE(garbage.ok()) << garbage.message;
  EXPECT_EQ(*plain.image, *garbage.image);
}
TEST(ElfLoader, HeaderOrderDoesNotChangeTheImage) {
  auto e = good();
  auto a = ref::load_elf(testing::build_elf(e));
  std::swap(e.phdrs[0], e.phdrs[1]);
  auto b = ref::load_elf(testing::build_elf(e));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a.image, *b.image);
}
TEST(ElfLoader, EmptySegmentsAreIgnored) {
  auto e = good();
  PhdrSpec empty;
  empty.flags = 7;  // would break W^X if it counted
  empty.vaddr = 0x10000;
  e.phdrs.push_back(empty);
  EXPECT_TRUE(ref::load_elf(testing::build_elf(e)).ok());
}
TEST(ElfLoader, TruncationsNeverCrash) {
  const auto b = testing::build_elf(good());
  for (size_t n = 0; n < b.size(); n += 7) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_FALSE(ref::load_elf(cut).ok()) << "truncated to " << n << " bytes";
  }
}

}  // namespace
}  // namespace zkrv
