from django.urls import path

from kb import source_views, views

app_name = "kb"
urlpatterns = [
    path("", views.document_list, name="document_list"),
    path("new/", views.document_create, name="document_create"),
    path("key-suggestion/", views.document_key_suggestion, name="document_key_suggestion"),
    path("search/", views.search_playground, name="search"),
    path("chunks/<int:chunk_id>/", views.chunk_detail, name="chunk_detail"),
    path("sources/", source_views.source_list, name="source_list"),
    path("sources/<int:source_id>/", source_views.source_detail, name="source_detail"),
    path("sources/<int:source_id>/progress/", source_views.source_progress, name="source_progress"),
    path("sources/<int:source_id>/sync/", source_views.source_sync, name="source_sync"),
    path("sources/<int:source_id>/push/", source_views.source_push, name="source_push"),
    path("vocabulary/", views.vocabulary_page, name="vocabulary"),
    path("vocabulary/add/", views.synonym_add, name="synonym_add"),
    path("vocabulary/<int:synonym_id>/accept/", views.synonym_accept, name="synonym_accept"),
    path("vocabulary/<int:synonym_id>/dismiss/", views.synonym_dismiss, name="synonym_dismiss"),
    path("vocabulary/<int:synonym_id>/remove/", views.synonym_remove, name="synonym_remove"),
    path("<slug:key>/", views.document_detail, name="document_detail"),
    path("<slug:key>/upload/", views.version_upload, name="version_upload"),
    path("<slug:key>/diff/", views.version_diff, name="version_diff"),
    path("<slug:key>/retire/", views.document_retire, name="document_retire"),
    path("<slug:key>/reminders/", views.document_reminder_days, name="document_reminder_days"),
    path("<slug:key>/v<int:number>/", views.version_detail, name="version_detail"),
    path("<slug:key>/v<int:number>/progress/", views.version_progress, name="version_progress"),
    path("<slug:key>/v<int:number>/submit/", views.version_submit, name="version_submit"),
    path("<slug:key>/v<int:number>/approve/", views.version_approve, name="version_approve"),
    path("<slug:key>/v<int:number>/reject/", views.version_reject, name="version_reject"),
    path("<slug:key>/v<int:number>/retire/", views.version_retire, name="version_retire"),
    path("<slug:key>/v<int:number>/reindex/", views.version_index_retry, name="version_index_retry"),
    path("<slug:key>/v<int:number>/reverify/", views.version_extension_request, name="version_extension_request"),
    path("<slug:key>/v<int:number>/extensions/<int:extension_id>/approve/", views.version_extension_approve,
         name="version_extension_approve"),
    path("<slug:key>/v<int:number>/extensions/<int:extension_id>/reject/", views.version_extension_reject,
         name="version_extension_reject"),
]
