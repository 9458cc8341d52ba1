# Builds the Go kernel (bench/kernels/go) with cgo, offline, and records the outcome; run by the
# wb_go_kernel target as `cmake -P`. Never fails the build: a Go kernel that does not build is a
# missing cell with its reason (status.json), which the driver reports (and --strict fails on).
#   -DGO=go -DCC=mpicc.openmpi -DSOURCE_DIR=... -DHARNESS_DIR=... -DLIBRARY_DIR=...
#   -DOUTPUT=.../wb_go_kernel -DSTATUS=.../wb_go_build.json -DGOCACHE_DIR=...
function(write_status ok text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n" text "${text}")
  string(REPLACE "\t" " " text "${text}")
  if(ok)
    file(WRITE ${STATUS} "{\"ok\": true, \"kernel\": \"${OUTPUT}\", \"go\": \"${text}\"}\n")
  else()
    file(WRITE ${STATUS} "{\"ok\": false, \"reason\": \"${text}\"}\n")
  endif()
endfunction()

if(NOT GO)
  write_status(FALSE "go is not installed (Debian: golang-go; scripts/install-deps.sh installs it)")
  return()
endif()

# cgo through the MPI compiler wrapper; the C baseline from libwb_ckernels beside it. No module
# downloads: the kernel needs only the standard library.
set(ENV{CC} ${CC})
set(ENV{CGO_ENABLED} 1)
set(ENV{CGO_CFLAGS} "-O2 -I${HARNESS_DIR}")
set(ENV{CGO_LDFLAGS} "-L${LIBRARY_DIR} -lwb_ckernels -Wl,-rpath,${LIBRARY_DIR}")
set(ENV{GOFLAGS} "-mod=mod -buildvcs=false")
set(ENV{GOPROXY} off)
set(ENV{GOCACHE} ${GOCACHE_DIR})

execute_process(COMMAND ${GO} version OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE)
foreach(step vet build)
  if(step STREQUAL "vet")
    set(command ${GO} vet .)
  else()
    set(command ${GO} build -o ${OUTPUT} .)
  endif()
  execute_process(COMMAND ${command} WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE failed
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(failed)
    message(WARNING "wrapper-bench: go ${step} of the Go kernel failed:\n${out}")
    write_status(FALSE "go ${step} failed (${version}, CC=${CC}): ${out}")
    file(REMOVE ${OUTPUT})
    return()
  endif()
endforeach()
write_status(TRUE "${version}")
