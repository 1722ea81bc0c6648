"""TLS without a browser: the development certificate (files, modes, names, reuse, renewal), the
server's ssl context, serve's TLS flags, and a host that answers https and wss on its one port
(pages, the shim, the origin probe, the landing page) and checks Origins as it does over http."""

from __future__ import annotations

import asyncio
import datetime
import http.client
import ipaddress
import json
import os
import re
import shutil
import ssl
import stat
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
import websockets
from cryptography import x509
from websockets.asyncio.client import connect

from webnn_bridge.bridge import tls
from webnn_bridge.bridge.cli import main
from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.server import HostConfig, own_origins, tls_context


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(scope="module")
def dev(tmp_path_factory):
    return tls.dev_certificate(tmp_path_factory.mktemp("tls") / "dev")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    d = tmp_path_factory.mktemp("app")
    (d / "page.html").write_text("<!doctype html><title>t</title><p>hello")
    (d / "data.bin").write_bytes(b"\x00\x01\x02")
    return d


@pytest.fixture(scope="module")
def host(dev, app):
    h = start_host(app_dir=app, tls_cert=dev.cert, tls_key=dev.key, allow_origins=["https://app.example:8443"])
    yield h
    h.stop()


def client_context(dev) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(dev.ca))


def get(h, dev, path, headers=None, name="127.0.0.1"):
    c = http.client.HTTPSConnection(name, h.host.port, timeout=30, context=client_context(dev))
    try:
        c.request("GET", path, headers=headers or {})
        r = c.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        c.close()


# ------------------------------------------------------------------ the development certificate
def test_dev_certificate_files_names_and_modes(dev):
    assert dev.created and dev.cert.is_file() and dev.ca.is_file()
    if os.name == "posix":
        assert mode(dev.key) == 0o600 and mode(dev.key.parent) == 0o700
    pems = re.findall(rb"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----\n", dev.cert.read_bytes(), re.S)
    leaf, chained_ca = (x509.load_pem_x509_certificate(p) for p in pems)
    ca = x509.load_pem_x509_certificate(dev.ca.read_bytes())
    assert chained_ca == ca  # the server sends its authority after its certificate
    leaf.verify_directly_issued_by(ca)
    san = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert set(san.get_values_for_type(x509.DNSName)) == {"localhost"}
    assert set(san.get_values_for_type(x509.IPAddress)) == {ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")}
    assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    # the authority may vouch for the loopback names only
    nc = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert nc.critical and {str(g.value) for g in nc.value.permitted_subtrees} == {"localhost", "127.0.0.1/32", "::1/128"}
    lifetime = leaf.not_valid_after_utc - leaf.not_valid_before_utc
    assert datetime.timedelta(days=300) < lifetime <= datetime.timedelta(days=398)
    # no private key of the authority was written: only the server's key is in the directory
    keys = [p.name for p in dev.key.parent.iterdir() if b"PRIVATE KEY" in p.read_bytes()]
    assert keys == [tls.KEY_FILE]


def test_dev_certificate_is_reused_and_renewed(tmp_path):
    d = tmp_path / "tls"
    first = tls.dev_certificate(d)
    first_ca = first.ca.read_bytes()
    again = tls.dev_certificate(d)
    assert first.created and not again.created and again.ca.read_bytes() == first_ca
    # a new name (the address the host binds) needs a new certificate, covering both
    wider = tls.dev_certificate(d, extra_names=["192.0.2.7", "0.0.0.0"])
    assert wider.created and wider.names == ("localhost", "127.0.0.1", "::1", "192.0.2.7")
    assert wider.ca.read_bytes() != first_ca
    assert not tls.dev_certificate(d, extra_names=["192.0.2.7"]).created
    assert tls.dev_certificate(d).created is False  # the wider one covers the loopback names too
    # close to expiry: renewed
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=tls.VALID_DAYS - 1)
    assert tls.dev_certificate(d, now=later).created
    # a key others can read is not reused
    if os.name == "posix":
        os.chmod(d / tls.KEY_FILE, 0o644)
        renewed = tls.dev_certificate(d)
        assert renewed.created and mode(renewed.key) == 0o600


