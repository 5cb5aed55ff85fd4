"""The predicate proof (checks/predicates.py): `generate` holds the scalar and the batch
translation of every top-level validator, and validate()'s dispatch, to the drop's own C. A
translator bug injected here (one comparison operator of one back end) is caught: the validator
ships on the C path with a located warning naming the first word that disagreed (an error under
--strict), and the generated package answers as the C does on that word."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tpb_paths import GENERATIONS, HEADER_ROOT, tpb_dir
from tpbgen import driver
from tpbgen.cli import main
from tpbgen.translate.analyses import conjuncts
from tpbgen.translate.lir import Compare, Expr, LFunction, Logical, Not, Return
from tpbgen.translate.to_numpy import NpEmitter
from tpbgen.translate.to_python import PyEmitter

HEADER = """\
/*
 * toy
 * ISA header for NC-v9.
 */
#include <stdint.h>
#include <stdbool.h>
typedef enum NEURON_ISA_TPB_OPCODE { NEURON_ISA_TPB_OPCODE_A = 1, NEURON_ISA_TPB_OPCODE_B = 2, }
    __attribute__((__packed__)) NEURON_ISA_TPB_OPCODE;
typedef struct NEURON_ISA_TPB_TOY_STRUCT {
    NEURON_ISA_TPB_OPCODE opcode; uint8_t a; uint16_t b; uint8_t rest[60];
} NEURON_ISA_TPB_TOY_STRUCT;
typedef union NEURON_ISA_TPB_INST_UNION {
    NEURON_ISA_TPB_TOY_STRUCT toy; uint8_t raw[64];
} NEURON_ISA_TPB_INST_UNION;
static inline bool is_valid_toy(NEURON_ISA_TPB_INST_UNION i) {
    return i.toy.opcode == NEURON_ISA_TPB_OPCODE_A && i.toy.a < 7 && i.toy.b != 3;
}
"""
MAPPING = (
    '{"struct2opcode": {"NEURON_ISA_TPB_TOY_STRUCT": ["NEURON_ISA_TPB_OPCODE_A"]},'
    ' "struct2pseudo_opcode": {}}'
)
WARNING = re.compile(
    r"aws_neuron_isa_tpb_common\.h:(\d+):\d+: warning \[predicate-proof\]: is_valid_toy: the "
    r"(scalar|batch) translation disagrees with the C on word ([0-9a-f]{128}) \(the C says (True|False)"
)


@pytest.fixture
def drop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tpb = tmp_path / "drop" / "neuron_toy_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(HEADER)
    (tpb / "instruction_mapping.json").write_text(MAPPING)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "drop"


def generate(
    capsys: pytest.CaptureFixture[str], drop: Path, out: Path, *argv: str
) -> tuple[int, str, str]:
    code = main(["generate", "--headers", str(drop), "--out", str(out), *argv])
    o, e = capsys.readouterr()
    assert "Traceback" not in e
    return code, o, e


def lt_as_le(emitter: type) -> object:
    """The back end's comparisons with `<` written as `<=`: an off-by-one translator bug."""
    real = emitter.expr_Compare

    def buggy(self: object, e: Compare) -> str:
        text: str = real(self, e)
        return text.replace(" < ", " <= ") if e.op == "<" else text

    return buggy


