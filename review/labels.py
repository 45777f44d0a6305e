"""Stored English codes as a person reads them: risk tiers and evidence flags stay English in the database, CSS
classes and the API, and are shown in the reader's language."""

from django.utils.translation import pgettext_lazy

RISK_LABELS = {
    "high": pgettext_lazy("risk", "high"),
    "medium": pgettext_lazy("risk", "medium"),
    "low": pgettext_lazy("risk", "low"),
    "scoring": pgettext_lazy("risk", "scoring"),
}

# Evidence flags are stored as English codes (review/pipeline.py); the page reads "this source is <flag>".
EVIDENCE_FLAG_LABELS = {
    "superseded": pgettext_lazy("evidence flag", "superseded"),
    "expired": pgettext_lazy("evidence flag", "expired"),
    "unapproved": pgettext_lazy("evidence flag", "unapproved"),
    "not yet effective": pgettext_lazy("evidence flag", "not yet effective"),
    "conflicting": pgettext_lazy("evidence flag", "conflicting"),
    "public": pgettext_lazy("evidence flag", "public"),
    "internal": pgettext_lazy("evidence flag", "internal"),
    "confidential": pgettext_lazy("evidence flag", "confidential"),
    "restricted": pgettext_lazy("evidence flag", "restricted"),
}

# The checker's finding kinds (checking.findings.FindingKind, stored as English codes) as the claim card's badges
# read them.
FINDING_KIND_LABELS = {
    "quantity_mismatch": pgettext_lazy("finding kind", "quantity mismatch"),
    "direction": pgettext_lazy("finding kind", "direction"),
    "negation": pgettext_lazy("finding kind", "negation"),
    "entity_swap": pgettext_lazy("finding kind", "entity swap"),
    "role_swap": pgettext_lazy("finding kind", "role swap"),
    "slot_swap": pgettext_lazy("finding kind", "slot swap"),
    "missing_quantity": pgettext_lazy("finding kind", "missing quantity"),
    "missing_entity": pgettext_lazy("finding kind", "missing entity"),
    "missing_subject": pgettext_lazy("finding kind", "missing subject"),
    "entity_elsewhere": pgettext_lazy("finding kind", "entity elsewhere"),
    "unsupported_addition": pgettext_lazy("finding kind", "unsupported addition"),
    "unsupported_term": pgettext_lazy("finding kind", "unsupported term"),
    "substitution": pgettext_lazy("finding kind", "substitution"),
    "weak_missing_quantity": pgettext_lazy("finding kind", "weak missing quantity"),
    "quantity_match": pgettext_lazy("finding kind", "quantity match"),
    "absent_from_sources": pgettext_lazy("finding kind", "not in the sources, as claimed"),
    "stated_in_sources": pgettext_lazy("finding kind", "stated in the sources"),
    "external_support": pgettext_lazy("finding kind", "external support"),
    "external_doubt": pgettext_lazy("finding kind", "external doubt"),
}
