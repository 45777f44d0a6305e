"""The answers API (a Router of the API assembled in config/api.py), the bearer tokens of API clients that the whole
API authenticates with, and NeMo Guardrails' AlignScore endpoint."""

from __future__ import annotations

import ipaddress
import logging
import time

from django.conf import settings
from django.db.models import Prefetch
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from ninja import Header, Router, Status
from ninja.errors import HttpError
from ninja.security import HttpBearer
from pydantic import ValidationError as PydanticValidationError
from django.views.decorators.csrf import csrf_exempt

from console.api import Text, errors_documented
from console.client_address import client_address
from console.models import SecurityLevel
from kb.models import Chunk
from review import services
from review.api_schemas import AcceptedOut, AlignScoreIn, AnswerIn, AnswerOut, CheckIn, CheckOut, answer_to_dict
from review.models import Answer, ApiClient, Claim, Decision, Evidence
from review.people_bearer import TokenKindForbidden, personal_token_refuse
from review.token_throttle import Throttled, bad_token_record, bad_tokens_refusal_check, valid_token_admit

logger = logging.getLogger(__name__)

# 411 and 413 come from RequestBodyLimitMiddleware before a route runs; listed so clients see them in the schema.
ERRORS = errors_documented(400, 401, 403, 404, 409, 411, 413, 429, 503)


class BearerToken(HttpBearer):
    """A token's client is looked up once per API_TOKEN_CACHE_SECONDS per process (a query per request was ~15 %
    of an answer's intake): a client deactivated, or its clearance changed, takes effect within that time.
    Unknown tokens are never cached, so a new client works at once."""

    MAX_CACHED = 1000  # tokens of live clients; a burst of many is simply looked up again

    def __init__(self) -> None:
        super().__init__()
        self._clients: dict[str, tuple[float, ApiClient]] = {}  # token hash -> (expires at, client)

    def authenticate(self, request: HttpRequest, token: str) -> ApiClient | None:
        """Raises Throttled for an unknown token from an address that sent too many of them, or for a valid token
        refused too often itself. A valid token is never refused for its address: that would lock out whoever shares
        the guesser's address (a NAT, a proxy)."""
        token_hash = ApiClient.hash_token(token)
        now = time.monotonic()
        cached = self._clients.get(token_hash)
        if cached is not None and cached[0] > now:
            client = cached[1]
        else:
            client = ApiClient.objects.filter(token_hash=token_hash, is_active=True).first()
            if client is None:
                self._clients.pop(token_hash, None)
                personal_token_refuse(request=request, token=token)  # a person's token here: 403, not a bad token
                address = client_address(request)
                bad_tokens_refusal_check(address=address)
                bad_token_record(address=address)
            elif settings.API_TOKEN_CACHE_SECONDS > 0:
                if len(self._clients) >= self.MAX_CACHED:
                    self._clients.clear()
                self._clients[token_hash] = (now + settings.API_TOKEN_CACHE_SECONDS, client)
        if client is not None:
            valid_token_admit(request=request, token_id=f"client:{client.pk}")
            request.api_client = client
        return client


bearer = BearerToken()
router = Router(tags=["answers"])


def _cited_chunk_ids(body: AnswerIn, clearance: str) -> list[int]:
    ids = list(dict.fromkeys(c.chunk_id for c in body.citations))
    if not ids:  # most answers cite nothing; building the (empty) query alone cost ~1 ms of CPU
        return []
    visible = set(Chunk.objects.filter(
        pk__in=ids, version__document__security_level__in=SecurityLevel.up_to(clearance)
    ).values_list("pk", flat=True))
    unknown = [i for i in ids if i not in visible]
    if unknown:
        raise HttpError(400, f"unknown chunk_id: {', '.join(map(str, unknown))}")
    return ids


@router.post("/answers", response={202: AcceptedOut, **ERRORS}, summary="Submit an answer for checking")
def answer_submit(request: HttpRequest, body: AnswerIn,
                  idempotency_key: Text | None = Header(None, alias="Idempotency-Key", max_length=200)):
    client: ApiClient = request.auth
    try:
        answer, _created = services.answer_create(
            client=client, question=body.question, text=body.answer, external_id=body.external_id,
            contexts=body.contexts, citations=_cited_chunk_ids(body, client.clearance),
            callback_url=str(body.callback_url) if body.callback_url else "", idempotency_key=idempotency_key,
            language=body.language, assistant_model=body.model,
            trace_url=str(body.trace_url) if body.trace_url else "",
            retrieved=[passage.dict() for passage in body.retrieved],
        )
    except services.IdempotencyConflict as exc:
        raise HttpError(409, str(exc)) from None
    url = request.build_absolute_uri(reverse("api:answer_get", args=[answer.pk]))
    return Status(202, {"id": answer.pk, "status": answer.status, "url": url})


