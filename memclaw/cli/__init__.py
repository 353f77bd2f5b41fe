"""The command line: a thin typer app over the library.

Each command parses its options, resolves the Scope or owner once (the edge),
calls one library function and renders the result; ``fast`` answers plain
``memclaw search`` lines without importing typer at all. Only this package
imports typer and rich.

May import: everything.
"""