def test_a_sound_translation_is_held_to_the_c(
    cc: str, drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = generate(capsys, drop, tmp_path / "out")
    assert code == 0, err
    held = re.search(r"predicates held to \S+ on (\d+) words \(1 validators\)\n", out)
    assert held and int(held.group(1)) >= 10_000, out
    assert "predicate-proof" not in err and "decided in C" not in out


@pytest.mark.parametrize("emitter", [PyEmitter, NpEmitter], ids=["scalar", "batch"])
def test_an_injected_translator_bug_is_caught_and_not_shipped(
    cc: str,
    emitter: type,
    drop: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(emitter, "expr_Compare", lt_as_le(emitter))
    out = tmp_path / "out"
    code, summary, err = generate(capsys, drop, out)
    assert code == 0, err
    m = WARNING.search(err)
    assert m, err
    line, backend, word, c_says = m.groups()
    assert HEADER.splitlines()[int(line) - 1].startswith("static inline bool is_valid_toy")
    assert backend == ("scalar" if emitter is PyEmitter else "batch")
    w = bytes.fromhex(word)
    assert w[0] == 1 and w[1] == 7 and c_says == "False"  # a == 7: `a < 7` fails, `a <= 7` holds
    assert "1 disagree, decided in C: is_valid_toy" in summary
    # the package decides is_valid_toy with the C: validate(), explain(), validate_batch() say False
    probe = (
        "import sys, numpy as np; sys.path.insert(0, sys.argv[1]); import tpb_isa.toy as m\n"
        "from tpb_isa.toy import batch\n"
        "w = bytes.fromhex(sys.argv[2]); W = np.frombuffer(w, dtype=np.uint8).reshape(1, 64)\n"
        "print(m.validate(w), bool(m.explain(w)), batch.validate_batch(W, backend='numpy')[0],"
        " m.validate(bytes([1, 6]) + bytes(62)))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe, str(out), word], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True", "False", "True"]
    # --strict: a validator whose translation is wrong is an error, and nothing is written
    code, _, err = generate(capsys, drop, tmp_path / "strict", "--strict")
    assert code == 1 and "error [predicate-proof]" in err
    assert not (tmp_path / "strict").exists()


def test_without_a_compiler_the_summary_says_the_proof_did_not_run(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(driver, "compiler", lambda: None)
    code, out, err = generate(capsys, drop, tmp_path / "out")
    assert code == 0, err
    assert "predicates not proven: no C compiler on PATH" in out
    code, out, _ = generate(capsys, drop, tmp_path / "b", "--no-verify-cc")
    assert code == 0 and "predicates not proven: --no-verify-cc" in out


def test_a_gate_that_leaves_out_an_opcode_is_caught(
    cc: str,
    drop: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """validate() is "some top-level C validator accepts": a gate without the opcode the C
    accepts (here an empty one) is caught, and the validator ships on the C path with the
    opcodes the C accepted it on added to its gate."""
    from tpbgen.translate import validators

    monkeypatch.setattr(validators, "opcode_gate", lambda *_: frozenset())
    out = tmp_path / "out"
    code, summary, err = generate(capsys, drop, out)
    assert "1 disagree, decided in C: is_valid_toy" in summary
    assert code == 0, err
    assert (
        "warning [predicate-proof]: is_valid_toy: the dispatch (its opcode gate) disagrees" in err
    )
    assert "validate() does not run is_valid_toy on opcode(s) 0x01" in err
    text = (out / "tpb_isa" / "toy" / "validators.py").read_text()
    assert "C_PATH[" in text and re.search(r"DISPATCH[^}]*0x01|DISPATCH[^}]*\bA\b", text), text


def test_an_untranslated_validator_has_its_dispatch_held_and_says_so(
    cc: str, drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = drop / "neuron_toy_arch_isa" / "tpb" / "aws_neuron_isa_tpb_common.h"
    loop = "    int k = 0;\nagain:\n    k++;\n    if (k < 2) goto again;\n    return i.toy.opcode"
    header.write_text(HEADER.replace("    return i.toy.opcode", loop))
    code, out, err = generate(capsys, drop, tmp_path / "out")
    assert code == 0 and "warning [untranslated]: is_valid_toy" in err, err
    assert "(1 validators; only the dispatch of untranslated is_valid_toy)" in out, out


# -- the vendored drop: a validator that is a top-level `||` ------------------------------------


def test_every_vendored_validator_is_held_on_words_its_c_accepts(
    cc: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The seed search reaches words the C accepts for every top-level validator of the vendored
    drop, is_valid_s3s3d3_tt (`is_valid_tensor_tensor(i) || is_valid_batchnorm_backprop(i) ||
    ...`) too: none is held to its C on rejected words alone."""
    code = main(["generate", "--headers", str(HEADER_ROOT), "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err, err
    held = re.findall(r"predicates held to \S+ on (\d+) words \(([^)]*)\)", out)
    assert len(held) == len(GENERATIONS), out
    for words, what in held:
        assert int(words) >= 10_000 and "no word found" not in what, out


def last_term_negated(emitter: type, function: str) -> object:
    """The back end's translation of `function` (one `return a && ... && z`) with its last term
    negated: a translator bug only a word every other term holds on shows."""
    real = emitter.function

    def buggy(self: object, f: LFunction, *rest: object) -> list[str]:  # rest: the inliner
        if f.name == function:
            ret = f.body[0]
            assert isinstance(ret, Return) and ret.e is not None
            *first, last = conjuncts(ret.e)
            e: Expr = Not(last)
            for t in reversed(first):
                e = Logical("and", t, e)
            f = replace(f, body=(replace(ret, e=e),))
        lines: list[str] = real(self, f, *rest)
        return lines

    return buggy


@pytest.mark.parametrize("emitter", [PyEmitter, NpEmitter], ids=["scalar", "batch"])
def test_a_bug_in_one_alternative_of_a_vendored_validator_is_caught(
    cc: str,
    emitter: type,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A translator bug inside one alternative of is_valid_s3s3d3_tt (the last term of
    is_valid_batchnorm_backprop negated) differs from the C only on words the rest of that
    alternative holds on, words the C accepts: the proof's words reach them, and generate
    catches it."""
    drop = tmp_path / "drop"
    shutil.copytree(tpb_dir("cayman").parent, drop / tpb_dir("cayman").parent.name)
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(
        emitter, "function", last_term_negated(emitter, "is_valid_batchnorm_backprop")
    )
    code, summary, err = generate(capsys, drop, tmp_path / "out")
    assert code == 0, err
    backend = "scalar" if emitter is PyEmitter else "batch"
    m = re.search(
        rf"warning \[predicate-proof\]: is_valid_s3s3d3_tt: the {backend} translation disagrees "
        r"with the C on word ([0-9a-f]{128}) \(the C says True",
        err,
    )
    assert m, err
    assert bytes.fromhex(m.group(1))[0] == 0x65  # BATCHNORM_BACKPROP: the alternative's opcode
    assert "1 disagree, decided in C: is_valid_s3s3d3_tt" in summary


# -- a drop whose C reads how it is built ----------------------------------------------------------

BUILD_DEPENDENT = HEADER.replace(
    "    return i.toy.opcode == NEURON_ISA_TPB_OPCODE_A && i.toy.a < 7 && i.toy.b != 3;\n",
    "#ifdef NDEBUG\n"
    "    return i.toy.opcode == NEURON_ISA_TPB_OPCODE_A && i.toy.a < 9;\n"
    "#else\n"
    "    return i.toy.opcode == NEURON_ISA_TPB_OPCODE_A && i.toy.a < 7 && i.toy.b != 3;\n"
    "#endif\n",
).replace(
    "static inline bool is_valid_toy(",
    "static inline bool is_small(unsigned a) {\n"
    "#if defined(__OPTIMIZE__)\n"
    "    return a < 200;\n"
    "#endif\n"
    "    return a < 250;\n"
    "}\n"
    "static inline bool is_valid_toy(",
)
BUILD_DEPENDENT = BUILD_DEPENDENT.replace("i.toy.a < 7 &&", "i.toy.a < 7 && is_small(i.toy.a) &&")

# every word the two meanings of the header differ on, and more: each opcode, each `a`, `b` 0..7
AGREE_PROBE = """\
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
from tpb_isa.toy import batch, validators
W = np.zeros((3 * 256 * 8, 64), dtype=np.uint8)
k = np.arange(W.shape[0])
W[:, 0], W[:, 1], W[:, 2] = k // 2048, (k // 8) % 256, k % 8
c = batch.validate_batch(W, backend="c")
numpy = batch.validate_batch(W, backend="numpy")
python = np.array([validators.validate(bytes(w)) for w in W])
print(validators.C_VALIDATORS.resolve("c"), int(c.sum()), int((c != numpy).sum()),
      int((c != python).sum()), "C_PATH" in vars(validators))
"""


def test_a_drop_whose_c_reads_the_build_is_proven_as_it_ships(
    cc: str, drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A predicate that reads NDEBUG (and a helper that reads __OPTIMIZE__): generate warns at
    each use, located by the compiler, on a cold run and from the cache alike; and the package's
    C backend, built by cffi with Python's own flags (forced here to -DNDEBUG -O2 whatever this
    Python's are), decides every word as the translations do, which the proof held to the C."""
    header = drop / "neuron_toy_arch_isa" / "tpb" / "aws_neuron_isa_tpb_common.h"
    header.write_text(BUILD_DEPENDENT)
    lines = BUILD_DEPENDENT.splitlines()
    ndebug = next(n for n, ln in enumerate(lines, 1) if ln == "#ifdef NDEBUG")
    optimize = next(n for n, ln in enumerate(lines, 1) if "__OPTIMIZE__" in ln)
    out = tmp_path / "out"
    for run in ("cold", "cached"):
        code, summary, err = generate(capsys, drop, out)
        assert code == 0, err
        assert re.search(
            rf"aws_neuron_isa_tpb_common\.h:{ndebug}:8: warning \[build-dependent\]: NDEBUG: ", err
        ), (run, err)
        assert re.search(
            rf"aws_neuron_isa_tpb_common\.h:{optimize}:13: warning \[build-dependent\]: "
            r"__OPTIMIZE__: ",
            err,
        ), (run, err)
        assert err.count("[build-dependent]") == 2, err
        assert "decided in C" not in summary and "predicate-proof" not in err, err
    env = {
        **os.environ,
        "TPB_ISA_CACHE_DIR": str(tmp_path / "c-cache"),
        "CFLAGS": "-DNDEBUG -O2",
    }
    run = subprocess.run(
        [sys.executable, "-c", AGREE_PROBE, str(out)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    backend, accepted, vs_numpy, vs_python, c_path = run.stdout.split()
    # accepted: opcode A, a < 7, b != 3 (NDEBUG undefined, not optimising): 7 * 7 words
    assert (backend, accepted, vs_numpy, vs_python, c_path) == ("c", "49", "0", "0", "False")


def test_a_change_of_tpbgens_code_proves_again(
    cc: str,
    drop: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole generation's cached proof is keyed by tpbgen's code, as each validator's is:
    the same drop after a change to tpbgen (its code hash) is proven again, not answered from
    the proof an older tpbgen left in the cache; the same code again is answered from it."""
    from tpbgen.checks import predicates

    runs = 0
    real = predicates._Prover.run

    def counted(self: object, cc: str) -> object:
        nonlocal runs
        runs += 1
        return real(self, cc)  # type: ignore[arg-type]

    monkeypatch.setattr(predicates._Prover, "run", counted)
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    assert runs == 1
    from tpbgen import render_cache

    for module in (driver, render_cache):  # the rendering's key and the proof's
        monkeypatch.setattr(module, "code_hash", lambda: "another tpbgen")
    assert generate(capsys, drop, tmp_path / "b")[0] == 0
    assert runs == 2, "a changed tpbgen was answered from the old tpbgen's proof"
    assert generate(capsys, drop, tmp_path / "c")[0] == 0
    assert runs == 2, "the same tpbgen proved again"
