// Command wb_go_kernel is the Go kernel of wrapper-bench: MPI from Go through cgo, one cgo call
// per MPI call (binding.go), with the harness's C variants in the same process (bridge.go).
// Its command line and JSON records are the harness's (bench/harness/harness.c):
//
//	wb_go_kernel --list | --info
//	mpiexec -n 2 wb_go_kernel --variants go/int_slice_prealloc,c/int_buffer --count N
//	    [--iterations I] [--warmup W] [--blocks B] [--audit K]
//
// Variants run in interleaved blocks (block b of every variant, then block b+1), so every ratio
// against C is taken inside one process; the physical floor (floor.h) is measured before and
// after them. The goroutine stays on one OS thread (runtime.LockOSThread) so that every MPI call
// comes from the thread that initialised MPI, which MPI_Init (MPI_THREAD_SINGLE) requires.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
)

func init() { runtime.LockOSThread() }

// startMPI and stopMPI initialise and finalise MPI: MPI_Init and MPI_Finalize through cgo, or
// GoMPI's Start and Stop in a build with -tags gompi (gompi.go).
var (
	startMPI = mpiInit
	stopMPI  = mpiFinalize
)

// options are the harness's options.
type options struct {
	list, info                       bool
	variants                         string
	count, iterations, warmup, audit int
	blocks                           int
}

func parse(arguments []string) (options, error) {
	var o options
	flags := flag.NewFlagSet("wb_go_kernel", flag.ContinueOnError)
	flags.BoolVar(&o.list, "list", false, "one JSON line per variant")
	flags.BoolVar(&o.info, "info", false, "one JSON line: MPI library and Go versions")
	flags.StringVar(&o.variants, "variants", "", "comma-separated api/payload names")
	flags.IntVar(&o.count, "count", 1, "elements per message")
	flags.IntVar(&o.iterations, "iterations", 10000, "measured round trips per variant")
	flags.IntVar(&o.warmup, "warmup", 1000, "round trips per variant before the first block")
	flags.IntVar(&o.blocks, "blocks", 10, "interleaved blocks")
	flags.IntVar(&o.audit, "audit", 0, "> 0: round trips inside each MPI_Pcontrol window")
	if err := flags.Parse(arguments); err != nil {
		return o, err
	}
	if !o.list && !o.info && (o.variants == "" || o.count < 1 || o.warmup < 0) {
		return o, fmt.Errorf("need --variants and --count >= 1")
	}
	if o.audit == 0 && (o.blocks < 1 || o.iterations < o.blocks) {
		return o, fmt.Errorf("need 1 <= blocks <= iterations")
	}
	return o, nil
}

// record is one JSON line, in the harness's field order.
type record struct {
	Variant        string    `json:"variant"`
	API            string    `json:"api"`
	Payload        string    `json:"payload"`
	Baseline       *string   `json:"baseline"`
	Count          int       `json:"count"`
	Bytes          int       `json:"bytes"`
	Warmup         int       `json:"warmup"`
	Iterations     int       `json:"iterations,omitempty"`
	Blocks         int       `json:"blocks,omitempty"`
	OneWayUs       float64   `json:"one_way_us,omitempty"`
	BlockOneWayUs  []float64 `json:"block_one_way_us,omitempty"`
	FloorBeforeUs  *float64  `json:"floor_before_us,omitempty"`
	FloorAfterUs   *float64  `json:"floor_after_us,omitempty"`
	AuditRoundTrip int       `json:"audit_round_trips,omitempty"`
	Verified       bool      `json:"verified"`
}

func newRecord(v variant, o options) record {
	api, payload, _ := strings.Cut(v.name(), "/")
	r := record{Variant: v.name(), API: api, Payload: payload, Count: o.count,
		Bytes: o.count * v.elementBytes(), Warmup: o.warmup}
	if b := v.baseline(); b != "" {
		r.Baseline = &b
	}
	return r
}

func printJSON(value interface{}) {
	text, _ := json.Marshal(value)
	fmt.Println(string(text))
}

func printList() {
	for _, entry := range catalog {
		var baseline *string
		if entry.baseline != "" {
			baseline = &entry.baseline
		}
		api, payload, _ := strings.Cut(entry.name, "/")
		printJSON(map[string]interface{}{"variant": entry.name, "api": api, "payload": payload,
			"baseline": baseline, "element_bytes": entry.elementBytes, "max_count": 0})
	}
}

