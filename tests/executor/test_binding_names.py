"""isa.binding read with a real drop's IR (mariana's vendored headers), changed the way a new
drop might: an alias of an implemented enumerator (`SUB = SUBTRACT`) is not reported as refused,
since its value runs (the runtime's EnumBinding maps it to SUBTRACT's code), while an alias of a
refused value is; and a role no enum binds is warned about at a header's file and line, not at
the drop's directory."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tpbgen.checks.executor import check_executor
from tpbgen.frontend.ingest import ingest_root
from tpbgen.ir.model import EnumMember, Generation
from tpbgen.isa import binding

REPO = Path(__file__).resolve().parents[2]


def _mariana() -> Generation:
    (ingested,) = ingest_root(REPO / "vendor_headers", only=["mariana"])
    gen: Generation = ingested.gen
    return gen


def test_an_alias_of_an_implemented_name_is_not_refused() -> None:
    gen = _mariana()
    alu = binding.executor_enums(gen).enums["alu_op"]
    values = alu.values
    loc = alu.enum.members[0].loc

    def with_alias(name: str, of: str) -> binding.ExecutorEnum:
        member = EnumMember(f"NEURON_ISA_TPB_ALU_OP_{name}", values[of], loc, "", None)
        enum = dataclasses.replace(alu.enum, members=(*alu.enum.members, member))
        return binding.ExecutorEnum("alu_op", enum, (*alu.names, name))

    before = {n for n, _m, _why in alu.unimplemented()}
    assert "SUBTRACT" not in before and "DIVIDE" in before
    assert {n for n, _m, _why in with_alias("SUB", "SUBTRACT").unimplemented()} == before
    refused = {n for n, _m, _why in with_alias("DIV", "DIVIDE").unimplemented()}
    assert refused == before | {"DIV"}


def test_an_unbound_role_is_warned_about_at_a_file_and_line() -> None:
    gen = _mariana()
    assert not binding.executor_enums(gen).unbound
    # S4D4_TR's in_dtype declared with another enum: the dtype role is bound to two enums
    tr = gen.struct("NEURON_ISA_TPB_S4D4_TR_STRUCT")
    fields = tuple(
        dataclasses.replace(f, type=dataclasses.replace(f.type, name="NEURON_ISA_TPB_ALU_OP"))
        if f.name == "in_dtype"
        else f
        for f in tr.fields
    )
    structs = tuple(
        dataclasses.replace(s, fields=fields) if s.name == tr.name else s for s in gen.structs
    )
    changed = dataclasses.replace(gen, structs=structs)
    b = binding.executor_enums(changed)
    assert "dtype" in b.unbound
    warnings = [d for d in check_executor(changed) if "bound to no enum" in d.message]
    assert warnings
    for d in warnings:
        assert str(d.file).endswith(".h") and d.line > 0, (d.file, d.line)
