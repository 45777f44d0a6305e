"""A version's language: detected from its text at upload, or what the uploader chose."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kb import services
from kb.models import DocumentVersion

pytestmark = pytest.mark.django_db

CHINESE = "# 差旅费报销制度\n\n## 住宿\n\n员工出差住宿标准为每晚五百元，超过标准需部门经理审批。\n".encode()


@pytest.fixture
def document(curator):
    return services.document_create(key="travel", title="Travel", owner=curator, security_level="internal",
                                    created_by=curator)


def _upload(client, document, content: bytes, **extra):
    return client.post(f"/kb/{document.key}/upload/",
                       {"file": SimpleUploadedFile("travel.md", content), "submit_for_approval": "on", **extra})


def test_a_chinese_upload_is_detected_as_chinese_and_the_page_says_so(client, curator, document):
    client.force_login(curator)

    response = _upload(client, document, CHINESE)

    version = DocumentVersion.objects.get()
    assert response.status_code == 302 and version.language == "zh"
    page = client.get(version.get_absolute_url()).content.decode()
    assert '<dd id="version-language">Chinese (Simplified)</dd>' in page


def test_the_uploader_may_say_which_language_it_is(client, curator, document):
    client.force_login(curator)

    _upload(client, document, CHINESE, language="en")

    assert DocumentVersion.objects.get().language == "en"


def test_an_unknown_language_is_refused_and_nothing_stored(client, curator, document):
    client.force_login(curator)

    response = _upload(client, document, CHINESE, language="fr")

    assert response.status_code == 400 and not DocumentVersion.objects.exists()
