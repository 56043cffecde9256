"""A local fake of the two Microsoft identity services a Teams bot talks to, over HTTPS on 127.0.0.1.

- Inbound: the Bot Framework's OpenID metadata and signing keys (login.botframework.com). The
  fake publishes the public half of an RSA key generated here, and `channel_token()` signs tokens
  with the private half exactly as the Bot Framework signs the Bearer token on each activity.
- Outbound: the Entra ID login (login.microsoftonline.com) that the bot asks for an access token
  before it replies: tenant discovery and the client-credentials token endpoint. Each token it
  hands out is recorded with the client id, secret and scope that asked for it.

HTTPS because MSAL accepts only an https authority; the certificate comes from a throwaway CA
whose file is `ca_file` (point REQUESTS_CA_BUNDLE at it).

    with FakeBotFrameworkAuth() as auth:
        settings = Settings(FOOTNOTE_TEAMS_OPENID_METADATA_URL=auth.metadata_url,
                            FOOTNOTE_TEAMS_LOGIN_URL=auth.login_url, ...)
        headers = {"Authorization": "Bearer " + auth.channel_token(app_id, service_url)}
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import itertools
import json
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

from bot.fakes.loopback import send_json, serve, stop
from jwt.algorithms import RSAAlgorithm

CHANNEL_ISSUER = "https://api.botframework.com"  # the issuer of every Bot Framework channel token
TENANT = "botframework.com"  # the tenant a multi-tenant bot logs in to
KEY_ID = "fake-bf-key-1"


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass
class TokenGrant:
    client_id: str
    client_secret: str
    scope: str
    access_token: str


class FakeBotFrameworkAuth:
    def __init__(self, *, endorsements: tuple[str, ...] = ("msteams", "emulator", "webchat")):
        self.key = new_key()
        self.endorsements = list(endorsements)
        self.grants: list[TokenGrant] = []
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._dir = tempfile.TemporaryDirectory(prefix="fake-bf-auth-")

    # --- what the test hands the bot ---------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self._server.server_port}"

    @property
    def metadata_url(self) -> str:
        return f"{self.base_url}/v1/.well-known/openidconfiguration"

    @property
    def login_url(self) -> str:
        return f"{self.base_url}/{TENANT}"

    @property
    def ca_file(self) -> str:
        return str(Path(self._dir.name) / "ca.pem")

    def channel_token(self, app_id: str, service_url: str, *, key: rsa.RSAPrivateKey | None = None,
                      issuer: str = CHANNEL_ISSUER, expires_in: int = 3600, kid: str = KEY_ID) -> str:
        """A Bearer token as the Bot Framework puts on an activity it delivers to the bot."""
        now = int(time.time())
        exp = now + expires_in
        claims = {"serviceurl": service_url, "nbf": exp - 3660, "exp": exp, "iss": issuer, "aud": app_id}
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": kid})

    def issued(self, access_token: str) -> TokenGrant | None:
        with self._lock:
            return next((g for g in self.grants if g.access_token == access_token), None)

    # --- the server ----------------------------------------------------------------------------

    def _documents(self) -> dict[str, dict]:
        jwk = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        jwk.update(kid=KEY_ID, use="sig", alg="RS256", endorsements=self.endorsements)
        login = f"{self.base_url}/{TENANT}"
        return {
            "/v1/.well-known/openidconfiguration": {
                "issuer": CHANNEL_ISSUER,
                "authorization_endpoint": "https://invalid.botframework.com",
                "jwks_uri": f"{self.base_url}/v1/.well-known/keys",
                "id_token_signing_alg_values_supported": ["RS256"],
                "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            },
            "/v1/.well-known/keys": {"keys": [jwk]},
            f"/{TENANT}/v2.0/.well-known/openid-configuration": {
                "issuer": f"{login}/v2.0",
                "authorization_endpoint": f"{login}/oauth2/v2.0/authorize",
                "token_endpoint": f"{login}/oauth2/v2.0/token",
                "jwks_uri": f"{login}/discovery/v2.0/keys",
            },
        }

    def _grant(self, form: dict[str, list[str]]) -> tuple[int, dict]:
        first = {k: v[0] for k, v in form.items()}
        if first.get("grant_type") != "client_credentials" or not first.get("client_secret"):
            return 400, {"error": "invalid_request"}
        grant = TokenGrant(first.get("client_id", ""), first["client_secret"], first.get("scope", ""),
                           f"fake-bot-access-token-{next(self._ids)}")
        with self._lock:
            self.grants.append(grant)
        return 200, {"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599, "access_token": grant.access_token}

    def __enter__(self) -> "FakeBotFrameworkAuth":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def _send(self, status: int, body: dict) -> None:
                send_json(self, status, body)

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                with fake._lock:
                    fake.requests.append(f"GET {path}")
                doc = fake._documents().get(path)
                self._send(200, doc) if doc is not None else self._send(404, {"error": "not_found"})

            def do_POST(self) -> None:
                path = self.path.split("?")[0]
                length = int(self.headers.get("Content-Length") or 0)
                form = parse_qs(self.rfile.read(length).decode())
                with fake._lock:
                    fake.requests.append(f"POST {path}")
                if path == f"/{TENANT}/oauth2/v2.0/token":
                    self._send(*fake._grant(form))
                else:
                    self._send(404, {"error": "not_found"})

        cert, key = _tls_files(Path(self._dir.name))
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self._server = serve(Handler, wrap=lambda sock: context.wrap_socket(sock, server_side=True))
        return self

    def __exit__(self, *exc) -> None:
        stop(self._server)
        self._dir.cleanup()


def _tls_files(folder: Path) -> tuple[str, str]:
    """A throwaway CA (written to ca.pem) and a certificate it signs for 127.0.0.1."""
    now = dt.datetime.now(dt.timezone.utc)
    ca_key, leaf_key = new_key(), new_key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Footnote test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                                     key_encipherment=False, data_encipherment=False, key_agreement=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    leaf = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name).public_key(leaf_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                    x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    (folder / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert, key = folder / "server.pem", folder / "server.key"
    cert.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                           serialization.NoEncryption()))
    return str(cert), str(key)
