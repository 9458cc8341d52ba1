module thinmpi/wrapper-bench/gokernel

go 1.19
