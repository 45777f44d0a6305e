from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from console import roles
from console.roles import role_required


@require_GET
@role_required(roles.REVIEWER)
def queue(request: HttpRequest) -> HttpResponse:
    return render(request, "review/queue.html", {})


@require_GET
@role_required(roles.REVIEWER)
def answer_detail(request: HttpRequest, answer_id: int) -> HttpResponse:
    return render(request, "review/answer_detail.html", {})
