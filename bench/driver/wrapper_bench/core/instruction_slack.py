"""The instruction half of a target, for the suites whose tables judge instructions but which the
instructions suite imports (the collectives: importing suites/instructions from there would be a
circle). "Within a handful of instructions of C per call" (issue 18)."""

# The same figure as suites/instructions/instructions.py's INSTRUCTION_SLACK (a driver test keeps
# them equal until that module takes it from here).
INSTRUCTION_SLACK = 10
