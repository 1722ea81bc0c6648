"""A planted runtime crash for the crash-journal tests (tests/test_crash_journal.py,
e2e/test_crash_restart.py): Python code that, run in a host's process (as its launcher, or as a
sitecustomize module so that every process of the host has it), makes ONNX Runtime's session
creation abort the process for matmuls of width 77 (as ONNX Runtime 1.32's did for one float16
pattern, before the host learned to avoid it) and its runs abort on an input holding 1234.5."""

PLANT = """
import os
import numpy as np
from webnn_bridge.backends import onnxruntime as ortb
real_init, real_run = ortb.OrtCompiled.__init__, ortb.OrtCompiled.run
def init(self, graph, *a, **k):
    if any(n.op == "matmul" and graph.operands[n.outputs[0]].shape[-1] == 77 for n in graph.nodes):
        os.abort()
    real_init(self, graph, *a, **k)
def run(self, inputs):
    if any((np.asarray(v) == 1234.5).any() for v in inputs.values()):
        os.abort()
    return real_run(self, inputs)
ortb.OrtCompiled.__init__, ortb.OrtCompiled.run = init, run
"""
