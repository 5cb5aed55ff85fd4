"""Find the generations under a header root: every `neuron_<gen>_arch_isa/tpb/` below it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import fail
from ..input_files import refuse_special

_GEN_DIR = re.compile(r"^neuron_([a-z0-9_]+?)_arch_isa$")

# The order generations came in; unknown names sort after these, alphabetically.
KNOWN_ORDER = ("sunda", "cayman", "mariana", "maverick")


@dataclass(frozen=True)
class GenerationSource:
    name: str
    root: Path  # the include root: the directory holding neuron_<gen>_arch_isa/
    tpb_dir: Path  # root / neuron_<gen>_arch_isa / tpb

    @property
    def rel_tpb_dir(self) -> str:
        """The generation's tpb/ directory relative to the drop's root, as diagnostics name it."""
        return self.tpb_dir.relative_to(self.root).as_posix()

    def headers(self) -> list[Path]:
        """The translation unit: every header of the tpb/ tree (each a regular file: the unit
        includes them all, so a FIFO, a device or a directory named `*.h` is refused by type
        before anything opens it)."""
        found = sorted(self.tpb_dir.glob("*.h"))
        for h in found:
            refuse_special(h, self.shown(h))
        return found

    @property
    def gen_dir(self) -> Path:
        """neuron_<gen>_arch_isa/: tpb/ and any sibling tree its headers include (e.g. common/)."""
        return self.tpb_dir.parent

    def all_headers(self) -> list[Path]:
        """Every header below the generation directory: what the IR may take definitions from and
        what its cache key covers."""
        found = sorted(
            p for p in self.gen_dir.rglob("*.h") if p.parent == self.tpb_dir or not p.is_dir()
        )
        for h in found:  # (a FIFO, a device or, in tpb/, a directory is refused: never opened)
            refuse_special(h, self.shown(h))
        return found

    def shown(self, path: Path) -> str:
        """A file of the generation as diagnostics name it: relative to the include root."""
        return path.relative_to(self.root).as_posix()

    def mapping_file(self) -> Path:
        """The generation's instruction_mapping.json (it may not exist)."""
        return self.tpb_dir / "instruction_mapping.json"

    def rel(self, name: str) -> str:
        """A file name as the preprocessor reported it, as the IR and diagnostics spell it:
        relative to the include root (`../x.h` beside it), `<libc>/<name>` for tpbgen's stand-in
        libc."""
        if name in ("<stdin>", "-", "<tpbgen-tu>"):
            return "<tpbgen-tu>"
        p = Path(name)
        if not p.is_absolute():
            p = self.root / p
        real, root = p.resolve(), self.root.resolve()
        if real.is_relative_to(root):
            return real.relative_to(root).as_posix()
        from .preprocess import fake_libc_dir  # (preprocess imports this module)

        if real.is_relative_to(fake_libc_dir().resolve()):
            return "<libc>/" + p.name
        return Path(os.path.relpath(real, root)).as_posix()  # a file beside the root: ../x.h


def generation_order(name: str) -> tuple[int, str]:
    """A generation's sort key: the known generations in release order, then any other by name."""
    return (KNOWN_ORDER.index(name) if name in KNOWN_ORDER else len(KNOWN_ORDER), name)


def discover(root: Path) -> list[GenerationSource]:
    """All generations below `root`, in generation order. A root with none is an error."""
    if not root.is_dir():
        raise fail(
            f"header root does not exist or is not a directory: {root}", str(root), code="no-root"
        )
    found: list[GenerationSource] = []
    for tpb in sorted(root.glob("**/tpb")):
        m = _GEN_DIR.match(tpb.parent.name)
        if m and tpb.is_dir():
            found.append(GenerationSource(m.group(1), tpb.parent.parent, tpb))
    if not found:
        raise fail(
            "no generations found: expected neuron_<gen>_arch_isa/tpb/ directories below the header root",
            str(root),
            code="no-generations",
        )
    names = [g.name for g in found]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise fail(
            f"generation found more than once below the root: {', '.join(dupes)}",
            str(root),
            code="dup-gen",
        )
    return sorted(found, key=lambda g: generation_order(g.name))


def source_for_tpb_dir(tpb_dir: Path) -> GenerationSource:
    """A single generation given as the path of its `tpb/` tree (used by audit for two drops)."""
    tpb_dir = tpb_dir.resolve()
    m = _GEN_DIR.match(tpb_dir.parent.name)
    if not tpb_dir.is_dir() or tpb_dir.name != "tpb" or not m:
        raise fail(
            "not a tpb/ tree: expected a path ending in neuron_<gen>_arch_isa/tpb",
            str(tpb_dir),
            code="not-tpb",
        )
    return GenerationSource(m.group(1), tpb_dir.parent.parent, tpb_dir)
