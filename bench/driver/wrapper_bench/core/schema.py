"""results.json (a versioned schema with a context block) and its flat results.csv.

Schema wrapper-bench/results, version 1:
  schema, schema_version
  context   {date, host, cpu_model, cpu_count, os, kernel, mode, command, load_average,
             binding{mpi: str},
             mpi{mpi: library version}, compilers{mpi-compiler: {c, cxx}}, boost{mpi: {...}},
             mpi4py{mpi: {...}},
             hosts{mode, rank_hosts{mpi: [host, host] | error}, transport{mpi: str},
                   launcher{mpi: str}, transport_check{mpi: {payload_bytes, eth0_bytes,
                   wire_per_payload}}}   (only with --hosts/--hostfile)
  cells     [{suite, mpi, compiler, api, payload, variant, count, bytes, iterations, warmup,
              blocks, reps, one_way_us{median,min,max}, per_rep_us (block low deciles),
              per_rep_mean_us, baseline,
              ratio_vs_c{median,min,max}|null, per_rep_ratio, verified, thread_level,
              calls_per_message{MPI_x: n}|null, bytes_per_message,
              floor_us{median,min,max}|null, per_rep_floor_us, slow_reps, one_way_from,
              one_way_us_all (only when one_way_us is from fast-mode processes)}]
  audit     [{mpi, compiler, variant, count, round_trips, calls{MPI_x: per message},
              bytes_per_message}]
  symbols   [{mpi, compiler, variant, object, mpi_symbols, boost_mpi_entry_points}]
  missing   [{mpi, compiler, api, reason}]      cells this machine cannot fill, and why
  failures  [{what, mpi, compiler, error}]      builds or launches that failed
  floor     {best_us, fast_floor_us, median_us, highest_us, slow_factor, threshold_us (the floor
             rule's: the lower of slow_floor_us and slow_factor x fast_floor_us), slow_floor_us,
             c_one_way_threshold_us, processes, min_fast,
             slow[{job, rep, mpi, compiler, floor_us, c_one_way_us|null,
                   reasons["floor"|"c_one_way"]}], by_build{mpi/compiler: [floors]},
             by_mpi{mpi: {processes, slow, mode (fast|mixed|slow),
                          fast_mode{processes, floor_us, c_one_way_us}, slow_mode{...}}}}|null
  (compiler is "go", "gompi" or "osu" for the Go, GoMPI and osu_latency processes; context
   also has go{mpi: ...} and osu{mpi: path} where they ran)
"""

import csv

SCHEMA_NAME = "wrapper-bench/results"
SCHEMA_VERSION = 1

CELL_FIELDS = ("suite", "mpi", "compiler", "api", "payload", "variant", "count", "bytes",
               "iterations", "warmup", "blocks", "reps", "one_way_us", "baseline",
               "ratio_vs_c", "verified", "calls_per_message")
CONTEXT_FIELDS = ("date", "cpu_model", "cpu_count", "os", "mode", "mpi", "compilers", "boost",
                  "mpi4py", "binding")
SPREAD_FIELDS = ("median", "min", "max")


def document(context, cells, audit_rows, symbol_rows, missing, failures):
    """The results.json document."""
    return {"schema": SCHEMA_NAME, "schema_version": SCHEMA_VERSION, "context": context,
            "cells": cells, "audit": audit_rows, "symbols": symbol_rows, "missing": missing,
            "failures": failures}


def _spread_problems(where, value, nullable):
    if value is None:
        return [] if nullable else [f"{where}: missing"]
    if not isinstance(value, dict) or any(k not in value for k in SPREAD_FIELDS):
        return [f"{where}: needs median, min and max"]
    if not value["min"] <= value["median"] <= value["max"]:
        return [f"{where}: min <= median <= max does not hold"]
    return []


def validate(doc):
    """The list of what is wrong with a results document (empty when it follows the schema)."""
    problems = []
    if doc.get("schema") != SCHEMA_NAME or doc.get("schema_version") != SCHEMA_VERSION:
        problems.append(f"not {SCHEMA_NAME} version {SCHEMA_VERSION}")
    context = doc.get("context", {})
    problems += [f"context.{k}: missing" for k in CONTEXT_FIELDS if k not in context]
    for i, cell in enumerate(doc.get("cells", [])):
        where = f"cells[{i}] ({cell.get('variant')})"
        problems += [f"{where}.{k}: missing" for k in CELL_FIELDS if k not in cell]
        problems += _spread_problems(f"{where}.one_way_us", cell.get("one_way_us"), False)
        problems += _spread_problems(f"{where}.ratio_vs_c", cell.get("ratio_vs_c"), True)
    for key in ("audit", "symbols", "missing", "failures"):
        if not isinstance(doc.get(key), list):
            problems.append(f"{key}: not a list")
    return problems


def csv_row(cell):
    """One results.csv row: the cell with its spreads and call counts flattened."""
    row = {k: cell[k] for k in CELL_FIELDS if k not in ("one_way_us", "ratio_vs_c",
                                                       "calls_per_message")}
    for name in ("one_way_us", "ratio_vs_c"):
        for part in SPREAD_FIELDS:
            row[f"{name}_{part}"] = (cell[name] or {}).get(part, "")
    calls = cell.get("calls_per_message") or {}
    row["calls_per_message"] = ";".join(f"{k}={v:g}" for k, v in calls.items())
    return row


def write_csv(doc, path):
    """results.csv: one row per cell (see csv_row)."""
    rows = [csv_row(cell) for cell in doc["cells"]]
    if not rows:
        open(path, "w").close()
        return
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
