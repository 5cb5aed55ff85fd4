"""The HTML pages fit the window: at 800 and 1,280 px wide, the audit page (every `<details>`
opened) and a coverage page are no wider than the window, and every table either fits or
scrolls inside a box that does; long text (paths, terms) wraps inside its cell. Measured in a
real browser (Playwright and a system Chromium; skipped, with the reason, when either is
missing: see test_html_in_browser.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tpb_paths import HEADER_ROOT, REPO
from tpbgen.cli import main

from .test_html_in_browser import _browser

WIDTHS = (800, 1280)

# each table's right edge, and that of the nearest ancestor that scrolls sideways (or None)
_MEASURE = """() => {
  const out = [];
  for (const t of document.querySelectorAll('table')) {
    let box = null;
    for (let e = t.parentElement; e; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll') { box = e; break; }
    }
    out.push({
      cls: t.className,
      right: t.getBoundingClientRect().right,
      box: box ? box.getBoundingClientRect().right : null,
    });
  }
  return {
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
    tables: out,
  };
}"""


def _check(page: Any, width: int) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": 900})
    m: dict[str, Any] = page.evaluate(_MEASURE)
    assert m["window"] == width
    assert m["page"] <= width, f"the page is {m['page']} px wide in a {width} px window"
    for t in m["tables"]:
        edge = t["right"] if t["box"] is None else t["box"]
        assert edge <= width + 0.5, f"table.{t['cls']} ends at {edge} px in a {width} px window"
    return m


def _open(path: Path) -> tuple[Any, Any, Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
    )
    executable = _browser()
    pw = sync_api.sync_playwright().start()
    browser = pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
    page = browser.new_page()
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return pw, browser, page


def test_the_audit_page_fits_800_and_1280_px(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page_file = tmp_path / "audit.html"
    argv = ["audit", "--all", "--headers", str(HEADER_ROOT), "--format", "html"]
    assert main([*argv, "--out", str(page_file)]) == 1
    capsys.readouterr()
    pw, browser, page = _open(page_file)
    try:
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        for width in WIDTHS:
            m = _check(page, width)
            assert any(t["cls"] == "findings" for t in m["tables"])
            # the findings span the window, no wider: their text wraps in its cells
            for t in m["tables"]:
                if t["cls"] == "findings":
                    assert t["box"] is None and t["right"] <= width
            # the byte maps and the matrix are wider than 800 px: they scroll in their boxes
            if width == 800:
                assert any(t["box"] is not None and t["right"] > width for t in m["tables"])
    finally:
        browser.close()
        pw.stop()


def test_a_coverage_page_fits_800_and_1280_px(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "generated"))
    import importlib

    mod = importlib.import_module("tpb_isa.mariana")
    words = np.vstack(
        [
            mod.random_words(200, seed=1),
            mod.random_words(100, valid=False, seed=1),
        ]
    )
    page_file = tmp_path / "coverage.html"
    page_file.write_text(mod.coverage(words).html(), encoding="utf-8")
    pw, browser, page = _open(page_file)
    try:
        for width in WIDTHS:
            _check(page, width)
    finally:
        browser.close()
        pw.stop()
