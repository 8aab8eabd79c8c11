"""What the differential tests compare: a source's launches as the argv the
program receives after ``python -m sglang.launch_server``."""

from __future__ import annotations

from sglang_lint.model import Kind


def known_argvs(launches) -> list[list[str]]:
    """Each launch's argv; every word must be known (the tests hold exact cases)."""
    argvs = []
    for launch in launches:
        values = [token.value for token in launch.args]
        assert all(v.kind is Kind.KNOWN for v in values), [v.describe() for v in values]
        argvs.append(["-m", "sglang.launch_server", *(v.text for v in values)])
    return argvs
