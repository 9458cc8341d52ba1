package main

// The C side of the process: the harness's own C variants from libwb_ckernels (py_bridge.h),
// run through one cgo call per block, so that every ratio of a Go variant against C is taken
// inside the same process, as the mpi4py kernel does through ctypes; and the physical floor.

/*
#include <stdlib.h>
#include "py_bridge.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// cVariant is a C variant of libwb_ckernels, set up on both ranks.
type cVariant struct {
	variantName string
	bytes       int
	handle      unsafe.Pointer
}

func newCVariant(name string, elementBytes, count int) (*cVariant, error) {
	text := C.CString(name)
	defer C.free(unsafe.Pointer(text))
	handle := C.wb_bridge_setup(text, C.MPI_Fint(worldFortran()), C.size_t(count))
	if handle == nil {
		return nil, fmt.Errorf("%s: not in libwb_ckernels", name)
	}
	return &cVariant{name, elementBytes, handle}, nil
}

func (v *cVariant) name() string      { return v.variantName }
func (v *cVariant) baseline() string  { return "" }
func (v *cVariant) elementBytes() int { return v.bytes }

// roundTrips runs the C loop and returns the seconds it measured itself.
func (v *cVariant) roundTrips(iterations int) float64 {
	return float64(C.wb_bridge_time(v.handle, C.long(iterations)))
}

func (v *cVariant) verify() bool { return C.wb_bridge_verify(v.handle) == 0 }
func (v *cVariant) close()       { C.wb_bridge_teardown(v.handle) }

// floorNow is the process's physical floor now (floor.h), one-way µs; negative when unknown.
func floorNow() float64 {
	return float64(C.wb_bridge_floor(C.MPI_Fint(worldFortran())))
}
