// SPDX-License-Identifier: MIT
// Intentionally empty: gives hammer_test_support an object so it is a real static library.
namespace hammer::test {
int sanitizer_probe_anchor = 0;
}
