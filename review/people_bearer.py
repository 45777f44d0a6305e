"""The review API's bearer: people's personal tokens (console/personal_tokens.py), never an API client's.

The two kinds of token open different doors. A client's token on a review route, or a person's on a client route
(review/api.py), is a real credential in the wrong place: 403, saying which kind the route takes. An unknown,
revoked or deactivated user's token is 401 and counts towards the bad-token throttle of its address
(review/token_throttle.py), exactly as a client's bad token does.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.errors import HttpError
from ninja.security import HttpBearer

from console import roles
from console.client_address import client_address
from console.models import User
from console.personal_tokens import personal_token_find, personal_token_use
from review.models import ApiClient
from review.token_throttle import bad_token_record, bad_tokens_refusal_check, valid_token_admit


class TokenKindForbidden(HttpError):
    """A valid token of the other kind: 403."""

    def __init__(self, message: str) -> None:
        super().__init__(403, message)


def personal_token_refuse(*, request: HttpRequest, token: str) -> None:
    """On a client route: a live personal token is refused with 403 (nothing else is said about other tokens)."""
    personal_token = personal_token_find(token=token)
    if personal_token is not None:
        valid_token_admit(request=request, token_id=f"personal:{personal_token.pk}")
        raise TokenKindForbidden("this route takes an API client's token; a personal token is for the review "
                                 "routes (/api/v1/review/...)")


class PersonalTokenBearer(HttpBearer):
    """Authenticates a person by their personal token and requires `role` of them (403 otherwise). Nothing is
    cached: revoking a token, deactivating its user or taking away a role takes effect on the next request."""

    def __init__(self, *, role: str) -> None:
        super().__init__()
        self.role = role

    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        personal_token = personal_token_find(token=token)
        if personal_token is None:  # an unknown token counts against its address; a valid one never does
            client_id = (ApiClient.objects.filter(token_hash=ApiClient.hash_token(token), is_active=True)
                         .values_list("pk", flat=True).first())
            if client_id is not None:
                valid_token_admit(request=request, token_id=f"client:{client_id}")
                raise TokenKindForbidden("this route takes a person's token (manage.py create_user_token, or "
                                         "/account/tokens/); an API client's token is for the answers API")
            address = client_address(request)
            bad_tokens_refusal_check(address=address)
            bad_token_record(address=address)
            return None
        valid_token_admit(request=request, token_id=f"personal:{personal_token.pk}")
        user = personal_token.user
        if not user.has_role(self.role):
            raise HttpError(403, f"this route needs the {self.role} role; {user.username} does not hold it")
        personal_token_use(personal_token=personal_token)
        return user


# Every review route is a reviewer's (the queue, leases, decisions, comments, assignment), as on the pages.
reviewer_bearer = PersonalTokenBearer(role=roles.REVIEWER)
