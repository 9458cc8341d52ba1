//go:build gompi

package main

// With -tags gompi (bench/setup/build-gompi.sh, where github.com/sbromberger/gompi can be
// fetched) the kernel starts MPI through GoMPI and adds gompi/byte_slice_prealloc: GoMPI's own
// Send and RecvPrealloc of a []byte, the calls of its latency benchmark (cmd/latency), against
// c/char_buffer in the same process. Written against the API that GoMPI's README and
// cmd/latency/main.go show (mpi.Start, NewCommunicator(nil), Send, RecvPrealloc, Stop); it is
// not compiled where GoMPI cannot be fetched, so its build error, if any, is the missing cell's
// reason.

import mpi "github.com/sbromberger/gompi"

var (
	gompiSend         func(vals []byte, to int)
	gompiRecvPrealloc func(vals []byte, from int)
)

func init() {
	startMPI = func() {
		m, err := mpi.Start()
		if err != nil {
			panic(err)
		}
		comm := m.NewCommunicator(nil)
		gompiSend = func(vals []byte, to int) { comm.Send(vals, to, tag) }
		gompiRecvPrealloc = func(vals []byte, from int) { comm.RecvPrealloc(vals, from, tag) }
		stopMPI = func() { m.Stop() }
	}
	catalog = append(catalog, catalogEntry{"gompi/byte_slice_prealloc", "c/char_buffer", 1,
		func(n int) (variant, error) { return &gompiBytes{*newBytePrealloc(n)}, nil }})
}

// gompiBytes is gompi/byte_slice_prealloc: bytePrealloc's buffers, GoMPI's calls.
type gompiBytes struct{ bytePrealloc }

func (v *gompiBytes) name() string { return "gompi/byte_slice_prealloc" }

func (v *gompiBytes) roundTrips(iterations int) float64 {
	reply := v.sent
	if v.rank == 1 {
		reply = v.received
	}
	for i := 0; i < iterations; i++ {
		if v.rank == 0 {
			gompiSend(reply, v.other)
		}
		gompiRecvPrealloc(v.received, v.other)
		if v.rank == 1 {
			gompiSend(reply, v.other)
		}
	}
	return -1
}
