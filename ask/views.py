from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ask import regression, selectors
from ask.question_evaluation import KINDS, QuestionsError
from ask.forms import AskForm, QuestionSetForm
from ask.models import RunTrigger
from ask.selectors import claim_rows
from ask.services import ask_question
from console import roles
from console.models import SecurityLevel
from console.roles import role_required
from kb import selectors as kb_selectors

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


# Saved question sets ------------------------------------------------------------------------------------------

# Those who keep the sets (readers of runs: selectors.RUN_READERS, within the set's clearance).
SET_KEEPERS = (roles.CURATOR, roles.APPROVER)


def _sets_page(request: HttpRequest, form: QuestionSetForm, *, status: int = 200) -> HttpResponse:
    return render(request, "ask/question_sets.html", {
        "form": form, "statuses": selectors.question_sets_status(user=request.user, active_only=False),
    }, status=status)


@require_http_methods(["GET", "POST"])
@role_required(*SET_KEEPERS)
def question_sets(request: HttpRequest) -> HttpResponse:
    """The sets with their latest runs; a POST creates a set, or replaces the questions of the set with that
    name, and queues a run."""
    if request.method == "GET":
        return _sets_page(request, QuestionSetForm(user=request.user))
    form = QuestionSetForm(request.POST, request.FILES, user=request.user)
    if form.is_valid():
        try:
            question_set, _run = regression.question_set_save(
                name=form.cleaned_data["name"], text=form.cleaned_data["file"], source_filename=form.filename,
                clearance=form.cleaned_data["clearance"], user=request.user)
        except QuestionsError as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(request, _("Saved “%(name)s” (%(count)s questions); a run is queued.") % {
                "name": question_set.name, "count": len(question_set.questions)})
            return redirect(question_set)
    return _sets_page(request, form, status=400)


@require_GET
@role_required(*SET_KEEPERS)
def question_set_detail(request: HttpRequest, slug: str) -> HttpResponse:
    question_set = selectors.get_question_set_for_user(user=request.user, slug=slug)
    runs = Paginator(question_set.runs.prefetch_related("trigger_versions__document").order_by("-created_at", "-pk"),
                     20).get_page(request.GET.get("page"))
    form = QuestionSetForm(user=request.user, initial={"name": question_set.name,
                                                       "clearance": question_set.clearance})
    return render(request, "ask/question_set_detail.html",
                  {"question_set": question_set, "page": runs, "form": form})


@require_POST
@role_required(*SET_KEEPERS)
def question_set_activate(request: HttpRequest, slug: str) -> HttpResponse:
    question_set = selectors.get_question_set_for_user(user=request.user, slug=slug)
    active = request.POST.get("active") == "1"
    regression.question_set_activate(question_set=question_set, user=request.user, active=active)
    done = _("“%(name)s” is active: a run is queued.") if active else _("“%(name)s” is inactive.")
    messages.success(request, done % {"name": question_set.name})
    return redirect(question_set)


@require_POST
@role_required(*SET_KEEPERS)
def question_set_run_now(request: HttpRequest, slug: str) -> HttpResponse:
    question_set = selectors.get_question_set_for_user(user=request.user, slug=slug)
    if not question_set.active:
        messages.error(request, _("“%(name)s” is inactive: activate it to run it.") % {"name": question_set.name})
    else:
        regression.question_runs_request(trigger=RunTrigger.MANUAL, question_sets=[question_set])
        messages.success(request, _("A run is queued (a run already waiting takes this request in)."))
    return redirect(question_set)


@require_GET
@role_required(*selectors.RUN_READERS)
def question_run_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    run = selectors.get_question_run_for_user(user=request.user, run_id=run_id)
    return render(request, "ask/question_run_detail.html", {
        "run": run, "rows": selectors.run_question_rows(run=run), "kinds": [
            (kind, run.summary[kind]) for kind in (*KINDS, "all") if kind in run.summary],
        "versions": run.trigger_versions.select_related("document").filter(
            document__security_level__in=SecurityLevel.up_to(request.user.clearance)),
    })


@require_GET
@role_required(*selectors.RUN_READERS)
def version_question_runs(request: HttpRequest, key: str, number: int) -> HttpResponse:
    """The version page's "question set runs" block, polled while a run waits or runs."""
    version = kb_selectors.get_version_for_user(user=request.user, key=key, number=number)
    return render(request, "ask/_version_runs.html", {
        "version": version, **selectors.version_question_runs(user=request.user, version=version)})
