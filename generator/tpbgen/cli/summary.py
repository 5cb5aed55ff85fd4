"""Readable text views of the IR, for `tpbgen inspect --format text`."""

from __future__ import annotations

from pathlib import Path

from ..errors import shown_path
from ..ir.model import Generation, Loc, Struct


def opens(loc: Loc, root: Path) -> str:
    """An IR location (relative to the header root `root`) as it opens from the current
    directory: `vendor_headers/neuron_mariana_arch_isa/tpb/x.h:78`."""
    return f"{shown_path(loc.file, str(root.resolve()))}:{loc.line}"


def byte_map(s: Struct) -> list[str]:
    """One line per field of `s`: its byte range (a bit-field's byte, first bit and width), name,
    array dimensions and C type."""
    rows = []
    for f in s.fields:
        dims = "".join(f"[{d}]" for d in f.dims)
        if f.bit_width is not None:
            where = f"{f.offset:3d}.{f.bit_offset}+{f.bit_width}b"
        elif f.size == 1:
            where = f"{f.offset:3d}      "
        else:
            where = f"{f.offset:3d}-{f.offset + f.size - 1:<3d}  "
        rows.append(f"    {where} {f.name}{dims}: {f.type.spelled}")
    return rows


def render_text(
    gen: Generation, root: Path, validators: list[tuple[str, tuple[int, ...]]] | None = None
) -> str:
    """The summary; `root` the header root the IR's paths are relative to (every location is
    shown as it opens from the current directory); `validators` are the top-level validators
    with the opcodes each one gates."""
    tpb = shown_path(gen.tpb_dir, str(root.resolve()))
    out = [f"generation {gen.name} ({gen.core_version or 'no banner'}), {tpb}"]
    out.append(
        f"  files: {len(gen.files)}; enums: {len(gen.enums)}; structs/unions: {len(gen.structs)}; "
        f"constants: {len(gen.constants)}; static asserts: {len(gen.static_asserts)}; functions: {len(gen.functions)}"
    )
    out.append("")
    out.append("enums:")
    for e in gen.enums:
        out.append(
            f"  {e.name}  ({len(e.members)} members, {e.size} B{', packed' if e.packed else ''})  {opens(e.loc, root)}"
        )
    out.append("")
    out.append("structs and unions:")
    for s in gen.structs:
        out.append(
            f"  {s.kind} {s.name}  sizeof={s.size} align={s.align}{' packed' if s.packed else ''}  {opens(s.loc, root)}"
        )
        out.extend(byte_map(s))
    if validators is not None:
        out.append("")
        out.append("top-level validators (the opcodes their gate admits):")
        for name, opcodes in validators:
            out.append(
                f"  {name}: {', '.join(f'{v:#04x}' for v in opcodes) or '(no recognisable opcode gate)'}"
            )
    out.append("")
    out.append("functions (C predicate bodies):")
    for f in gen.functions:
        params = ", ".join(f"{p.type.spelled} {p.name}" for p in f.params)
        out.append(
            f"  {f.returns.spelled} {f.name}({params})  {opens(f.loc, root)}  calls: {', '.join(f.calls) or '-'}"
        )
    return "\n".join(out) + "\n"
