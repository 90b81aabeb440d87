"""No function of the table, the shell or the commands above radon's grade C.

Grade C ends at a cyclomatic complexity of 20: beyond it a function does several jobs,
and a newcomer cannot hold it in one reading.  The flow of the table (`bgpi/table`), the
service that runs it (`bgpi/shell`) and the commands (`bgpi/cli`) are where such
functions grew before; this keeps them from growing back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_rank, cc_visit

PACKAGE = Path(__file__).resolve().parent.parent / "bgpi"
KEPT_SIMPLE = ("table", "shell", "cli")


def _modules() -> list[Path]:
    return sorted(path for folder in KEPT_SIMPLE for path in (PACKAGE / folder).rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_function_is_above_grade_c(path: Path) -> None:
    too_complex = [f"{block.fullname} (line {block.lineno}): {cc_rank(block.complexity)} ({block.complexity})"
                   for block in cc_visit(path.read_text(encoding="utf-8"))
                   if cc_rank(block.complexity) not in "ABC"]
    assert not too_complex, too_complex
