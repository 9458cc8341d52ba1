#pragma once
/// \file
/// Type names in error messages, spelled as users write them: `std::string`, not
/// `std::__cxx11::basic_string<char>`; `std::map<int, std::string>`, not `... >`.

#include <cstddef>
#include <string>
#include <string_view>

namespace thinmpi::detail {

/// The name of T as the compiler spells it, e.g. "std::vector<int>", from __PRETTY_FUNCTION__
/// (GCC: "... [with T = X; ...]", Clang: "... [T = X]"); a constant, no RTTI.
template <class T>
constexpr std::string_view spelled_name() noexcept {
  constexpr std::string_view whole = __PRETTY_FUNCTION__;
  constexpr std::size_t start = whole.find("T = ") + 4;
  constexpr std::size_t end = whole.find_first_of(";]", start);
  return whole.substr(start, end - start);
}

/// name with every `from` replaced by `to`. Builds a new string rather than replacing in place:
/// GCC 12 at -O3 reports a false -Wrestrict inside std::string::replace once this is inlined.
inline std::string replaced(std::string_view name, std::string_view from, std::string_view to) {
  std::string out;
  out.reserve(name.size());
  for (std::size_t at = name.find(from); at != std::string_view::npos; at = name.find(from)) {
    out.append(name.substr(0, at)).append(to);
    name.remove_prefix(at + from.size());
  }
  return out.append(name);
}

/// A type's name as users write it: libstdc++'s inline namespace dropped, the standard
/// strings by their aliases, and no space between closing angle brackets.
[[gnu::noinline]] inline std::string readable_name(std::string_view spelled) {
  std::string name = replaced(spelled, "__cxx11::", "");
  name = replaced(name, "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
                  "std::string");
  name = replaced(name, "std::basic_string<char>", "std::string");
  name =
      replaced(name, "std::basic_string_view<char, std::char_traits<char> >", "std::string_view");
  name = replaced(name, "std::basic_string_view<char>", "std::string_view");
  return replaced(name, " >", ">");
}

/// T's name as users write it.
template <class T>
std::string readable_name() {
  return readable_name(spelled_name<T>());
}

}  // namespace thinmpi::detail
