from django.urls import path

from review import views

app_name = "review"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("next/", views.review_next, name="next"),
    path("answers/<int:answer_id>/", views.answer_detail, name="answer_detail"),
    path("answers/<int:answer_id>/lease/", views.lease_renew, name="lease_renew"),
    path("answers/<int:answer_id>/lease/release/", views.lease_release, name="lease_release"),
    path("answers/<int:answer_id>/decide/", views.answer_decide, name="answer_decide"),
    path("claims/<int:claim_id>/review/", views.claim_review, name="claim_review"),
    path("claims/<int:claim_id>/trace/", views.claim_trace, name="claim_trace"),
    path("sources/<slug:key>/v<int:number>/", views.version_citations, name="version_citations"),
]
