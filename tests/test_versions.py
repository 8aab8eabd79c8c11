"""One script judged under four releases gives the findings each release implies
(issue 5): option tables, abbreviation ambiguity, formulas and startup checks all
follow the target version."""

from __future__ import annotations

import pytest

from sglang_lint.pipeline import LintOptions, lint_texts

SCRIPT = (
    # line 1: the prefill, written out in full
    "python -m sglang.launch_server --disaggregation-mode prefill --enable-unified-memory --tp 8 --port 30000 &\n"
    # line 2: a decode abbreviating the flag: unique in 0.5.15-0.5.19, ambiguous from
    # 0.5.20 (--enable-unified-cache-external-linker)
    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified --tp 8 --port 30001 &\n"
    # line 3: a decode with --attn-dp-size, an option from 0.5.22 (attention TP 8 / 2)
    "python -m sglang.launch_server --disaggregation-mode decode --enable-unified-memory --tp 8 --attn-dp-size 2 --port 30002 &\n"
)

EXPECTED = {
    # unified memory + PD is refused at startup by 0.5.15-0.5.17 (all three servers);
    # --attn-dp-size does not exist yet
    "0.5.17": [("SGL104", 1), ("SGL104", 2), ("SGL104", 3), ("SGL202", 3)],
    # PD + unified memory accepted; the abbreviation is unique; --attn-dp-size still
    # unknown, so every attention TP is 8
    "0.5.19": [("SGL202", 3)],
    # the abbreviation is now ambiguous (argparse refuses line 2); --attn-dp-size
    # still unknown. Whether line 2 meant unified memory is unknown, so it is not
    # also reported as one-sided unified memory (issue 18: no cascades)
    "0.5.21": [("SGL201", 2), ("SGL202", 3)],
    # --attn-dp-size exists: line 3's attention TP is 4, not the prefill's 8
    "0.5.23": [("SGL001", 3), ("SGL201", 2)],
}


@pytest.mark.parametrize("version", sorted(EXPECTED))
def test_one_script_four_releases(version: str) -> None:
    result = lint_texts({"run.sh": SCRIPT}, LintOptions(target_version=version))
    assert sorted((f.code, f.location.line) for f in result.findings) == EXPECTED[version]


def test_a_server_argparse_would_reject_still_gets_the_other_rules() -> None:
    """Line 2 has an ambiguous abbreviation (argparse exits); its other arguments
    are still read, and the pair rules still run on them."""
    script = (
        "python -m sglang.launch_server --disaggregation-mode prefill --page-size 64 --tp 8 --port 30000 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --enable-dp --page-size 16 --tp 8 --port 30001 &\n"
    )
    result = lint_texts({"run.sh": script}, LintOptions())
    codes = sorted(f.code for f in result.findings)
    assert "SGL201" in codes and "SGL003" in codes


@pytest.mark.parametrize(("version", "found"), [("0.5.4", False), ("0.5.6", False), ("0.5.7", True), ("0.5.8", True), ("0.5.23", True)])
def test_pp_mismatch_is_checked_from_0_5_7(version: str, found: bool) -> None:
    """SGLang refuses a decode --pp-size that is neither 1 nor the prefill's from
    0.5.7 (disaggregation/common/conn.py:346-351, CommonKVReceiver.__init__);
    0.5.6 and before ignore the decode's pp for the transfer (decode.py:239-240)."""
    script = (
        "python -m sglang.launch_server --disaggregation-mode prefill --pp-size 4 --port 30000 &\n"
        "python -m sglang.launch_server --disaggregation-mode decode --pp-size 2 --port 30001 &\n"
    )
    result = lint_texts({"run.sh": script}, LintOptions(target_version=version))
    assert [(f.code, f.location.line) for f in result.findings] == ([("SGL007", 2)] if found else [])


def test_mamba_ssm_dtype_choices_are_a_plugins_from_0_5_5_to_0_5_10() -> None:
    """add_mamba_ssm_dtype_choices exists in 0.5.5-0.5.10 (0.5.5 server_args.py:207-208);
    0.5.4 (server_args.py:2659) and 0.5.11 on spell the choices inline."""
    from sglang_lint.catalog.option_values import choices_extensible
    from sglang_lint.catalog.tables import load_table

    extensible = {version: choices_extensible(load_table(version).by_dest["mamba_ssm_dtype"], version) for version in ("0.5.4", "0.5.5", "0.5.10", "0.5.11")}
    assert extensible == {"0.5.4": False, "0.5.5": True, "0.5.10": True, "0.5.11": False}
