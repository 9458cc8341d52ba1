#pragma once
// Values of every type thinmpi serializes, shared by the serialization tests and the fuzz
// target's seed corpus.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace thinmpi_test {

enum class color : std::uint8_t { red = 1, green = 2 };

struct point {
  double x;
  double y;
};

/// An aggregate with strings, containers, padding and a bool: reflected, no user code.
struct record {
  int id;
  std::string name;
  std::vector<double> values;
  bool active;
  std::optional<std::string> note;
  std::map<std::string, std::vector<int>> tags;
  point where;
  color hue;
};

/// A class with private state that opts in through the customization point.
class account {
 public:
  account() = default;
  account(std::string owner, long long cents) : owner_(std::move(owner)), cents_(cents) {}
  [[nodiscard]] const std::string& owner() const { return owner_; }
  [[nodiscard]] long long cents() const { return cents_; }
  bool operator==(const account&) const = default;

  template <class Fields>
  void serialize(Fields& fields) {
    fields(owner_, cents_);
  }

 private:
  std::string owner_;
  long long cents_ = 0;
};

inline bool operator==(const point& a, const point& b) {
  return a.x == b.x && a.y == b.y;
}
inline bool operator==(const record& a, const record& b) {
  return a.id == b.id && a.name == b.name && a.values == b.values && a.active == b.active &&
         a.note == b.note && a.tags == b.tags && a.where == b.where && a.hue == b.hue;
}

using nested = std::vector<std::map<int, std::vector<std::string>>>;
using mixed = std::tuple<std::pair<int, std::string>, std::variant<int, std::string, point>,
                         std::array<std::string, 2>, std::set<std::string>>;

/// prefix followed by seed, built by appending: GCC 12 at -O3 warns (-Wrestrict, a false
/// positive) on `"literal" + std::to_string(n)`.
inline std::string numbered(const char* prefix, int seed) {
  std::string text(prefix);
  text += std::to_string(seed);
  return text;
}

inline std::vector<std::string> sample_strings(int seed) {
  return {numbered("alpha", seed), "", std::string(40, static_cast<char>('a' + seed % 26)),
          std::string("\0zero\0", 6)};
}

inline record sample_record(int seed) {
  return {seed,
          numbered("record ", seed),
          {1.5, -2.0, static_cast<double>(seed)},
          seed % 2 == 0,
          seed % 3 == 0 ? std::nullopt : std::optional<std::string>("note"),
          {{"a", {1, 2, 3}}, {"b", {}}, {numbered("c", seed), {seed}}},
          {0.25, -0.5},
          color::green};
}

inline nested sample_nested(int seed) {
  return {{{1, {"x", "yy"}}, {seed, {}}}, {}, {{-7, {std::string(300, 'q')}}}};
}

inline mixed sample_mixed(int seed) {
  return {{seed, "pair"}, std::string("variant"), {"first", "second"}, {"s1", "s2", "s3"}};
}

}  // namespace thinmpi_test
