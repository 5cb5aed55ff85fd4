"""The rendered-package cache (render_cache.py, driver.py): a warm `generate` renders nothing and writes the
same bytes and says the same things as a cold one, and a rendering is never served for other
inputs, templates or tpbgen code. Behaviour only: speed is benchmarks/generate.py's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tpbgen import driver, templating
from tpbgen.cache import FORMAT, Cache, key_file_name
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


def test_an_edited_runtime_file_is_shipped_again(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runtime library lives outside the templates (runtime/, tpbgen.runtime): a file of it
    edited after a cached rendering is shipped as edited, not as the rendering held it."""
    runtime = tmp_path / "runtime"
    shutil.copytree(
        templating.runtime_root(), runtime, ignore=shutil.ignore_patterns("__pycache__")
    )
    monkeypatch.setattr(templating, "runtime_root", lambda: runtime)
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    kernels = runtime / "executor" / "tpb_kernels.c"
    kernels.write_text(kernels.read_text() + "/* a line the edited runtime adds */\n")
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    shipped = tmp_path / "a" / "tpb_isa" / "_runtime" / "executor" / "tpb_kernels.c"
    assert shipped.read_text().endswith("/* a line the edited runtime adds */\n")
    assert len(render_entries(tmp_path)) == 2


def test_a_damaged_rendering_costs_only_time(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    cold = generate(capsys, drop, tmp_path / "a")
    (entry,) = (tmp_path / "cache").glob("render-*.json")
    head = json.loads(entry.read_bytes().partition(b"\n")[0])
    body = json.dumps({"gens": {"toy": {"warnings": [{"message": 1}]}}, "files": {}}).encode()
    store = Cache(tmp_path / "cache")
    assert store.usable()  # an entry this user's tpbgen made (its key), of the wrong shape
    entry.write_bytes(store.seal("render", head["key"], body))
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


def _forge(entry: Path, edit: str) -> None:
    """Rewrite the cached rendering at `entry` as a writer of the cache directory can: `edit`
    appended to every generation's validators.py, the header's plain checksum recomputed (the
    check the cache made before it authenticated entries) and the HMAC left as it was."""
    import hashlib
    import json

    raw = entry.read_bytes()
    head_line, _, body = raw.partition(b"\n")
    head = json.loads(head_line)
    doc = json.loads(body)
    for path in doc["files"]:
        if path.endswith("/validators.py"):
            doc["files"][path] += edit
    forged = json.dumps(doc, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    head["payload_sha256"] = hashlib.sha256(forged).hexdigest()
    entry.write_bytes(json.dumps(head, sort_keys=True).encode() + b"\n" + forged)


@pytest.mark.parametrize("how", ["same-hmac", "own-key"])
def test_a_forged_rendering_is_neither_shipped_nor_current(
    drop: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    """Another writer of the cache directory (TPBGEN_CACHE_SHARED) replaces the cached package's
    Python and recomputes a plain checksum, or seals it with a key of its own: the entry is not
    this user's tpbgen's (its HMAC key is 0600 and this user's), so nothing of it is shipped,
    `generate --check` does not call a tree holding it current, and the run rebuilds it."""
    assert generate(capsys, drop, tmp_path / "a")[0] == 0
    real = files(tmp_path / "a")
    cache = tmp_path / "cache"
    key = cache / key_file_name()
    assert key.stat().st_mode & 0o777 == 0o600
    (entry,) = cache.glob("render-*.json")
    evil = "\nimport os\nos.environ['TPBGEN_FORGED'] = '1'\n"
    _forge(entry, evil)
    if how == "own-key":  # the forger's own key, in a directory of its own, signs the entry
        import json

        other = Cache(tmp_path / "other")
        assert other.usable()
        head_line, _, body = entry.read_bytes().partition(b"\n")
        entry.write_bytes(other.seal("render", json.loads(head_line)["key"], body))
    assert json_head(entry)["format"] == FORMAT
    # a tree holding what the forged entry holds is not current
    forged_tree = tmp_path / "forged"
    shutil.copytree(tmp_path / "a", forged_tree)
    for p in forged_tree.rglob("validators.py"):
        p.write_text(p.read_text() + evil)
    code, out, err = generate(capsys, drop, forged_tree, "--check")
    assert code == 1 and "validators.py" in out + err, out + err
    assert "[cache]" in err and "forged" in err
    # nor is it shipped: a new tree is what the drop renders
    code, _, err = generate(capsys, drop, tmp_path / "b")
    assert code == 0 and files(tmp_path / "b") == real
    assert not any("TPBGEN_FORGED" in v.decode() for v in files(tmp_path / "b").values())
    # and the real tree is current (the entry was rebuilt)
    code, out, err = generate(capsys, drop, tmp_path / "a", "--check")
    assert code == 0 and "is current" in out and "[cache]" not in err


def json_head(entry: Path) -> dict[str, object]:
    import json

    head = json.loads(entry.read_bytes().partition(b"\n")[0])
    assert isinstance(head, dict)
    return head


def test_the_key_is_private_and_makes_the_entries(tmp_path: Path) -> None:
    """The HMAC key is this user's private regular file: one others can read, or a link, is not
    used (one warning, no entry read or written); a new key (the old one removed) reads none of
    the entries the old one made."""
    import os

    d = tmp_path / "c"
    c = Cache(d)
    assert c.usable()
    c.put("ir", "g", "0" * 64, {"a": 1})
    assert Cache(d).get("ir", "g", "0" * 64) == {"a": 1}
    key = d / key_file_name()
    key.chmod(0o644)
    c = Cache(d)
    assert not c.usable() and c.get("ir", "g", "0" * 64) is None
    assert [w.code for w in c.warnings] == ["cache"] and "readable by others" in c.warnings[
        0
    ].message
    key.chmod(0o600)
    key.rename(d / "elsewhere")
    os.symlink(d / "elsewhere", key)
    c = Cache(d)
    assert not c.usable() and "cache key unusable" in c.warnings[0].message
    key.unlink()
    c = Cache(d)  # a key of its own: the old entries are not its
    assert c.usable() and c.get("ir", "g", "0" * 64) is None
    assert "forged" in c.warnings[0].message
