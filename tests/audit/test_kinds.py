"""The finding kinds are declared once (audit/kinds.py): the JSON schema, the classification rules
and the report's labels are held to that registry here, so a new kind cannot be half-added."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tpb_paths import HEADER_ROOT
from tpbgen.audit.classify import CLASSES, RULES, classify
from tpbgen.audit.diff import Change, Differ, Side
from tpbgen.audit.kinds import (
    CATEGORIES,
    KINDS,
    Detail,
    FunctionRemoved,
    OpcodeRenumbered,
    SizeChange,
)
from tpbgen.audit.report import kind_label


def _finding_schema() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (resources.files("tpbgen.audit") / "report.schema.json").read_text(encoding="utf-8")
    )
    finding: dict[str, Any] = doc["$defs"]["finding"]
    return finding


def test_the_schema_names_every_kind_and_category_in_the_registry_order() -> None:
    props = _finding_schema()["properties"]
    assert props["kind"]["enum"] == list(KINDS)
    assert props["category"]["enum"] == list(CATEGORIES)
    assert {k.category for k in KINDS.values()} <= set(CATEGORIES)


def test_the_detail_fields_the_schema_requires_are_the_kinds_own() -> None:
    checked = 0
    for rule in _finding_schema()["allOf"]:
        cond = rule["if"]["properties"]["kind"]
        kinds = cond["enum"] if "enum" in cond else [cond["const"]]
        required = set(rule["then"]["properties"]["detail"]["required"])
        for kind in kinds:
            names = {f.name for f in dataclasses.fields(KINDS[kind].detail)}
            assert required <= names, (kind, sorted(required - names))
            checked += 1
    assert checked >= 10


def test_rules_and_labels_come_from_the_registry() -> None:
    assert list(RULES) == list(KINDS)
    assert kind_label("function.changed") == "validator changed"
    assert kind_label("field.moved") == "field moved"
    assert kind_label("field.reserved-repurposed") == "reserved bytes repurposed"
    for kind in KINDS.values():
        assert issubclass(kind.detail, Detail) and dataclasses.is_dataclass(kind.detail)
        assert kind_label(kind.name) == kind.shown() and kind.shown()


@pytest.mark.parametrize(
    ("kind", "detail", "cls"),
    [
        ("enum.size", SizeChange(1, 2), "encoding-breaking"),
        ("function.removed", FunctionRemoved("assert"), "api-breaking"),
    ],
)
def test_a_rule_classifies_its_typed_detail(kind: str, detail: Detail, cls: str) -> None:
    got, reason = KINDS[kind].rule(detail)
    assert got == cls and got in CLASSES and reason


def test_a_change_with_another_kinds_detail_is_refused() -> None:
    differ = Differ.__new__(Differ)  # add() reads only the registry and the output list
    differ.out = []
    side = Side("a.h", 1, True)
    differ.add("enum.size", "E", "E: size 1 -> 2 bytes", side, side, SizeChange(1, 2))
    assert [c.category for c in differ.out] == ["enums"]
    assert differ.out[0].detail.detail_json() == {"old_size": 1, "new_size": 2}
    with pytest.raises(TypeError, match=r"enum\.added change carries a EnumPresence"):
        differ.add("enum.added", "E", "E added", side, side, SizeChange(1, 2))


def test_a_renumbered_opcode_validates() -> None:
    # the schema once required `value` of opcode.renumbered, whose detail has old and new values
    doc: dict[str, Any] = json.loads(
        (resources.files("tpbgen.audit") / "report.schema.json").read_text(encoding="utf-8")
    )
    side = Side("a.h", 3, True)
    change = Change(
        "opcode.renumbered",
        "opcodes",
        "OP_X",
        "OP_X: 0x10 -> 0x11",
        side,
        side,
        OpcodeRenumbered("NEURON_ISA_TPB_OPCODE", 0x10, 0x11, ["S"], ["S"], ["S"], ["S"]),
    )
    finding = classify(change).to_json()
    validator = jsonschema.Draft202012Validator({"$defs": doc["$defs"], "$ref": "#/$defs/finding"})
    assert [e.message for e in validator.iter_errors(finding)] == []
    del finding["detail"]["new_value"]
    assert list(validator.iter_errors(finding))


def test_an_audit_process_does_not_load_the_translator_or_the_generate_pipeline() -> None:
    # what a warm `tpbgen audit` imports is most of its time: it renders, it does not translate
    code = (
        "import sys, tpbgen.cli as c; c.build_parser();"
        "import tpbgen.audit.report, tpbgen.audit.run, tpbgen.audit.classify;"
        "print(sorted(m for m in sys.modules"
        " if m.startswith('tpbgen.translate') or m.startswith('tpbgen.emit')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_warm_audit_process_loads_no_parser_and_no_schema_checker(tmp_path: Path) -> None:
    # a warm `audit --all` reads the IRs, the facts and the overlay's schema pass from the cache:
    # the cold run loads the front end's parser and jsonschema, the warm one neither
    loaded = (
        "jsonschema",
        "tpbgen.frontend.build",
        "tpbgen.frontend.lexer",
        "tpbgen.frontend.parse",
    )
    code = (
        "import sys; from tpbgen.cli import main;"
        f"main(['audit', '--all', '--headers', {str(HEADER_ROOT)!r}, '--out', sys.argv[1]]);"
        f"print(sorted(m for m in {loaded!r} if m in sys.modules))"
    )
    env = {**os.environ, "TPBGEN_CACHE_DIR": str(tmp_path / "cache")}
    runs = [
        subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / f"report{k}.txt")],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout.splitlines()[-1]  # (after the line saying the report was written)
        for k in range(2)
    ]
    assert runs == [repr(sorted(loaded)), "[]"]
