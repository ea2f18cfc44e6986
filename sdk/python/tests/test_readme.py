"""The README's quick start is what CI runs: every code line of its Python block is in quickstart.py."""

from __future__ import annotations

import re
from pathlib import Path

SDK = Path(__file__).resolve().parents[1]


def code_lines(text: str) -> list[str]:
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def test_every_line_of_the_readme_quick_start_is_in_quickstart_py() -> None:
    readme = (SDK / "README.md").read_text()
    block = re.search(r"## Quick start.*?```python\n(.*?)```", readme, re.DOTALL)
    assert block is not None, "README.md has no Python block under Quick start"
    script = set(code_lines((SDK / "quickstart.py").read_text()))
    shown = code_lines(block.group(1))
    assert len(shown) >= 8
    assert [line for line in shown if line not in script] == []
