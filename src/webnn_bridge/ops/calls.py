"""The rules of a builder call that are not one operator's own: from a call's WebIDL-converted
arguments to its ``Call``, the operator's rules then the context's capabilities, input names and
input()/constant() descriptors, and the TypeError message a page sees. The Python builder
(bridge/api.py) and the host's replay of page graphs run them; devtools/codegen/jsgen.py translates them
into the shim, which runs them on every builder call in the page (the host runs these originals
again at build()). Pure: no object model, no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import idl
from .core import NotSupportedError, OperandDesc, WebNNTypeError, check_dimensions, desc_from_dict
from .registry import Call, Capabilities, OpDef, OperandList, load_all


class OperandLike:
    """Anything that stands for an MLOperand during validation: has a ``desc``."""

    desc: OperandDesc

    @property
    def dataType(self) -> str:  # noqa: N802 (spec name)
        return self.desc.data_type

    @property
    def shape(self) -> list[int]:
        return list(self.desc.shape)


def is_operand(v: Any) -> bool:
    return isinstance(v, OperandLike)


def prepare_call(op: str, raw_args: list) -> tuple[OpDef, Call]:
    """WebIDL-convert a builder call and find its operator. Shared by the Python builder and the
    host's replay of page graphs."""
    overload, conv = idl.convert_args("MLGraphBuilder", op, raw_args)
    opdef = load_all().get(op)
    if opdef is None:
        raise NotSupportedError(f"MLGraphBuilder.{op}() is not supported by webnn-bridge yet.")
    return opdef, call_from(op, overload, conv)


def is_options(spec: dict) -> bool:
    """Whether an IDL argument is a builder method's options dictionary."""
    return spec["type"]["t"] == "dict" and spec["name"] == "options"


def call_from(op: str, overload: dict, conv: dict) -> Call:
    """The Call of a converted builder call: positional arguments and options, as the IDL names
    them. Translated into the shim (devtools/codegen/jsgen.py)."""
    args = {}
    options = {}
    for spec in overload["args"]:
        v = conv.get(spec["name"])
        if is_options(spec):
            options = v or {}
        elif spec["type"]["t"] in ("sequence", "frozen") and spec["type"]["of"] == {"t": "iface", "name": "MLOperand"}:
            args[spec["name"]] = OperandList(v)
        else:
            args[spec["name"]] = v
    return Call(op, args, options)


def positional_args(op: str, args: Mapping[str, Any]) -> list:
    """call_from's inverse: a Call's arguments (by IDL name) in the order of the first overload of
    builder method ``op`` that takes them all, the options left out. ValueError if none does."""
    for ov in idl.operations("MLGraphBuilder").get(op, []):
        names = [a["name"] for a in ov["args"] if not is_options(a)]
        if set(args) <= set(names):
            out = []
            for name in names:
                if name not in args:
                    break
                out.append(args[name])
            if len(out) == len(args):
                return out
    raise ValueError(f"a call of {op}() with arguments {sorted(args)}: no IDL overload takes them")


def infer_call(opdef: OpDef, call: Call, caps: Capabilities | None = None) -> list[OperandDesc]:
    """Validate a call whose operands are OperandLike; returns the output descriptors."""
    desc_call = call.map_operands(lambda o: o.desc, is_operand)
    try:
        return validate_call(opdef, desc_call, caps)
    except WebNNTypeError as e:
        raise WebNNTypeError(labelled_message(call, str(e))) from None


# The functions below are op rules: devtools/codegen/jsgen.py translates them into the shim, which runs them on
# every builder call in the page (the host runs these originals again at build()).


def validate_call(opdef: OpDef, call: Call, caps: Capabilities | None) -> list[OperandDesc]:
    """The op's rules, then the context's capabilities, on a call whose operands are descriptors."""
    outs = opdef.validate(call)
    if caps is not None:
        _check_capabilities(opdef, call, outs, caps)
    return outs


def labelled_message(call: Call, message: str) -> str:
    """A rule's TypeError message as the page sees it: prefixed with the op, and with the
    operator's label as "[label] ..." (the form WPT matches)."""
    msg = message if message.startswith(call.op) else f"{call.op}: {message}"
    return f"[{call.label}] {msg}" if call.label else msg


def check_input_name(name: str, taken: set) -> None:
    """input(): a non-empty name, not used by another input of the builder."""
    if not name:
        raise WebNNTypeError("input(): the name must not be empty.")
    if name in taken:
        raise WebNNTypeError(f"input(): duplicate input name '{name}'.")


