// SPDX-License-Identifier: MIT
#include "core/zeroed_array.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#if !defined(_WIN32)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace hammer {
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kPages = 16;
constexpr size_t kCount = kPages * kPage / sizeof(int64_t);  // mapped: over the threshold
constexpr size_t kPerPage = kPage / sizeof(int64_t);

ZeroedArray<int64_t> with_values_on_pages(const std::vector<size_t>& pages, int64_t value) {
  ZeroedArray<int64_t> array(kCount);
  for (size_t page : pages) array[page * kPerPage + 3] = value;
  return array;
}

void expect_values_on_pages(const ZeroedArray<int64_t>& array, const std::vector<size_t>& pages,
                            int64_t value) {
  for (size_t i = 0; i < array.size(); ++i) {
    bool set = false;
    for (size_t page : pages) set = set || i == page * kPerPage + 3;
    EXPECT_EQ(array[i], set ? value : 0) << "slot " << i;
  }
}

TEST(ZeroedArrayTest, StartsAllZero) {
  ZeroedArray<int64_t> small(10);
  ZeroedArray<int64_t> large(kCount);
  for (size_t i = 0; i < small.size(); ++i) EXPECT_EQ(small[i], 0);
  for (size_t i = 0; i < large.size(); ++i) EXPECT_EQ(large[i], 0);
}

TEST(ZeroedArrayTest, CopyHasTheSameValues) {
  const ZeroedArray<int64_t> source = with_values_on_pages({0, 5, 15}, 42);
  const ZeroedArray<int64_t> copy(source);
  expect_values_on_pages(copy, {0, 5, 15}, 42);
  ZeroedArray<int64_t> small(7);
  small[6] = 9;
  const ZeroedArray<int64_t> small_copy(small);
  EXPECT_EQ(small_copy[6], 9);
  EXPECT_EQ(small_copy[0], 0);
}

TEST(ZeroedArrayTest, AssignValuesClearsPagesTheSourceHasZero) {
  ZeroedArray<int64_t> target = with_values_on_pages({1, 2, 9}, 7);
  const ZeroedArray<int64_t> source = with_values_on_pages({2, 4}, 42);
  target.assign_values(source);
  expect_values_on_pages(target, {2, 4}, 42);
}

TEST(ZeroedArrayTest, AssignValuesOfAnotherSizeChangesNothing) {
  ZeroedArray<int64_t> target = with_values_on_pages({1}, 7);
  const ZeroedArray<int64_t> source(kCount / 2);
  target.assign_values(source);
  expect_values_on_pages(target, {1}, 7);
}

#if !defined(_WIN32)
// Which of the array's pages are resident (mincore). A mapped array starts on a page boundary.
std::vector<bool> resident_pages(const ZeroedArray<int64_t>& array) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t length = array.size() * sizeof(int64_t);
  std::vector<unsigned char> flags((length + page - 1) / page);
  EXPECT_EQ(mincore(const_cast<int64_t*>(array.data()), length, flags.data()), 0);
  std::vector<bool> resident;
  for (unsigned char flag : flags) resident.push_back((flag & 1) != 0);
  return resident;
}

TEST(ZeroedArrayTest, CopyLeavesThePagesThatAreZeroUntouched) {
  if (sysconf(_SC_PAGESIZE) != static_cast<long>(kPage)) GTEST_SKIP() << "pages of 4 KiB only";
  const ZeroedArray<int64_t> source = with_values_on_pages({3, 12}, 42);
  const ZeroedArray<int64_t> copy(source);
  const std::vector<bool> resident = resident_pages(copy);
  ASSERT_EQ(resident.size(), kPages);
  for (size_t page = 0; page < kPages; ++page) {
    EXPECT_EQ(resident[page], page == 3 || page == 12) << "page " << page;
  }
}
#endif

}  // namespace
}  // namespace hammer
