package main

// A cgo binding of the few MPI calls the kernel needs, written the way GoMPI's typed API is
// (mpi.go of github.com/sbromberger/gompi): one cgo call per MPI call, a Go slice's backing
// array passed as the buffer, a Status value that the receive fills, the communicator and the
// predefined datatypes read from C globals once.

/*
#include <mpi.h>
#include <stdlib.h>

// Open MPI's handles are addresses of library globals, which cgo cannot take as constants:
// read them once from C, as GoMPI does (MPI_Comm World = MPI_COMM_WORLD;).
static MPI_Comm wb_world(void) { return MPI_COMM_WORLD; }
static MPI_Datatype wb_type_int32(void) { return MPI_INT32_T; }
static MPI_Datatype wb_type_byte(void) { return MPI_BYTE; }
static MPI_Op wb_op_land(void) { return MPI_LAND; }
// MPICH defines MPI_Comm_c2f as a macro, which cgo cannot call.
static MPI_Fint wb_world_fortran(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }

// MPI_Pcontrol is variadic, which cgo cannot call: the audit window (not a measured path).
static int wb_pcontrol(int level, const char* label) { return MPI_Pcontrol(level, label); }
*/
import "C"

import (
	"strings"
	"unsafe"
)

// The tag of every message, as the C kernels use (WB_C_TAG).
const tag = 7

var (
	world     = C.wb_world()
	typeInt32 = C.wb_type_int32()
	typeByte  = C.wb_type_byte()
)

// status wraps an MPI_Status, as GoMPI's Status does.
type status struct {
	mpiStatus C.MPI_Status
}

// count is MPI_Get_count of the status for `datatype`.
func (s status) count(datatype C.MPI_Datatype) int {
	var n C.int
	C.MPI_Get_count(&s.mpiStatus, datatype, &n)
	return int(n)
}

// sendInt32s is GoMPI's SendInt32s: one MPI_Send of the slice's backing array.
func sendInt32s(vals []int32, to int) {
	C.MPI_Send(unsafe.Pointer(&vals[0]), C.int(len(vals)), typeInt32, C.int(to), tag, world)
}

// recvPreallocInt32s is GoMPI's RecvPreallocInt32s: one MPI_Recv into the slice.
func recvPreallocInt32s(vals []int32, from int) status {
	var s status
	C.MPI_Recv(unsafe.Pointer(&vals[0]), C.int(len(vals)), typeInt32, C.int(from), tag, world,
		&s.mpiStatus)
	return s
}

// probe is GoMPI's Probe: MPI_Probe, a Status back.
func probe(from int) status {
	var s status
	C.MPI_Probe(C.int(from), tag, world, &s.mpiStatus)
	return s
}

// recvInt32s is GoMPI's RecvInt32s, the receive of unknown size: MPI_Probe, MPI_Get_count, a
// new slice of that length, then MPI_Recv into it (four cgo calls counting the count).
func recvInt32s(from int) ([]int32, status) {
	n := probe(from).count(typeInt32)
	vals := make([]int32, n)
	return vals, recvPreallocInt32s(vals, from)
}

// sendBytes is GoMPI's SendBytes (the send of its latency benchmark): MPI_BYTE.
func sendBytes(vals []byte, to int) {
	C.MPI_Send(unsafe.Pointer(&vals[0]), C.int(len(vals)), typeByte, C.int(to), tag, world)
}

// recvPreallocBytes is GoMPI's RecvPreallocBytes (the receive of its latency benchmark).
func recvPreallocBytes(vals []byte, from int) status {
	var s status
	C.MPI_Recv(unsafe.Pointer(&vals[0]), C.int(len(vals)), typeByte, C.int(from), tag, world,
		&s.mpiStatus)
	return s
}

// The calls around the measured paths.

func mpiInit()          { C.MPI_Init(nil, nil) }
func mpiFinalize()      { C.MPI_Finalize() }
func barrier()          { C.MPI_Barrier(world) }
func wtime() float64    { return float64(C.MPI_Wtime()) }
func abort(status int)  { C.MPI_Abort(world, C.int(status)) }
func worldFortran() int { return int(C.wb_world_fortran()) }

func worldRank() int {
	var r C.int
	C.MPI_Comm_rank(world, &r)
	return int(r)
}

func worldSize() int {
	var n C.int
	C.MPI_Comm_size(world, &n)
	return int(n)
}

// allTrue is true when `ok` holds on every rank (MPI_Allreduce with MPI_LAND).
func allTrue(ok bool) bool {
	in, out := int32(0), int32(0)
	if ok {
		in = 1
	}
	C.MPI_Allreduce(unsafe.Pointer(&in), unsafe.Pointer(&out), 1, typeInt32, C.wb_op_land(),
		world)
	return out != 0
}

// libraryVersion is MPI_Get_library_version (callable before MPI_Init).
func libraryVersion() string {
	buffer := make([]byte, C.MPI_MAX_LIBRARY_VERSION_STRING)
	var n C.int
	C.MPI_Get_library_version((*C.char)(unsafe.Pointer(&buffer[0])), &n)
	return strings.TrimRight(string(buffer[:n]), "\x00 \n")
}

// pcontrol opens (level 1, with a label) or closes (level 0) an audit window of libwb_audit.
func pcontrol(level int, label string) {
	text := C.CString(label)
	defer C.free(unsafe.Pointer(text))
	C.wb_pcontrol(C.int(level), text)
}
