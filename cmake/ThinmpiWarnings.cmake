# Warnings every target of this repository is built with (not exported to users).
add_library(thinmpi_warnings INTERFACE)
target_compile_options(
  thinmpi_warnings
  INTERFACE -Wall
            -Wextra
            -Wpedantic
            -Wshadow
            -Wconversion
            -Wsign-conversion
            -Wold-style-cast
            -Werror)
