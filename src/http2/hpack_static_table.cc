// SPDX-License-Identifier: MIT
#include "http2/hpack_static_table.h"

#include <array>

namespace hammer::http2 {
namespace {

// RFC 7541 Appendix A, in index order (element 0 is index 1).
constexpr std::array<HeaderField, kStaticTableSize> kStaticTable = {{
    {":authority", ""},
    {":method", "GET"},
    {":method", "POST"},
    {":path", "/"},
    {":path", "/index.html"},
    {":scheme", "http"},
    {":scheme", "https"},
    {":status", "200"},
    {":status", "204"},
    {":status", "206"},
    {":status", "304"},
    {":status", "400"},
    {":status", "404"},
    {":status", "500"},
    {"accept-charset", ""},
    {"accept-encoding", "gzip, deflate"},
    {"accept-language", ""},
    {"accept-ranges", ""},
    {"accept", ""},
    {"access-control-allow-origin", ""},
    {"age", ""},
    {"allow", ""},
    {"authorization", ""},
    {"cache-control", ""},
    {"content-disposition", ""},
    {"content-encoding", ""},
    {"content-language", ""},
    {"content-length", ""},
    {"content-location", ""},
    {"content-range", ""},
    {"content-type", ""},
    {"cookie", ""},
    {"date", ""},
    {"etag", ""},
    {"expect", ""},
    {"expires", ""},
    {"from", ""},
    {"host", ""},
    {"if-match", ""},
    {"if-modified-since", ""},
    {"if-none-match", ""},
    {"if-range", ""},
    {"if-unmodified-since", ""},
    {"last-modified", ""},
    {"link", ""},
    {"location", ""},
    {"max-forwards", ""},
    {"proxy-authenticate", ""},
    {"proxy-authorization", ""},
    {"range", ""},
    {"referer", ""},
    {"refresh", ""},
    {"retry-after", ""},
    {"server", ""},
    {"set-cookie", ""},
    {"strict-transport-security", ""},
    {"transfer-encoding", ""},
    {"user-agent", ""},
    {"vary", ""},
    {"via", ""},
    {"www-authenticate", ""},
}};

}  // namespace

const HeaderField& static_entry(int index) { return kStaticTable[static_cast<size_t>(index - 1)]; }

int static_find_field(std::string_view name, std::string_view value) {
  for (int i = 0; i < kStaticTableSize; ++i) {
    if (kStaticTable[i].name == name && kStaticTable[i].value == value) return i + 1;
  }
  return 0;
}

int static_find_name(std::string_view name) {
  for (int i = 0; i < kStaticTableSize; ++i) {
    if (kStaticTable[i].name == name) return i + 1;
  }
  return 0;
}

}  // namespace hammer::http2
