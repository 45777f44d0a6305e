"""The review app's models, one room each: answers and what review made of them (answers), how reviewers marked
claims and the gold items that score them (reviewers), what review finds about the sources (sources), and the
reviewed facts a decision leaves (memory). Everything is imported here, so `review.models` names every model."""

from review.models.answers import (
    OVERRIDABLE_VERDICTS,
    RISK_ORDER,
    Answer,
    AnswerStatus,
    ApiClient,
    Claim,
    ClaimReview,
    Decision,
    ErrorKind,
    Evidence,
    Risk,
    Verdict,
    WebhookDelivery,
    WebhookState,
)
from review.models.memory import ReviewedFact
from review.models.reviewers import GoldItem, ReviewerMark
from review.models.sources import SelfTestRun, SourceCorrection

# The models of learning from reviewers (labels, the scoring models, the leak estimate) live with that code;
# importing them here registers them with the app.
from review.learning import models as learning_models  # noqa: E402, F401, I001

__all__ = [
    "OVERRIDABLE_VERDICTS", "RISK_ORDER", "Answer", "AnswerStatus", "ApiClient", "Claim", "ClaimReview", "Decision",
    "ErrorKind", "Evidence", "GoldItem", "ReviewedFact", "ReviewerMark", "Risk", "SelfTestRun", "SourceCorrection",
    "Verdict", "WebhookDelivery", "WebhookState",
]
