"""What a Bearer token's own header and claims already prove, checked before any signing key is fetched.

botframework-connector decides everything after fetching the published keys, so while the key
endpoint was unreachable a forged token got the same 503 ("try again") as a genuine one, and an
attacker could make the bot fetch keys for tokens no key could ever verify. A token whose
algorithm the Bot Framework never uses, that has no key id, that expired, or that names another
app as its audience cannot verify whatever the keys say: it is refused here (401). Only a token
that passes is worth the library's full check (signature, issuer, endorsements), which still
decides.
"""

from __future__ import annotations

import time

import jwt
from botframework.connector.auth import AuthenticationConstants

ALLOWED_ALGORITHMS = tuple(AuthenticationConstants.ALLOWED_SIGNING_ALGORITHMS)
CLOCK_TOLERANCE_S = 5 * 60  # the library's own tolerance


def refusal(auth_header: str | None, app_id: str, *, now: float | None = None) -> str | None:
    """Why this token cannot verify, or None when only its signature can tell."""
    if not auth_header:
        return None  # the library refuses a missing header itself
    scheme, _, token = auth_header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return "not a Bearer token"
    try:
        header = jwt.get_unverified_header(token.strip())
        claims = jwt.decode(token.strip(), options={"verify_signature": False})
    except jwt.PyJWTError:
        return "not a well-formed JWT"
    if header.get("alg") not in ALLOWED_ALGORITHMS:
        return f"signing algorithm {str(header.get('alg'))[:20]!r} is not allowed"
    if not header.get("kid"):
        return "no key id"
    now = time.time() if now is None else now
    exp, nbf = claims.get("exp"), claims.get("nbf")
    if not isinstance(exp, (int, float)) or exp < now - CLOCK_TOLERANCE_S:
        return "expired or no expiry"
    if isinstance(nbf, (int, float)) and nbf > now + CLOCK_TOLERANCE_S:
        return "not valid yet"
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    if app_id and app_id not in audiences:
        return "issued for another app"
    return None
