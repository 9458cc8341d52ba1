"""The suites' rooms, one subpackage each (its jobs, its tables, its report sections); rooms.py
lists them. A room imports the shared machinery (core/) and its own modules only: what two rooms
share is in core/, and what a room reads of another suite's results comes through the results
document its hooks are given (doc["instructions"], doc["collectives"]). core/ never imports a
room."""
