"""The instruction half of thinmpi's targets, which the audit room (the point-to-point targets)
and the collectives room judge on the counts of the instructions room (doc["instructions"], read
from the results document): "within a handful of instructions of C per call" (issue 18)."""

INSTRUCTION_SLACK = 10


def target_figures(part, variant, against=None):
    """(median, worst) instructions over C per call of a variant's counted cells, or None; over
    its protocol baseline `against` (c/framed) instead of its C baseline where given."""
    key = "protocol_difference" if against else "difference"
    differences = sorted(r[key] for r in (part or {}).get("rows", [])
                         if r["variant"] == variant and r.get(key) is not None
                         and (against is None or r.get("protocol_baseline") == against))
    if not differences:
        return None
    return differences[len(differences) // 2], differences[-1]
