"""What replies carry, encoded for the wire beside protocol.py's framing: an error as a page sees
it, a context's limits and rules (once per canonical profile), a build's placement report. Pure
functions of host objects; the session puts them in its replies."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from webnn_bridge.backends.base import Capabilities
from webnn_bridge.backends.capabilities import by_identity
from webnn_bridge.ops.core import WebNNError
from webnn_bridge.policy import privacy
from webnn_bridge.policy.privacy import CanonicalProfile, profile_limits

from . import protocol

if TYPE_CHECKING:
    from .api import MLGraph

log = logging.getLogger("webnn_bridge.session")

MAX_MESSAGE_CHARS = 600  # error messages to pages are ours and short (no echo of huge inputs)


def wire(e: WebNNError) -> dict:
    """An error as a page sees it: the spec's name and a bounded message of our own."""
    w = e.to_wire()
    if len(w["message"]) > MAX_MESSAGE_CHARS:
        w["message"] = w["message"][: MAX_MESSAGE_CHARS - 3] + "..."
    return w


@by_identity()
def context_wire(profile: CanonicalProfile) -> dict:
    """What createContext's reply tells about a context of this canonical profile, encoded once
    per profile (never modified: replies only serialize it): its opSupportLimits() and its rules."""
    return {"limits": protocol.encode_value(profile_limits(profile)), "rules": rules_wire(profile.caps)}


@by_identity()
def context_wire_key(profile: CanonicalProfile) -> str:
    """A short digest of context_wire(profile): a page that holds its rules under this key (from an
    earlier context of the same link) gets the key alone, not the 54 KB again."""
    import hashlib
    import json

    text = json.dumps(context_wire(profile), sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def rules_wire(caps: Capabilities) -> dict:
    """A context's capabilities as the shim's translated rules read them (bridge/api.py
    _check_capabilities): per op and operand the data types, rank range and "same as" link."""
    ops = {
        op: {name: {"types": list(lim.types), "ranks": list(lim.ranks), "same": lim.same} for name, lim in lims.items()}
        for op, lims in caps.ops.items()
    }
    return {"ops": ops, "maxRank": caps.max_rank, "maxTensorByteLength": caps.max_tensor_byte_length}


def placement_report(graph: MLGraph) -> dict:
    """What a page learns after build() (experimental, namespaced as WebNNBridge in the shim):
    the effective policy (#934) and a DAOP-style QoS tier, both coarse and identity-free."""
    p = graph.placement
    if p is None:
        return {}
    rules = graph.context.ml.rules
    report = {"effective": privacy.effective_report(p, rules, simulated=graph.context.ml.simulated),
              "devices": privacy.graph_devices(p)}
    try:
        report["qos"] = privacy.estimate_qos(graph.ir, p.device, rules, placement=p)
    except Exception:  # an estimate is optional; never fail a build over it
        log.exception("QoS estimate failed")
    return report
