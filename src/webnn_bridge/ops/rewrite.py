"""Rewrites of a built graph into one that computes the same values with fewer operators, for the
backends whose runtimes have one kernel for a pattern a page spells out (each backend says when
it applies them: backends/onnx_lowering.py lower_graph, backends/litert.py tflite_model).

A rewrite never changes the graph it is given (a built graph is shared: the build memo, the
compile cache's digest); it returns a new one, or the same one where nothing matched.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from .graph import GraphIR, Node, Ref, is_ref, node_refs
from .registry import Call


def hard_swish(graph: GraphIR) -> GraphIR:
    """``x * clamp(x + 3, 0, 6) / 6`` (or ``* (1/6)``; either operand order of the add and the
    multiply) as one ``hardSwish(x)``, where x is float32 and nothing else reads the values in
    between (the graph's outputs count as readers). PaddleOCR's ONNX models spell hard-swish so,
    and onnxruntime-web's WebNN EP sends it as it is: an OCR direction classifier has 18 of them.
    The two differ by rounding alone (a few units in the last place)."""
    made = {oid: n for n in graph.nodes for oid in n.outputs}
    uses = Counter(r for n in graph.nodes for r in node_refs(n))
    uses.update(graph.outputs.values())

    def scalar(v, value: float) -> bool:
        """``v`` is a one-element float32 constant equal to ``value`` (as float32)."""
        if not is_ref(v) or v.id not in graph.constants:
            return False
        desc = graph.operands[v.id]
        if desc.data_type != "float32" or math.prod(desc.shape) != 1:
            return False
        return float(np.asarray(graph.constants[v.id]).reshape(())) == float(np.float32(value))

    def only(v, op: str) -> Node | None:
        """The ``op`` node that makes ``v`` when nothing else reads it."""
        n = made.get(v.id) if is_ref(v) else None
        return n if n is not None and n.op == op and uses[v.id] == 1 else None

    def pairs(n: Node):
        a, b = n.call["a"], n.call["b"]
        return ((a, b), (b, a))

    def match(n: Node) -> tuple[Ref, Node, Node, Node] | None:
        """(x, its multiply, clamp and add), where ``n`` ends x * clamp(x + 3, 0, 6) / 6."""
        if n.op == "div" and scalar(n.call["b"], 6.0):
            product = n.call["a"]
        elif n.op == "mul":
            product = next((p for p, c in pairs(n) if scalar(c, 1 / 6)), None)
        else:
            return None
        mul = product is not None and only(product, "mul")
        if not mul:
            return None
        for x, c in pairs(mul):
            clamp = only(c, "clamp")
            if clamp is None or clamp.call["minValue"] != 0 or clamp.call["maxValue"] != 6:
                continue
            add = only(clamp.call["input"], "add")
            if (add is not None and any(v == x and scalar(three, 3.0) for v, three in pairs(add))
                    and graph.operands[x.id].data_type == "float32"
                    and tuple(graph.operands[x.id].shape) == tuple(graph.operands[n.outputs[0]].shape)):
                return x, mul, clamp, add
        return None

    gone: set[int] = set()  # the nodes the rewrite removes, by id()
    nodes = []
    for n in graph.nodes:
        found = match(n)
        if found is None:
            nodes.append(n)
            continue
        x, *spelt_out = found
        gone.update(id(m) for m in spelt_out)
        nodes.append(Node("hardSwish", Call("hardSwish", {"input": x}), list(n.outputs)))
    if not gone:
        return graph
    return GraphIR(operands=graph.operands, inputs=graph.inputs, constants=graph.constants,
                   nodes=[n for n in nodes if id(n) not in gone], outputs=graph.outputs)
