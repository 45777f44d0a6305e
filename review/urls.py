from django.urls import path

from review import bulk_views, group_views, source_views, views

app_name = "review"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("next/", views.review_next, name="next"),
    path("answers/<int:answer_id>/", views.answer_detail, name="answer_detail"),
    path("bulk/reject/", bulk_views.answers_reject_bulk, name="answers_reject_bulk"),
    path("bulk/reject/undo/", bulk_views.answers_reject_bulk_undo, name="answers_reject_bulk_undo"),
    path("audit-samples/approve/", views.audit_samples_approve, name="audit_samples_approve"),
    path("answers/<int:answer_id>/live/", views.answer_live, name="answer_live"),
    path("answers/<int:answer_id>/start/", views.review_start, name="review_start"),
    path("answers/<int:answer_id>/skip/", views.answer_skip, name="answer_skip"),
    path("answers/<int:answer_id>/recheck/", views.answer_recheck, name="answer_recheck"),
    path("answers/<int:answer_id>/lease/", views.lease_renew, name="lease_renew"),
    path("answers/<int:answer_id>/lease/release/", views.lease_release, name="lease_release"),
    path("answers/<int:answer_id>/decide/", views.answer_decide, name="answer_decide"),
    path("answers/<int:answer_id>/gold/", views.answer_gold, name="answer_gold"),
    path("answers/<int:answer_id>/undo-reject/", views.answer_reject_undo, name="answer_reject_undo"),
    path("claims/<int:claim_id>/review/", views.claim_review, name="claim_review"),
    path("answers/<int:answer_id>/confirm-supported/", views.claims_confirm_supported,
         name="claims_confirm_supported"),
    path("claims/<int:claim_id>/conflict/", views.claim_conflict_settle, name="claim_conflict_settle"),
    path("sources-to-fix/", source_views.sources_to_fix, name="sources_to_fix"),
    path("sources-to-fix/<int:correction_id>/resolve/", source_views.source_correction_resolve,
         name="source_correction_resolve"),
    path("claims/<int:claim_id>/trace/", views.claim_trace, name="claim_trace"),
    path("sources/<slug:key>/v<int:number>/", views.version_citations, name="version_citations"),
    path("facts/<int:fact_id>/revoke/", views.reviewed_fact_revoke, name="reviewed_fact_revoke"),
    path("groups/<str:key>/", group_views.answer_group, name="answer_group"),
    path("groups/<str:key>/decide/", group_views.answer_group_decide, name="answer_group_decide"),
]
