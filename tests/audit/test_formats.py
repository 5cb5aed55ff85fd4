"""The four output formats: JSON validates against its schema, the HTML page is well-formed and
self-contained, text is coloured only on a terminal, Markdown is deterministic."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tpb_paths import HEADER_ROOT, REPO
from tpbgen.audit import render_audit_markdown
from tpbgen.errors import shown_path
from tpbgen.frontend.ingest import ingest_root

from .helpers import copy_generation, edit, run


def schema() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (resources.files("tpbgen.audit") / "report.schema.json").read_text(encoding="utf-8")
    )
    return doc


def test_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize(
    "argv", [("--all",), ("sunda", "cayman"), ("mariana", "maverick", "--fail-on", "any")]
)
def test_json_validates(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    r = run(capsys, *argv, "--format", "json")
    assert r.rc == 1
    doc = r.json()
    errors = sorted(
        jsonschema.Draft202012Validator(schema()).iter_errors(doc),
        key=lambda e: list(e.absolute_path),
    )
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    assert doc["fails"] is True
    assert sum(doc["totals"].values()) == sum(len(t["findings"]) for t in doc["transitions"])


def test_schema_rejects_a_broken_report(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run(capsys, "cayman", "mariana", "--format", "json").json()
    f = next(f for f in doc["transitions"][0]["findings"] if f["kind"] == "function.changed")
    f["detail"]["terms"][0]["op"] = "?"
    doc["transitions"][0]["findings"][0]["class"] = "breaking-ish"
    assert len(list(jsonschema.Draft202012Validator(schema()).iter_errors(doc))) >= 2


_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(
                f"</{tag}> at {self.getpos()} closes {self.stack[-1] if self.stack else 'nothing'}"
            )
            return
        self.stack.pop()


@pytest.mark.parametrize("argv", [("--all",), ("cayman", "mariana")])
def test_html_is_well_formed_and_self_contained(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    out = tmp_path / "audit.html"
    r = run(capsys, *argv, "--format", "html", "--out", str(out))
    assert (
        r.rc == 1 and r.out.startswith(f"{out}: html report written (") and r.out.count("\n") == 1
    )  # one line: what it wrote, found
    page = out.read_text(encoding="utf-8")
    p = _Balance()
    p.feed(page)
    p.close()
    assert p.errors == [] and p.stack == []
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?://", page)
    assert not [a for a in p.attrs if a[1] in ("src", "srcset")]
    assert (
        not [a for a in p.attrs if a[0] == "link"]
        and "script" not in p.tags
        and "@import" not in page
    )
    # the three parts: the presence matrix, byte maps of changed structs, the findings
    assert 'class="matrix"' in page and 'class="bytes"' in page and 'class="findings"' in page
    assert "maintained" in page and "not-maintained" in page
    if argv == ("cayman", "mariana"):
        assert "NEURON_ISA_TPB_S3D3_TS_STRUCT (64 -&gt; 64 bytes, 32 changed)" in page


def test_byte_map_marks_exactly_the_moved_bytes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    new = copy_generation("maverick", tmp_path)
    edit(
        new / "aws_neuron_isa_tpb_s4d4_tsm.h",
        "    uint8_t                            num_active_channels;  // 1   (34     )\n"
        "    uint8_t                            reserved0[1];         // 1   (35     )\n",
        "    uint8_t                            reserved0[1];         // 1   (34     )\n"
        "    uint8_t                            num_active_channels;  // 1   (35     )\n",
    )
    out = tmp_path / "a.html"
    run(
        capsys,
        str(HEADER_ROOT / "neuron_maverick_arch_isa" / "tpb"),
        str(new),
        "--format",
        "html",
        "--out",
        str(out),
    )
    page = out.read_text(encoding="utf-8")
    assert "NEURON_ISA_TPB_S4D4_TSM_STRUCT (64 -&gt; 64 bytes, 2 changed)" in page
    marked = re.findall(r'<td class="chg[^"]*" title="byte (\d+):', page)
    assert sorted(set(int(b) for b in marked)) == [34, 35]


def test_text_colour_only_on_a_tty(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = run(capsys, "sunda", "cayman")
    assert "\x1b[" not in plain.out
    assert "encoding-breaking (13)" in plain.out or "encoding-breaking (" in plain.out
    monkeypatch.delenv("NO_COLOR", raising=False)
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    coloured = run(capsys, "sunda", "cayman")
    assert "\x1b[1;31m" in coloured.out
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.out) == plain.out


def test_markdown_is_deterministic_and_relative() -> None:
    gens = [r.gen for r in ingest_root(HEADER_ROOT)]
    a = render_audit_markdown(gens)
    b = render_audit_markdown(list(gens))
    assert a == b
    assert a.startswith("# tpbgen audit: sunda → cayman → mariana → maverick\n")
    assert (
        str(REPO) not in a
        and "/tmp" not in a
        and not re.search(r"\b\d{4}-\d{2}-\d{2}\b|\d{2}:\d{2}:\d{2}", a)
    )
    for heading in ("## sunda → cayman", "## cayman → mariana", "## mariana → maverick"):
        assert heading in a
    assert "```diff" in a and "+ has_valid_active_channel_range_with_tile(" in a
    # every finding line names both sides
    bullets = [ln for ln in a.splitlines() if ln.startswith("  old `")]
    assert bullets and all(" · new `" in ln for ln in bullets)


def test_markdown_cli_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    """The same report; the command names each file as it opens from the current directory,
    AUDIT.md (the library) relative to the header root."""
    r = run(capsys, "--all", "--format", "md")
    results = ingest_root(HEADER_ROOT)
    shown = shown_path(str(HEADER_ROOT.resolve()))
    library = render_audit_markdown([x.gen for x in results])
    assert r.out == library.replace("`neuron_", f"`{shown}/neuron_")
    assert r.out != library and f"`{shown}/neuron_sunda_arch_isa/tpb/" in r.out


@pytest.mark.parametrize(
    "doc",
    [
        {"b": [1, 2.5, -0.0, True, False, None], "a": {}, "c": [], "d": ("t", 'ü\u2028"\\')},
        [[[]], {"z": {"y": [{}]}}, "x"],
        {"nan": float("nan"), "inf": [float("inf")]},  # json's own spelling, by falling back
        {2: "int keys", 1: "sorted as ints"},
        "",
        7,
    ],
)
def test_json_text_is_json_dumps_indented(doc: Any) -> None:
    """The JSON report's encoder writes exactly what json.dumps(indent=2, sort_keys=True) does."""
    from tpbgen.audit.report import dumps_indented

    assert dumps_indented(doc) == json.dumps(doc, indent=2, sort_keys=True)


def test_json_report_is_json_dumps_indented(capsys: pytest.CaptureFixture[str]) -> None:
    r = run(capsys, "--all", "--format", "json")
    assert r.out == json.dumps(r.json(), indent=2, sort_keys=True) + "\n"
