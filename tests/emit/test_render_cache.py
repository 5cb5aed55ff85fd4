"""The rendered-package cache (render_cache.py, driver.py): a warm `generate` renders nothing and writes the
same bytes and says the same things as a cold one, and a rendering is never served for other
inputs, templates or tpbgen code. Behaviour only: speed is benchmarks/generate.py's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tpbgen import driver, templating
from tpbgen.cli import main
from tpbgen.emit import render

HEADER = (
    "/*\n * toy\n * ISA header for NC-v9.\n */\n#include <stdint.h>\n#include <stdbool.h>\n"
    "typedef enum NEURON_ISA_TPB_OPCODE { NEURON_ISA_TPB_OPCODE_A = 1, NEURON_ISA_TPB_OPCODE_B = 2, }"
    " __attribute__((__packed__)) NEURON_ISA_TPB_OPCODE;\n"
    "typedef struct NEURON_ISA_TPB_TOY_STRUCT { NEURON_ISA_TPB_OPCODE opcode; uint8_t a; uint16_t b; }"
    " NEURON_ISA_TPB_TOY_STRUCT;\n"
    "static inline bool is_valid_toy(NEURON_ISA_TPB_TOY_STRUCT s) { return s.a < 7 && s.b != 3; }\n"
)


@pytest.fixture
def drop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    tpb = tmp_path / "drop" / "neuron_toy_arch_isa" / "tpb"
    tpb.mkdir(parents=True)
    (tpb / "aws_neuron_isa_tpb_common.h").write_text(HEADER)
    (tpb / "instruction_mapping.json").write_text(
        '{"struct2opcode": {"NEURON_ISA_TPB_TOY_STRUCT": ["NEURON_ISA_TPB_OPCODE_A"]},'
        ' "struct2pseudo_opcode": {}}'
    )
    monkeypatch.setenv("TPBGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "drop"


def generate(
    capsys: pytest.CaptureFixture[str], drop: Path, out: Path, *argv: str
) -> tuple[int, str, str]:
    code = main(["generate", "--headers", str(drop), "--out", str(out), "--no-verify-cc", *argv])
    o, e = capsys.readouterr()
    assert "Traceback" not in e
    return code, o.replace(str(out), "OUT"), e


def files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def render_entries(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "cache").glob("render-*.json"))


def no_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("translated or rendered although the cache holds the result")

    monkeypatch.setattr(driver, "translate", refuse)
    monkeypatch.setattr(render, "render", refuse)


def test_warm_generate_renders_nothing_and_matches_cold(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = generate(capsys, drop, tmp_path / "a")
    assert cold[0] == 0 and len(render_entries(tmp_path)) == 1
    with monkeypatch.context() as m:
        no_rendering(m)
        warm = generate(capsys, drop, tmp_path / "b")
        check = generate(capsys, drop, tmp_path / "a", "--check")
    assert warm == cold and files(tmp_path / "b") == files(tmp_path / "a")
    assert check[0] == 0 and "is current" in check[1]
    uncached = generate(capsys, drop, tmp_path / "c", "--no-cache")
    assert uncached == cold and files(tmp_path / "c") == files(tmp_path / "a")


def test_an_edited_header_is_rendered_again(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    h = drop / "neuron_toy_arch_isa" / "tpb" / "aws_neuron_isa_tpb_common.h"
    h.write_text(HEADER.replace("s.a < 7", "s.a < 5"))
    code, _, _ = generate(capsys, drop, tmp_path / "a")
    assert code == 0 and len(render_entries(tmp_path)) == 2
    assert files(tmp_path / "a") != {}
    assert generate(capsys, drop, tmp_path / "b", "--no-cache")[0] == 0
    assert files(tmp_path / "a") == files(tmp_path / "b")  # what the edited header generates
    validators = "".join(
        v.decode() for k, v in files(tmp_path / "a").items() if k.endswith("validators.py")
    )
    assert "< 5" in validators and "< 7" not in validators


def test_an_edited_template_is_rendered_again(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(
        templating.template_root(), templates, ignore=shutil.ignore_patterns("__pycache__")
    )
    monkeypatch.setattr(templating, "template_root", lambda: templates)
    monkeypatch.setattr(render, "template_root", lambda: templates)
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    before = files(tmp_path / "a")
    readme = templates / "runtime" / "package" / "README.md.j2"
    assert readme.is_file()
    readme.write_text(readme.read_text() + "\nA line the edited template adds.\n")
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    after = files(tmp_path / "a")
    assert len(render_entries(tmp_path)) == 2
    assert after["README.md"].endswith(b"A line the edited template adds.\n")
    assert {k for k in after if after[k] != before.get(k)} == {"README.md", "MANIFEST.json"}


def test_a_damaged_rendering_costs_only_time(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import hashlib
    import json

    cold = generate(capsys, drop, tmp_path / "a")
    (entry,) = (tmp_path / "cache").glob("render-*.json")
    head = json.loads(entry.read_bytes().partition(b"\n")[0])
    body = json.dumps({"gens": {"toy": {"warnings": [{"message": 1}]}}, "files": {}}).encode()
    head["payload_sha256"] = hashlib.sha256(body).hexdigest()
    entry.write_bytes(json.dumps(head).encode() + b"\n" + body)
    code, out, err = generate(capsys, drop, tmp_path / "b")
    assert code == 0 and out.splitlines()[:4] == cold[1].splitlines()[:4]
    assert "not a rendered package" in err
    assert files(tmp_path / "b") == files(tmp_path / "a")


def test_a_header_edited_after_ingest_is_refused_not_shipped(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The package ships the drop's headers (its C validators compile them) beside code made from
    the IR; a header edited between the ingest and the render is refused by name, nothing is
    written and nothing rendered is cached."""
    header = drop / "neuron_toy_arch_isa" / "tpb" / "aws_neuron_isa_tpb_common.h"
    real = driver.ingest_root

    def ingest_then_edit(*args: object, **kwargs: object) -> object:
        results = real(*args, **kwargs)  # type: ignore[arg-type]
        header.write_text(HEADER.replace("s.a < 7", "s.a < 8"))
        return results

    monkeypatch.setattr(driver, "ingest_root", ingest_then_edit)
    out = tmp_path / "out"
    code, _, err = generate(capsys, drop, out)
    assert code == 2 and "changed-during-read" in err
    assert "neuron_toy_arch_isa/tpb/aws_neuron_isa_tpb_common.h" in err and "run again" in err
    assert not out.exists() and render_entries(tmp_path) == []
    monkeypatch.setattr(driver, "ingest_root", real)
    code, _, err = generate(capsys, drop, out)  # one version throughout: generated
    assert code == 0, err
    shipped = out / "tpb_isa" / "toy" / "_c"
    assert "s.a < 8" in next(shipped.rglob("aws_neuron_isa_tpb_common.h")).read_text()
