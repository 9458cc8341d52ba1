// Writes the fuzz target's seed corpus (tests/fuzz/corpus): for each decoder of
// decode_fuzz.cpp, its index byte followed by the encoding of a sample value.
//   build/<preset>/tests/serialization_fuzz_seeds tests/fuzz/corpus

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include "support/serial_samples.hpp"
#include "thinmpi/serialization/serialized.hpp"

namespace {

template <class T>
void write_seed(const std::string& dir, int index, const std::string& name, const T& value) {
  const auto bytes = thinmpi::to_bytes(value);
  std::ofstream out(dir + "/" + std::to_string(index) + "-" + name, std::ios::binary);
  const char selector = static_cast<char>(index);
  out.write(&selector, 1);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s corpus-directory\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  using variants =
      std::vector<std::variant<std::monostate, int, std::string, std::optional<double>>>;
  write_seed(dir, 0, "strings", thinmpi_test::sample_strings(1));
  write_seed(dir, 1, "map", std::map<int, std::string>{{1, "one"}, {-2, ""}, {3, "three"}});
  write_seed(dir, 2, "record", thinmpi_test::sample_record(2));
  write_seed(dir, 3, "nested", thinmpi_test::sample_nested(3));
  write_seed(dir, 4, "mixed", thinmpi_test::sample_mixed(4));
  write_seed(dir, 5, "account", thinmpi_test::account("owner", 12345));
  write_seed(dir, 6, "unordered",
             std::unordered_map<std::string, std::set<int>>{{"a", {1, 2}}, {"b", {}}});
  write_seed(dir, 7, "variants",
             variants{std::monostate{}, 7, std::string("s"), std::nullopt, std::optional(1.5)});
  write_seed(dir, 8, "doubles", std::vector<double>{1.0, 2.0, 3.0});
  write_seed(dir, 9, "tuple",
             std::tuple<bool, std::optional<std::vector<char>>>{true, std::vector<char>{'x', 'y'}});
  return 0;
}
