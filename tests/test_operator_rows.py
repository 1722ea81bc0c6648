"""The operator row as the single source (issue 37): what a row of src/webnn_bridge/ops/defs/ carries is what the
backends claim. A row's PyTorch lowering is carried in the row, so an operator without one is never
claimed by PyTorch (before, a missing entry of a separate dictionary was a KeyError at compile time
while the README showed the op as supported); every operator PyTorch claims runs its lowering."""

from __future__ import annotations

import pytest

from webnn_bridge.backends.torch import TorchBackend
from webnn_bridge.ops.defs import activation, unary
from webnn_bridge.ops.registry import load_all


def test_a_unary_row_without_a_torch_lowering_is_not_claimed():
    row = unary._ROWS["sqrt"]
    assert unary.torch_lowerings({"rowWithNone": row[:5] + (None,), "shortRow": row[:5]}) == {}
    assert set(unary.torch_lowerings({"rowWithOne": row[:5] + ("abs",)})) == {"rowWithOne"}


@pytest.mark.parametrize("module", [unary, activation], ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pytorch_claims_exactly_the_rows_that_carry_a_lowering(module):
    backend = TorchBackend()
    for name, row in module._ROWS.items():
        carried = len(row) > 5 and row[5] is not None
        assert (load_all()[name].torch is not None) is carried, name
        assert backend.implements(name) is carried, name


def test_every_operator_pytorch_claims_runs_its_lowering():
    pytest.importorskip("torch")
    from webnn_bridge.devtools import sweep_run

    if "torch" not in sweep_run.CONTEXTS:
        pytest.skip("PyTorch reports no CPU device here")
    backend = TorchBackend()
    claimed = [op for op in sorted(load_all()) if backend.implements(op)]
    assert claimed
    failures = {}
    for op in claimed:
        types = sweep_run.allowed(op, sweep_run.main_operand(op), "torch")
        assert types, f"{op}: PyTorch claims it but its context reports no data type for it"
        try:
            sweep_run._check("torch", op, types[0])
        except Exception as e:  # noqa: BLE001 - collected, reported together
            failures[op] = f"{type(e).__name__}: {e}"
    assert not failures, f"operators PyTorch claims whose lowering fails: {failures}"
