"""The suites' rooms, one subpackage each (its jobs, its tables, its report sections); rooms.py
lists them. A room imports the shared machinery (core/) and, where it builds on one, a room
listed before it in rooms.ROOMS; core/ never imports a room."""
