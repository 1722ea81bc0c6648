"""TLS for the host: the server's ssl context, and a development certificate for localhost.

``serve --tls-cert FILE --tls-key FILE`` serves https and wss with the operator's certificate.
``serve --tls-self-signed [DIR]`` makes one here (or reuses the one it made before): a small
certificate authority of its own, trusted once in the browser, and a localhost certificate it
signed. The authority may vouch for the loopback names only (X.509 name constraints: localhost,
127.0.0.1, ::1 and names the caller adds), and its private key is never written anywhere: it
signs the one certificate and is dropped. A new certificate (expired, or other names) therefore
comes with a new authority to trust. Key files are created mode 0600 in a 0700 directory.

Browsers refuse a self-signed certificate that is its own authority as a server certificate
(Firefox: CA_CERT_USED_AS_END_ENTITY), hence the two certificates.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("webnn_bridge.tls")

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
CA_FILE = "webnn-bridge-ca.pem"  # the authority to trust in a browser (public)
CERT_FILE = "localhost-cert.pem"  # the server certificate, then the authority's
KEY_FILE = "localhost-key.pem"  # its private key (0600)
VALID_DAYS = 397  # the longest server certificate lifetime browsers accept from public authorities
RENEW_BEFORE = datetime.timedelta(days=2)


def default_dir() -> Path:
    """Where ``--tls-self-signed`` keeps its files when no directory is given."""
    from webnn_bridge.backends.cache import default_cache_dir

    return default_cache_dir() / "tls"


def server_context(cert: str | os.PathLike, key: str | os.PathLike) -> ssl.SSLContext:
    """The host's server-side context: TLS 1.2 or newer, HTTP/1.1 (websockets speaks no h2).
    A missing file, a bad PEM or a key that does not match the certificate raises OSError
    (ssl.SSLError is one) naming the problem; an encrypted key raises ValueError (a host never
    stops to prompt for a passphrase)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.set_alpn_protocols(["http/1.1"])
    for path in (cert, key):
        if not Path(path).is_file():
            raise FileNotFoundError(2, "no such file", str(path))
    ctx.load_cert_chain(str(cert), str(key), password=_no_passphrase)
    return ctx


def _no_passphrase():
    raise ValueError("the private key is encrypted; give the host an unencrypted one (openssl pkey -in KEY -out NEW)")


def warn_if_readable(key: str | os.PathLike) -> None:
    """A warning when a private key file is readable by others (group or world)."""
    key = Path(key)
    try:
        mode = key.stat().st_mode
    except OSError:
        return
    if os.name == "posix" and mode & 0o077:
        log.warning("%s: the private key is readable by other users (mode %o); chmod 600 it", key, mode & 0o777)


@dataclass(frozen=True)
class DevCertificate:
    """The files of a development certificate: ``cert`` and ``key`` for the server, ``ca`` to trust."""

    cert: Path
    key: Path
    ca: Path
    names: tuple[str, ...]
    created: bool  # made now (False: reused from the directory)

    @property
    def ca_name(self) -> str:
        """The authority's common name (unique per authority: it carries its creation time)."""
        from cryptography import x509
        from cryptography.x509.oid import NameOID

        ca = x509.load_pem_x509_certificate(self.ca.read_bytes())
        return ca.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value


def _san(names) -> list:
    from cryptography import x509

    out = []
    for n in names:
        try:
            out.append(x509.IPAddress(ipaddress.ip_address(n.strip("[]"))))
        except ValueError:
            out.append(x509.DNSName(n))
    return out


def _permitted(names) -> list:
    """Name constraints for the authority: each IP exactly, each DNS name and its subdomains."""
    from cryptography import x509

    out = []
    for g in _san(names):
        if isinstance(g, x509.IPAddress):
            out.append(x509.IPAddress(ipaddress.ip_network(g.value)))
        else:
            out.append(g)
    return out


def wanted_names(extra: list[str] | tuple[str, ...] = ()) -> tuple[str, ...]:
    """The loopback names plus ``extra`` (e.g. the address the host binds), without wildcards
    (0.0.0.0, ::) or repeats."""
    names = list(LOOPBACK_NAMES)
    for n in extra:
        n = n.strip("[]").lower()
        if n and n not in names and n not in ("0.0.0.0", "::"):
            names.append(n)
    return tuple(names)


