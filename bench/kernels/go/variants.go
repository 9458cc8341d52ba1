package main

import "bytes"

// variant is one way of moving `count` elements from rank 0 to rank 1 and back (the contract of
// bench/harness/variant.h): rank 0 sends, rank 1 echoes what it received.
type variant interface {
	name() string
	baseline() string // the C variant its ratio is taken against, "" for C itself
	elementBytes() int
	// roundTrips runs `iterations` round trips; it returns the seconds it measured itself, or
	// a negative number when the caller times it.
	roundTrips(iterations int) float64
	verify() bool // the last payload received on this rank is the one sent
	close()
}

// catalogEntry is what --list prints of a variant, and how to make it.
type catalogEntry struct {
	name, baseline string
	elementBytes   int
	make           func(count int) (variant, error)
}

// catalog: the Go variants, then the C variants of libwb_ckernels that are their baselines.
var catalog = []catalogEntry{
	{"go/int_slice_prealloc", "c/int_buffer", 4,
		func(n int) (variant, error) { return newIntPrealloc(n), nil }},
	{"go/int_slice_recv", "c/probe", 4, func(n int) (variant, error) { return newIntRecv(n), nil }},
	{"go/byte_slice_prealloc", "c/char_buffer", 1,
		func(n int) (variant, error) { return newBytePrealloc(n), nil }},
	{"c/int_buffer", "", 4, func(n int) (variant, error) { return newCVariant("c/int_buffer", 4, n) }},
	{"c/probe", "", 4, func(n int) (variant, error) { return newCVariant("c/probe", 4, n) }},
	{"c/char_buffer", "", 1,
		func(n int) (variant, error) { return newCVariant("c/char_buffer", 1, n) }},
}

// peer is the other rank of the two.
type peer struct{ rank, other int }

func newPeer() peer {
	rank := worldRank()
	return peer{rank, 1 - rank}
}

func int32Pattern(count int) []int32 {
	values := make([]int32, count)
	for i := range values {
		values[i] = int32(i*7 + 1)
	}
	return values
}

func equalInt32s(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// intPrealloc is go/int_slice_prealloc: GoMPI's SendInt32s / RecvPreallocInt32s, the receive
// of known size into a slice made once.
type intPrealloc struct {
	peer
	sent, received []int32
}

func newIntPrealloc(count int) *intPrealloc {
	return &intPrealloc{newPeer(), int32Pattern(count), make([]int32, count)}
}

func (v *intPrealloc) name() string      { return "go/int_slice_prealloc" }
func (v *intPrealloc) baseline() string  { return "c/int_buffer" }
func (v *intPrealloc) elementBytes() int { return 4 }
func (v *intPrealloc) verify() bool      { return equalInt32s(v.sent, v.received) }
func (v *intPrealloc) close()            {}

func (v *intPrealloc) roundTrips(iterations int) float64 {
	reply := v.sent
	if v.rank == 1 {
		reply = v.received
	}
	for i := 0; i < iterations; i++ {
		if v.rank == 0 {
			sendInt32s(reply, v.other)
		}
		recvPreallocInt32s(v.received, v.other)
		if v.rank == 1 {
			sendInt32s(reply, v.other)
		}
	}
	return -1
}

// intRecv is go/int_slice_recv: GoMPI's RecvInt32s, the receive of unknown size (MPI_Probe,
// MPI_Get_count, make, MPI_Recv); rank 1 echoes the slice it got.
type intRecv struct {
	peer
	sent, last []int32
}

func newIntRecv(count int) *intRecv { return &intRecv{newPeer(), int32Pattern(count), nil} }

func (v *intRecv) name() string      { return "go/int_slice_recv" }
func (v *intRecv) baseline() string  { return "c/probe" }
func (v *intRecv) elementBytes() int { return 4 }
func (v *intRecv) verify() bool      { return equalInt32s(v.sent, v.last) }
func (v *intRecv) close()            {}

func (v *intRecv) roundTrips(iterations int) float64 {
	for i := 0; i < iterations; i++ {
		if v.rank == 0 {
			sendInt32s(v.sent, v.other)
		}
		v.last, _ = recvInt32s(v.other)
		if v.rank == 1 {
			sendInt32s(v.last, v.other)
		}
	}
	return -1
}

// bytePrealloc is go/byte_slice_prealloc: GoMPI's SendBytes / RecvPreallocBytes, the calls of
// its latency benchmark (cmd/latency), MPI_BYTE.
type bytePrealloc struct {
	peer
	sent, received []byte
}

func newBytePrealloc(count int) *bytePrealloc {
	sent := make([]byte, count)
	for i := range sent {
		sent[i] = byte((i*31 + 7) & 0x7f)
	}
	return &bytePrealloc{newPeer(), sent, make([]byte, count)}
}

func (v *bytePrealloc) name() string      { return "go/byte_slice_prealloc" }
func (v *bytePrealloc) baseline() string  { return "c/char_buffer" }
func (v *bytePrealloc) elementBytes() int { return 1 }
func (v *bytePrealloc) verify() bool      { return bytes.Equal(v.sent, v.received) }
func (v *bytePrealloc) close()            {}

func (v *bytePrealloc) roundTrips(iterations int) float64 {
	reply := v.sent
	if v.rank == 1 {
		reply = v.received
	}
	for i := 0; i < iterations; i++ {
		if v.rank == 0 {
			sendBytes(reply, v.other)
		}
		recvPreallocBytes(v.received, v.other)
		if v.rank == 1 {
			sendBytes(reply, v.other)
		}
	}
	return -1
}
