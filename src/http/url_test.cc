// SPDX-License-Identifier: MIT
// parse_url: the accepted shapes with every Target field checked, then one case per rejection,
// each asserting the words of the message (the CLI prints it after the URL).
#include "http/url.h"

#include <gtest/gtest.h>

namespace hammer {
namespace {

Target parsed(std::string_view url) {
  auto result = parse_url(url);
  EXPECT_TRUE(result.has_value()) << url << ": " << (result ? "" : result.error());
  return result ? *result : Target{};
}

std::string error_of(std::string_view url) {
  auto result = parse_url(url);
  EXPECT_FALSE(result.has_value()) << url << " was accepted";
  return result ? std::string() : result.error();
}

TEST(UrlTest, NameWithPortAndPath) {
  const Target target = parsed("http://localhost:8080/api/items?id=3&x=y");
  EXPECT_EQ(target.host, "localhost");
  EXPECT_EQ(target.port, 8080);
  EXPECT_EQ(target.port_text, "8080");
  EXPECT_EQ(target.path, "/api/items?id=3&x=y");
  EXPECT_EQ(target.host_header, "localhost:8080");
}

TEST(UrlTest, DefaultPortIsEightyAndLeftOutOfHostHeader) {
  const Target target = parsed("http://example.com");
  EXPECT_EQ(target.port, 80);
  EXPECT_EQ(target.port_text, "80");
  EXPECT_EQ(target.path, "/");
  EXPECT_EQ(target.host_header, "example.com");
  EXPECT_EQ(parsed("http://example.com:80/").host_header, "example.com");
}

TEST(UrlTest, Ipv4Address) {
  const Target target = parsed("http://127.0.0.1:8082/");
  EXPECT_EQ(target.host, "127.0.0.1");
  EXPECT_EQ(target.port, 8082);
  EXPECT_EQ(target.host_header, "127.0.0.1:8082");
}

TEST(UrlTest, Ipv6AddressInBracketsIsStoredWithoutThem) {
  const Target target = parsed("http://[::1]:9000/x");
  EXPECT_EQ(target.host, "::1");
  EXPECT_EQ(target.port, 9000);
  EXPECT_EQ(target.path, "/x");
  EXPECT_EQ(target.host_header, "[::1]:9000");
  EXPECT_EQ(parsed("http://[2001:db8::7]").host_header, "[2001:db8::7]");
}

TEST(UrlTest, SchemeIsCaseInsensitive) { EXPECT_EQ(parsed("HTTP://h/").host, "h"); }

TEST(UrlTest, QueryWithoutPathGetsASlash) {
  EXPECT_EQ(parsed("http://h:81?q=1").path, "/?q=1");
}

TEST(UrlTest, FragmentIsDropped) {
  EXPECT_EQ(parsed("http://h/page?x=1#section").path, "/page?x=1");
  EXPECT_EQ(parsed("http://h#top").path, "/");
}

TEST(UrlTest, PortWithLeadingZerosIsNormalised) {
  const Target target = parsed("http://h:0080/");
  EXPECT_EQ(target.port, 80);
  EXPECT_EQ(target.port_text, "80");
}

TEST(UrlTest, HttpsIsParsedWithItsSchemeAndPort443) {
  const Target target = parsed("https://example.com/a");
  EXPECT_EQ(target.scheme, Scheme::https);
  EXPECT_EQ(target.port, 443);
  EXPECT_EQ(target.port_text, "443");
  EXPECT_EQ(target.path, "/a");
  EXPECT_EQ(target.host_header, "example.com");  // 443 is https's own port
  EXPECT_EQ(parsed("HTTPS://example.com/").scheme, Scheme::https);
  EXPECT_EQ(parsed("https://127.0.0.1:8443/").host_header, "127.0.0.1:8443");
  EXPECT_EQ(parsed("https://[::1]/").host_header, "[::1]");
  // And the other way round: 443 is no default for http, nor 80 for https.
  EXPECT_EQ(parsed("http://h:443/").host_header, "h:443");
  EXPECT_EQ(parsed("https://h:80/").host_header, "h:80");
  EXPECT_EQ(parsed("http://h/").scheme, Scheme::http);
}

TEST(UrlTest, MissingSchemeIsNamed) {
  // "localhost:8080/" (as autocannon and curl take it) names the URL it would be with http://.
  EXPECT_EQ(error_of("localhost:8080/"), "missing scheme; did you mean 'http://localhost:8080/'?");
  EXPECT_EQ(error_of("127.0.0.1:8080"), "missing scheme; did you mean 'http://127.0.0.1:8080'?");
  EXPECT_EQ(error_of("[::1]:8080/a"), "missing scheme; did you mean 'http://[::1]:8080/a'?");
  // Nothing that would make a URL with http:// in front gets a suggestion.
  EXPECT_EQ(error_of("-"), "missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of(":8080"), "missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of("://h/"), "missing scheme; expected http://host[:port][/path]");
  EXPECT_EQ(error_of(""), "empty URL; expected http://host[:port][/path]");
}

TEST(UrlTest, OtherSchemesAreNamed) {
  EXPECT_EQ(error_of("ftp://h/"),
            "unsupported scheme 'ftp'; only http:// and https:// are supported");
  EXPECT_EQ(error_of("ws://h/"), "unsupported scheme 'ws'; only http:// and https:// are supported");
  EXPECT_EQ(error_of("httpss://h/"),
            "unsupported scheme 'httpss'; only http:// and https:// are supported");
}

TEST(UrlTest, EmptyHostIsRejected) {
  EXPECT_EQ(error_of("http:///path"), "empty host");
  EXPECT_EQ(error_of("http://:8080/"), "empty host");
  EXPECT_EQ(error_of("http://[]:80/"), "empty host");
}

TEST(UrlTest, BadPortsAreRejected) {
  for (const char* url : {"http://h:0/", "http://h:65536/", "http://h:-1/", "http://h:80x/",
                          "http://h:+80/", "http://h:99999999999/"}) {
    EXPECT_NE(error_of(url).find("expected a number from 1 to 65535"), std::string::npos) << url;
  }
  EXPECT_EQ(error_of("http://h:/"), "empty port after ':'");
  EXPECT_EQ(error_of("http://h:65536/"), "bad port '65536'; expected a number from 1 to 65535");
  EXPECT_EQ(parsed("http://h:65535/").port, 65535);
  EXPECT_EQ(parsed("http://h:1/").port, 1);
}

TEST(UrlTest, SpacesAndControlCharactersAreRejected) {
  EXPECT_EQ(error_of("http://h/a b"), "contains a space; percent-encode it as %20");
  EXPECT_EQ(error_of("http://h/a\tb"), "contains a control character");
  EXPECT_EQ(error_of("http://h/a\r\nHost: evil"), "contains a control character");
  EXPECT_EQ(error_of("http://h/caf\xC3\xA9"), "contains a non-ASCII byte; percent-encode it");
}

TEST(UrlTest, UserinfoIsRejected) {
  EXPECT_EQ(error_of("http://user:pw@h/"),
            "userinfo ('user@') in URLs is not supported; send credentials with -H");
}

TEST(UrlTest, MalformedHostsAreRejected) {
  EXPECT_EQ(error_of("http://h%41st/"),
            "host 'h%41st' contains '%', which is not allowed in a host name");
  EXPECT_EQ(error_of("http://[::1/"), "IPv6 address without closing ']'");
  EXPECT_EQ(error_of("http://[not-v6]/"), "'not-v6' is not an IPv6 address");
  EXPECT_EQ(error_of("http://[::1]x/"), "unexpected characters after ']'");
  EXPECT_EQ(error_of("http://h:80:90/"), "bad port '80:90'; expected a number from 1 to 65535");
}

}  // namespace
}  // namespace hammer