@router.get("/answers/{answer_id}", response={200: AnswerOut, **ERRORS}, url_name="answer_get",
         summary="An answer's status, risk, claims and evidence")
def answer_get(request: HttpRequest, answer_id: int):
    answer = (
        # Another client's answer is simply not found, nor is a gold item's calibration copy (never the client's).
        Answer.objects.filter(pk=answer_id, client=request.auth, gold_copy_of__isnull=True)
        .select_related("decided_by")
        .prefetch_related(
            Prefetch("claims", queryset=Claim.objects.select_related("reviewed_by").order_by("ordinal")
                     .prefetch_related(Prefetch("evidence", queryset=Evidence.objects.select_related(
                         "chunk__version__document")))),
            Prefetch("decisions", queryset=Decision.objects.select_related("reviewer")),
        )
        .first()
    )
    if answer is None:
        raise Http404(f"no answer {answer_id}")
    return answer_to_dict(answer)


@router.post("/check", response={200: CheckOut, **ERRORS}, summary="Check an answer now; nothing is stored")
def answer_check_now(request: HttpRequest, body: CheckIn):
    return services.answer_check_on_worker(answer_text=body.answer, question=body.question,
                                           contexts=body.contexts, clearance=request.auth.clearance)


def _from_loopback(request: HttpRequest) -> bool:
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:  # no address (a Unix socket): nothing says the caller is on this machine
        return False


def _alignscore_refusal(request: HttpRequest) -> JsonResponse | None:
    """NeMo's AlignScore action sends no token, so a token is optional unless API_ALIGNSCORE_ACCESS=token; without
    one, "loopback" admits only a caller on this machine. A token given must be valid whatever the setting."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if token.strip() and scheme.lower() == "bearer":
        try:
            client = bearer.authenticate(request, token.strip())
        except Throttled as exc:
            response = JsonResponse({"error": "too_many_requests", "detail": str(exc)}, status=429)
            response["Retry-After"] = str(exc.retry_after)
            return response
        except TokenKindForbidden as exc:
            return JsonResponse({"error": "forbidden", "detail": str(exc)}, status=403)
        if client is None:
            return JsonResponse({"error": "unauthorized", "detail": "invalid bearer token"}, status=401)
        return None
    access = settings.API_ALIGNSCORE_ACCESS
    if access == "token":
        return JsonResponse({"error": "unauthorized",
                             "detail": "a bearer token is required (API_ALIGNSCORE_ACCESS=token)"}, status=401)
    if access == "loopback" and not _from_loopback(request):
        return JsonResponse({"error": "forbidden", "detail": "without a bearer token only callers on this machine "
                             "are served (API_ALIGNSCORE_ACCESS=loopback)"}, status=403)
    return None


@csrf_exempt
@login_not_required
def alignscore(request: HttpRequest) -> HttpResponse:
    """NeMo Guardrails' AlignScore contract (`/alignscore_base`, `/alignscore_large`), backed by the built-in
    checker, so a NeMo fact-checking rail can point its endpoint here. Off unless API_ALIGNSCORE_ENABLED."""
    if not settings.API_ALIGNSCORE_ENABLED:
        return JsonResponse({"error": "not_found", "detail": "the AlignScore endpoint is disabled"}, status=404)
    if request.method != "POST":  # JSON like every other error here (require_POST answers an empty 405)
        return JsonResponse({"error": "method_not_allowed", "detail": "use POST"}, status=405,
                            headers={"Allow": "POST"})
    refusal = _alignscore_refusal(request)
    if refusal is not None:
        return refusal
    try:
        body = AlignScoreIn.model_validate_json(request.body)
    except PydanticValidationError as exc:
        detail = "; ".join(f"{'.'.join(str(part) for part in error['loc']) or 'body'}: {error['msg']}"
                           for error in exc.errors())
        return JsonResponse({"error": "bad_request", "detail": detail}, status=400)
    try:
        report = services.answer_check_on_worker(answer_text=body.claim, contexts=body.evidence,
                                                 clearance=SecurityLevel.PUBLIC, retrieve=False)
    except services.CheckUnavailable as exc:
        return JsonResponse({"error": "unavailable", "detail": str(exc)}, status=503,
                            headers={"Retry-After": str(settings.API_RETRY_AFTER_SECONDS)})
    return JsonResponse({"alignscore": report["score"] or 0.0})