def test_trust_instructions_name_each_browser(dev):
    text = tls.trust_instructions(dev)
    for needle in (f'certutil -d sql:"$HOME/.pki/nssdb" -A -t "C,," -n "{dev.ca_name}" -i {dev.ca}',
                   'certutil -d sql:"$HOME/.pki/nssdb" -N --empty-password',
                   "--ignore-certificate-errors", "about:preferences#privacy", "acceptInsecureCerts",
                   f"sudo cp {dev.ca} /usr/local/share/ca-certificates/webnn-bridge-localhost.crt && "
                   "sudo update-ca-certificates"):
        assert needle in text, needle


def _printed_chromium_steps(text: str) -> list[str]:
    """The command lines of the Chromium entry, as printed (up to its parenthesised note)."""
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if x.strip().startswith("Chromium:"))
    steps = [lines[start].split("Chromium:", 1)[1].strip()]
    for x in lines[start + 1:]:
        if x.strip().startswith("("):
            break
        steps.append(x.strip())
    return steps


def test_printed_chromium_steps_work_on_a_fresh_home(dev, tmp_path):
    """Issue 38 (E): run as printed (a shell, a $HOME without .pki), the steps leave the authority in
    Chromium's NSS database, trusted for servers; run again (the database exists now) they still work."""
    if shutil.which("certutil") is None:
        if os.environ.get("CI", "").lower() in ("1", "true"):
            pytest.fail("certutil is missing (Debian's libnss3-tools; scripts/test.sh installs it)")
        pytest.skip("needs certutil (Debian's libnss3-tools)")
    steps = _printed_chromium_steps(tls.trust_instructions(dev))
    assert steps == list(tls.chromium_trust_commands(dev))
    home = tmp_path / "a home"  # a space in $HOME too
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    db = f"sql:{home}/.pki/nssdb"
    for attempt in (1, 2):
        r = subprocess.run(["sh", "-e", "-c", "\n".join(steps)], env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, (attempt, r.stdout, r.stderr)
        listed = subprocess.run(["certutil", "-d", db, "-L"], capture_output=True, text=True, timeout=60)
        assert listed.returncode == 0, listed.stderr
        row = next((x for x in listed.stdout.splitlines() if dev.ca_name in x), None)
        assert row is not None and row.split()[-1] == "C,,", listed.stdout
    # the very authority (NSS reads "TOKEN:" before a colon in a nickname, hence the token's name)
    pem = subprocess.run(["certutil", "-d", db, "-L", "-n", f"NSS Certificate DB:{dev.ca_name}", "-a"],
                         capture_output=True, text=True, timeout=60)
    assert x509.load_pem_x509_certificate(pem.stdout.encode()) == x509.load_pem_x509_certificate(dev.ca.read_bytes())


# ------------------------------------------------------------------ ssl context and config
def test_server_context_refuses_bad_files(dev, tmp_path):
    other = tls.dev_certificate(tmp_path / "other")
    with pytest.raises(FileNotFoundError):
        tls.server_context(tmp_path / "missing.pem", dev.key)
    with pytest.raises(ssl.SSLError):
        tls.server_context(dev.cert, other.key)  # a key of another certificate
    with pytest.raises(ValueError, match="both"):
        tls_context(HostConfig(tls_cert=dev.cert))
    assert tls_context(HostConfig()) is None
    ctx = tls.server_context(dev.cert, dev.key)
    assert ctx.minimum_version >= ssl.TLSVersion.TLSv1_2


def test_own_origins_follow_the_scheme():
    assert own_origins("127.0.0.1", 5) == {"http://127.0.0.1:5", "http://localhost:5", "http://[::1]:5"}
    assert own_origins("::1", 5, "https") == {"https://127.0.0.1:5", "https://localhost:5", "https://[::1]:5"}


# ------------------------------------------------------------------ an https host
def test_host_url_and_allowed_origins_are_https(host):
    port = host.host.port
    assert host.url == f"https://127.0.0.1:{port}"
    assert host.host.allowed_origins == {f"https://127.0.0.1:{port}", f"https://localhost:{port}",
                                         f"https://[::1]:{port}", "https://app.example:8443"}


def test_https_endpoints(host, dev):
    port = host.host.port
    status, headers, body = get(host, dev, "/webnn-shim.js")
    assert status == 200 and f'const HOST_ORIGIN = "https://127.0.0.1:{port}";'.encode() in body
    status, _, body = get(host, dev, "/webnn-shim.js", name="localhost")  # the certificate names localhost too
    assert status == 200 and f'"https://localhost:{port}"'.encode() in body
    status, _, body = get(host, dev, "/page.html")
    assert status == 200 and body.startswith(b'<!doctype html><script src="/webnn-shim.js"></script>')
    assert get(host, dev, "/data.bin")[2] == b"\x00\x01\x02"
    status, _, body = get(host, dev, "/")  # no index.html: the landing page
    assert status == 200 and f"https://127.0.0.1:{port}/webnn-shim.js".encode() in body
    assert f"https://localhost:{port}".encode() in body and b"http://127.0.0.1" not in body


@pytest.mark.parametrize(("origin", "allowed"), [
    ("https://127.0.0.1:{port}", True),
    ("https://localhost:{port}", True),
    ("https://app.example:8443", True),
    ("https://app.example", False),
    ("http://127.0.0.1:{port}", False),  # the host serves no http page any more
    ("https://evil.example", False),
])
def test_origin_probe_over_https(host, dev, origin, allowed):
    origin = origin.format(port=host.host.port)
    status, headers, body = get(host, dev, "/webnn/origin", {"Origin": origin})
    assert status == 200 and json.loads(body) == {"allowed": allowed}
    assert headers["access-control-allow-origin"] == origin


def test_urllib_verifies_against_the_authority(host, dev):
    with urllib.request.urlopen(f"{host.url}/webnn/origin", context=client_context(dev), timeout=30) as r:
        assert json.load(r) == {"allowed": False}  # no Origin, no same-origin fetch
    with pytest.raises(urllib.error.URLError) as e:  # the system's authorities do not know it
        urllib.request.urlopen(f"{host.url}/webnn/origin", context=ssl.create_default_context(), timeout=30)
    assert isinstance(e.value.reason, ssl.SSLCertVerificationError)


def _ws_status(url, dev, origin):
    """"open", a refusal's status, or the hello's reply. The asyncio client: websockets' sync client
    over TLS waits out its open_timeout on about one handshake in a thousand, also against a bare
    websockets echo server (0 in 600 with this client, or with a raw TLS socket)."""
    async def attempt():
        try:
            async with connect(url, ssl=client_context(dev), open_timeout=30,
                               **({"origin": origin} if origin else {})) as ws:
                await ws.send('{"t":"hello","id":1}')
                reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                return "open" if reply.get("ok", {}).get("session") else reply
        except websockets.InvalidStatus as e:
            return e.response.status_code

    return asyncio.run(attempt())


def test_wss_handshake_checks_origins(host, dev):
    port = host.host.port
    wss = f"wss://127.0.0.1:{port}/webnn"
    assert _ws_status(wss, dev, f"https://127.0.0.1:{port}") == "open"
    assert _ws_status(wss, dev, "https://app.example:8443") == "open"
    assert _ws_status(wss, dev, None) == 403
    assert _ws_status(wss, dev, f"http://127.0.0.1:{port}") == 403
    assert _ws_status(wss, dev, "https://evil.example") == 403


def test_plain_http_to_the_tls_port_does_not_hurt_the_host(host, dev):
    c = http.client.HTTPConnection("127.0.0.1", host.host.port, timeout=30)
    with pytest.raises((http.client.HTTPException, ConnectionError)):
        c.request("GET", "/webnn/origin")
        c.getresponse().read()
    c.close()
    assert get(host, dev, "/webnn/origin")[0] == 200


def test_start_host_makes_the_dev_certificate(tmp_path):
    h = start_host(tls_self_signed=tmp_path / "tls")
    try:
        assert h.url.startswith("https://") and h.tls_ca == tmp_path / "tls" / tls.CA_FILE
        ctx = ssl.create_default_context(cafile=str(h.tls_ca))
        with urllib.request.urlopen(f"{h.url}/webnn-shim.js", context=ctx, timeout=30) as r:
            assert r.status == 200
    finally:
        h.stop()


def test_plain_host_stays_http():
    h = start_host()
    try:
        assert h.url.startswith("http://") and h.tls_ca is None
        with urllib.request.urlopen(f"{h.url}/webnn-shim.js", timeout=30) as r:
            assert f'"http://127.0.0.1:{h.host.port}"'.encode() in r.read()
    finally:
        h.stop()


# ------------------------------------------------------------------ serve's flags
def run(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as e:
        rc = e.code
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize(("argv", "message"), [
    (["--tls-cert", "{cert}"], "--tls-cert and --tls-key go together"),
    (["--tls-key", "{key}"], "--tls-cert and --tls-key go together"),
    (["--tls-self-signed", "{dir}", "--tls-cert", "{cert}", "--tls-key", "{key}"], "not both"),
    (["--tls-cert", "{missing}", "--tls-key", "{key}"], "missing.pem: no such file"),
    (["--tls-cert", "{cert}", "--tls-key", "{other_key}"], "the private key does not belong to the certificate"),
    (["--tls-cert", "{ca}", "--tls-key", "{ca}"], "not a usable PEM certificate and key"),
    (["--tls-cert", "{cert}", "--tls-key", "{encrypted}"], "the private key is encrypted"),
])
def test_bad_tls_flags_give_one_line(argv, message, dev, tmp_path, capsys):
    other = tls.dev_certificate(tmp_path / "other")
    argv = [a.format(cert=dev.cert, key=dev.key, ca=dev.ca, dir=tmp_path / "d", missing=tmp_path / "missing.pem",
                     other_key=other.key, encrypted=_encrypted_copy(dev.key, tmp_path)) for a in argv]
    rc, _, err = run(["serve", "--port", "0", *argv], capsys)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("webnn-bridge serve: ") and message in lines[0], err


def _encrypted_copy(key, tmp_path):
    from cryptography.hazmat.primitives import serialization

    k = serialization.load_pem_private_key(key.read_bytes(), None)
    path = tmp_path / "encrypted-key.pem"
    path.write_bytes(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.BestAvailableEncryption(b"secret")))
    os.chmod(path, 0o600)
    return path


def test_readable_key_is_warned_about(dev, tmp_path, caplog):
    key = tmp_path / "key.pem"
    key.write_bytes(dev.key.read_bytes())
    os.chmod(key, 0o644)
    with caplog.at_level("WARNING", logger="webnn_bridge.tls"):
        tls.warn_if_readable(key)
        tls.warn_if_readable(dev.key)
    assert [r.getMessage() for r in caplog.records] == [f"{key}: the private key is readable by other users (mode 644); "
                                                         "chmod 600 it"]


def test_help_lists_the_tls_flags(capsys):
    rc, out, _ = run(["serve", "--help"], capsys)
    assert rc == 0 and all(f in out for f in ("--tls-cert FILE", "--tls-key FILE", "--tls-self-signed [DIR]"))


def test_serve_tls_self_signed(tmp_path):
    """The real command: prints its https URL and how to trust the certificate, then serves."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0", "--no-cache",
         "--tls-self-signed", str(tmp_path / "tls")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "test runs: acceptInsecureCerts (WebKitWebDriver)" in line:
                break
        out = "".join(lines)
        m = re.search(r"serving on (https://127\.0\.0\.1:(\d+))", out)
        assert m, out
        assert "certutil" in out and "update-ca-certificates" in out and "made now" in out, out
        assert mode(tmp_path / "tls" / tls.KEY_FILE) == 0o600
        ctx = ssl.create_default_context(cafile=str(tmp_path / "tls" / tls.CA_FILE))
        req = urllib.request.Request(f"{m.group(1)}/webnn/origin", headers={"Origin": m.group(1)})
        with urllib.request.urlopen(req, context=ctx, timeout=30) as r:
            assert json.load(r) == {"allowed": True}
    finally:
        proc.terminate()
        proc.wait(30)
