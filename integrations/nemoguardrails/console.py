"""The console's HTTP API as the NeMo integration uses it: search, submit an answer, read it back."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import Any

import httpx

URL_ENV = "REVIEW_CONSOLE_URL"
TOKEN_ENV = "REVIEW_CONSOLE_TOKEN"
CALLBACK_URL_ENV = "REVIEW_CONSOLE_CALLBACK_URL"
PARAMETERS = {"url", "token", "timeout", "callback_url", "review_wait_seconds"}


class ConsoleError(Exception):
    """The console could not be reached or refused the request (the message says which)."""


@dataclass(frozen=True)
class Console:
    """Where the console is and the API client's token (its clearance decides which sources a search sees).

    A fresh httpx client per call: NeMo runs actions on more than one event loop, and a pooled async client is
    bound to the loop it was first used on."""

    url: str
    token: str
    timeout: float = 10.0
    callback_url: str = ""  # the bot's webhook for a held answer's decision (see the README)
    review_wait_seconds: float = 15.0  # how long the review action waits for the console's risk

    @classmethod
    def configured(cls, *, parameters: dict[str, Any] | None = None) -> Console:
        """From a bot's config.yml parameters, else from REVIEW_CONSOLE_URL / REVIEW_CONSOLE_TOKEN /
        REVIEW_CONSOLE_CALLBACK_URL (a token is better kept out of a config file)."""
        parameters = parameters or {}
        unknown = sorted(set(parameters) - PARAMETERS)
        if unknown:  # a misspelt one would otherwise be dropped without a word
            raise ConsoleError(f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(sorted(PARAMETERS))}")
        url = parameters.get("url") or os.environ.get(URL_ENV, "")
        token = parameters.get("token") or os.environ.get(TOKEN_ENV, "")
        if not url or not token:
            raise ConsoleError(f"set the console's url and token (parameters url/token, or {URL_ENV}/{TOKEN_ENV})")
        return cls(url=url.rstrip("/"), token=token, timeout=float(parameters.get("timeout", 10.0)),
                   callback_url=parameters.get("callback_url") or os.environ.get(CALLBACK_URL_ENV, ""),
                   review_wait_seconds=float(parameters.get("review_wait_seconds", 15.0)))

    async def _request(self, method: str, path: str, **kwargs: Any) -> dict:
        try:
            async with httpx.AsyncClient(timeout=self.timeout) as client:
                response = await client.request(method, self.url + path,
                                                headers={"Authorization": f"Bearer {self.token}"}, **kwargs)
        except httpx.HTTPError as exc:
            raise ConsoleError(f"{method} {path}: {type(exc).__name__}: {exc}") from exc
        if response.status_code >= 400:
            raise ConsoleError(f"{method} {path}: {response.status_code} {response.text[:500]}")
        return response.json()

    async def search(self, *, text: str, k: int) -> list[dict]:
        """Chunks of approved, effective versions within the token's clearance, best first."""
        return (await self._request("GET", "/api/v1/search", params={"q": text, "k": k}))["results"]

    async def answer_submit(self, *, question: str, answer: str, chunk_ids: list[int]) -> dict:
        body = {"question": question, "answer": answer, "citations": [{"chunk_id": i} for i in chunk_ids]}
        if self.callback_url:
            body["callback_url"] = self.callback_url
        return await self._request("POST", "/api/v1/answers", json=body)

    async def answer_get(self, *, answer_id: int) -> dict:
        """Status, risk, claims and, once released, `released_text`: what a bot polls for a held answer."""
        return await self._request("GET", f"/api/v1/answers/{answer_id}")

    async def answer_scored(self, *, answer_id: int) -> dict:
        """The answer once scored, or as it stands after review_wait_seconds (status "scoring")."""
        deadline = time.monotonic() + self.review_wait_seconds
        while True:
            answer = await self.answer_get(answer_id=answer_id)
            if answer["status"] != "scoring" or time.monotonic() >= deadline:
                return answer
            await asyncio.sleep(0.2)
