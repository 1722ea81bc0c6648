"""A minimal page stand-in speaking the shim's wire format over a websocket (asyncio): for tests,
benchmarks and operators checking a host or a balancer from a script. It builds and runs graphs
the way the shim does (build, createTensor, writeTensor + dispatch + readTensor), nothing more."""

from __future__ import annotations

import ssl

import numpy as np
from websockets.asyncio.client import connect

from .. import protocol


class WireError(Exception):
    """The host answered a request with an error (its WebNN name and message)."""


class WireClient:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 1
        self.inbox: list = []  # messages of a batch frame not read yet
        self.hello: dict = {}

    @classmethod
    async def open(cls, url: str, *, origin: str | None = None, token: str | None = None,
                   ssl_context: ssl.SSLContext | None = None) -> WireClient:
        """``url``: the host's (or balancer's) http(s) URL; ``origin``: the page origin to claim
        (default: the URL's own); ``token``: the host's access token (serve --token-file)."""
        ws_url = url.replace("http", "ws", 1).rstrip("/") + "/webnn"
        protocols = ["webnn-bridge.v1", f"webnn-bridge.token.{token}"] if token else None
        ws = await connect(ws_url, origin=origin or url.rstrip("/"), max_size=None, subprotocols=protocols,
                           ssl=ssl_context if url.startswith("https") else None, compression=None)
        c = cls(ws)
        c.hello = (await c.request({"t": "hello"}))[0]
        return c

    async def close(self) -> None:
        await self.ws.close()

    async def request(self, header: dict, parts: list[bytes] | None = None) -> tuple[dict, bytes | None]:
        rid = self.next_id
        self.next_id += 1
        await self.send({**header, "id": rid}, parts)
        while True:
            reply, payload = protocol.decode(await self.receive())
            if reply.get("t") == "reply" and reply.get("re") == rid:
                if "error" in reply:
                    raise WireError(f"{reply['error'].get('name')}: {reply['error'].get('message')}")
                return reply, payload

    async def receive(self):
        """The host's next message (a batch frame of several replies is read one message at a time)."""
        if not self.inbox:
            self.inbox.extend(protocol.unbatch(await self.ws.recv()))
        return self.inbox.pop(0)

    async def send(self, header: dict, parts: list[bytes] | None = None) -> None:
        await self.ws.send(protocol.encode_parts(header, parts) if parts else protocol.encode(header))

    async def context(self, ctx: int = 1, options: dict | None = None) -> dict:
        return (await self.request({"t": "createContext", "ctx": ctx, "options": options or {}}))[0]

    async def matmul_graph(self, gid: int, n: int, weights: np.ndarray | None = None, rows: int = 1,
                           ctx: int = 1) -> None:
        """Graph ``gid`` in context ``ctx``: y = relu(x @ W), x [rows, n], W [n, n] (default: all
        1/n); tensors gid*10+1 (input) and gid*10+2 (output)."""
        w = np.ones((n, n), np.float32) / n if weights is None else weights
        f32 = lambda shape: {"dataType": "float32", "shape": shape}  # noqa: E731
        await self.request({
            "t": "build", "ctx": ctx, "graph": gid,
            "inputs": [{"operand": 1, "name": "x", "desc": f32([rows, n])}],
            "constants": [{"operand": 2, "desc": f32([n, n]), "part": 0}],
            "nodes": [{"op": "matmul", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]},
                      {"op": "relu", "args": [{"$operand": 3}], "outputs": [4]}],
            "outputs": {"y": 4},
        }, [w.tobytes()])
        for tid, usage in ((gid * 10 + 1, "writable"), (gid * 10 + 2, "readable")):
            await self.request({"t": "createTensor", "ctx": ctx, "tensor": tid, "desc": {**f32([rows, n]), usage: True}})

    async def round_trip(self, gid: int, x: np.ndarray, ctx: int = 1) -> np.ndarray:
        """writeTensor + dispatch + readTensor, as a page's inference loop does."""
        await self.send({"t": "writeTensor", "tensor": gid * 10 + 1}, [x.tobytes()])
        await self.send({"t": "dispatch", "ctx": ctx, "graph": gid, "inputs": {"x": gid * 10 + 1},
                         "outputs": {"y": gid * 10 + 2}})
        _, payload = await self.request({"t": "readTensor", "tensor": gid * 10 + 2})
        return np.frombuffer(payload, np.float32)
