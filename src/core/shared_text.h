// SPDX-License-Identifier: MIT
#pragma once
// SharedText: read-only bytes that copies share instead of duplicating. A --body may be 64 MB,
// and Config is copied (each sweep step, a shard's view): the body must stay one copy however
// often the Config is. Reads as a std::string_view; assigning a std::string takes it over.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace hammer {

class SharedText {
 public:
  SharedText() = default;
  SharedText(std::string text)  // NOLINT(google-explicit-constructor): a string, shared
      : text_(std::make_shared<const std::string>(std::move(text))) {}

  std::string_view view() const { return text_ ? std::string_view(*text_) : std::string_view(); }
  operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
  bool empty() const { return view().empty(); }
  size_t size() const { return view().size(); }
  const char* data() const { return view().data(); }

  friend bool operator==(const SharedText& a, std::string_view b) { return a.view() == b; }
  friend std::ostream& operator<<(std::ostream& out, const SharedText& text) {
    return out << text.view();
  }

 private:
  std::shared_ptr<const std::string> text_;
};

}  // namespace hammer