def _write_private(path: Path, data: bytes) -> None:
    """Created 0600 from the start (never briefly readable by others), replaced atomically."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _write_public(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def make_dev_certificate(directory: str | os.PathLike, names: tuple[str, ...] = LOOPBACK_NAMES,
                         now: datetime.datetime | None = None) -> DevCertificate:
    """Write a fresh authority and a server certificate for ``names`` into ``directory``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    now = now or datetime.datetime.now(datetime.UTC)
    start, end = now - datetime.timedelta(hours=1), now + datetime.timedelta(days=VALID_DAYS)
    stamp = now.strftime("%Y-%m-%d %H:%M UTC")

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "webnn-bridge development"),
        x509.NameAttribute(NameOID.COMMON_NAME, f"webnn-bridge localhost CA {stamp}"),
    ])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name).issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start).not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                     crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.NameConstraints(permitted_subtrees=_permitted(names), excluded_subtrees=None),
                       critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start).not_valid_after(end)
        .add_extension(x509.SubjectAlternativeName(_san(names)), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                     crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    _write_private(d / KEY_FILE, key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
    _write_public(d / CERT_FILE, cert.public_bytes(pem) + ca.public_bytes(pem))
    _write_public(d / CA_FILE, ca.public_bytes(pem))
    return DevCertificate(d / CERT_FILE, d / KEY_FILE, d / CA_FILE, tuple(names), created=True)


def _reusable(d: Path, names: tuple[str, ...], now: datetime.datetime) -> bool:
    """The directory holds a certificate for every name in ``names``, valid for a while yet,
    whose key matches it and is private to its owner."""
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate((d / CERT_FILE).read_bytes())
        (d / CA_FILE).read_bytes()
        if os.name == "posix" and (d / KEY_FILE).stat().st_mode & 0o077:
            return False
        server_context(d / CERT_FILE, d / KEY_FILE)  # the key matches the certificate
    except (OSError, ValueError):
        return False
    if not (cert.not_valid_before_utc <= now and now + RENEW_BEFORE < cert.not_valid_after_utc):
        return False
    try:
        have = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    return all(g in have for g in _san(names))


def dev_certificate(directory: str | os.PathLike | None = None, extra_names: list[str] | tuple[str, ...] = (),
                    now: datetime.datetime | None = None) -> DevCertificate:
    """The development certificate in ``directory`` (default: default_dir()): reused while it
    is valid for two more days and covers the loopback names and ``extra_names``; made anew
    otherwise (with a new authority to trust)."""
    d = Path(directory) if directory is not None else default_dir()
    names = wanted_names(extra_names)
    now = now or datetime.datetime.now(datetime.UTC)
    if _reusable(d, names, now):
        return DevCertificate(d / CERT_FILE, d / KEY_FILE, d / CA_FILE, names, created=False)
    return make_dev_certificate(d, names, now)


NSSDB = "$HOME/.pki/nssdb"  # Chromium's certificate database on Linux


def chromium_trust_commands(dev: DevCertificate) -> tuple[str, ...]:
    """The shell commands that make Chromium on Linux trust the development authority, one a line as
    printed (plain commands: sh, bash, zsh and fish run them alike). The first two create Chromium's
    NSS database where there is none yet (certutil -A on a missing one fails with
    SEC_ERROR_BAD_DATABASE; an existing one is left as it is), the last adds the authority to it."""
    import shlex

    return (f'mkdir -p "{NSSDB}"',
            f'test -e "{NSSDB}/cert9.db" || certutil -d sql:"{NSSDB}" -N --empty-password',
            f'certutil -d sql:"{NSSDB}" -A -t "C,," -n "{dev.ca_name}" -i {shlex.quote(str(dev.ca))}')


def trust_instructions(dev: DevCertificate) -> str:
    """How to make each browser trust the development authority (printed by ``serve``); each
    command on one line, to copy as it is."""
    ca, nick = dev.ca, f'"{dev.ca_name}"'
    made = "made now" if dev.created else "reused"
    chromium = chromium_trust_commands(dev)
    return f"""\
  TLS:       a development certificate ({made}) for {', '.join(dev.names)},
             signed by its own authority: {ca}
             Trust that authority once per browser (it may vouch for these names only, and its key was
             never saved), or let test runs ignore certificate errors.
    Chromium:  {chromium[0]}
               {chromium[1]}
               {chromium[2]}
               (certutil: apt-get install libnss3-tools; the first two lines make the certificate database a
               fresh $HOME lacks), or chrome://certificate-manager > Local certificates > Custom > Import
               test runs: --ignore-certificate-errors, or Playwright's new_context(ignore_https_errors=True)
    Firefox:   about:preferences#privacy > Certificates > View Certificates > Authorities > Import, and tick
               "Trust this CA to identify websites"; or: certutil -d sql:PROFILE_DIR -A -t "C,," -n {nick} -i {ca}
               test runs: the WebDriver capability acceptInsecureCerts
    WebKit:    WebKitGTK uses the system trust store:
               sudo cp {ca} /usr/local/share/ca-certificates/webnn-bridge-localhost.crt && sudo update-ca-certificates
               Safari: sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain {ca}
               test runs: acceptInsecureCerts (WebKitWebDriver)
"""
