// SPDX-License-Identifier: MIT
#include "stats/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace hammer {
namespace {

struct Vector {
  const char* bytes;
  const char* text;
};

// RFC 4648 section 10.
constexpr Vector kRfcVectors[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                  {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                                  {"foobar", "Zm9vYmFy"}};

TEST(Base64Test, EncodesAndDecodesTheRfcVectors) {
  for (const Vector& v : kRfcVectors) {
    EXPECT_EQ(base64_encode(v.bytes), v.text);
    EXPECT_EQ(base64_decode(v.text), std::optional<std::string>(v.bytes)) << v.text;
  }
}

TEST(Base64Test, RoundTripsEveryByteValue) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t length = 0; length <= bytes.size(); length += 37) {
    std::string part = bytes.substr(0, length);
    EXPECT_EQ(base64_decode(base64_encode(part)), part) << length;
  }
}

TEST(Base64Test, AcceptsMissingPaddingAndWhitespace) {
  EXPECT_EQ(base64_decode("Zg"), std::optional<std::string>("f"));
  EXPECT_EQ(base64_decode("Zm8"), std::optional<std::string>("fo"));
  EXPECT_EQ(base64_decode(" Zm9v\r\nYmFy\n"), std::optional<std::string>("foobar"));
}

TEST(Base64Test, RejectsWhatNoEncoderWrites) {
  for (const char* bad : {"Z", "Zm9vY", "Zg=a", "Zm9v=", "===", "Zg===", "Zm9v!", "Zm-_",
                          "Zg==Zg=="}) {
    EXPECT_FALSE(base64_decode(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace hammer
