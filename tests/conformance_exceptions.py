"""Conformance cases that are expected to fail, with the reason: the ONE place to list them.

Keys are an operator name (the MLGraphBuilder method, e.g. "convTranspose2d": every case using
it) or a conformance case name (one case). A value is the reason (all backends) or a tuple
(reason, backends) limiting it to some of "reference" / "onnxruntime".

tests/test_conformance.py runs the listed cases as strict xfails: a listed case that passes fails
the run, so remove its entry once the operator is registered and correct.
"""

EXCEPTIONS: dict[str, str | tuple[str, tuple[str, ...]]] = {}
