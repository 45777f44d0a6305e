"""A small OpenID Connect provider for the tests, run as a process of its own on 127.0.0.1:

    python tests/oidc_provider.py --port PORT --client-id ID --client-secret SECRET

Discovery, authorize (the authorization-code flow with PKCE, approving at once the person the test chose),
token, userinfo, jwks (RS256, signed with joserfc, which Authlib is built on; PKCE checked with Authlib's RFC 7636
code) and end-session. The test chooses the person with `POST /test/person` (JSON {"claims": {sub,
preferred_username, email, groups}, "audience"?}) and reads what happened with `GET /test/state`.
"""

from __future__ import annotations

import argparse
import json
import secrets
import threading
import time
from socketserver import ThreadingMixIn
from typing import Any
from urllib.parse import parse_qs, urlencode
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from authlib.oauth2.rfc7636 import create_s256_code_challenge
from joserfc import jwt
from joserfc.jwk import RSAKey

Response = tuple[str, list[tuple[str, str]], bytes]


class Provider:
    def __init__(self, *, issuer: str, client_id: str, client_secret: str) -> None:
        self.issuer, self.client_id, self.client_secret = issuer, client_id, client_secret
        self.key = RSAKey.generate_key(2048, parameters={"kid": "test-key", "alg": "RS256", "use": "sig"})
        self.person: dict[str, Any] | None = None
        self.audience = client_id  # the id token's aud; a test may name another client to see it refused
        self.codes: dict[str, dict[str, Any]] = {}
        self.access_tokens: dict[str, dict[str, Any]] = {}
        self.state = {"authorizations": 0, "tokens": 0, "end_sessions": [], "sessions": 0}
        self.lock = threading.Lock()

    # --- endpoints -------------------------------------------------------------------------------------------
    def discovery(self, environ: dict) -> Response:
        return _json({
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "userinfo_endpoint": f"{self.issuer}/userinfo",
            "jwks_uri": f"{self.issuer}/jwks",
            "end_session_endpoint": f"{self.issuer}/logout",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": ["openid", "email", "profile"],
        })

    def authorize(self, environ: dict) -> Response:
        query = _query(environ)
        if query.get("client_id") != self.client_id or query.get("response_type") != "code":
            return _json({"error": "unauthorized_client"}, status="400 Bad Request")
        if "openid" not in query.get("scope", "").split() or query.get("code_challenge_method") != "S256":
            return _json({"error": "invalid_request"}, status="400 Bad Request")
        with self.lock:
            if self.person is None:
                return _json({"error": "no person chosen by the test"}, status="400 Bad Request")
            code = secrets.token_urlsafe(24)
            self.codes[code] = {"claims": dict(self.person), "nonce": query.get("nonce"), "audience": self.audience,
                                "redirect_uri": query["redirect_uri"], "challenge": query["code_challenge"]}
            self.state["authorizations"] += 1
            self.state["sessions"] += 1
        return _redirect(f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query['state']})}")

    def token(self, environ: dict) -> Response:
        form = _form(environ)
        if (form.get("client_id"), form.get("client_secret")) != (self.client_id, self.client_secret):
            return _json({"error": "invalid_client"}, status="401 Unauthorized")
        with self.lock:
            grant = self.codes.pop(form.get("code", ""), None)  # a code is good once
        if grant is None or grant["redirect_uri"] != form.get("redirect_uri"):
            return _json({"error": "invalid_grant"}, status="400 Bad Request")
        if create_s256_code_challenge(form.get("code_verifier", "")) != grant["challenge"]:
            return _json({"error": "invalid_grant", "error_description": "PKCE"}, status="400 Bad Request")
        now = int(time.time())
        claims = grant["claims"]
        id_token = jwt.encode({"alg": "RS256", "kid": "test-key"}, {
            "iss": self.issuer, "aud": grant["audience"], "sub": claims["sub"], "iat": now, "exp": now + 300,
            "nonce": grant["nonce"]}, self.key)
        access_token = secrets.token_urlsafe(24)
        with self.lock:
            self.access_tokens[access_token] = claims
            self.state["tokens"] += 1
        return _json({"access_token": access_token, "token_type": "Bearer", "expires_in": 300, "id_token": id_token})

    def userinfo(self, environ: dict) -> Response:
        token = environ.get("HTTP_AUTHORIZATION", "").removeprefix("Bearer ")
        claims = self.access_tokens.get(token)
        if claims is None:
            return _json({"error": "invalid_token"}, status="401 Unauthorized")
        return _json(claims)

    def jwks(self, environ: dict) -> Response:
        return _json({"keys": [self.key.as_dict(private=False)]})

    def logout(self, environ: dict) -> Response:
        query = _query(environ)
        with self.lock:
            self.state["end_sessions"].append({"id_token_hint": bool(query.get("id_token_hint")),
                                               "client_id": query.get("client_id")})
            self.state["sessions"] = max(0, self.state["sessions"] - 1)
        if query.get("post_logout_redirect_uri"):
            return _redirect(query["post_logout_redirect_uri"])
        return "200 OK", [("Content-Type", "text/plain")], b"signed out"

    def choose_person(self, environ: dict) -> Response:
        chosen = json.loads(_body(environ) or b"{}")
        with self.lock:
            self.person, self.audience = chosen.get("claims"), chosen.get("audience") or self.client_id
        return _json({"ok": True})

    def read_state(self, environ: dict) -> Response:
        with self.lock:
            return _json(self.state)

    # --- WSGI ------------------------------------------------------------------------------------------------
    def __call__(self, environ: dict, start_response) -> list[bytes]:
        routes = {
            ("GET", "/.well-known/openid-configuration"): self.discovery,
            ("GET", "/authorize"): self.authorize,
            ("POST", "/token"): self.token,
            ("GET", "/userinfo"): self.userinfo,
            ("GET", "/jwks"): self.jwks,
            ("GET", "/logout"): self.logout,
            ("POST", "/test/person"): self.choose_person,
            ("GET", "/test/state"): self.read_state,
        }
        handler = routes.get((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        status, headers, body = handler(environ) if handler else ("404 Not Found", [], b"")
        start_response(status, headers)
        return [body]


def _query(environ: dict) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(environ.get("QUERY_STRING", "")).items()}


def _body(environ: dict) -> bytes:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    return environ["wsgi.input"].read(length) if length else b""


def _form(environ: dict) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(_body(environ).decode()).items()}


def _json(value: object, *, status: str = "200 OK") -> Response:
    return status, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], json.dumps(value).encode()


def _redirect(url: str) -> Response:
    return "302 Found", [("Location", url)], b""


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    options = parser.parse_args()
    provider = Provider(issuer=f"http://127.0.0.1:{options.port}", client_id=options.client_id,
                        client_secret=options.client_secret)
    server = make_server("127.0.0.1", options.port, provider, server_class=_ThreadingServer,
                         handler_class=_QuietHandler)
    server.serve_forever()


if __name__ == "__main__":
    main()
