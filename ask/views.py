from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from ask.forms import AskForm
from ask.selectors import claim_rows
from ask.services import ask_question
from console import roles
from console.roles import role_required

# Staff who may send an answer to the review queue from the playground (viewers only read).
ASKERS = (roles.CURATOR, roles.APPROVER, roles.REVIEWER)


@require_GET
@role_required(*ASKERS)
def ask_page(request: HttpRequest) -> HttpResponse:
    return render(request, "ask/ask.html", {"form": AskForm()})


@require_POST
@role_required(*ASKERS)
def ask_submit(request: HttpRequest) -> HttpResponse:
    form = AskForm(request.POST)
    template = "ask/_result.html" if request.htmx else "ask/ask.html"
    if not form.is_valid():
        return render(request, template, {"form": form}, status=400)
    result = ask_question(question=form.cleaned_data["question"], user=request.user, k=form.cleaned_data["k"] or 5)
    return render(request, template, {"form": form, "result": result, "rows": claim_rows(claims=result.claims),
                                      "can_review": roles.user_has_role(request.user, roles.REVIEWER)})
