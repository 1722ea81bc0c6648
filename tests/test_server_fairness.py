"""The host's websocket loop: one storming page must not starve another page's small requests,
and each session's messages stay strictly in order (no browser: raw websocket clients)."""

from __future__ import annotations

import asyncio
import multiprocessing
import statistics
import time

import numpy as np
import pytest

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.testing.wire_client import WireClient


@pytest.fixture(scope="module")
def host():
    h = start_host()
    yield h
    h.stop()


async def _victim_latencies(host, rounds: int) -> list[float]:
    c = await WireClient.open(host.url)
    await c.request({"t": "createContext", "ctx": 1, "options": {}})
    await c.matmul_graph(1, 8)
    x = np.ones((1, 8), np.float32)
    for _ in range(5):
        await c.round_trip(1, x)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        await c.round_trip(1, x)
        times.append(time.perf_counter() - t0)
        await asyncio.sleep(0.002)
    await c.ws.close()
    return times


async def _storm(url: str, stop: asyncio.Event, started: list) -> None:
    """Connect, build a [128, 512] x [512, 512] matmul (milliseconds per dispatch), dispatch and
    read it back a few times, drop, reconnect. Every build has other weights: the host's caches
    cannot make it cheap."""
    x = np.ones((128, 512), np.float32)
    rng = np.random.default_rng()
    while not stop.is_set():
        c = await WireClient.open(url)
        await c.request({"t": "createContext", "ctx": 1, "options": {}})
        await c.matmul_graph(1, 512, rng.random((512, 512), dtype=np.float32), rows=128)
        started.append(1)
        for _ in range(5):
            # pipelined like a page that does not await its dispatches
            for _ in range(4):
                await c.send({"t": "writeTensor", "tensor": 11}, [x.tobytes()])
                await c.send({"t": "dispatch", "ctx": 1, "graph": 1, "inputs": {"x": 11}, "outputs": {"y": 12}})
            await c.request({"t": "readTensor", "tensor": 12})
            if stop.is_set():
                break
        await c.ws.close()


def storm_process(url: str, connections: int, ready, stop) -> None:
    """Other pages hammering the host: its own process, so that the clients' own work does not
    compete with the host for this process's interpreter."""

    async def run():
        flag = asyncio.Event()
        started: list = []
        tasks = [asyncio.create_task(_storm(url, flag, started)) for _ in range(connections)]
        while len(started) < connections // 2:
            await asyncio.sleep(0.01)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.02)
        flag.set()
        await asyncio.gather(*tasks)

    asyncio.run(run())


def _fairness(host, connections: int = 16) -> tuple[float, float]:
    base = statistics.median(asyncio.run(_victim_latencies(host, 40)))
    mp = multiprocessing.get_context("spawn")
    ready, stop = mp.Event(), mp.Event()
    proc = mp.Process(target=storm_process, args=(host.url, connections, ready, stop), daemon=True)
    proc.start()
    try:
        assert ready.wait(60), "the storm did not start"
        loaded = statistics.median(asyncio.run(_victim_latencies(host, 40)))
    finally:
        stop.set()
        proc.join(60)
    return base, loaded


def test_a_storm_of_sessions_does_not_starve_another_sessions_small_requests(host):
    # generous on a noisy shared 2-core box (the storm's work is ~100x the victim's), and up to
    # three tries: starvation is structural and shows every time (a pool shared first come first
    # served gave 250-300 ms here), a load spike on the machine does not
    for _ in range(3):
        base, loaded = _fairness(host)
        print(f"victim round trip: alone {base * 1e3:.2f} ms, during a 16-connection storm {loaded * 1e3:.2f} ms")
        if loaded < max(25 * base, 0.1):
            break
    assert loaded < max(25 * base, 0.1), (base, loaded)


DISPATCH = {"t": "dispatch", "ctx": 1, "graph": 1, "inputs": {"x": 11}, "outputs": {"y": 12}}


async def _identity_session(host, n: int) -> WireClient:
    """A session with graph 1: y = relu(x @ I), tensors 11 (x) and 12 (y)."""
    c = await WireClient.open(host.url)
    await c.request({"t": "createContext", "ctx": 1, "options": {}})
    await c.matmul_graph(1, n, np.eye(n, dtype=np.float32))
    return c


def test_messages_of_one_session_stay_in_order(host):
    async def run():
        c = await _identity_session(host, 64)
        # many fire-and-forget writes and dispatches, each read must see its own write
        for i in range(50):
            x = np.full((1, 64), float(i), np.float32)
            await c.send({"t": "writeTensor", "tensor": 11}, [x.tobytes()])
            await c.send(DISPATCH)
            if i % 7 == 0:
                _, payload = await c.request({"t": "readTensor", "tensor": 12})
                assert np.frombuffer(payload, np.float32).tolist() == [float(i)] * 64
        _, payload = await c.request({"t": "readTensor", "tensor": 12})
        assert np.frombuffer(payload, np.float32).tolist() == [49.0] * 64
        await c.ws.close()

    asyncio.run(run())


def _batch(frames: list) -> bytes:
    """What the shim sends for messages issued in one task."""
    return protocol.encode_batch(frames)


