// SPDX-License-Identifier: MIT
#include "cli/target_url.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

Target target_of(std::string_view url) {
  auto parsed = parse_target_url(url);
  if (!parsed) {
    ADD_FAILURE() << url << ": " << parsed.error();
    return {};
  }
  return *parsed;
}

std::string error_of(std::string_view url) {
  auto parsed = parse_target_url(url);
  if (parsed) {
    ADD_FAILURE() << url << " parsed";
    return {};
  }
  return parsed.error();
}

TEST(TargetUrlTest, HostPortAndPath) {
  const Target target = target_of("http://127.0.0.1:8080/api/v1?x=1");
  EXPECT_EQ(target.host, "127.0.0.1");
  EXPECT_EQ(target.port, 8080);
  EXPECT_EQ(target.port_text, "8080");
  EXPECT_EQ(target.path, "/api/v1?x=1");
  EXPECT_EQ(target.host_header, "127.0.0.1:8080");
}

TEST(TargetUrlTest, DefaultPortIsLeftOutOfTheHostHeader) {
  const Target target = target_of("http://example.com");
  EXPECT_EQ(target.port, 80);
  EXPECT_EQ(target.port_text, "80");
  EXPECT_EQ(target.path, "/");
  EXPECT_EQ(target.host_header, "example.com");
  EXPECT_EQ(target_of("HTTP://Example.com:80/x").host_header, "Example.com");
}

TEST(TargetUrlTest, Ipv6HostsAreBracketedOnlyInTheHostHeader) {
  const Target target = target_of("http://[::1]:9000/a");
  EXPECT_EQ(target.host, "::1");
  EXPECT_EQ(target.port, 9000);
  EXPECT_EQ(target.host_header, "[::1]:9000");
  EXPECT_EQ(target_of("http://[fe80::1]").host_header, "[fe80::1]");
}

TEST(TargetUrlTest, QueryWithoutPathAndFragment) {
  EXPECT_EQ(target_of("http://h?q=1").path, "/?q=1");
  EXPECT_EQ(target_of("http://h/p#section").path, "/p");
  EXPECT_EQ(target_of("http://h#top").path, "/");
}

TEST(TargetUrlTest, MistakesSayWhatIsWrong) {
  EXPECT_EQ(error_of("https://h/"),
            "https is not supported (hammer speaks plain HTTP/1.1); use an http:// URL");
  EXPECT_EQ(error_of("HTTPS://h/"),
            "https is not supported (hammer speaks plain HTTP/1.1); use an http:// URL");
  EXPECT_EQ(error_of("ftp://h/"), "unsupported scheme 'ftp'; expected http://");
  EXPECT_EQ(error_of("h:80/"), "expected http://host[:port][/path]");
  EXPECT_EQ(error_of("http://"), "missing host");
  EXPECT_EQ(error_of("http://:80/"), "missing host");
  EXPECT_EQ(error_of("http://h:/"), "empty port after ':'");
  EXPECT_EQ(error_of("http://h:0/"), "port must be a number from 1 to 65535, got '0'");
  EXPECT_EQ(error_of("http://h:65536/"), "port must be a number from 1 to 65535, got '65536'");
  EXPECT_EQ(error_of("http://h:-1/"), "port must be a number from 1 to 65535, got '-1'");
  EXPECT_EQ(error_of("http://h:8o/"), "port must be a number from 1 to 65535, got '8o'");
  EXPECT_EQ(error_of("http://u:p@h/"), "user info (user@host) is not supported");
  EXPECT_EQ(error_of("http://[::1/"), "unclosed '[' in host");
  EXPECT_EQ(error_of("http://[]/"), "bad IPv6 address in brackets");
  EXPECT_EQ(error_of("http://[::1]x/"), "unexpected text after ']'");
  EXPECT_EQ(error_of("http://h o/"), "bad character in host 'h o'");
  EXPECT_EQ(error_of("http://h/a b"), "path contains a space or control character");
  EXPECT_EQ(error_of("http://h/a\r\nX: y"), "path contains a space or control character");
  EXPECT_EQ(target_of("http://h:65535/").port, 65535);
}

}  // namespace
}  // namespace hammer
