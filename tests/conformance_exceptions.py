"""Conformance cases that are expected to fail, with the reason: the ONE place to list them.

Keys are an operator name (the MLGraphBuilder method, e.g. "convTranspose2d": every case using
it) or a conformance case name (one case). A value is the reason (all backends) or a tuple
(reason, backends) limiting it to some of "reference" / "onnxruntime" / "torch" / "openvino".

tests/test_conformance.py runs the listed cases as strict xfails: a listed case that passes fails
the run, so remove its entry once the operator is registered and correct.
"""

EXCEPTIONS: dict[str, str | tuple[str, tuple[str, ...]]] = {}

# 64-bit integer values above 2^53 that ONNX Runtime's CPU kernels compute through float64 (the
# reference is exact). tests/test_capability_sweep.py runs these as strict xfails. Keys are
# (sweep case, data type); a case is an operator name, or "op:variant" for a variant of its graph.
_VIA_DOUBLE = "ONNX Runtime computes this through float64: 64-bit integers above 2^53 lose their low bits"
ORT_LARGE_INT64: dict[tuple[str, str], str] = {
    # windows of up to 256 positions are exact (strided slices); wider ones use ORT's MaxPool
    ("maxPool2d:wide", "int64"): "maxPool2d windows over 256 positions use MaxPool through float64. " + _VIA_DOUBLE,
    ("maxPool2d:wide", "uint64"): "maxPool2d windows over 256 positions use MaxPool through float64. " + _VIA_DOUBLE,
}