def test_batched_messages_run_in_order_and_a_bad_batch_is_answered(host):
    async def run():
        c = await _identity_session(host, 4)
        for i in range(5):
            x = np.full((1, 4), float(i), np.float32)
            await c.ws.send(_batch([
                protocol.encode({"t": "writeTensor", "tensor": 11}, x.tobytes()),
                protocol.encode(DISPATCH),
                protocol.encode({"t": "readTensor", "id": 1000 + i, "tensor": 12}),
            ]))
            reply, payload = protocol.decode(await c.ws.recv())
            assert reply["re"] == 1000 + i
            assert np.frombuffer(payload, np.float32).tolist() == [float(i)] * 4
        # parts that do not match the flags: one error reply, and the session goes on
        await c.ws.send(protocol.encode_parts({"t": "batch", "text": [1]}, [b"{}", b"{}"]))
        reply, _ = protocol.decode(await c.ws.recv())
        assert "error" in reply
        await c.request({"t": "readTensor", "tensor": 12})
        await c.ws.close()

    asyncio.run(run())


def test_replies_to_one_frame_leave_together_but_never_wait_for_a_dispatch(host):
    async def run():
        c = await _identity_session(host, 4)
        x = np.arange(4, dtype=np.float32).reshape(1, 4)
        # the reads of one run (onnxruntime-web: write, dispatch, read each output): one frame back
        await c.ws.send(_batch([protocol.encode({"t": "writeTensor", "tensor": 11}, x.tobytes()), protocol.encode(DISPATCH),
                                protocol.encode({"t": "readTensor", "id": 2000, "tensor": 12}),
                                protocol.encode({"t": "readTensor", "id": 2001, "tensor": 12})]))
        frame = await c.ws.recv()
        messages = protocol.unbatch(frame)
        assert len(messages) == 2 and protocol.decode(frame)[0]["t"] == "batch"
        for rid, m in zip((2000, 2001), messages):
            reply, payload = protocol.decode(m)
            assert reply["re"] == rid and np.frombuffer(payload, np.float32).tolist() == [0, 1, 2, 3]
        # a read issued before a dispatch leaves before the dispatch runs: its own frame, first
        await c.ws.send(_batch([protocol.encode({"t": "readTensor", "id": 2002, "tensor": 12}), protocol.encode(DISPATCH),
                                protocol.encode({"t": "readTensor", "id": 2003, "tensor": 12})]))
        first, second = [protocol.decode(await c.ws.recv())[0] for _ in range(2)]
        assert (first["t"], first["re"], second["t"], second["re"]) == ("reply", 2002, "reply", 2003)
        await c.ws.close()

    asyncio.run(run())


def test_coalesce_joins_small_replies_and_keeps_announced_payloads_apart():
    small = [protocol.encode({"t": "reply", "re": i}) for i in range(3)]
    released = []
    tiny = protocol.Raw(b"\x05" * 8, head=b"head", release=lambda: released.append(1))
    (batch,) = protocol.coalesce([*small, tiny])
    assert protocol.unbatch(batch)[:3] == small and bytes(protocol.unbatch(batch)[3]) == b"head" + b"\x05" * 8
    assert released == [1]  # copied into the batch: its budget comes back at once
    # a payload follows its announcement alone, in order; a big message goes alone
    big = protocol.Raw(bytearray(protocol.REPLY_BATCH_BYTES + 1))
    announce, payload = protocol.encode_raw({"t": "reply", "re": 9}, bytearray(protocol.RAW_MIN_BYTES))
    out = protocol.coalesce([small[0], small[1], announce, payload, small[2], big])
    assert [protocol.unbatch(out[0]), *out[1:]] == [small[:2], announce, payload, small[2], big]
    assert protocol.coalesce([small[0]]) == [small[0]]


def test_unbatch_splits_only_well_formed_batches():
    text = protocol.encode({"t": "hello", "id": 1})
    binary = protocol.encode({"t": "writeTensor", "tensor": 1}, b"\x01\x02")
    frames = protocol.unbatch(_batch([text, binary]))
    assert frames[0] == text and bytes(frames[1]) == binary
    assert protocol.unbatch(text) == [text] and protocol.unbatch(binary) == [binary]
    bad_utf8 = protocol.encode_parts({"t": "batch", "text": [1]}, [b"\xff"])
    assert protocol.unbatch(bad_utf8) == [bad_utf8]


def test_a_page_is_alone_only_while_no_other_page_is_connected():
    """Short dispatches run on the event loop only for the only page connected (Session.alone)."""
    h = start_host()
    try:
        async def run():
            a = await WireClient.open(h.url)
            (sa,) = h.host.sessions.values()
            assert sa.alone
            b = await WireClient.open(h.url)
            await a.request({"t": "hello"})
            sb = next(s for s in h.host.sessions.values() if s is not sa)
            assert not sa.alone and not sb.alone
            await b.ws.close()
            while len(h.host.sessions) > 1:
                await asyncio.sleep(0.01)
            await a.request({"t": "hello"})
            assert sa.alone
            await a.ws.close()

        asyncio.run(run())
    finally:
        h.stop()
