#pragma once
/// \file
/// Type names in error messages, spelled as users write them: `std::string`, not
/// `std::__cxx11::basic_string<char>`; `std::map<int, std::string>`, not `... >`.

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

/// Replaces every `from` in name by `to`.
inline void replace_all(std::string& name, std::string_view from, std::string_view to) {
  for (auto at = name.find(from); at != std::string::npos; at = name.find(from, at + to.size())) {
    name.replace(at, from.size(), to);
  }
}

/// A type's name as users write it: libstdc++'s inline namespace dropped, the standard
/// strings by their aliases, and no space between closing angle brackets.
inline std::string readable_name(std::string_view spelled) {
  std::string name(spelled);
  replace_all(name, "__cxx11::", "");
  replace_all(name, "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
              "std::string");
  replace_all(name, "std::basic_string<char>", "std::string");
  replace_all(name, "std::basic_string_view<char, std::char_traits<char> >", "std::string_view");
  replace_all(name, "std::basic_string_view<char>", "std::string_view");
  replace_all(name, " >", ">");
  return name;
}

/// T's name as users write it.
template <class T>
std::string readable_name() {
  return readable_name(spelled_name<T>());
}

}  // namespace thinmpi::detail
