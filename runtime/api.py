"""The version of the interface between generated modules and this runtime.

The one place `RUNTIME_API` is written: tpbgen imports this module to stamp the generated
modules, and the runtime (this package, copied verbatim into every generated `tpb_isa`)
compares the stamp at import. Bump the minor number when the runtime gains something generated
code may use, the major number when it changes or drops something generated code used.

Plain Python with no imports, so the generator can load it without the runtime's dependencies.
"""

RUNTIME_API: tuple[int, int] = (2, 5)
