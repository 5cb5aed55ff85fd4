"""The audit page in a real browser: no console errors, the summary and the findings first, the
opcode matrix and byte maps after them, collapsed until opened.

Needs Playwright (`pip install playwright`, in the test extra) and a Chromium from the system
(`apt-get install chromium-headless-shell` or `chromium`; `playwright install` cannot reach its
download host here). Skipped, with the reason, when either is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tpb_paths import HEADER_ROOT
from tpbgen.cli import main

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")


def _browser() -> str:
    found = next((p for p in (shutil.which(b) for b in BROWSERS) if p), None)
    if found is None:
        pytest.skip(
            f"no Chromium on PATH ({', '.join(BROWSERS)}); apt-get install chromium-headless-shell"
        )
    return found


def test_audit_page_in_a_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
    )
    executable = _browser()
    page_file = tmp_path / "audit.html"
    assert (
        main(
            [
                "audit",
                "--all",
                "--headers",
                str(HEADER_ROOT),
                "--format",
                "html",
                "--out",
                str(page_file),
            ]
        )
        == 1
    )
    capsys.readouterr()
    problems: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on(
                "console",
                lambda m: (
                    problems.append(f"console {m.type}: {m.text}")
                    if m.type in ("error", "warning")
                    else None
                ),
            )
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
            page.goto(page_file.as_uri())
            page.wait_for_load_state("load")
            assert problems == []
            # the page opens on the summary, and the first findings follow it on the first screen
            assert page.locator("h2#summary").is_visible()
            first = page.locator("table.findings").first
            assert first.is_visible() and first.bounding_box()["y"] < 900  # type: ignore[index]
            # the matrix and the byte maps come after every finding, collapsed
            matrix = page.locator("details#matrix")
            last_findings = page.locator("table.findings").last.bounding_box()
            assert matrix.bounding_box()["y"] > last_findings["y"]  # type: ignore[index]
            assert not page.locator("details#matrix table.matrix").is_visible()
            matrix.locator("summary").click()
            assert page.locator("details#matrix table.matrix").is_visible()
            maps = page.locator("details.byte-maps").first
            assert not maps.locator("table.bytes").first.is_visible()
            maps.locator("summary").click()
            assert maps.locator("table.bytes").first.is_visible()
            # a transition's link leads to its byte maps' summary line, one click from open
            page.reload()
            link = page.locator("a[href$='-maps']").first
            target = link.get_attribute("href")
            assert target is not None
            link.click()
            summary = page.locator(f"{target} > summary")
            assert summary.is_visible() and 0 <= summary.bounding_box()["y"] < 900  # on screen  # type: ignore[index]
            summary.click()
            assert page.locator(f"{target} table.bytes").first.is_visible()
            assert problems == []
        finally:
            browser.close()