def check_new_operand(context: OperandChecks, kind: str, descriptor: dict) -> OperandDesc:
    """input()/constant(): the descriptor's dimensions, then what the context supports."""
    return context.check_operand(kind, check_dimensions(desc_from_dict(descriptor), kind))


def check_scalar_constant(context: OperandChecks, data_type: str) -> OperandDesc:
    """constant(type, value): a scalar operand of that type. int4 and uint4 (extensions, as
    Chromium ships them) are refused here as Chromium refuses them: they exist for packed tensors,
    and a scalar is one element."""
    if data_type == "int4" or data_type == "uint4":
        raise WebNNTypeError(f"constant(): a scalar constant cannot have data type {data_type}.")
    return check_new_operand(context, "constant", {"dataType": data_type, "shape": []})


def _check_capabilities(opdef: OpDef, call: Call, outs: list[OperandDesc], caps: Capabilities) -> None:
    limits = caps.ops.get(opdef.name)
    if limits is None:
        raise WebNNTypeError(f"{opdef.name} is not supported by this context.")
    named = list(call.operands(_is_desc))
    named += [(opdef.outputs[min(i, len(opdef.outputs) - 1)], d) for i, d in enumerate(outs)]
    for name, d in named:
        lim = limits.get(name)
        if lim is None or lim.same is not None:
            continue
        if d.data_type not in lim.types:
            raise WebNNTypeError(f"operand '{name}' data type {d.data_type} is not supported by this context.")
        lo, hi = lim.ranks
        if d.rank < lo or d.rank > (caps.max_rank if hi is None else hi):
            raise WebNNTypeError(f"operand '{name}' rank {d.rank} is not supported by this context.")
    for d in outs:
        # the created operand's descriptor must pass "check dimensions" with this context's limits
        check_dimensions(d, f"{opdef.name} output", caps.max_rank, caps.max_tensor_byte_length)


def _is_desc(v: Any) -> bool:
    return isinstance(v, OperandDesc)



class OperandChecks:
    """input()/constant() against what a context's opSupportLimits() reports: MLContext is one
    (``capabilities`` and ``_limits``, opSupportLimits()' data); the shim's contexts mirror it."""

    capabilities: Capabilities
    _limits: dict

    def _check_byte_length(self, desc: OperandDesc) -> None:
        if desc.byte_length > self.capabilities.max_tensor_byte_length:
            raise WebNNTypeError(f"Tensor {desc} exceeds maxTensorByteLength.")

    def check_operand(self, kind: str, desc: OperandDesc) -> OperandDesc:
        """input()/constant() against what opSupportLimits() reports for ``kind``."""
        lim = self._limits[kind]
        if desc.data_type not in lim["dataTypes"]:
            raise WebNNTypeError(f"{kind}(): data type {desc.data_type} is not supported by this context.")
        lo, hi, rank = lim["rankRange"]["min"], lim["rankRange"]["max"], len(desc.shape)
        if not lo <= rank <= hi:
            raise WebNNTypeError(f"{kind}(): rank {rank} is outside [{lo}, {hi}] for this context.")
        self._check_byte_length(desc)
        return desc


def check_dispatch(inputs: dict, outputs: dict, graph_inputs: dict, graph_outputs: dict) -> None:
    """dispatch(): its tensors against the graph's inputs and outputs, after each tensor was found
    to be a live MLTensor of the context. ``inputs``/``outputs``: name -> {"id": the tensor's
    identity, "constant": bool, "dataType": str, "shape": list}; ``graph_*``: name ->
    {"dataType": str, "shape": list}."""
    seen = []
    for kind, named, expected in (("input", inputs, graph_inputs), ("output", outputs, graph_outputs)):
        names = sorted(named)
        want = sorted(expected)
        if names != want:
            raise WebNNTypeError(f"dispatch: {kind} names {names} do not match the graph's {want}.")
        for name in names:
            t = named[name]
            if t["constant"]:
                raise WebNNTypeError(f"dispatch: {kind} '{name}' is a constant tensor.")
            if t["id"] in seen:
                raise WebNNTypeError(f"dispatch: tensor '{name}' is used more than once.")
            seen.append(t["id"])
            e = expected[name]
            if t["dataType"] != e["dataType"] or list(t["shape"]) != list(e["shape"]):
                raise WebNNTypeError(f"dispatch: {kind} '{name}' is {t['dataType']} {list(t['shape'])}, "
                                     f"the graph expects {e['dataType']} {list(e['shape'])}.")
