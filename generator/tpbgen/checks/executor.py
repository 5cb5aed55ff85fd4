"""What the generated executor cannot run on one drop, by name: the drop's structs and enums
(as `isa.binding` reads them) against the executor's declared table (`isa.table`).

A field path or union arm a handler reads that the opcode's struct lacks is a warning where the
struct (or the union lacking the arm) is declared: the opcode is refused (its binder would fail
on every word), and `generate` lists it.

An enumerator the table does not know (a new ALU op, a new dtype) is a warning where it is
declared: the executor refuses every instruction that uses it (UnsupportedError naming it), and
the drop's user should know before running one. So is an executor role no enum binds (its opcodes
are refused). The enumerators the table refuses with a reason are listed by `inspect` and the
generated README, not warned about on every run.
"""

from __future__ import annotations

from ..errors import Diagnostic, Severity
from ..ir.model import Generation
from ..isa import binding as isa_binding
from ..isa import table


def check_executor(gen: Generation) -> list[Diagnostic]:
    """A warning for each enumerator the executor's table does not know, at its declaration,
    for each field path the table names that an opcode's struct lacks, and for each executor
    role no enum of the drop binds."""
    binding = isa_binding.executor_enums(gen)
    out = []
    for lack in isa_binding.executor_coverage(gen).missing:
        at = lack.at or gen.struct(lack.struct).loc  # where the lacking member is, else the struct
        out.append(
            Diagnostic(
                f"{lack.opcode}: the executor reads {lack.path} of {lack.struct}, but "
                f"{lack.missing}; "
                "it refuses the opcode (UnsupportedError)",
                at.file,
                at.line,
                at.col,
                Severity.WARNING,
                "executor",
            )
        )
    for role, ee in binding.enums.items():
        what = table.ENUMS[role].what
        for name, m, why in ee.unimplemented():
            if why is not None:
                continue
            out.append(
                Diagnostic(
                    f"{m.name} ({m.value:#04x}): the executor does not implement {what} {name}; "
                    "it refuses every instruction that uses it (UnsupportedError)",
                    m.loc.file,
                    m.loc.line,
                    m.loc.col,
                    Severity.WARNING,
                    "executor",
                )
            )
    for role, why in binding.unbound.items():
        at = binding.unbound_at[role]  # the first field that reads the role
        out.append(
            Diagnostic(
                f"the executor's {table.ENUMS[role].what} fields are bound to no enum ({why}); "
                "it refuses the opcodes that read them",
                at.file,
                at.line,
                at.col,
                Severity.WARNING,
                "executor",
            )
        )
    return out


def coverage_lines(gen: Generation) -> list[str]:
    """`inspect`'s executor section: what runs, what is refused and why."""
    c = isa_binding.executor_coverage(gen)
    lines = ["", "executor:"]
    lines.append(
        "  runs     " + (", ".join(f"{e.value:#04x} {e.name}" for e in c.runs) or "nothing")
    )
    for v, n, why in c.refuses:
        lines.append(f"  refuses  {v:#04x} {n}: {why}")
    for role, name, value, why in c.enumerators:
        reason = why or "not in the executor's table (a name new to it)"
        lines.append(f"  refuses  {role} {name} ({value:#04x}): {reason}")
    return lines
