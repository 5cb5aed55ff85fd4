"""The variant-drop harness: copy one generation of the vendored drop, apply one edit (which must
say it applied), then hold tpbgen to "right or refused" against the variant's own C.

Right: gcc accepts the variant; `tpbgen generate` (a cold run, in a cache of the variant's own that
the agreement check then reads its IR from) exits 0 having proven every layout against the
compiler (its verify-cc step); and in the generated package every top-level validator, `validate()`
and `validate_batch()` agree with the variant's own compiled C on at least WORDS words (5,000 at
the full scale, tpb_scale; seeds, one- and multi-field mutations, edge words and random words of
the validators' opcodes), and `explain()` gives a reason exactly for the words it refuses (on
every fourth word).
Refused: exit 2 with a located message (`file:line`) and no traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tpb_paths import HEADER_ROOT, REPO
from tpb_scale import scale
from tpbgen.cli import main

GEN = "mariana"
#: Words each variant's package is held to its own C on (tpb_scale: 5,000 in CI).
WORDS = scale(1500, 5000)

Edit = Callable[
    [Path], None
]  # edits a copy of neuron_<gen>_arch_isa/tpb in place; asserts it applied


def read_text(path: Path) -> str:
    """A header's text with its line ends as they are."""
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` by `new` in a header (`count` times, 0 for all), insisting it occurs."""
    text = read_text(path)
    assert old in text, f"{path.name}: {old!r} not found; the variant did not apply"
    path.write_text(
        text.replace(old, new) if count == 0 else text.replace(old, new, count),
        encoding="utf-8",
        newline="",
    )


def make_variant(tmp: Path, edit: Edit, gen: str = GEN) -> Path:
    root = tmp / "drop"
    src = HEADER_ROOT / f"neuron_{gen}_arch_isa"
    shutil.copytree(src, root / src.name)
    before = {p.name: p.read_bytes() for p in (root / src.name / "tpb").iterdir()}
    edit(root / src.name / "tpb")
    after = {p.name: p.read_bytes() for p in (root / src.name / "tpb").iterdir()}
    assert after != before, "the edit changed nothing"
    return root


def gcc_accepts(cc: str, root: Path, gen: str = GEN) -> None:
    tpb = root / f"neuron_{gen}_arch_isa" / "tpb"
    tu = "".join(f'#include "{h.name}"\n' for h in sorted(tpb.glob("*.h")))
    proc = subprocess.run(
        [cc, "-std=c11", "-fsyntax-only", "-I", str(tpb), "-x", "c", "-"],
        input=tu,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, f"gcc rejects the variant itself:\n{proc.stderr}"


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    package: Path


def ir_cache(out: Path) -> Path:
    """A cache of the variant's own, empty when `generate` starts (so its run is a cold one):
    the agreement check then reads the IR generate made instead of ingesting again."""
    return out.parent / "ir-cache"


def generate(root: Path, out: Path, capsys: object) -> Outcome:
    before = os.environ.get("TPBGEN_CACHE_DIR")
    os.environ["TPBGEN_CACHE_DIR"] = str(ir_cache(out))
    try:
        code = main(["generate", "--headers", str(root), "--out", str(out)])
    finally:
        if before is None:
            del os.environ["TPBGEN_CACHE_DIR"]
        else:
            os.environ["TPBGEN_CACHE_DIR"] = before
    o, e = capsys.readouterr()  # type: ignore[attr-defined]
    assert "Traceback" not in e and "internal error" not in e, e
    return Outcome(code, o, e, out)


_AGREE = r"""
import importlib, json, sys
from pathlib import Path
import numpy as np
package, tests, tpb, cc, tmp, words_per = sys.argv[1:7]
sys.path[:0] = [package, tests]
from support import cpredicates
from differential.corpus import edge_words, mutations, random_words, seeds
from tpbgen.frontend.ingest import ingest_root
gen_name = "GEN"
m = importlib.import_module(f"tpb_isa.{gen_name}")
batch = importlib.import_module(f"tpb_isa.{gen_name}.batch")
validators = importlib.import_module(f"tpb_isa.{gen_name}.validators")
g = ingest_root(Path(tpb).parent.parent, [gen_name])[0].gen  # (the IR generate cached)
tops = dict(m.TOP_LEVEL)
from tpbgen.resolve import c_call_arguments
# the variant's C at -O0: no optimisation assumes its undefined behaviour away, and it compiles
# in a third of -O1's time (0.2 s against 0.5 s a variant; the words run in microseconds)
clib = cpredicates.build(cc, Path(tpb), tuple(tops), Path(tmp), opt="-O0", args=c_call_arguments(g))
rng = np.random.default_rng(7)
from tpbgen.resolve import decode_table
# the struct a validator's words decode to, from the IR: its opcodes' struct2opcode binding
struct_of = {d.value: d.struct for d in decode_table(g) if d.defined}
def arm(opcodes):
    return g.struct(struct_of[opcodes[0]])
per = max(int(words_per) // len(tops), 200)
total, report, every = 0, {}, []
for name, opcodes in tops.items():
    sw = seeds(gen_name, name)
    words = np.vstack([np.frombuffer(b"".join(sw), dtype=np.uint8).reshape(-1, 64),
        np.frombuffer(b"".join(mutations(g, arm(opcodes), sw, rng, per * 3 // 4)), dtype=np.uint8).reshape(-1, 64),
        random_words(opcodes, rng, per // 4),
        np.frombuffer(b"".join(edge_words(g, sw)), dtype=np.uint8).reshape(-1, 64)])
    every.append(words)
    want = clib.run(name, words)
    # what the package ships: the translation, or the headers' C where generate routed it there
    c_path = getattr(validators, "C_PATH", {})
    scalar = c_path[name].check if name in c_path else getattr(validators, f"_{name}")
    got = np.array([scalar(bytes(r), 0) for r in words], dtype=bool)
    got_b = batch.run_validator_batch(name, words)
    bad = [int(x) for x in np.flatnonzero((got != want) | (got_b != want))[:3]]
    report[name] = {"words": len(words), "accepted": int(want.sum()), "bad": [bytes(words[i]).hex() for i in bad]}
    total += len(words)
# validate(w) is "some top-level validator accepts w": in C, the OR of all of them (each one
# rejects the opcodes it is not for), whatever gates tpbgen found
W = np.vstack(every)
want_any = np.zeros(len(W), dtype=bool)
for name in tops:
    want_any |= clib.run(name, W)
got_any = np.array([m.validate(bytes(r)) for r in W], dtype=bool)
got_any_b = batch.validate_batch(W)
bad_d = [bytes(W[i]).hex() for i in np.flatnonzero((got_any != want_any) | (got_any_b != want_any))[:3]]
# explain(w) says why exactly when validate(w) refuses, through the same translated bodies
bad_d += [bytes(r).hex() for r, ok in zip(W[::4], want_any[::4]) if bool(m.explain(bytes(r))) == bool(ok)][:3]
print(json.dumps({"total": total, "validators": report, "bad_dispatch": bad_d, "accepted_any": int(want_any.sum())}))
"""


def agree_with_c(
    cc: str, root: Path, package: Path, tmp: Path, gen: str = GEN
) -> dict[str, object]:
    tpb = root / f"neuron_{gen}_arch_isa" / "tpb"
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            _AGREE.replace("GEN", gen),
            str(package),
            str(REPO / "tests"),
            str(tpb),
            cc,
            str(tmp),
            str(WORDS),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "TPBGEN_CACHE_DIR": str(ir_cache(package))},
    )
    assert proc.returncode == 0, proc.stderr
    doc: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return doc


def assert_right(cc: str, root: Path, outcome: Outcome, tmp: Path, gen: str = GEN) -> None:
    assert outcome.code == 0, outcome.err
    assert "layouts verified with" in outcome.out, outcome.out
    doc = agree_with_c(cc, root, outcome.package, tmp, gen)
    assert int(doc["total"]) >= WORDS  # type: ignore[call-overload]
    assert not doc["bad_dispatch"], (
        f"validate()/validate_batch() disagree with the variant's C on {doc['bad_dispatch']}"
    )
    for name, r in doc["validators"].items():  # type: ignore[attr-defined]
        assert not r["bad"], f"{name}: disagrees with the variant's C on {r}"
        assert 0 < r["accepted"] < r["words"], f"{name}: corpus not discriminating {r}"


def assert_refused(outcome: Outcome, where: str) -> None:
    assert outcome.code == 2, (outcome.code, outcome.err)
    assert where in outcome.err, outcome.err