func printInfo() {
	printJSON(map[string]interface{}{"mpi_library_version": libraryVersion(),
		"go": runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0),
		"binding": "cgo, one call per MPI call (GoMPI's typed API)"})
}

// makeVariants sets up the named variants on both ranks.
func makeVariants(names string, count int) ([]variant, error) {
	var made []variant
	for _, name := range strings.Split(names, ",") {
		found := false
		for _, entry := range catalog {
			if entry.name == name {
				v, err := entry.make(count)
				if err != nil {
					return nil, err
				}
				made, found = append(made, v), true
			}
		}
		if !found {
			return nil, fmt.Errorf("%s: no such variant in the Go kernel (it has %s)", name,
				strings.Join(sortedNames(), ", "))
		}
	}
	return made, nil
}

// timed is the seconds of `iterations` round trips of v, started together on both ranks.
func timed(v variant, iterations int) float64 {
	barrier()
	start := wtime()
	measured := v.roundTrips(iterations)
	elapsed := wtime() - start
	if measured >= 0 {
		return measured
	}
	return elapsed
}

func floorField(value float64) *float64 {
	if value <= 0 {
		return nil
	}
	return &value
}

// runBlocks runs the variants in interleaved blocks; returns one record per variant.
func runBlocks(variants []variant, o options) []record {
	before := floorNow()
	for _, v := range variants {
		v.roundTrips(o.warmup)
	}
	seconds := make([][]float64, len(variants))
	for i := range seconds {
		seconds[i] = make([]float64, o.blocks)
	}
	sizes := make([]int, o.blocks)
	for b := range sizes {
		sizes[b] = o.iterations*(b+1)/o.blocks - o.iterations*b/o.blocks
		for k := range variants {
			i := (b + k) % len(variants)
			seconds[i][b] = timed(variants[i], sizes[b])
		}
	}
	after := floorNow()
	records := make([]record, len(variants))
	for i, v := range variants {
		r, total := newRecord(v, o), 0.0
		r.Iterations, r.Blocks = o.iterations, o.blocks
		for b, s := range seconds[i] {
			total += s
			r.BlockOneWayUs = append(r.BlockOneWayUs, s*1e6/(2*float64(sizes[b])))
		}
		r.OneWayUs = total * 1e6 / (2 * float64(o.iterations))
		r.FloorBeforeUs, r.FloorAfterUs = floorField(before), floorField(after)
		r.Verified = allTrue(v.verify())
		records[i] = r
	}
	return records
}

// runAudit runs o.audit round trips of each variant inside an MPI_Pcontrol window.
func runAudit(variants []variant, o options) []record {
	records := make([]record, len(variants))
	for i, v := range variants {
		v.roundTrips(o.warmup)
		barrier()
		pcontrol(1, v.name())
		v.roundTrips(o.audit)
		pcontrol(0, "")
		barrier()
		r := newRecord(v, o)
		r.AuditRoundTrip, r.Verified = o.audit, allTrue(v.verify())
		records[i] = r
	}
	return records
}

func measure(o options) int {
	if worldSize() != 2 {
		fmt.Fprintln(os.Stderr, "wb_go_kernel: run me with exactly 2 ranks")
		return 2
	}
	variants, err := makeVariants(o.variants, o.count)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wb_go_kernel:", err)
		return 2
	}
	run := runBlocks
	if o.audit > 0 {
		run = runAudit
	}
	records := run(variants, o)
	for _, v := range variants {
		v.close()
	}
	status := 0
	for _, r := range records {
		if worldRank() == 0 {
			printJSON(r)
		}
		if !r.Verified {
			status = 3
		}
	}
	if status != 0 {
		fmt.Fprintln(os.Stderr, "wb_go_kernel: a payload did not verify")
	}
	return status
}

func main() {
	o, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "wb_go_kernel:", err)
		os.Exit(2)
	}
	if o.list {
		printList()
		return
	}
	if o.info {
		printInfo()
		return
	}
	startMPI()
	status := measure(o)
	os.Stdout.Sync()
	if status != 0 {
		abort(status)
	}
	stopMPI()
	os.Exit(status)
}

// sortedNames is the catalog's names, for messages.
func sortedNames() []string {
	var names []string
	for _, entry := range catalog {
		names = append(names, entry.name)
	}
	sort.Strings(names)
	return names
}
