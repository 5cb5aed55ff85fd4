"""The optional firmware overlay (`firmware_status.json` beside the drop): its facts reach
`opcode_status` and the generated README; a bad overlay is a located input error (exit 2, JSON
pointer, nothing written); without the file the generated modules and README are what they were."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tpb_paths import HEADER_ROOT, REPO
from tpbgen.cache import Cache
from tpbgen.cli import main
from tpbgen.errors import TpbgenError
from tpbgen.frontend.firmware import read_overlay
from tpbgen.frontend.ingest import ingest_root

from . import runtime_import  # noqa: F401  (puts generated/ on sys.path)

OVERLAY = "firmware_status.json"
OPC = "NEURON_ISA_TPB_OPCODE_"


def generate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["generate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_opcode_status_carries_the_overlay() -> None:
    from tpb_isa import cayman, mariana, maverick, sunda

    for gen in (sunda, cayman, mariana, maverick):
        assert gen.opcode_status(0x44).firmware == "working"
        assert gen.opcode_status(0x54).firmware == "working"
        assert gen.opcode_status(0x4F).firmware == "stub"
        assert gen.opcode_status(0x5F).firmware == "stub"
        assert gen.opcode_status(0x43).firmware == ""  # the overlay says nothing about it
    st = sunda.opcode_status(0x87)
    assert (st.firmware, st.maintained, st.decodable) == ("absent", False, True)
    assert "Dual" in st.firmware_note
    assert not cayman.opcode_status(0x87).defined and cayman.opcode_status(0x87).firmware == ""


def test_readme_tables_show_the_spectrum() -> None:
    text = (REPO / "generated" / "README.md").read_text()
    sunda = text[text.index("### sunda") : text.index("### cayman")]
    assert (
        "| `0x44` | `TENSOR_SCALAR_PTR_ARITH_OP` | not maintained: use TensorScalarArithOp instead | working |"
        in sunda
    )
    assert "| `0x4f` | `TENSOR_SCALAR_PTR_MULTI_ARITH` |" in sunda and "| stub |" in sunda
    assert "| absent |" in sunda
    cayman = text[text.index("### cayman") : text.index("### mariana")]
    assert "| absent |" not in cayman and "| working |" in cayman


def _drop(tmp_path: Path, overlay: Any) -> Path:
    drop = tmp_path / "drop"
    shutil.copytree(HEADER_ROOT, drop)
    if overlay is None:
        (drop / OVERLAY).unlink()
    else:
        (drop / OVERLAY).write_text(overlay if isinstance(overlay, str) else json.dumps(overlay))
    return drop


def _ours() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HEADER_ROOT / OVERLAY).read_text())
    return data


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (
            lambda d: d["generations"]["sunda"][OPC + "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH"].update(
                firmware="gone"
            ),
            f"#/generations/sunda/{OPC}TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH/firmware",
        ),
        (  # the DUAL pair is not an opcode on CAYMAN
            lambda d: d["generations"]["cayman"].update(
                {OPC + "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH": {"firmware": "absent"}}
            ),
            f"#/generations/cayman/{OPC}TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH",
        ),
        (lambda d: d["generations"].update(trainium={}), "#/generations/trainium"),
        (lambda d: d.update(format="tpbgen-firmware-status/9"), "#/format"),
    ],
)
def test_bad_overlay_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, where: str
) -> None:
    doc = _ours()
    change(doc)
    drop = _drop(tmp_path, doc)
    code, _, err = generate(capsys, "--headers", str(drop), "--out", str(tmp_path / "gen"))
    assert code == 2, err
    assert f"{OVERLAY}{where}: error [firmware-overlay]" in err, err
    assert "Traceback" not in err and not (tmp_path / "gen").exists()


def test_malformed_overlay_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drop = _drop(tmp_path, '{"format": "tpbgen-firmware-status/1",\n  "generations": {,}}\n')
    code, _, err = generate(capsys, "--headers", str(drop), "--out", str(tmp_path / "gen"))
    assert code == 2 and f"{OVERLAY}:2:" in err and "malformed JSON" in err, err
    assert not (tmp_path / "gen").exists()


def test_without_the_overlay_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same drop without the file: no FIRMWARE table, no firmware column, every other
    generated file byte for byte the committed one."""
    drop = _drop(tmp_path, None)
    out = tmp_path / "gen"
    code, _, err = generate(capsys, "--headers", str(drop), "--out", str(out))
    assert code == 0, err
    committed = REPO / "generated"
    differ = set()
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        rel = path.relative_to(out)
        if path.read_bytes() != (committed / rel).read_bytes():
            differ.add(str(rel))
    decoders = {f"tpb_isa/{g}/decode.py" for g in ("sunda", "cayman", "mariana", "maverick")}
    assert differ == {"MANIFEST.json", "README.md", "AUDIT.md"} | decoders
    for rel in decoders:
        assert "FIRMWARE" not in (out / rel).read_text()
    readme = (out / "README.md").read_text()
    assert "firmware" not in readme.lower().replace("firmware_status", "")
    assert "with maintenance status</summary>" in readme
    assert "fw:" not in (out / "AUDIT.md").read_text()


def test_a_schema_pass_is_remembered_by_the_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a warm run does not load jsonschema for an overlay whose bytes passed before; other bytes
    # are checked again, and the names against the generations every time
    gens = [r.gen for r in ingest_root(HEADER_ROOT)]
    cache = Cache(tmp_path / "cache")
    drop = tmp_path / "drop"
    drop.mkdir()
    (drop / OVERLAY).write_bytes((HEADER_ROOT / OVERLAY).read_bytes())
    first = read_overlay(drop, gens, cache=cache)
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # importing it now fails
    again = read_overlay(drop, gens, cache=cache)
    assert first is not None and again == first
    doc = _ours()
    doc["generations"]["sunda"][OPC + "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH"]["firmware"] = "gone"
    (drop / OVERLAY).write_text(json.dumps(doc))
    with pytest.raises(ImportError):  # new bytes: the schema is consulted again
        read_overlay(drop, gens, cache=cache)
    monkeypatch.delitem(sys.modules, "jsonschema")
    with pytest.raises(TpbgenError, match="schema violation"):
        read_overlay(drop, gens, cache=cache)
    doc = _ours()  # the DUAL pair is not an opcode on CAYMAN: the schema passes, the names not
    doc["generations"]["cayman"][OPC + "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH"] = {
        "firmware": "absent"
    }
    (drop / OVERLAY).write_text(json.dumps(doc))
    with pytest.raises(TpbgenError, match="does not define"):
        read_overlay(drop, gens, cache=cache)
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(TpbgenError, match="does not define"):
        read_overlay(drop, gens, cache=cache)  # the schema's pass remembered, the names checked
