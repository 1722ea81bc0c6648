"""Limits a client can trust (issue 25): whatever data type opSupportLimits() says an operation
(or an input, constant or output) takes, the layout operations a client needs to prepare such an
operand take it too, on every canonical profile a page can see. onnxruntime-web's WebNN EP,
for one, commits a DequantizeLinear to WebNN when dequantizeLinear lists uint4, then reshapes the
zero point; a profile without uint4 for reshape failed that build."""

from __future__ import annotations

import pytest

from webnn_bridge.policy import privacy

# the layout operations and the operands that carry the data (not indices, not shapes)
LAYOUT = {
    "reshape": ["input"], "transpose": ["input"], "expand": ["input"], "slice": ["input"],
    "concat": ["inputs"], "gather": ["input"], "cast": ["input", "output"],
}
INDEX_TYPES = {"int32", "uint32", "int64"}


def violations(limits: dict) -> list[str]:
    accepted: dict[str, set[str]] = {}  # data type -> what accepts it
    for op, entry in limits.items():
        if not isinstance(entry, dict):
            continue
        if "dataTypes" in entry:  # input, constant, output
            for t in entry["dataTypes"]:
                accepted.setdefault(t, set()).add(op)
            continue
        for operand, lim in entry.items():
            if isinstance(lim, dict):
                for t in lim.get("dataTypes", []):
                    accepted.setdefault(t, set()).add(f"{op}.{operand}")
    # a gather needs integer indices: a profile that holds no index type cannot offer one
    has_index_type = any(t in INDEX_TYPES for t in limits.get("gather", {}).get("indices", {}).get("dataTypes", [])) \
        or any(t in INDEX_TYPES for t in accepted)
    out = []
    for t, users in sorted(accepted.items()):
        for op, operands in LAYOUT.items():
            if op == "gather" and not has_index_type:
                continue
            for operand in operands:
                if t not in limits.get(op, {}).get(operand, {}).get("dataTypes", []):
                    out.append(f"{t} (taken by {sorted(users)[0]} and {len(users) - 1} more) but not by {op}.{operand}")
    return out


@pytest.mark.parametrize("profile", privacy.canonical_profiles(), ids=lambda p: p.name)
def test_layout_operations_take_every_data_type_the_profile_offers(profile):
    limits = privacy.profile_limits(profile)
    assert violations(limits) == []


def test_the_rule_catches_a_missing_type():
    # the regression of issue 25: dequantizeLinear lists uint4, reshape does not
    limits = {
        "input": {"dataTypes": ["float32"]},
        "dequantizeLinear": {"input": {"dataTypes": ["uint4"]}, "scale": {"dataTypes": ["float32"]},
                             "zeroPoint": {"dataTypes": ["uint4"]}, "output": {"dataTypes": ["float32"]}},
        **{op: {o: {"dataTypes": ["float32", "int32"]} for o in operands} for op, operands in LAYOUT.items()},
    }
    v = violations(limits)
    assert any(x.startswith("uint4") and "reshape.input" in x for x in v)
    assert not any(x.startswith("float32") for x in v)


@pytest.mark.parametrize("dt", ["int4", "uint4"])
def test_layout_operations_run_int4_and_uint4_on_every_cpu_backend(dt):
    """The widened limits are true: every CPU backend installed here (ONNX Runtime, OpenVINO and
    PyTorch hold int4 / uint4 as int8 / uint8) gives the numpy reference's values for every layout
    operation."""
    import numpy as np

    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.ops.core import DATA_TYPES

    ml = ML()
    ref_device = next(d for d in ml.inventory if d.backend == "reference")
    devices = [d for d in ml.inventory if d.backend != "reference"] + [ref_device]
    contexts = [ML([d]).createContext({"accelerated": False}) for d in devices]
    # the backends whose context offers the type (and so, by the rule, for every layout operation)
    offered = [dt in c.opSupportLimits()["input"]["dataTypes"] for c in contexts]
    devices = [d for d, o in zip(devices, offered) if o]
    contexts = [c for c, o in zip(contexts, offered) if o]
    values = [[1, -2, 3], [4, 5, -8]] if dt == "int4" else [[1, 2, 3], [4, 5, 15]]
    x = np.array(values).astype(DATA_TYPES[dt].numpy)
    results = []
    for ctx in contexts:
        b = MLGraphBuilder(ctx)
        i = b.input("x", {"dataType": dt, "shape": [2, 3]})
        idx = b.constant({"dataType": "int32", "shape": [1]}, np.array([1], np.int32))
        g = b.build({
            "reshape": b.reshape(i, [3, 2]), "transpose": b.transpose(i), "expand": b.expand(i, [2, 2, 3]),
            "slice": b.slice(i, [0, 1], [2, 2]), "concat": b.concat([i, i], 0), "gather": b.gather(i, idx, axis=0),
            "cast": b.cast(b.reshape(i, [6]), "float32"),
        })
        results.append({k: v.astype(np.int32) for k, v in ctx.compute(g, {"x": x}).items()})
    *backends, ref = results
    assert ref["cast"].tolist() == sum(values, [])
    assert ref["transpose"].tolist() == np.array(values).T.tolist()
    assert ref["gather"].tolist() == [values[1]]
    assert len(backends) >= 1  # ONNX Runtime at least
    for device, got in zip(devices, backends):
        for k in ref:
            assert np.array_equal(got[k], ref[k]), (device.id, k)
